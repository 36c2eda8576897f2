# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk_version: what a build is (include/cuzk/server/version.h), linked by the programs and the
# daemon's service. The commit lives in build_id.c, regenerated at every build by build_id.cmake but
# rewritten only when it changes; the version is a definition on version.c alone. A new commit
# therefore recompiles one file and relinks what links this library, nothing else.
set(CUZK_BUILD_ID_C ${CMAKE_CURRENT_BINARY_DIR}/build_id.c)
add_custom_target(cuzk_build_id
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUT=${CUZK_BUILD_ID_C}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/build_id.cmake
  BYPRODUCTS ${CUZK_BUILD_ID_C}
  COMMENT "git commit of the build (src/server/build_id.cmake)"
  VERBATIM)
add_library(cuzk_version STATIC ${CMAKE_CURRENT_SOURCE_DIR}/version.c ${CUZK_BUILD_ID_C})
add_dependencies(cuzk_version cuzk_build_id)
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/version.c PROPERTIES
  COMPILE_DEFINITIONS CUZK_PROJECT_VERSION="${PROJECT_VERSION}")
target_include_directories(cuzk_version PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(cuzk_version PUBLIC cuzk)
