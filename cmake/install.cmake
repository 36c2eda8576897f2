# SPDX-License-Identifier: MIT OR Apache-2.0
# Install rules (docs/deployment.md "Install"): `cmake --install build --prefix P` and the Debian
# packages (cmake/package.cmake) both come from these. Two components:
#   runtime  cuzk-daemon and cuzk-bench, the configuration, the systemd unit, the parameter
#            directory, the Grafana dashboard, the docs and the example configuration (package cuzk)
#   dev      libcuzk.a, the public headers of its layers, cuzk.pc (package libcuzk-dev)
# The configuration and the parameter directory follow the GNU rule for /etc and /var, decided at
# install time because --prefix may change the prefix then: under /usr they go to /etc/cuzk and
# /var/lib/cuzk, elsewhere to P/etc/cuzk and P/var/lib/cuzk. The unit always goes to
# P/lib/systemd/system and names /usr/bin/cuzk-daemon and /etc/cuzk/cuzk.toml: the package's
# layout (an install elsewhere edits ExecStart, docs/deployment.md).
include(GNUInstallDirs)
# an install copies what the build made, it never builds: CPack's "preinstall" step would
# otherwise check every target of the project again (4 s of scripts/package on 2 cores)
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

install(TARGETS cuzk-daemon cuzk-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/contrib/systemd/cuzk.service DESTINATION lib/systemd/system
        COMPONENT runtime)
install(CODE "set(CUZK_CONFIG_SOURCE \"${PROJECT_SOURCE_DIR}/contrib/cuzk.toml\")"
        COMPONENT runtime)
install(CODE [[
  if(CMAKE_INSTALL_PREFIX MATCHES "^/usr/?$")
    set(cuzk_etc /etc)
    set(cuzk_var /var)
  else()
    set(cuzk_etc "${CMAKE_INSTALL_PREFIX}/etc")
    set(cuzk_var "${CMAKE_INSTALL_PREFIX}/var")
  endif()
  file(INSTALL DESTINATION "${cuzk_etc}/cuzk" TYPE FILE FILES "${CUZK_CONFIG_SOURCE}")
  file(MAKE_DIRECTORY "$ENV{DESTDIR}${cuzk_var}/lib/cuzk/params")
]] COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/contrib/grafana/cuzk.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/cuzk/grafana COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/cuzk.example.toml
        ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/LICENSE-MIT
        ${PROJECT_SOURCE_DIR}/LICENSE-APACHE
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT runtime)

# libcuzk: the headers of the library's layers, each layer's in its folder
# (#include "cuzk/util/pool.h"); include/cuzk/server/ (server.h, rpc.h, version.h) belongs to the
# daemon's own libraries (docs/architecture.md), which are not installed
install(TARGETS cuzk ARCHIVE DESTINATION lib COMPONENT dev)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cuzk DESTINATION include COMPONENT dev
        FILES_MATCHING PATTERN "*.h" PATTERN server EXCLUDE)
configure_file(${PROJECT_SOURCE_DIR}/contrib/cuzk.pc.in ${PROJECT_BINARY_DIR}/cuzk.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cuzk.pc DESTINATION lib/pkgconfig COMPONENT dev)
