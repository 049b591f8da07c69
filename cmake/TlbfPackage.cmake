# A Debian package of what cmake/TlbfInstall.cmake installs, below /usr:
#   cmake --build BUILD --target package     (or: cd BUILD && cpack -G DEB)
#   sudo apt install ./BUILD/tlbf_VERSION_ARCH.deb
# The dependencies are dpkg-shlibdeps's reading of the two programs (libc6,
# libstdc++6, libgcc-s1 on Debian 12); the oracle's static library and
# headers come along for find_package(tlbf).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tlbf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "test oracle and conformance harness for the TLBF v1 Bloom filter format")
set(CPACK_PACKAGE_DESCRIPTION
  "tlbf checks implementations of TLBF v1, a portable Bloom filter byte format, over a line protocol, grades test suites by planted bugs, and ships the format's test vectors and a reference implementation (the C++ library tlbf::oracle, for find_package(tlbf)).")
set(CPACK_PACKAGE_CONTACT "tlbf maintainers <tlbf@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)

# Make the package and check it without installing it (cmake/tests/deb_test.sh).
find_program(TLBF_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(TLBF_BUILD_TESTS AND NOT TLBF_SANITIZE AND NOT TLBF_FUZZ AND TLBF_DPKG_SHLIBDEPS)
  add_test(NAME deb_package_is_accepted_by_apt
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/deb_test.sh ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/deb-test
      ${CMAKE_INSTALL_BINDIR} ${TLBF_INSTALL_MUTANT_DIR} ${CMAKE_INSTALL_DATADIR} ${CMAKE_INSTALL_LIBDIR}
      "${TLBF_REPORT_VIEWER_BUNDLE}")
  set_tests_properties(deb_package_is_accepted_by_apt PROPERTIES TIMEOUT 300)
endif()
