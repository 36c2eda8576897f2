# SPDX-License-Identifier: MIT OR Apache-2.0
# The Debian packages and the install rules end to end (test_package.py, docs/testing.md "The
# package test"): one CPack build of this tree, its control fields and file lists, both packages
# unpacked into a scratch root, the unit through systemd-analyze verify, one 2 KiB PoRep proof
# through the unpacked daemon on the unpacked configuration, a program built against the
# unpacked libcuzk-dev, cmake --install --prefix (about 25 s of CPU once the parameters exist,
# nearly all of it the proof; docs/testing.md has the times measured). Label "package": the gcc stage of .ci/run runs it, the others leave it out
# (ctest -LE package). On Debian only (dpkg-deb), with CUZK_TEST_PROOFS. Included from
# tests/CMakeLists.txt.
find_program(CUZK_DPKG_DEB dpkg-deb)
if(CUZK_DPKG_DEB AND CUZK_TEST_PROOFS)
  add_test(NAME test_package
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_package.py
            --build ${PROJECT_BINARY_DIR} --source ${PROJECT_SOURCE_DIR}
            --params ${CUZK_TEST_PARAM_DIR} --version ${PROJECT_VERSION}
            --cmake ${CMAKE_COMMAND} --cpack ${CMAKE_CPACK_COMMAND})
  set_tests_properties(test_package PROPERTIES LABELS package FIXTURES_REQUIRED params_2kib
                       TIMEOUT 600 COST 30)
endif()
