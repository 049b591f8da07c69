#!/usr/bin/env bash
# tlbf grade on a class of ten Rust learners against its floor, both measured
# here and now (docs/mutants.md, "For course authors").
#   bench/grade_rust.sh TLBF [JOBS]
# The class: ten learners, the strong, weak and own-crate suites of the tests'
# class (mutants/tests/class/rust: alice, bob, heidi) in turn, each file made
# the learner's own by a comment, so that no report is reused.
# The floor: one incremental rebuild-and-test of a tests file in one warmed
# copy of the crate (the file replaced by the next learner's, `cargo test
# --test ds08_bloom`), the median of six, times the runs one learner's
# grading makes, divided by JOBS.
# Goal: each learner after the first within 1.5x of that floor at -j 2.
set -euo pipefail
cd "$(dirname "$0")/.."
tlbf=$(realpath "$1")
jobs=${2:-$(nproc)}
crate=conformance/impls/rust
scratch=$(mktemp -d /tmp/tlbf-bench-grade-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$scratch/class"
learners=(alice bob heidi)
for i in $(seq 1 10); do
  from=${learners[$(( (i - 1) % 3 ))]}
  name=$(printf 'learner%02d-%s' "$i" "$from")
  mkdir -p "$scratch/class/$name/tests"
  { echo "// learner $i"; cat "mutants/tests/class/rust/$from/tests/ds08_bloom.rs"; } >"$scratch/class/$name/tests/ds08_bloom.rs"
done

cp -a "$crate" "$scratch/floor"
rm -rf "$scratch/floor/target"
cp mutants/tests/class/rust/alice/tests/ds08_bloom.rs "$scratch/floor/tests/ds08_bloom.rs"
(cd "$scratch/floor" && cargo test --offline -q --test ds08_bloom >/dev/null 2>&1)  # the warm build, not counted
times=()
for i in 1 2 3 4 5 6; do
  cp "mutants/tests/class/rust/${learners[$(( i % 3 ))]}/tests/ds08_bloom.rs" "$scratch/floor/tests/ds08_bloom.rs"
  start=$(date +%s.%N)
  (cd "$scratch/floor" && cargo test --offline -q --test ds08_bloom >/dev/null 2>&1)
  end=$(date +%s.%N)
  times+=("$(python3 -c "print($end - $start)")")
done

start=$(date +%s.%N)
TMPDIR=$scratch "$tlbf" grade --kind rust "$scratch/class" -o "$scratch/out" -j "$jobs" --chaffs none \
  >"$scratch/grade.log" 2>"$scratch/grade.err" || { cat "$scratch/grade.log" "$scratch/grade.err"; exit 1; }
end=$(date +%s.%N)
python3 - "$scratch" "$jobs" "$(python3 -c "print($end - $start)")" "${times[@]}" <<'PY'
import json, os, re, statistics, sys
scratch, jobs, total = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
floor_run = statistics.median(float(t) for t in sys.argv[4:])
per_learner = [float(s) for s in re.findall(r": \w[\w-]* in ([0-9.]+) s", open(os.path.join(scratch, "grade.err")).read())]
learners = os.path.join(scratch, "out/learners")
report = json.load(open(os.path.join(learners, sorted(f for f in os.listdir(learners) if f.endswith(".json"))[0])))
c = report["config"]
runs = c["baselineRuns"] + sum(w["runs"] for w in c["wheats"]) + 1 + c["ran"] * c["confirmRuns"] + c["controlRuns"]
floor = floor_run * runs / jobs
print(f"floor: one incremental rebuild-and-test of a tests file {floor_run:.2f} s (median of 6); "
      f"{runs} runs a learner / {jobs} jobs = {floor:.2f} s a learner")
print(f"tlbf grade, 10 learners at -j {jobs}: {total:.1f} s in all")
print("per learner: " + ", ".join(f"{s:.1f}" for s in per_learner) + " s")
later = per_learner[1:]
print(f"learners after the first: mean {statistics.mean(later):.1f} s = {statistics.mean(later) / floor:.2f}x the floor, "
      f"worst {max(later) / floor:.2f}x (goal: at most 1.5x)")
PY
