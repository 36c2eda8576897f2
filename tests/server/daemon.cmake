# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-daemon end to end (test_daemon.py): a real daemon process, Python grpcio and @grpc/grpc-js
# clients over a unix socket and TCP, the 2 KiB TEST parameters of the params_2kib fixture.
# Without CUZK_TEST_PROOFS (the sanitizer and clang CI builds) the concurrent proofs are left out
# (--fast).
set(CUZK_DAEMON_TEST_ARGS --daemon $<TARGET_FILE:cuzk-daemon> --bench $<TARGET_FILE:cuzk-bench>
    --params ${CUZK_TEST_PARAM_DIR} --proto-dir ${PROJECT_SOURCE_DIR}/proto
    --out ${CMAKE_CURRENT_BINARY_DIR}/daemon_py --node ${NODE_EXECUTABLE}
    --js ${CMAKE_CURRENT_LIST_DIR}/daemon_js.mjs)
if(NOT CUZK_TEST_PROOFS)
  list(APPEND CUZK_DAEMON_TEST_ARGS --fast)
elseif(DEFINED ENV{CUZK_TEST_DAEMON_CONCURRENT})
  list(APPEND CUZK_DAEMON_TEST_ARGS --concurrent $ENV{CUZK_TEST_DAEMON_CONCURRENT})
endif()
add_test(NAME test_daemon COMMAND ${CUZK_GRPC_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_daemon.py
         ${CUZK_DAEMON_TEST_ARGS}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(test_daemon PROPERTIES FIXTURES_REQUIRED
                     "params_2kib;params_post_2kib;params_snap_2kib"
                     TIMEOUT 1500)
# Start-up checks of the configuration (docs/config.md "Checks at start"): refusals naming the key,
# exit 2 before serving; a job without its parameters fails at once; seconds, no parameters
add_test(NAME test_daemon_start COMMAND ${Python3_EXECUTABLE}
         ${CMAKE_CURRENT_LIST_DIR}/test_daemon_start.py --daemon $<TARGET_FILE:cuzk-daemon>
         --bench $<TARGET_FILE:cuzk-bench>)
set_tests_properties(test_daemon_start PROPERTIES TIMEOUT 120)
# --version of both programs parsed, and the same build in the daemon's first log line, GetStatus
# (cuzk-bench status) and cuzk_build_info on /metrics and GetMetrics; seconds, no parameters
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  set(CUZK_COMPILER_NAME "gcc ${CMAKE_C_COMPILER_VERSION}")
else()
  string(TOLOWER "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}" CUZK_COMPILER_NAME)
endif()
add_test(NAME test_version COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_version.py
         --daemon $<TARGET_FILE:cuzk-daemon> --bench $<TARGET_FILE:cuzk-bench>
         --version ${PROJECT_VERSION} --compiler ${CUZK_COMPILER_NAME} --source ${PROJECT_SOURCE_DIR}
         --build-id ${PROJECT_BINARY_DIR}/src/server/build_id.c)
set_tests_properties(test_version PROPERTIES TIMEOUT 120)
# TLS on the TCP listener: certificates made by openssl, a WinningPoSt proven over TLS, refusals
add_test(NAME test_tls COMMAND ${CUZK_GRPC_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_tls.py
         --daemon $<TARGET_FILE:cuzk-daemon> --bench $<TARGET_FILE:cuzk-bench>
         --params ${CUZK_TEST_PARAM_DIR} --proto-dir ${PROJECT_SOURCE_DIR}/proto
         --out ${CMAKE_CURRENT_BINARY_DIR}/tls_py
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(test_tls PROPERTIES FIXTURES_REQUIRED params_post_2kib TIMEOUT 600)
# Hostile clients: floods against the admission limits, RSS bounds, inconsistent requests, log
# injection, a second daemon, idle HTTP connections, config ranges; valid proofs afterwards
set(CUZK_HOSTILE_TEST_ARGS --daemon $<TARGET_FILE:cuzk-daemon> --bench $<TARGET_FILE:cuzk-bench>
    --params ${CUZK_TEST_PARAM_DIR} --proto-dir ${PROJECT_SOURCE_DIR}/proto
    --out ${CMAKE_CURRENT_BINARY_DIR}/hostile_py)
if(NOT CUZK_TEST_PROOFS)
  list(APPEND CUZK_HOSTILE_TEST_ARGS --fast)
endif()
add_test(NAME test_hostile COMMAND ${CUZK_GRPC_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_hostile.py
         ${CUZK_HOSTILE_TEST_ARGS}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(test_hostile PROPERTIES FIXTURES_REQUIRED "params_2kib;params_post_2kib"
                     TIMEOUT 900)
