#!/bin/sh
# An adversary's suite (leak_suite.py) graded by tlbf mutate in served mode,
# all of it as an unprivileged user, as a grader should run it: the suite
# tests nothing and tries to learn what it faces from /proc, descriptors and
# the served processes' memory (docs/mutants.md, "What a suite can see"). It
# exits 1 only when it learned a mutant, so any kill is a leak: the test
# passes when every mutant survives (exit 1, score 0/10).
#   leak_test.sh TLBF LEAK_SUITE
# The binaries and the suite are copied into a 0777 folder so that nobody can
# run them wherever the build tree lives; as root the grading runs as nobody.
# Exit 77 (skipped) when there is no nobody to run as.
set -u
tlbf=$1
suite=$2
d=$(mktemp -d /tmp/tlbf-leak-XXXXXX) || exit 2
trap 'rm -rf "$d"' EXIT
chmod 0777 "$d"
cp "$tlbf" "$(dirname "$tlbf")/tlbf-mutant" "$(dirname "$tlbf")/tlbf-relay" "$suite" "$d"/ || exit 2
chmod 0755 "$d/tlbf" "$d/tlbf-mutant" "$d/tlbf-relay"
as=
if [ "$(id -u)" = 0 ]; then
  id nobody >/dev/null 2>&1 || { echo "no user nobody to run as"; exit 77; }
  as="setpriv --reuid=nobody --regid=$(id -gn nobody) --clear-groups"
fi
# Debian's python3: nobody cannot use root's pyenv.
$as env TMPDIR="$d" LEAK_LOG="$d/leak.log" "$d/tlbf" mutate -j 2 --json "$d/report.json" \
  -- /usr/bin/python3 "$d/leak_suite.py" --check-hello >"$d/out" 2>&1
rc=$?
cat "$d/out"
[ -e "$d/leak.log" ] && { echo "--- what the suite learned, run by run:"; sed 's/ side=.*//' "$d/leak.log"; }
[ "$rc" -eq 1 ] && grep -q "^score: 0/10 " "$d/out"
