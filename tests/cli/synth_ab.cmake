# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-bench synth-ab: the statistics on fixed inputs, and the command end to end (time, perf and
# callgrind counters on a 2 KiB C1; the callgrind part is skipped when valgrind is not installed).
# Included from tests/CMakeLists.txt.
add_executable(test_ab_stats ${CMAKE_CURRENT_LIST_DIR}/../test_ab_stats.c
                             ${PROJECT_SOURCE_DIR}/tools/cuzk-bench/ab_stats.c)
target_include_directories(test_ab_stats PRIVATE ${PROJECT_SOURCE_DIR}/tools/cuzk-bench
                                                 ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(test_ab_stats PRIVATE m)
add_test(NAME test_ab_stats COMMAND test_ab_stats)

add_test(NAME cli_synth_ab COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/synth_ab.sh $<TARGET_FILE:cuzk-bench>)
set_tests_properties(cli_synth_ab PROPERTIES TIMEOUT 120)
# valgrind cannot run an AddressSanitizer binary
if(NOT CUZK_SANITIZE)
  add_test(NAME cli_synth_ab_callgrind
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/synth_ab.sh $<TARGET_FILE:cuzk-bench> callgrind)
  set_tests_properties(cli_synth_ab_callgrind PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
