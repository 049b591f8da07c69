#!/usr/bin/env bash
# An OSS-Fuzz style build script run as the infrastructure runs it: with
# only the variables the engine sets (CC, CXX, CFLAGS, CXXFLAGS,
# LIB_FUZZING_ENGINE, SRC, OUT, WORK) besides PATH and HOME, the checkout
# at $SRC/tlbf. Every target it ships must be in $OUT with its dictionary,
# options and seed corpus, and run its seed corpus and a few hundred more
# inputs (at least its corpus) without a finding. Exit 77 (skipped) where clang cannot link libFuzzer.
#   build_sh_test.sh SCRIPT SOURCE_DIR WORK_DIR
# SCRIPT: fuzz/build.sh or .clusterfuzzlite/build.sh, relative to SOURCE_DIR.
set -uo pipefail
script=$1 source=$2 work=$3
fail() { echo "build.sh test ($script): $*" >&2; exit 1; }

cc=$(command -v clang-14 || command -v clang || true)
cxx=$(command -v clang++-14 || command -v clang++ || true)
rm -rf "$work"
mkdir -p "$work/src" "$work/out" "$work/work"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$work/probe.c"
if [ -z "$cc" ] || [ -z "$cxx" ] || ! "$cc" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
  echo "build.sh test: skipped: no clang that links libFuzzer (scripts/setup installs clang-14 and libclang-rt-14-dev)"
  exit 77
fi
ln -s "$source" "$work/src/tlbf"
# OSS-Fuzz's flags for an ASan build with libFuzzer.
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
env -i PATH="$PATH" HOME="$HOME" CC="$cc" CXX="$cxx" CFLAGS="$flags" CXXFLAGS="$flags" \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer SRC="$work/src" OUT="$work/out" WORK="$work/work" \
  bash "$source/$script" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "the build failed"; }

expected=(from_bytes ops inprocess_example)
if command -v cargo >/dev/null || [ -x "$HOME/.cargo/bin/cargo" ]; then expected+=(inprocess_rust); fi
for t in "${expected[@]}"; do
  for f in "fuzz_$t" "fuzz_$t.dict" "fuzz_$t.options" "fuzz_${t}_seed_corpus.zip"; do
    [ -f "$work/out/$f" ] || fail "no $f in \$OUT"
  done
  mkdir -p "$work/seeds/$t"
  (cd "$work/seeds/$t" && python3 -c "import zipfile, sys; zipfile.ZipFile(sys.argv[1]).extractall('.')" "$work/out/fuzz_${t}_seed_corpus.zip")
  max_len=$(sed -n 's/^max_len = //p' "$work/out/fuzz_$t.options")
  (cd "$work/out" && "./fuzz_$t" -runs=500 -seed=1 -max_len="$max_len" -dict="fuzz_$t.dict" "$work/seeds/$t") >"$work/$t.log" 2>&1 \
    || { tail -20 "$work/$t.log"; fail "fuzz_$t: a finding on its own seed corpus"; }
  grep -qE '^Done [0-9]+ runs' "$work/$t.log" || { tail -5 "$work/$t.log"; fail "fuzz_$t did not finish its runs"; }
done
[ ! -e "$work/out/fuzz_diff" ] || fail "fuzz_diff is shipped; it needs TLBF_IMPL, which the infrastructure has not"
echo "build.sh test ($script): shipped and ran ${expected[*]}"
