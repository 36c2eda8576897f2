# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk_config: the daemon's configuration (cuzk.toml reader), its log lines (logfmt.c) and the
# HTTP /metrics + /status server (libmicrohttpd, Debian libmicrohttpd-dev). docs/config.md.
if(NOT TARGET PkgConfig::MICROHTTPD)
  pkg_check_modules(MICROHTTPD REQUIRED IMPORTED_TARGET libmicrohttpd)
endif()
add_library(cuzk_config STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/toml.c
  ${CMAKE_CURRENT_SOURCE_DIR}/config.c
  ${CMAKE_CURRENT_SOURCE_DIR}/logfmt.c
  ${CMAKE_CURRENT_SOURCE_DIR}/http_status.c)
target_include_directories(cuzk_config PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(cuzk_config PUBLIC cuzk PRIVATE PkgConfig::MICROHTTPD)
