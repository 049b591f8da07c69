#!/usr/bin/env bash
# The in-process harness under libFuzzer, bounded by inputs, not time
# (docs/fuzzing.md, "Fuzzing your own parser"). Built here with clang
# against the build's tlbf::fuzz and oracle, as a user builds it:
# - the C example with its planted padding bug: found from the committed
#   corpus within RUNS_BUGGY inputs, and from an empty corpus within
#   RUNS_EMPTY, with a fixed seed;
# - the C example without the bug, the oracle wrapped in C and (where cargo
#   is) the tl-ds crate through the Rust shim: no finding in RUNS_CLEAN.
# Exit 77 (skipped) where clang cannot link libFuzzer.
#   inprocess_libfuzzer.sh WORK_DIR LIBTLBF_FUZZ LIBTLBF_ORACLE SOURCE_DIR [CARGO]
set -uo pipefail
work=$1 fuzzlib=$2 oraclelib=$3 source=$4 cargo=${5:-}
RUNS_BUGGY=${RUNS_BUGGY:-2000} RUNS_EMPTY=${RUNS_EMPTY:-1000000} RUNS_CLEAN=${RUNS_CLEAN:-50000}
fail() { echo "inprocess libfuzzer: $*" >&2; exit 1; }

cc=$(command -v clang-14 || command -v clang || true)
cxx=$(command -v clang++-14 || command -v clang++ || true)
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > probe.c
if [ -z "$cc" ] || [ -z "$cxx" ] || ! "$cc" -fsanitize=fuzzer probe.c -o probe >/dev/null 2>&1; then
  echo "inprocess libfuzzer: skipped: no clang that links libFuzzer (scripts/setup installs clang-14 and libclang-rt-14-dev)"
  exit 77
fi

flags=(-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -I"$source/fuzz/include")
link=(-fsanitize=fuzzer,address,undefined -Wl,--undefined=LLVMFuzzerTestOneInput -Wl,--undefined=tlbf_fuzz_from_bytes)
ex=$source/fuzz/examples
"$cc" "${flags[@]}" -c "$ex/c/harness.c" -o harness.o || fail "harness.c does not compile"
"$cc" "${flags[@]}" -c "$ex/c/bloom.c" -o bloom.o || fail "bloom.c does not compile"
"$cc" "${flags[@]}" -DTLBF_EXAMPLE_PADDING_BUG -c "$ex/c/bloom.c" -o bloom_buggy.o || fail "bloom.c (buggy) does not compile"
"$cxx" "${flags[@]}" -std=c++20 -I"$source/oracle/include" -c "$ex/oracle_wrapper.cpp" -o oracle_wrapper.o \
  || fail "oracle_wrapper.cpp does not compile"
harnesses=(example example_buggy oracle)
"$cxx" "${link[@]}" harness.o bloom.o "$fuzzlib" "$oraclelib" -o fuzz_example || fail "no fuzz_example"
"$cxx" "${link[@]}" harness.o bloom_buggy.o "$fuzzlib" "$oraclelib" -o fuzz_example_buggy || fail "no fuzz_example_buggy"
"$cxx" "${link[@]}" oracle_wrapper.o "$fuzzlib" "$oraclelib" -o fuzz_oracle || fail "no fuzz_oracle"
if [ -n "$cargo" ]; then
  # Coverage for the Rust code, as cargo-fuzz instruments it.
  CARGO_TARGET_DIR=$work/rust RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares" \
    "$cargo" build --release --offline --locked --quiet --manifest-path "$source/fuzz/rust/Cargo.toml" \
    || fail "the Rust shim does not build"
  "$cxx" "${link[@]}" "$work/rust/release/libtlbf_fuzz_shim.a" "$fuzzlib" "$oraclelib" -lpthread -ldl -lm -o fuzz_rust \
    || fail "no fuzz_rust"
  harnesses+=(rust)
fi

run() {  # NAME RUNS CORPUS...: libFuzzer with the project's settings and seed 1
  local name=$1 runs=$2
  shift 2
  mkdir -p "scratch-$name" "artifacts-$name"
  TLBF_FUZZ_REPRO_DIR=$work/artifacts-$name "./fuzz_${name%_empty}" "scratch-$name" "$@" -seed=1 -runs="$runs" \
    -dict="$source/fuzz/tlbf.dict" -max_len=4096 -malloc_limit_mb=64 -timeout=10 \
    -artifact_prefix="artifacts-$name/" >"$name.log" 2>&1
}
corpus=$source/conformance/corpus/from_bytes

for name in example_buggy example_buggy_empty; do
  if [ "$name" = example_buggy ]; then run "$name" "$RUNS_BUGGY" "$corpus"; else run "$name" "$RUNS_EMPTY"; fi
  rc=$?
  [ "$rc" -ne 0 ] || { tail -5 "$name.log"; fail "$name: no finding in its bounded runs"; }
  grep -q 'tlbf fuzz: oracle-vs-example-from_bytes-accepts' "$name.log" || { tail -30 "$name.log"; fail "$name: not the planted bug"; }
  ls "artifacts-$name"/crash-* >/dev/null 2>&1 || fail "$name: libFuzzer wrote no crash file"
  [ -f "artifacts-$name/oracle-vs-example-from_bytes-accepts.transcript" ] || fail "$name: no transcript"
  last=$(grep -oE '^#[0-9]+' "$name.log" | tail -1 | tr -d '#')
  if [ -n "$last" ]; then
    echo "$name: found the planted bug after at most $last inputs"
  else
    echo "$name: found the planted bug while reading the corpus"
  fi
done
for name in "${harnesses[@]}"; do
  [ "$name" = example_buggy ] && continue
  run "$name" "$RUNS_CLEAN" "$corpus" || { tail -30 "$name.log"; fail "$name: a finding on a correct parser"; }
  grep -q "Done $RUNS_CLEAN runs" "$name.log" || { tail -5 "$name.log"; fail "$name: did not run $RUNS_CLEAN inputs"; }
  echo "$name: no finding in $RUNS_CLEAN inputs"
done
