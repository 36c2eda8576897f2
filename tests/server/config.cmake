# SPDX-License-Identifier: MIT OR Apache-2.0
# Daemon configuration (TOML subset, cuzk.toml keys, command line), its log lines, the Prometheus
# registry and the HTTP /metrics + /status server. All five run in well under a second.
foreach(t test_toml test_config test_logfmt test_prom test_http_status)
  add_executable(${t} ${CMAKE_CURRENT_SOURCE_DIR}/server/${t}.c)
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
  if(t STREQUAL "test_config")
    add_test(NAME ${t} COMMAND ${t} ${PROJECT_SOURCE_DIR}/cuzk.example.toml)
  else()
    add_test(NAME ${t} COMMAND ${t})
  endif()
  set_tests_properties(${t} PROPERTIES TIMEOUT 60)
endforeach()
target_link_libraries(test_prom PRIVATE cuzk)
target_link_libraries(test_toml PRIVATE cuzk_config)
target_link_libraries(test_config PRIVATE cuzk_config)
target_link_libraries(test_logfmt PRIVATE cuzk_config)
target_link_libraries(test_http_status PRIVATE cuzk_config)
