# What `cmake --install BUILD --prefix P` puts where (docs/cli.md, "Installing"):
#   P/bin/tlbf                             the program
#   P/libexec/tlbf/tlbf-mutant             the mutant build's endpoint, which tlbf runs
#   P/share/tlbf/vectors/                  the vector files, and their schemas in schema/
#   P/share/tlbf/mutation-test-elements.js the viewer tlbf mutate --html inlines, and its licence
#   P/share/doc/tlbf/                      README.md and docs/*.md
#   P/include/tlbf/, P/lib/libtlbf_oracle.a    the oracle, for C++ programs
#   P/lib/cmake/tlbf/                      its CMake package: find_package(tlbf) gives tlbf::oracle
# The folders are GNUInstallDirs', so a packager's CMAKE_INSTALL_LIBDIR and the
# like apply.
include(CMakePackageConfigHelpers)

install(TARGETS tlbf RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tlbf-mutant RUNTIME DESTINATION ${TLBF_INSTALL_MUTANT_DIR})

file(GLOB tlbf_vector_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/vectors/tlbf_*_v1.json)
file(GLOB tlbf_vector_schemas CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/vectors/schema/*.schema.json)
install(FILES ${tlbf_vector_files} DESTINATION ${CMAKE_INSTALL_DATADIR}/tlbf/vectors)
install(FILES ${tlbf_vector_schemas} DESTINATION ${CMAKE_INSTALL_DATADIR}/tlbf/vectors/schema)

# Fetched by the build (mutants/CMakeLists.txt); none when it was built without npm.
if(TLBF_REPORT_VIEWER_BUNDLE)
  install(FILES ${TLBF_REPORT_VIEWER_BUNDLE} DESTINATION ${TLBF_INSTALL_VIEWER_DIR})
  install(FILES ${CMAKE_BINARY_DIR}/mutants/report-viewer/node_modules/mutation-testing-elements/LICENSE
    DESTINATION ${TLBF_INSTALL_VIEWER_DIR} RENAME mutation-testing-elements.LICENSE)
endif()

file(GLOB tlbf_doc_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${tlbf_doc_pages} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The oracle as a CMake package. Its headers are the whole of oracle/include
# (bloom.hpp includes mutant_switch.hpp, which without TLBF_MUTANTS compiles
# every switch to false); its wide kernel picks its instructions with a
# function attribute, so a program linking it needs no special flags.
install(TARGETS tlbf_oracle EXPORT tlbfTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/oracle/include/tlbf DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(tlbf_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tlbf)
install(EXPORT tlbfTargets NAMESPACE tlbf:: DESTINATION ${tlbf_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tlbfConfig.cmake.in
  ${CMAKE_BINARY_DIR}/tlbfConfig.cmake INSTALL_DESTINATION ${tlbf_cmake_dir})
# 0.x: a new minor version may change the interface.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/tlbfConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/tlbfConfig.cmake ${CMAKE_BINARY_DIR}/tlbfConfigVersion.cmake
  DESTINATION ${tlbf_cmake_dir})

# Install into a scratch prefix and use it from there (cmake/tests/install_test.sh).
# Not in the sanitizer and fuzz builds: their libraries need the sanitizer
# runtime at link time, which an outside project does not ask for, and they
# are not for installing.
if(TLBF_BUILD_TESTS AND NOT TLBF_SANITIZE AND NOT TLBF_FUZZ)
  add_test(NAME install_and_use_from_a_prefix
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/install_test.sh
      ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/install-test $<CONFIG>
      ${CMAKE_CXX_COMPILER} "${CMAKE_GENERATOR}"
      ${CMAKE_INSTALL_BINDIR} ${TLBF_INSTALL_MUTANT_DIR} ${CMAKE_INSTALL_DATADIR} ${CMAKE_INSTALL_DOCDIR}
      "${TLBF_INSTALL_VIEWER_DIR}" "${TLBF_REPORT_VIEWER_BUNDLE}")
  set_tests_properties(install_and_use_from_a_prefix PROPERTIES TIMEOUT 900)
endif()
