# SPDX-License-Identifier: MIT OR Apache-2.0
# gRPC transport and proto tests (src/server/rpc.cmake): the C transport in process, and the
# wire check with Python's grpcio (Debian python3-grpcio, python3-grpc-tools, python3-protobuf)
# against a small C server.
set(CUZK_RPC_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

add_executable(test_rpc_transport ${CUZK_RPC_TEST_DIR}/test_rpc_transport.c)
target_link_libraries(test_rpc_transport PRIVATE cuzk_rpc)
target_include_directories(test_rpc_transport PRIVATE ${PROJECT_SOURCE_DIR}/src
  ${PROJECT_SOURCE_DIR}/tests)
# The large-message case sends 100 MiB each way: about 2 s, mostly first-touch page faults,
# fewer with transparent huge pages for malloc. Under the sanitizers, whose allocator returns
# large blocks to the kernel on every call, 32 MiB keeps the test near 10 s.
if(CUZK_SANITIZE)
  set(CUZK_RPC_TEST_BIG_MIB 32)
else()
  set(CUZK_RPC_TEST_BIG_MIB 100)
endif()
add_test(NAME test_rpc_transport COMMAND test_rpc_transport ${CUZK_RPC_TEST_BIG_MIB})
set_tests_properties(test_rpc_transport PROPERTIES TIMEOUT 120
                     ENVIRONMENT "GLIBC_TUNABLES=glibc.malloc.hugetlb=1")

# The proof-kind descriptors against the generated ProofKind and Priority enums.
add_executable(test_kinds_proto ${CUZK_RPC_TEST_DIR}/test_kinds_proto.c)
target_link_libraries(test_kinds_proto PRIVATE cuzk_rpc cuzk)
target_include_directories(test_kinds_proto PRIVATE ${PROJECT_SOURCE_DIR}/tests)
add_test(NAME test_kinds_proto COMMAND test_kinds_proto)
set_tests_properties(test_kinds_proto PROPERTIES TIMEOUT 60)

add_executable(rpc_wire_server ${CUZK_RPC_TEST_DIR}/rpc_wire_server.c)
target_link_libraries(rpc_wire_server PRIVATE cuzk_rpc)
target_include_directories(rpc_wire_server PRIVATE ${PROJECT_SOURCE_DIR}/src)

# Debian's grpcio is visible only to the system interpreter, which may not be the python3 found
# first on PATH (pyenv): take the first candidate that imports the three modules.
set(CUZK_GRPC_PYTHON "")
foreach(py ${Python3_EXECUTABLE} /usr/bin/python3)
  execute_process(COMMAND ${py} -c "import grpc, grpc_tools.protoc, google.protobuf"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(CUZK_GRPC_PYTHON ${py})
    break()
  endif()
endforeach()
if(NOT CUZK_GRPC_PYTHON)
  message(WARNING "no python3 with grpcio and grpc_tools (scripts/install-deps): test_proto_wire "
                  "will fail")
  set(CUZK_GRPC_PYTHON ${Python3_EXECUTABLE})
endif()
add_test(NAME test_proto_wire
  COMMAND ${CUZK_GRPC_PYTHON} ${CUZK_RPC_TEST_DIR}/test_proto_wire.py
          --proto-dir ${PROJECT_SOURCE_DIR}/proto --out ${CMAKE_CURRENT_BINARY_DIR}/proto_py
          --server $<TARGET_FILE:rpc_wire_server>)
set_tests_properties(test_proto_wire PROPERTIES TIMEOUT 120)
