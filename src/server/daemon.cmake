# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk_service: cuzk.v1.ProvingEngine on the engine (service.c), used by tools/cuzk-daemon.
add_library(cuzk_service STATIC ${CMAKE_CURRENT_SOURCE_DIR}/service.c)
target_link_libraries(cuzk_service PUBLIC cuzk_rpc cuzk_config cuzk)
