# What `cmake --install BUILD --prefix P` puts where (docs/cli.md, "Installing"):
#   P/bin/tlbf                             the program
#   P/libexec/tlbf/tlbf-mutant             the mutant build's endpoint, which tlbf runs
#   P/libexec/tlbf/tlbf-relay              what a suite's TLBF_IMPL runs in served mode
#   P/share/tlbf/vectors/                  the vector files, and their schemas in schema/
#   P/share/tlbf/mutation-test-elements.js the viewer tlbf mutate --html inlines, and its licence
#   P/share/tlbf/grade-kits/KIND/          tlbf grade's kits: the course's folder (the client, a binding),
#                                          the implementation its variants are made from (Python, or
#                                          Rust for the Rust kit), its chaffs, wheats and mutants' patches,
#                                          and a kit.json naming them; rust/reference/ the course's Rust crate
#   P/share/doc/tlbf/                      README.md and docs/*.md
#   P/include/tlbf/, P/lib/libtlbf_oracle.a    the oracle, for C++ programs
#   P/lib/cmake/tlbf/                      its CMake package: find_package(tlbf) gives tlbf::oracle
#   P/include/tlbf/fuzz.h, P/lib/libtlbf_fuzz.a, libtlbf_fuzz_replay.a
#                                          the in-process harness: tlbf::fuzz, tlbf::fuzz_replay, tlbf_add_fuzzer()
#   P/share/tlbf/fuzz/                     its corpus, dictionary, the C example and the Rust shim
# The folders are GNUInstallDirs', so a packager's CMAKE_INSTALL_LIBDIR and the
# like apply.
include(CMakePackageConfigHelpers)

install(TARGETS tlbf RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tlbf-mutant tlbf-relay RUNTIME DESTINATION ${TLBF_INSTALL_MUTANT_DIR})

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

# tlbf grade's kits, laid out so that each kit.json names its folders
# beside it (the source's kit.json names them across the tree instead).
# The course's Rust reference crate is installed beside the Rust kit: the
# fuzzing shim names it, and a course author's own `tlbf mutate --patches`
# patches it; the Rust kit itself serves its subjects, as the others do.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/conformance/impls/rust/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/tlbf/grade-kits/rust/reference
  PATTERN target EXCLUDE PATTERN __pycache__ EXCLUDE)
# The served kits: the course's folder the tests file goes into (the
# protocol kit's client, the Python kit's binding, the Rust kit's binding
# crate, which its "build" compiles once per learner), and the
# implementation whose variants are the kit's wheats, chaffs and each
# mutant's second form (Python for the protocol and Python kits, Rust for
# the Rust kit, whose variants.build compiles each once per class), each
# folder found where the source's kit.json names it; the mutants are the
# oracle's, served by tlbf-mutant.
foreach(kind protocol python rust)
  set(kit ${CMAKE_INSTALL_DATADIR}/tlbf/grade-kits/${kind})
  set(source_kit ${PROJECT_SOURCE_DIR}/mutants/kits/${kind})
  file(READ ${source_kit}/kit.json text)
  string(JSON variants_from GET "${text}" variants from)
  string(JSON variant_patches GET "${text}" variants mutants)
  string(JSON wheats GET "${text}" wheats)
  string(JSON chaffs GET "${text}" chaffs)
  install(DIRECTORY ${source_kit}/course/ DESTINATION ${kit}/course
    PATTERN __pycache__ EXCLUDE PATTERN target EXCLUDE)
  install(DIRECTORY ${source_kit}/${variants_from}/ DESTINATION ${kit}/variants
    PATTERN __pycache__ EXCLUDE PATTERN target EXCLUDE)
  install(DIRECTORY ${source_kit}/${chaffs}/ DESTINATION ${kit}/chaffs)
  install(DIRECTORY ${source_kit}/${wheats}/ DESTINATION ${kit}/wheats)
  install(DIRECTORY ${source_kit}/${variant_patches}/ DESTINATION ${kit}/mutants)
  string(JSON tests_file GET "${text}" tests_file)
  string(JSON suite GET "${text}" suite)
  string(JSON command GET "${text}" variants command)
  string(JSON as_is GET "${text}" variants as_is)
  string(JSON tests_into GET "${text}" tests_into)
  string(JSON build ERROR_VARIABLE no_build GET "${text}" build)
  set(build_lines "")
  if(NOT no_build)
    string(JSON executable GET "${text}" executable)
    set(build_lines "  \"build\": ${build},\n  \"executable\": \"${executable}\",\n")
  endif()
  # What runs the suite, where the kit names it: a kill's tests then run alone.
  string(JSON test_runner ERROR_VARIABLE no_test_runner GET "${text}" test_runner)
  set(test_runner_line "")
  if(NOT no_test_runner)
    set(test_runner_line "  \"test_runner\": \"${test_runner}\",\n")
  endif()
  string(JSON variant_build ERROR_VARIABLE no_variant_build GET "${text}" variants build)
  set(variant_build_words "")
  if(NOT no_variant_build)
    set(variant_build_words ", \"build\": ${variant_build}")
  endif()
  file(WRITE ${CMAKE_BINARY_DIR}/installed-kits/${kind}/kit.json
    "{\n  \"kind\": \"${kind}\",\n  \"serves\": \"oracle\",\n  \"reference\": \"course\",\n"
    "  \"tests_file\": \"${tests_file}\",\n  \"tests_into\": \"${tests_into}\",\n${build_lines}  \"suite\": ${suite},\n${test_runner_line}"
    "  \"variants\": {\"from\": \"variants\", \"command\": ${command}${variant_build_words}, \"as_is\": \"${as_is}\", \"mutants\": \"mutants\"},\n"
    "  \"chaffs\": \"chaffs\",\n  \"wheats\": \"wheats\"\n}\n")
  install(FILES ${CMAKE_BINARY_DIR}/installed-kits/${kind}/kit.json DESTINATION ${kit})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source_kit}/kit.json)
endforeach()

# tlbf check's adapters: the Python one with the protocol layer it imports,
# and the Rust server that --rust-crate builds against a learner's crate.
install(FILES ${PROJECT_SOURCE_DIR}/conformance/adapters/python/tlbf_adapter.py
              ${PROJECT_SOURCE_DIR}/conformance/impls/python/tlbf_impl.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tlbf/adapters/python)
install(FILES ${PROJECT_SOURCE_DIR}/conformance/impls/rust/server/src/main.rs
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tlbf/adapters/rust)

file(GLOB tlbf_doc_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${tlbf_doc_pages} DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Debian Policy 12.5: every package has /usr/share/doc/PACKAGE/copyright.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The oracle as a CMake package. Its headers are the whole of oracle/include
# (bloom.hpp includes mutant_switch.hpp, which without TLBF_MUTANTS compiles
# every switch to false); its wide kernel picks its instructions with a
# function attribute, so a program linking it needs no special flags.
install(TARGETS tlbf_oracle EXPORT tlbfTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/oracle/include/tlbf DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The in-process harness (docs/fuzzing.md, "Fuzzing your own parser"), in
# the same package, with what a user's fuzzing run reads beside the vectors.
# The Rust shim's manifest names the crate it wraps by a path: installed,
# that is the tl-ds crate installed as the Rust kit's reference, which a
# user replaces with their own.
install(TARGETS tlbf_fuzz tlbf_fuzz_replay EXPORT tlbfTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/fuzz/include/tlbf/fuzz.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tlbf)
set(tlbf_fuzz_data ${CMAKE_INSTALL_DATADIR}/tlbf/fuzz)
install(DIRECTORY ${TLBF_FROM_BYTES_CORPUS}/ DESTINATION ${tlbf_fuzz_data}/corpus)
install(FILES ${PROJECT_SOURCE_DIR}/fuzz/tlbf.dict DESTINATION ${tlbf_fuzz_data})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/fuzz/examples/c/ DESTINATION ${tlbf_fuzz_data}/examples/c)
file(READ ${PROJECT_SOURCE_DIR}/fuzz/rust/Cargo.toml text)
string(REPLACE "../../conformance/impls/rust" "../../grade-kits/rust/reference" text "${text}")
file(WRITE ${CMAKE_BINARY_DIR}/installed-fuzz-rust/Cargo.toml "${text}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/fuzz/rust/Cargo.toml)
install(FILES ${CMAKE_BINARY_DIR}/installed-fuzz-rust/Cargo.toml ${PROJECT_SOURCE_DIR}/fuzz/rust/Cargo.lock
  DESTINATION ${tlbf_fuzz_data}/rust)
install(FILES ${PROJECT_SOURCE_DIR}/fuzz/rust/src/lib.rs DESTINATION ${tlbf_fuzz_data}/rust/src)

set(tlbf_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tlbf)
install(EXPORT tlbfTargets NAMESPACE tlbf:: DESTINATION ${tlbf_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tlbfConfig.cmake.in
  ${CMAKE_BINARY_DIR}/tlbfConfig.cmake INSTALL_DESTINATION ${tlbf_cmake_dir})
# 0.x: a new minor version may change the interface.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/tlbfConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/tlbfConfig.cmake ${CMAKE_BINARY_DIR}/tlbfConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/tlbfFuzz.cmake DESTINATION ${tlbf_cmake_dir})

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
  # A user's own C parser fuzzed in process from the installed package, as
  # docs/fuzzing.md tells it (cmake/tests/fuzz_install_test.sh).
  add_test(NAME fuzz_harness_from_a_prefix
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tests/fuzz_install_test.sh
      ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/fuzz-install-test $<CONFIG> ${CMAKE_C_COMPILER} ${CMAKE_CXX_COMPILER}
      "${CMAKE_GENERATOR}" ${CMAKE_INSTALL_BINDIR} ${CMAKE_INSTALL_DATADIR} "${CARGO}")
  set_tests_properties(fuzz_harness_from_a_prefix PROPERTIES TIMEOUT 900)
endif()
