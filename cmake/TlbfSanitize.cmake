# In the sanitizer build (TLBF_SANITIZE, scripts/build asan), the project's
# libraries and tlbf's own executables (tlbf, tlbf-relay, tlbf-mutant) compile
# at -O1, and the test executables at the Debug build's -O0.
#
# tlbf's executables join the libraries since the build moved to Clang
# (2026-12-05): an inline function both a library and an executable use is
# kept once at link, from the executable's objects, which come first. At -O0
# Clang leaves std::vector<unsigned char, ZeroedAllocator>'s destructor a loop
# of calls, one a byte, and `tlbf serve` spent a third of its time there:
# tlbf check took 5.8 CPU-seconds, against 2.3 with GCC. With them at -O1 it
# takes 1.8, and the build costs no more (docs/testing.md, "Build time").
#
# The sanitizer tests spend their time in the libraries (the oracle, the check,
# the scorer), which ASan runs about twice as fast at -O1; the test executables are
# test bodies (GoogleTest's and RapidCheck's templates), which
# cost most of the build to optimize and little of the run. Measured in
# December 2026 (docs/testing.md, "Build time"): everything at -O0 built in
# about 300 core-seconds and its tests took 740; everything at -O1 574 and
# 328; libraries alone at -O1 is the middle this file picks.
#
# GCC 12 with ASan at -O1 reports -Wmaybe-uninitialized inside libstdc++'s
# std::function as std::regex builds it (a false positive in the library's
# headers, not in this code); the release build keeps the warning.

function(tlbf_targets_under dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    tlbf_targets_under("${sub}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

#
# tlbf mutate's and tlbf grade's library (tlbf_mutants_catalog) stays at -O0
# too: its sources are nlohmann/json and std::filesystem through and through,
# which GCC instruments at -O1 slowly (its two large unity batches: 105
# CPU-seconds at -O1, 52 at -O0), and its runs wait on the suites they run
# more than on it (its 54 quickest sanitizer tests: 8 CPU-seconds more at
# -O0; docs/testing.md, "Build time").
set(TLBF_SANITIZED_AT_O0 tlbf_mutants_catalog)
set(TLBF_SANITIZED_AT_O1 tlbf tlbf-relay tlbf-mutant)  # executables, as above

function(tlbf_optimize_sanitized_libraries)
  tlbf_targets_under("${PROJECT_SOURCE_DIR}" targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if((type MATCHES "^(STATIC|SHARED|OBJECT)_LIBRARY$" OR target IN_LIST TLBF_SANITIZED_AT_O1)
       AND NOT target IN_LIST TLBF_SANITIZED_AT_O0)
      target_compile_options(${target} PRIVATE -O1 $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
    endif()
  endforeach()
endfunction()
