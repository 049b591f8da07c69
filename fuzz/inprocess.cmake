# The in-process differential harness (docs/fuzzing.md, "Fuzzing your own
# parser"): tlbf::fuzz, libFuzzer's entry point over a user's
# tlbf_fuzz_from_bytes (include/tlbf/fuzz.h), and tlbf::fuzz_replay, the
# replay driver as a library, for compilers without libFuzzer. Both are
# installed with the package (cmake/TlbfInstall.cmake).
enable_language(C)

add_library(tlbf_fuzz STATIC harness/harness.cpp)
add_library(tlbf::fuzz ALIAS tlbf_fuzz)
set_target_properties(tlbf_fuzz PROPERTIES EXPORT_NAME fuzz)
target_include_directories(tlbf_fuzz PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(tlbf_fuzz PUBLIC tlbf::oracle PRIVATE $<BUILD_INTERFACE:tlbf_warnings>)
# Nothing in the user's code refers to the entry point, and libFuzzer's
# runtime may come before this archive on the link line; the user's
# function may be in an archive that comes before it (a Rust staticlib).
# Asking for both symbols up front makes the linker take them wherever
# they are, in any order.
target_link_options(tlbf_fuzz INTERFACE "LINKER:--undefined=LLVMFuzzerTestOneInput"
  "LINKER:--undefined=tlbf_fuzz_from_bytes")

add_library(tlbf_fuzz_replay STATIC ${TLBF_REPLAY_SOURCES})
add_library(tlbf::fuzz_replay ALIAS tlbf_fuzz_replay)
target_include_directories(tlbf_fuzz_replay PRIVATE $<BUILD_INTERFACE:${tlbf_common_dir}/include>)
set_target_properties(tlbf_fuzz_replay PROPERTIES EXPORT_NAME fuzz_replay)
target_link_libraries(tlbf_fuzz_replay PUBLIC tlbf_fuzz PRIVATE $<BUILD_INTERFACE:tlbf_warnings>)

# The harnesses of the bundled parsers: the C example (examples/c), with and
# without its planted padding bug; the oracle itself, the harness's control;
# and the tl-ds crate through the Rust shim (rust/).
set(TLBF_INPROCESS_example examples/c/harness.c examples/c/bloom.c)
set(TLBF_INPROCESS_example_buggy examples/c/harness.c examples/c/bloom.c)
set(TLBF_INPROCESS_oracle examples/oracle_wrapper.cpp)
set(TLBF_INPROCESS_HARNESSES example example_buggy oracle)
# The fuzz build's flags are clang's, for C as for C++: with another C
# compiler the C example is left out of it (scripts/fuzz and fuzz/build.sh
# pass clang for both).
if(TLBF_FUZZ AND NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(STATUS "The C example of the in-process harness is not built: the C compiler is ${CMAKE_C_COMPILER_ID}, "
                 "not clang (configure with -DCMAKE_C_COMPILER=clang-14)")
  set(TLBF_INPROCESS_HARNESSES oracle)
endif()

if(CARGO)
  # Cargo builds the shim into the build tree. In the fuzz build the Rust
  # code gets libFuzzer's coverage instrumentation, as cargo-fuzz gives it,
  # so that the crate's branches steer the fuzzer as a C parser's do.
  set(rust_dir ${CMAKE_BINARY_DIR}/fuzz-rust)
  set(TLBF_FUZZ_RUST_SHIM ${rust_dir}/release/libtlbf_fuzz_shim.a)
  set(rustflags "")
  if(TLBF_FUZZ OR TLBF_FUZZ_ENGINE)
    set(rustflags "-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares")
  endif()
  get_filename_component(crate ${CMAKE_CURRENT_SOURCE_DIR}/../conformance/impls/rust ABSOLUTE)
  add_custom_command(
    OUTPUT ${TLBF_FUZZ_RUST_SHIM}
    COMMAND ${CMAKE_COMMAND} -E env CARGO_TARGET_DIR=${rust_dir} "RUSTFLAGS=${rustflags}"
            ${CARGO} build --release --offline --locked --quiet
            --manifest-path ${CMAKE_CURRENT_SOURCE_DIR}/rust/Cargo.toml
    DEPENDS rust/Cargo.toml rust/Cargo.lock rust/src/lib.rs ${crate}/Cargo.toml ${crate}/src/lib.rs ${crate}/src/bloom.rs
    COMMENT "Building the Rust shim of the in-process harness with cargo")
  add_custom_target(tlbf_fuzz_rust_shim DEPENDS ${TLBF_FUZZ_RUST_SHIM})
  add_library(tlbf_fuzz_rust STATIC IMPORTED)
  set_target_properties(tlbf_fuzz_rust PROPERTIES IMPORTED_LOCATION ${TLBF_FUZZ_RUST_SHIM})
  add_dependencies(tlbf_fuzz_rust tlbf_fuzz_rust_shim)
  find_package(Threads REQUIRED)
  # What Rust's std asks of the C library (cargo rustc -- --print native-static-libs).
  target_link_libraries(tlbf_fuzz_rust INTERFACE Threads::Threads ${CMAKE_DL_LIBS} m)
  list(APPEND TLBF_INPROCESS_HARNESSES rust)
endif()

foreach(h IN LISTS TLBF_INPROCESS_HARNESSES)
  set(kinds)
  if(TLBF_BUILD_TESTS)
    list(APPEND kinds replay)
  endif()
  if(TLBF_FUZZ_ENGINE)
    list(APPEND kinds fuzz)
  endif()
  foreach(kind IN LISTS kinds)
    set(exe ${kind}_fuzz_inprocess_${h})
    if(kind STREQUAL fuzz)
      set(exe fuzz_inprocess_${h})
    endif()
    # An executable needs a source; the shim's code comes in as a library.
    add_executable(${exe} ${TLBF_INPROCESS_${h}})
    if(h STREQUAL rust)
      target_sources(${exe} PRIVATE harness/no_sources.c)
      target_link_libraries(${exe} PRIVATE tlbf_fuzz_rust)
    endif()
    if(h STREQUAL example_buggy)
      target_compile_definitions(${exe} PRIVATE TLBF_EXAMPLE_PADDING_BUG)
    endif()
    if(h STREQUAL oracle)
      target_link_libraries(${exe} PRIVATE tlbf_warnings)
    endif()
    if(kind STREQUAL replay)
      target_link_libraries(${exe} PRIVATE tlbf_fuzz_replay)
    else()
      target_link_libraries(${exe} PRIVATE tlbf_fuzz)
      target_link_options(${exe} PRIVATE ${TLBF_FUZZ_ENGINE_FLAGS})
    endif()
    set_target_properties(${exe} PROPERTIES LINKER_LANGUAGE CXX)
  endforeach()
endforeach()

if(TLBF_BUILD_TESTS)
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  # Correct parsers: the whole corpus, and every input that ever showed a
  # planted bug, without a finding.
  foreach(h IN LISTS TLBF_INPROCESS_HARNESSES)
    if(NOT h STREQUAL example_buggy)
      add_test(NAME fuzz_inprocess_${h}_finds_nothing
        COMMAND replay_fuzz_inprocess_${h} ${TLBF_FROM_BYTES_CORPUS} ${dir}/regressions/inprocess)
    endif()
  endforeach()
  # The planted bug: its reproducer aborts with the finding's lines, and the
  # transcript it writes holds the oracle's answers (tlbf serve passes it)
  # and tells a protocol implementation with the same bug from the oracle.
  add_test(NAME fuzz_inprocess_reports_planted_bug
    COMMAND bash ${dir}/tests/inprocess_finding.sh $<TARGET_FILE:replay_fuzz_inprocess_example_buggy>
            ${dir}/regressions/inprocess/example-padding-lowest-bit ${CMAKE_CURRENT_BINARY_DIR}/inprocess-finding
            $<TARGET_FILE:tlbf> ${PROJECT_SOURCE_DIR})
  # libFuzzer itself, built with clang in the test against this build's
  # libraries: from the committed corpus it finds the planted bug within a
  # bounded number of inputs, and on the correct parsers nothing in as many.
  # GCC's AddressSanitizer and clang's cannot share a program, so not in
  # the sanitizer build; without clang's libFuzzer the test skips (77).
  if(NOT TLBF_SANITIZE AND NOT TLBF_FUZZ)
    add_test(NAME fuzz_inprocess_libfuzzer_bounded_runs
      COMMAND bash ${dir}/tests/inprocess_libfuzzer.sh ${CMAKE_CURRENT_BINARY_DIR}/inprocess-libfuzzer
              $<TARGET_FILE:tlbf_fuzz> $<TARGET_FILE:tlbf_oracle> ${PROJECT_SOURCE_DIR} "${CARGO}")
    set_tests_properties(fuzz_inprocess_libfuzzer_bounded_runs PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
  endif()
  # The OSS-Fuzz build and ClusterFuzzLite's, with the engine's variables
  # only (each builds the oracle and the targets with clang and ASan).
  if(NOT TLBF_SANITIZE AND NOT TLBF_FUZZ)
    foreach(script fuzz/build.sh .clusterfuzzlite/build.sh)
      string(REGEX REPLACE "^[.]" "" name "${script}")
      string(REGEX REPLACE "[/.]" "_" name "${name}")
      add_test(NAME ${name}_with_engine_variables_only
        COMMAND bash ${dir}/tests/build_sh_test.sh ${script} ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/${name}-test)
      set_tests_properties(${name}_with_engine_variables_only PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)
    endforeach()
  endif()
endif()
