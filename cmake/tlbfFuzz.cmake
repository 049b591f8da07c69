# tlbf_add_fuzzer(NAME [SOURCE...]), from find_package(tlbf) (docs/fuzzing.md,
# "Fuzzing your own parser"): NAME, the in-process harness of your parser,
# whose SOURCEs define tlbf_fuzz_from_bytes (tlbf/fuzz.h). No SOURCE when
# the function comes from a library you link to NAME yourself (a Rust
# staticlib).
#
# With clang: a libFuzzer program, your sources instrumented for it and
# built with the sanitizers in TLBF_FUZZ_SANITIZERS (default
# address,undefined). With any other compiler, or TLBF_FUZZ_REPLAY_ONLY on:
# the replay driver instead, which runs each file (and each file of each
# folder) named on its command line once, so the same harness replays its
# corpus and findings as a test where there is no libFuzzer.
function(tlbf_add_fuzzer name)
  set(sources ${ARGN})
  if(NOT sources)
    set(sources ${CMAKE_CURRENT_BINARY_DIR}/${name}_no_sources.cpp)
    file(WRITE ${sources} "// ${name} is all libraries; CMake asks for a source file all the same.\n")
  endif()
  add_executable(${name} ${sources})
  # tlbf::fuzz is C++: a harness of C sources links as C++.
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  set(clang TRUE)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(lang IN ITEMS C CXX)
    if(lang IN_LIST languages AND NOT CMAKE_${lang}_COMPILER_ID MATCHES "Clang")
      set(clang FALSE)
    endif()
  endforeach()
  if(clang AND NOT TLBF_FUZZ_REPLAY_ONLY)
    if(DEFINED TLBF_FUZZ_SANITIZERS)
      set(sanitizers ${TLBF_FUZZ_SANITIZERS})
    else()
      set(sanitizers address,undefined)
    endif()
    set(compile -fsanitize=fuzzer-no-link -fno-omit-frame-pointer)
    set(link -fsanitize=fuzzer)
    if(sanitizers)
      list(APPEND compile -fsanitize=${sanitizers} -fno-sanitize-recover=all)
      list(APPEND link -fsanitize=${sanitizers})
    endif()
    target_compile_options(${name} PRIVATE ${compile})
    target_link_options(${name} PRIVATE ${link})
    target_link_libraries(${name} PRIVATE tlbf::fuzz)
  else()
    target_link_libraries(${name} PRIVATE tlbf::fuzz_replay)
  endif()
endfunction()
