#!/bin/bash -eu
# OSS-Fuzz style build (docs/fuzzing.md): builds the fuzz targets with only
# what the infrastructure provides, $CC, $CXX, $CXXFLAGS and
# $LIB_FUZZING_ENGINE, and puts them in $OUT with their seed corpora and
# dictionary. $SRC/tlbf is the checkout (default: this script's repository).
#
# fuzz_diff is not shipped: it needs TLBF_IMPL, an implementation to compare
# against, which continuous fuzzing of this project alone does not have.
src=${SRC:+$SRC/tlbf}
src=${src:-$(cd "$(dirname "$0")/.." && pwd)}
out=${OUT:?set OUT to the output directory}
work=${WORK:-$(mktemp -d)}

cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" \
  -DTLBF_BUILD_TESTS=OFF -DTLBF_FUZZ_ENGINE="${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE, e.g. -fsanitize=fuzzer}"
cmake --build "$work/build" --parallel "$(nproc)" --target fuzz_from_bytes fuzz_ops

for target in from_bytes ops; do
  cp "$work/build/fuzz/fuzz_$target" "$out/"
  cp "$src/fuzz/tlbf.dict" "$out/fuzz_$target.dict"
  corpus=$src/fuzz/corpus/$target
  if [ -n "$(ls -A "$corpus" 2>/dev/null)" ]; then
    (cd "$corpus" && zip -q -j "$out/fuzz_${target}_seed_corpus.zip" ./*)
  fi
done
printf '[libfuzzer]\nmax_len = 4096\nmalloc_limit_mb = 64\n' > "$out/fuzz_from_bytes.options"
printf '[libfuzzer]\nmax_len = 1024\n' > "$out/fuzz_ops.options"
