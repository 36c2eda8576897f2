# SPDX-License-Identifier: MIT OR Apache-2.0
# The Debian packages, built by CPack from the install rules (cmake/install.cmake) of an already
# built tree: scripts/package, or `cpack --config build/CPackConfig.cmake` (docs/deployment.md
# "Building the package"). Two packages, for the Debian release of the machine that builds them:
#   cuzk         the daemon, cuzk-bench, /etc/cuzk/cuzk.toml (a conffile), the systemd unit
#                (enabled on install, not started), /var/lib/cuzk/params, the dashboard, the docs;
#                its Depends are the Debian packages the programs link (dpkg-shlibdeps) and
#                adduser, which postinst uses to make the user cuzk
#   libcuzk-dev  libcuzk.a, the headers, cuzk.pc
set(CUZK_PACKAGE_MAINTAINER "cuzk developers" CACHE STRING
    "The Maintainer field of the Debian packages (\"Name <address>\")")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # <package>_<version>_<architecture>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CUZK_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip) # quicker to build than xz; the programs are small

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME cuzk)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION misc)
# the first line of both descriptions is the project's DESCRIPTION (CMakeLists.txt)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "cuzk-daemon proves PoRep C2, SnapDeals updates, WinningPoSt and WindowPoSt partitions for
Curio over gRPC (cuzk.v1.ProvingEngine), keeping the parameters resident; cuzk-bench is
its command-line client and the offline prover. Runs as the systemd service cuzk.")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS adduser)
file(WRITE ${PROJECT_BINARY_DIR}/debian/conffiles "/etc/cuzk/cuzk.toml\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/debian/conffiles
    ${PROJECT_SOURCE_DIR}/contrib/debian/postinst ${PROJECT_SOURCE_DIR}/contrib/debian/prerm
    ${PROJECT_SOURCE_DIR}/contrib/debian/postrm)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libcuzk-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "The static library libcuzk.a with the public headers of its layers (fields, curves, MSM,
NTT, hashes, the constraint system, Groth16, PoRep, PoSt, SnapDeals, the engine) and cuzk.pc
for pkg-config.")
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libsodium-dev, libyajl-dev")

include(CPack)
