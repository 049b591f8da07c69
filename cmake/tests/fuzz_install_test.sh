#!/usr/bin/env bash
# The in-process harness from an installed prefix, as a user outside the
# project follows docs/fuzzing.md ("Fuzzing your own parser"): their C
# parser (the installed example, its planted padding bug switched on for
# the buggy build) and harness, find_package(tlbf) and tlbf_add_fuzzer.
# - With the build's compiler (GCC: the replay driver): the correct parser
#   replays the installed corpus clean, the buggy one stops with the finding.
# - With clang, where it links libFuzzer: a real fuzzing run of the buggy
#   parser from the installed corpus and dictionary, bounded by inputs,
#   finds the bug; its transcript replays with the installed tlbf.
# - Where cargo is: the installed Rust shim over the installed tl-ds crate
#   builds and replays the corpus clean.
#   fuzz_install_test.sh BUILD_DIR WORK_DIR CONFIG CC CXX GENERATOR BINDIR DATADIR [CARGO]
set -uo pipefail
build=$1 work=$2 config=$3 cc=$4 cxx=$5 generator=$6 bindir=$7 datadir=$8 cargo=${9:-}
fail() { echo "fuzz install test: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" --config "$config" >"$work/install.log" || { cat "$work/install.log"; fail "install failed"; }
export PATH="$prefix/$bindir:/usr/local/bin:/usr/bin:/bin"
share=$prefix/$datadir/tlbf/fuzz
[ -f "$prefix/include/tlbf/fuzz.h" ] || fail "no include/tlbf/fuzz.h"
[ -f "$share/tlbf.dict" ] || fail "no $datadir/tlbf/fuzz/tlbf.dict"
[ "$(ls "$share/corpus" | wc -l)" -gt 100 ] || fail "the corpus is not installed whole in $datadir/tlbf/fuzz/corpus"

# The user's project: their parser and harness, and the CMakeLists of the docs.
project=$work/mine
mkdir -p "$project"
cp "$share/examples/c/"*.c "$share/examples/c/"*.h "$(dirname "$0")/fuzz_consumer/CMakeLists.txt" "$project/"

configure() {  # BUILD_DIR C_COMPILER CXX_COMPILER [CMAKE ARGS...]
  local dir=$1 c=$2 cpp=$3
  shift 3
  cmake -S "$project" -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE="$config" -DCMAKE_C_COMPILER="$c" \
    -DCMAKE_CXX_COMPILER="$cpp" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "$@" \
    >"$dir.log" 2>&1 && cmake --build "$dir" >>"$dir.log" 2>&1 || { cat "$dir.log"; fail "$dir does not configure and build"; }
}

configure "$work/replay" "$cc" "$cxx"
"$work/replay/fuzz_mine" "$share/corpus" >"$work/replay.out" 2>&1 || { tail "$work/replay.out"; fail "the correct parser: a finding"; }
configure "$work/replay-buggy" "$cc" "$cxx" -DCMAKE_C_FLAGS=-DTLBF_EXAMPLE_PADDING_BUG
if TLBF_FUZZ_REPRO_DIR=$work/repro "$work/replay-buggy/fuzz_mine" "$share/corpus" >"$work/replay-buggy.out" 2>&1; then
  fail "the buggy parser replayed the corpus without a finding"
fi
grep -q 'tlbf fuzz: oracle-vs-example-from_bytes-accepts' "$work/replay-buggy.out" || { tail -20 "$work/replay-buggy.out"; fail "not the planted bug"; }
tlbf check --impl "tlbf serve" --transcript "$work/repro/oracle-vs-example-from_bytes-accepts.transcript" >"$work/replay-check.log" 2>&1 \
  || { cat "$work/replay-check.log"; fail "the installed tlbf does not pass the finding's transcript against its own serve"; }
echo "fuzz install test: replay driver ($cxx): clean parser clean, planted bug found"

clang=$(command -v clang-14 || command -v clang || true)
clangxx=$(command -v clang++-14 || command -v clang++ || true)
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$work/probe.c"
if [ -n "$clang" ] && [ -n "$clangxx" ] && "$clang" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
  configure "$work/libfuzzer" "$clang" "$clangxx" -DCMAKE_C_FLAGS=-DTLBF_EXAMPLE_PADDING_BUG
  mkdir -p "$work/new" "$work/artifacts"
  # The commands of the docs, bounded by inputs for the test.
  if TLBF_FUZZ_REPRO_DIR=$work/artifacts "$work/libfuzzer/fuzz_mine" "$work/new" "$share/corpus" -dict="$share/tlbf.dict" \
       -max_len=4096 -malloc_limit_mb=64 -seed=1 -runs=20000 -artifact_prefix="$work/artifacts/" >"$work/libfuzzer.out" 2>&1; then
    fail "libFuzzer ran 20000 inputs of the buggy parser without a finding"
  fi
  grep -q 'tlbf fuzz: oracle-vs-example-from_bytes-accepts' "$work/libfuzzer.out" || { tail -20 "$work/libfuzzer.out"; fail "libFuzzer: not the planted bug"; }
  crash=$(ls "$work/artifacts"/crash-* 2>/dev/null | head -1)
  [ -n "$crash" ] || fail "libFuzzer wrote no crash file"
  # The crash file replays the finding in process.
  "$work/libfuzzer/fuzz_mine" "$crash" >"$work/crash.out" 2>&1 && fail "the crash file does not reproduce"
  grep -q 'oracle-vs-example-from_bytes-accepts' "$work/crash.out" || fail "the crash file reproduces something else"
  echo "fuzz install test: libFuzzer ($clangxx): planted bug found from the installed corpus"
else
  echo "fuzz install test: no clang that links libFuzzer: the libFuzzer run is not checked"
fi

if [ -n "$cargo" ]; then
  CARGO_TARGET_DIR=$work/rust "$cargo" build --release --offline --quiet --manifest-path "$share/rust/Cargo.toml" \
    >"$work/rust.log" 2>&1 || { cat "$work/rust.log"; fail "the installed Rust shim does not build"; }
  configure "$work/replay-rust" "$cc" "$cxx" -DMY_RUST_SHIM="$work/rust/release/libtlbf_fuzz_shim.a"
  "$work/replay-rust/fuzz_mine_rust" "$share/corpus" >"$work/replay-rust.out" 2>&1 \
    || { tail "$work/replay-rust.out"; fail "the tl-ds crate through the installed shim: a finding"; }
  echo "fuzz install test: Rust shim from the prefix: the installed tl-ds crate replays clean"
fi
echo "fuzz install test: all passed (prefix $prefix)"
