#!/usr/bin/env bash
# The in-process harness on the C example with its planted padding bug
# (fuzz/examples/c): the reproducer must abort with the finding's lines,
# and the transcript it writes must replay with tlbf check: the oracle
# (tlbf serve) passes it, a protocol implementation with the same bug fails it.
#   inprocess_finding.sh REPLAY_BINARY INPUT WORK_DIR TLBF SOURCE_DIR
set -uo pipefail
binary=$1 input=$2 work=$3 tlbf=$4 source=$5
fail() { echo "inprocess finding: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
TLBF_FUZZ_REPRO_DIR=$work/repro TLBF_IMPL= "$binary" "$input" >"$work/out" 2>&1
rc=$?
cat "$work/out"
[ "$rc" -ne 0 ] || fail "the planted bug's input gave no finding"
signature=oracle-vs-example-from_bytes-accepts
for line in "tlbf fuzz: $signature" "request: from_bytes f 544c4246" "oracle: err Format" "example: ok" \
            "first difference: the oracle refuses: Format: padding" "transcript: $work/repro/$signature.transcript" \
            "replay: tlbf check --impl 'YOUR PROTOCOL SERVER' --transcript $work/repro/$signature.transcript"; do
  grep -qF -- "$line" "$work/out" || fail "no line '$line' in the finding"
done
transcript=$work/repro/$signature.transcript
[ -f "$transcript" ] || fail "no transcript $transcript"
"$tlbf" check --impl "$tlbf serve" --transcript "$transcript" >"$work/oracle.log" 2>&1 \
  || { cat "$work/oracle.log"; fail "the transcript does not pass against tlbf serve: it must hold the oracle's answers"; }
"$tlbf" check --impl "python3 $source/conformance/tests/bug_bank/buggy_impl.py padding_off_by_one" \
  --transcript "$transcript" >"$work/buggy.log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { cat "$work/buggy.log"; fail "replayed on the same bug behind the protocol: exit $rc, not 1"; }
echo "inprocess finding: reported, and its transcript replays"
