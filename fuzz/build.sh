#!/bin/bash -eu
# OSS-Fuzz style build (docs/fuzzing.md): builds the fuzz targets with only
# what the infrastructure provides, $CC, $CXX, $CFLAGS, $CXXFLAGS and
# $LIB_FUZZING_ENGINE, and puts them in $OUT with their seed corpora,
# dictionary and options. $SRC/tlbf is the checkout (default: this
# script's repository). ClusterFuzzLite runs it too (.clusterfuzzlite/build.sh).
#
# It configures fuzz/standalone, the oracle and the fuzz targets alone, so
# that the builder image needs nothing but a compiler and CMake. Shipped:
# fuzz_from_bytes, fuzz_ops, and the in-process harness on the C example,
# fuzz_inprocess_example (and on the tl-ds crate, fuzz_inprocess_rust,
# where cargo is). fuzz_diff is not: it needs TLBF_IMPL, an implementation
# to compare against, which continuous fuzzing of this project alone does
# not have.
src=${SRC:+$SRC/tlbf}
src=${src:-$(cd "$(dirname "$0")/.." && pwd)}
out=${OUT:?set OUT to the output directory}
work=${WORK:-$(mktemp -d)}

cmake -S "$src/fuzz/standalone" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DCMAKE_C_FLAGS="${CFLAGS:-}" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" \
  -DTLBF_FUZZ_ENGINE="${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE, e.g. -fsanitize=fuzzer}"
targets=(from_bytes ops inprocess_example)
if grep -q '^CARGO:FILEPATH=.*cargo$' "$work/build/CMakeCache.txt"; then
  targets+=(inprocess_rust)
fi
cmake --build "$work/build" --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"

for target in "${targets[@]}"; do
  cp "$work/build/fuzz/fuzz_$target" "$out/"
  cp "$src/fuzz/tlbf.dict" "$out/fuzz_$target.dict"
  case "$target" in
    ops) corpus=$src/fuzz/corpus/ops; options='max_len = 1024' ;;
    *)   corpus=$src/conformance/corpus/from_bytes; options=$'max_len = 4096\nmalloc_limit_mb = 64' ;;
  esac
  if [ -n "$(ls -A "$corpus" 2>/dev/null)" ]; then
    rm -f "$out/fuzz_${target}_seed_corpus.zip"
    (cd "$corpus" && zip -q -j "$out/fuzz_${target}_seed_corpus.zip" ./*)
  fi
  printf '[libfuzzer]\n%s\n' "$options" > "$out/fuzz_$target.options"
done
