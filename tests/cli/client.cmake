# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-bench single / batch / status / preload / metrics against a real cuzk-daemon on a unix
# socket and a TCP port, with one real 2 KiB PoRep proof (~1 min on 2 cores). Only with
# CUZK_TEST_PROOFS (tests/CMakeLists.txt). Included from tests/CMakeLists.txt.
if(CUZK_TEST_PROOFS)
  add_test(NAME cli_client
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/client.sh $<TARGET_FILE:cuzk-bench>
            $<TARGET_FILE:cuzk-daemon> ${CUZK_TEST_PARAM_DIR})
  set_tests_properties(cli_client PROPERTIES TIMEOUT 600 FIXTURES_REQUIRED params_2kib)
endif()
