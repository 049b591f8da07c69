#!/usr/bin/env bash
# tlbf mutate on the Rust crate tl-ds against its floor, both measured here
# and now (docs/mutants.md, "Grading a Rust proptest suite").
#   bench/mutate_rust.sh TLBF [JOBS]
# The floor: the ten planted bugs applied one after another to one warmed
# copy of the crate, each an incremental rebuild and `cargo test`, their total
# divided by JOBS (default: the cores). Goal: the ten mutants' wall time in
# tlbf mutate within 2x the floor (and within 60 s on the 2-core machine).
set -euo pipefail
cd "$(dirname "$0")/.."
tlbf=$(realpath "$1")
jobs=${2:-$(nproc)}
crate=conformance/impls/rust
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cp -a "$crate" "$scratch/floor"
rm -rf "$scratch/floor/target"
(cd "$scratch/floor" && cargo test --offline -q >/dev/null 2>&1)  # the warm build, not counted
floor_total=0
for patch in mutants/patches/rust/s*.patch; do
  patch -d "$scratch/floor" -p1 --batch --silent -i "$(realpath "$patch")"
  start=$(date +%s.%N)
  (cd "$scratch/floor" && cargo test --offline -q >/dev/null 2>&1) || true  # the mutant fails the suite, as it should
  end=$(date +%s.%N)
  patch -d "$scratch/floor" -p1 -R --batch --silent -i "$(realpath "$patch")"
  floor_total=$(python3 -c "print($floor_total + $end - $start)")
done

TMPDIR=$scratch "$tlbf" mutate -j "$jobs" --patches mutants/patches/rust --workdir "$crate" \
  --json "$scratch/report.json" -- cargo test --offline -q | grep -E '^(warm-up|baseline|score)'
python3 - "$scratch/report.json" "$floor_total" "$jobs" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
floor_total, jobs = float(sys.argv[2]), int(sys.argv[3])
floor = floor_total / jobs
mutants = report["performance"]["mutation"] / 1000
ran, controls = report["config"]["ran"], report["config"]["controlRuns"]
print(f"floor: ten incremental rebuild-and-tests {floor_total:.2f} s / {jobs} cores = {floor:.2f} s")
# The mutants' phase also holds the control runs (clean runs hidden among the
# mutants', docs/mutants.md): each is one more rebuild-and-test, so the floor
# for the phase as run has as many more.
per_run = floor / 10
print(f"tlbf mutate, the {ran} mutants and {controls} control runs: {mutants:.2f} s = {mutants / floor:.2f}x the ten-run floor, "
      f"{mutants / (per_run * (ran + controls)):.2f}x a floor of {ran + controls} runs (goal: at most 2x, and 60 s)")
PY
