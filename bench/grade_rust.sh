#!/usr/bin/env bash
# tlbf grade on a class of ten Rust learners against its floor, both measured
# here and now (docs/mutants.md, "For course authors").
#   bench/grade_rust.sh TLBF [JOBS]     CHAFFS=bundled for the kit's chaffs (default none)
# The class: ten learners, the strong, weak and own-crate suites of the tests'
# class (mutants/tests/class/rust: alice, bob, heidi) in turn, each file made
# the learner's own by a comment, so that no report is reused.
# The floor, what a learner cannot cost less than: their tests built once
# (an incremental `cargo test --no-run` of the tests file in a warmed copy of
# the binding crate, the file replaced by the next learner's) plus one run of
# the test binary per subject (against `tlbf serve`, the oracle, started by the
# binding), the medians of six, the runs times the runs one learner's grading
# makes divided by JOBS.
# Goal: each learner after the first within 1.5x of that floor at -j 2.
set -euo pipefail
cd "$(dirname "$0")/.."
tlbf=$(realpath "$1")
jobs=${2:-$(nproc)}
chaffs=${CHAFFS:-none}
crate=mutants/kits/rust/course
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
mkdir -p "$scratch/floor/tests"
build() {  # prints the test executable cargo names
  (cd "$scratch/floor" && cargo test --offline --no-run --message-format=json-render-diagnostics --test ds08_bloom 2>/dev/null) |
    python3 -c 'import json, sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable"): print(m["executable"])'
}
cp mutants/tests/class/rust/alice/tests/ds08_bloom.rs "$scratch/floor/tests/ds08_bloom.rs"
build >/dev/null  # the warm build, not counted
builds=() runs=()
for i in 1 2 3 4 5 6; do
  { echo "// floor $i"; cat "mutants/tests/class/rust/${learners[$(( i % 3 ))]}/tests/ds08_bloom.rs"; } >"$scratch/floor/tests/ds08_bloom.rs"
  start=$(date +%s.%N)
  exe=$(build)
  end=$(date +%s.%N)
  builds+=("$(python3 -c "print($end - $start)")")
  start=$(date +%s.%N)
  (cd "$scratch/floor" && TLBF_IMPL="$tlbf serve" "$exe" -q >/dev/null 2>&1)
  end=$(date +%s.%N)
  runs+=("$(python3 -c "print($end - $start)")")
done

start=$(date +%s.%N)
TMPDIR=$scratch "$tlbf" grade --kind rust "$scratch/class" -o "$scratch/out" -j "$jobs" --chaffs "$chaffs" \
  >"$scratch/grade.log" 2>"$scratch/grade.err" || { cat "$scratch/grade.log" "$scratch/grade.err"; exit 1; }
end=$(date +%s.%N)
python3 - "$scratch" "$jobs" "$(python3 -c "print($end - $start)")" "${builds[*]}" "${runs[*]}" <<'PY'
import json, os, re, statistics, sys
scratch, jobs, total = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
build = statistics.median(float(t) for t in sys.argv[4].split())
run = statistics.median(float(t) for t in sys.argv[5].split())
err = open(os.path.join(scratch, "grade.err")).read()
warmed = float(re.search(r"the reference warmed in ([0-9.]+) s", err).group(1))
per_learner = [float(s) for s in re.findall(r": \w[\w-]* in ([0-9.]+) s", err)]
learners = os.path.join(scratch, "out/learners")
report = json.load(open(os.path.join(learners, sorted(f for f in os.listdir(learners) if f.endswith(".json"))[0])))
c = report["config"]
chaffs = c["chaffs"]["ran"] if c.get("chaffs") else 0
runs = c["baselineRuns"] + sum(w["runs"] for w in c["wheats"]) + 1 + (c["ran"] + chaffs) * c["confirmRuns"] + c["controlRuns"]
floor = build + run * runs / jobs
print(f"floor: the tests built once {build:.2f} s + one run of the test binary {run:.2f} s x {runs} runs "
      f"/ {jobs} jobs = {floor:.2f} s a learner (medians of 6)")
print(f"tlbf grade, 10 learners at -j {jobs}, chaffs {'%d' % chaffs if chaffs else 'none'}: {total:.1f} s in all "
      f"(the class's warm-up {warmed:.1f} s)")
print("per learner: " + ", ".join(f"{s:.1f}" for s in per_learner) + " s")
later = per_learner[1:]
print(f"learners after the first: mean {statistics.mean(later):.1f} s = {statistics.mean(later) / floor:.2f}x the floor, "
      f"worst {max(later) / floor:.2f}x (goal: at most 1.5x)")
PY
