# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk_service: cuzk.v1.ProvingEngine on the engine (service.c) and the daemon assembled from the
# parts (daemon.c, include/cuzk/server/server.h), used by tools/cuzk-daemon.
add_library(cuzk_service STATIC ${CMAKE_CURRENT_SOURCE_DIR}/service.c
  ${CMAKE_CURRENT_SOURCE_DIR}/daemon.c)
target_include_directories(cuzk_service PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(cuzk_service PUBLIC cuzk_rpc cuzk_config cuzk_version cuzk)
