#!/usr/bin/env bash
# tlbf grade on a class of Rust learners against its floor, both measured
# here and now (docs/mutants.md, "For course authors").
#   bench/grade_rust.sh TLBF [JOBS]     CHAFFS=bundled for the kit's chaffs (default none)
#                                       LEARNERS=N for the class's size (default 10)
#                                       NO_REPLAY=1 to grade with --no-replay
#                                       KEEP=DIR to keep the reports and the log
#                                       CACHE=DIR for the built variants' cache (default: a new,
#                                       empty one, so the warm-up builds every variant)
# The class: N learners, the strong, weak and own-crate suites of the tests'
# class (mutants/tests/class/rust: alice, bob, heidi) in turn, each file made
# the learner's own by a comment, so that no report is reused.
# The floor, what a learner cannot cost less than: their tests built once
# (an incremental `cargo test --no-run` of the tests file in a warmed copy of
# the binding crate, the file replaced by the next learner's) plus one run of
# the test binary per subject (against `tlbf serve`, the oracle, started by the
# binding), the median of three runs of that learner's suite, times the subjects one learner
# is graded against (the reference, each wheat, the sanity check's broken subject, each mutant and
# each chaff: issue 36's floor, one run per subject) divided by JOBS.
# Goal: the learners after the first within 1.5x of the sum of their floors at -j 2, and a class of
# 40 within 10 minutes (issue 36).
set -euo pipefail
cd "$(dirname "$0")/.."
tlbf=$(realpath "$1")
jobs=${2:-$(nproc)}
chaffs=${CHAFFS:-none}
count=${LEARNERS:-10}
case "$count" in ''|*[!0-9]*|0) echo "bench/grade_rust.sh: LEARNERS must be a whole number above 0, not '$count'" >&2; exit 2 ;; esac
replay=()
[ -n "${NO_REPLAY:-}" ] && replay=(--no-replay)
crate=mutants/kits/rust/course
scratch=$(mktemp -d /tmp/tlbf-bench-grade-XXXXXX)
# KEEP=DIR keeps the grading's reports and log there.
trap '[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp -a "$scratch/out" "$scratch/grade.err" "$KEEP/" 2>/dev/null; rm -rf "$scratch"' EXIT

mkdir -p "$scratch/class"
learners=(alice bob heidi)
for i in $(seq 1 "$count"); do
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
for i in 1 2 3 4 5 6 7 8 9; do
  suite=${learners[$(( i % 3 ))]}
  { echo "// floor $i"; cat "mutants/tests/class/rust/$suite/tests/ds08_bloom.rs"; } >"$scratch/floor/tests/ds08_bloom.rs"
  start=$(date +%s.%N)
  exe=$(build)
  end=$(date +%s.%N)
  builds+=("$(python3 -c "print($end - $start)")")
  start=$(date +%s.%N)
  (cd "$scratch/floor" && TLBF_IMPL="$tlbf serve" "$exe" -q >/dev/null 2>&1)
  end=$(date +%s.%N)
  runs+=("$suite:$(python3 -c "print($end - $start)")")
done

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s.%N)
TMPDIR=$scratch TLBF_CACHE_DIR=${CACHE:-$scratch/cache} "$tlbf" grade --kind rust "$scratch/class" -o "$scratch/out" -j "$jobs" --chaffs "$chaffs" "${replay[@]}" \
  >"$scratch/grade.log" 2>"$scratch/grade.err" || { cat "$scratch/grade.log" "$scratch/grade.err"; exit 1; }
end=$(date +%s.%N)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$scratch" "$jobs" "$(python3 -c "print($end - $start)")" "${builds[*]}" "${runs[*]}" "$load_before" "$load_after" <<'PY'
import json, os, re, statistics, sys
scratch, jobs, total = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
load_before, load_after = sys.argv[6], sys.argv[7]
build = statistics.median(float(t) for t in sys.argv[4].split())
# Each suite's own run: a learner's floor is their own test binary's (a strong suite's run
# takes longer than a weak one's, and the grading's runs are theirs).
by_suite = {}
for entry in sys.argv[5].split():
    suite, seconds = entry.split(":")
    by_suite.setdefault(suite, []).append(float(seconds))
run_of = {suite: statistics.median(times) for suite, times in by_suite.items()}
err = open(os.path.join(scratch, "grade.err")).read()
warm_line = re.search(r"the reference warmed in ([0-9.]+) s(?: \(the kit's variants: (\d+) built, (\d+) from the cache\))?", err)
warmed = float(warm_line.group(1))
variants = (f", variants {warm_line.group(2)} built, {warm_line.group(3)} from the cache" if warm_line.group(2) else "")
graded = re.findall(r"\[\d+/\d+\] (\S+): [\w-]+ in ([0-9.]+) s", err)
per_learner = [float(s) for _, s in graded]
learners = os.path.join(scratch, "out/learners")
reports = [json.load(open(os.path.join(learners, f))) for f in sorted(os.listdir(learners)) if f.endswith(".json")]
report = reports[0]
c = report["config"]
chaffs = c["chaffs"]["ran"] if c.get("chaffs") else 0
runs = 1 + len(c["wheats"]) + 1 + c["ran"] + chaffs  # one run per subject
floor_of = {suite: build + run * runs / jobs for suite, run in run_of.items()}
print(f"floor: the tests built once {build:.2f} s (median of 9) + one run of the learner's test binary x {runs} subjects "
      f"/ {jobs} jobs: " + ", ".join(f"{suite} {run:.2f} s a run, {floor_of[suite]:.2f} s a learner"
                                     for suite, run in sorted(run_of.items())) + " (medians of 3)")
print(f"tlbf grade, {len(per_learner)} learners at -j {jobs}, chaffs {'%d' % chaffs if chaffs else 'none'}: {total:.1f} s in all "
      f"(the class's warm-up {warmed:.1f} s{variants})")
print("per learner: " + ", ".join(f"{s:.1f}" for s in per_learner) + " s")
later = per_learner[1:]
ratios = [seconds / floor_of[name.rsplit("-", 1)[1]] for name, seconds in [(n, float(s)) for n, s in graded[1:]]]
class_ratio = sum(later) / sum(floor_of[n.rsplit('-', 1)[1]] for n, _ in graded[1:])
print(f"learners after the first: mean {statistics.mean(later):.1f} s; the class's time to the sum of their floors "
      f"{class_ratio:.2f}x (goal: at most 1.5x); to each one's own floor {statistics.mean(ratios):.2f}x on the mean, "
      f"{max(ratios):.2f}x at worst (a weak suite's run costs less than a run's sandbox and relay)")
print(f"a class of 40: the warm-up + 40 x {statistics.mean(later):.1f} s = {(warmed + 40 * statistics.mean(later)) / 60:.1f} min "
      f"(goal: 10 min); load average (1, 5, 15 min) {load_before} before, {load_after} after")

def alone_runs(c):
    """Of those, the runs of only some tests (docs/mutants.md, "The confirming runs run only the tests
    that caught it"): the confirming runs alone, and the clean runs alone."""
    alone = c.get("confirmedAlone") or {}
    confirming = sum(c["killsConfirmedBy"].get(m, 0) - c["confirmRuns"]
                     for m, tests in (alone.get("tests") or {}).items() if tests)
    return confirming, alone.get("controlRuns", 0)

def real_runs(c):
    """The runs of the test binary one report's grading made, replays apart (docs/mutants.md),
    whole or alone."""
    if c.get("stopped"):
        return None
    replayed = set((c.get("replay") or {}).get("replayed") or [])
    required = set(c["require"])
    confirmed = c.get("killsConfirmedBy") or {}
    n = c["baselineRuns"] + sum(w["runs"] for w in c["wheats"]) + 1 + c["controlRuns"]
    r = c.get("replay") or {}
    otherwise = set(r.get("answeredOtherwise") or [])
    for m in report_mutants(c):
        if m in replayed:
            continue
        n += confirmed[m] if m in required and m in confirmed else c["confirmRuns"]
    for ch in (c["chaffs"]["runs"] if c.get("chaffs") else []):
        n += 0 if ch["id"] in replayed else 1 if ch["id"] in otherwise else c["confirmRuns"]
    return n + alone_runs(c)[1]

def report_mutants(c):
    return c["selected"]

print("each learner: real runs of the test binary, subjects replayed, and where the time went "
      "(build = the learner's tests built, baseline = the clean runs, replay, graded = the one shuffled phase "
      "and the runs alone after it)")
for r in reports:
    c, p = r["config"], r["performance"]
    rp = c.get("replay") or {}
    n = real_runs(c)
    graded = p["mutation"] / 1000
    variant = 1 if (rp.get("variantRecorded") or rp.get("variantUnrecorded")) else 0
    print(f"  {c['learner']['name']}: {c['learner']['verdict']}, "
          + (f"{n + variant} real runs ({c['baselineRuns']} clean, {variant} recorded against the variant, "
             f"{n - c['baselineRuns'] - sum(alone_runs(c))} whole in the shuffled phase, {alone_runs(c)[0]} confirming "
             f"and {alone_runs(c)[1]} clean of only some tests), {len(rp.get('replayed') or [])} subjects replayed; "
             if n is not None else "stopped; ")
          + f"build {p['setup'] / 1000:.1f} s, baseline {p['initialRun'] / 1000:.1f} s, "
          + f"replay {rp.get('seconds', 0):.1f} s, graded {graded:.1f} s"
          + (f" ({graded / (n - c['baselineRuns']) * jobs:.2f} s a run, {jobs} at a time)" if n else ""))
PY
