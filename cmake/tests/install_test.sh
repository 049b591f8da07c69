#!/usr/bin/env bash
# Installs the build into a fresh prefix and uses it from there as a user
# would, with nothing of the build folder on PATH: the installed tlbf checks
# its own serve, finds tlbf-mutant where it was installed and grades its own
# check with `tlbf mutate`, and a project outside tlbf builds against the
# installed oracle with find_package(tlbf) and reproduces the worked example.
# `tlbf mutate --html` inlines the installed viewer, and says so when it is gone.
#   install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR CONFIG CXX_COMPILER GENERATOR BINDIR MUTANT_DIR DATADIR DOCDIR
#                   VIEWER_DIR BUILT_VIEWER
# (BINDIR to VIEWER_DIR are the install folders, relative to the prefix;
# BUILT_VIEWER is the viewer bundle the build fetched, "" when it has none).
set -euo pipefail
build=$1 source=$2 work=$3 config=$4 cxx=$5 generator=$6
bindir=$7 mutantdir=$8 datadir=$9 docdir=${10} viewerdir=${11} built_viewer=${12}

fail() { echo "install test: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" --config "$config" >"$work/install.log"

# The system's folders and the installed bin, nothing else: a tlbf or
# tlbf-mutant found in the build tree would hide a broken install.
export PATH="$prefix/$bindir:/usr/local/bin:/usr/bin:/bin"
[ "$(command -v tlbf)" = "$prefix/$bindir/tlbf" ] || fail "tlbf on PATH is $(command -v tlbf), not the installed one"
[ ! -e "$prefix/$bindir/tlbf-mutant" ] || fail "tlbf-mutant is in $bindir; it belongs in $mutantdir"
[ -x "$prefix/$mutantdir/tlbf-mutant" ] || fail "no $mutantdir/tlbf-mutant"

for f in README.md format.md protocol.md vectors.md check.md mutants.md cli.md; do
  [ -f "$prefix/$docdir/$f" ] || fail "no $docdir/$f"
done
[ "$(ls "$prefix/$datadir/tlbf/vectors/"tlbf_*_v1.json | wc -l)" -eq "$(ls "$source/vectors/"tlbf_*_v1.json | wc -l)" ] \
  || fail "not every vector file is in $datadir/tlbf/vectors"
# The installed vectors must be whole: the lint reads each against its schema's shape.
tlbf vectors lint "$prefix/$datadir/tlbf/vectors" >"$work/lint.log" 2>&1 || { cat "$work/lint.log"; fail "the installed vectors do not pass the lint"; }
[ -f "$prefix/$datadir/tlbf/vectors/schema/tlbf_common_v1.schema.json" ] || fail "no schemas beside the vectors"

cd "$work"
# The oracle answers the specification's hash of cat; mutant s10 (FNV-1 for
# FNV-1a) answers something else, which proves tlbf-mutant was found and ran.
[ "$(printf 'fnv1a64 636174\n' | tlbf serve)" = "ok f5e307190ce4a327" ] || fail "tlbf serve: wrong fnv1a64(cat)"
s10=$(printf 'fnv1a64 636174\n' | tlbf serve --mutant s10 2>&1) || fail "tlbf serve --mutant s10 failed: $s10"
case "$s10" in
  "ok f5e307190ce4a327") fail "tlbf serve --mutant s10 served the oracle, not the mutant" ;;
  "ok "*) ;;
  *) fail "tlbf serve --mutant s10 answered '$s10'" ;;
esac

tlbf check >"$work/check.log" 2>&1 || { cat "$work/check.log"; fail "tlbf check (against its own serve) failed"; }
viewer=$prefix/$viewerdir/mutation-test-elements.js
html=()
if [ -n "$built_viewer" ]; then
  cmp -s "$built_viewer" "$viewer" || fail "no $viewerdir/mutation-test-elements.js, or not the one the build fetched"
  [ -f "$prefix/$viewerdir/mutation-testing-elements.LICENSE" ] || fail "the viewer's licence is not beside it"
  html=(--html "$work/mutate.html")
fi
# One clean run and one run a mutant, and a suite that stops at its first
# failing cases: what is tested here is the install (tlbf-mutant found, every
# mutant served and killed, the viewer inlined), not tlbf mutate's confirming
# runs, which the mutate_* tests hold; the default's 26 runs of the whole
# check took half a minute of the test's 82 s.
quick=(--baseline-runs 1 --control-runs 0 --confirm-runs 1)
tlbf mutate "${quick[@]}" --json "$work/mutate.json" "${html[@]}" -- tlbf check --max-failures 1 >"$work/mutate.log" 2>&1 \
  || { cat "$work/mutate.log"; fail "tlbf mutate -- tlbf check failed"; }
# Every mutant killed by its own test, not by a failure to start it.
python3 - "$work/mutate.json" <<'PY' || fail "tlbf mutate's report: see above"
import json, sys
report = json.load(open(sys.argv[1]))
statuses = [m["status"] for f in report["files"].values() for m in f["mutants"]]
print("mutants:", len(statuses), "statuses:", sorted(set(statuses)))
sys.exit(0 if len(statuses) == 10 and set(statuses) == {"Killed"} else 1)
PY
if [ -n "$built_viewer" ]; then
  # The page carries the installed viewer whole, and the report.
  python3 - "$work/mutate.html" "$viewer" <<'PY' || fail "tlbf mutate --html did not inline the installed viewer"
import sys
page, viewer = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sys.exit(0 if "<script>\n" + viewer + "\n</script>" in page and '"id": "s10"' in page else 1)
PY
  mv "$viewer" "$work/viewer.js"
fi
# Without the viewer, --html is a usage error before the suite ever runs.
if tlbf mutate --html "$work/no-viewer.html" -- sh -c "touch '$work/suite-ran'" >"$work/no-viewer.log" 2>&1; then
  fail "tlbf mutate --html succeeded without its viewer"
else
  rc=$?
fi
[ "$rc" -eq 2 ] || { cat "$work/no-viewer.log"; fail "tlbf mutate --html without its viewer: exit $rc, not 2"; }
grep -q "cannot find mutation-test-elements.js" "$work/no-viewer.log" || { cat "$work/no-viewer.log"; fail "no clear message without the viewer"; }
[ ! -e "$work/suite-ran" ] && [ ! -e "$work/no-viewer.html" ] || fail "tlbf mutate ran the suite or wrote a page without its viewer"
[ -z "$built_viewer" ] || mv "$work/viewer.js" "$viewer"

# Each installed kit.json says what its source's says, but for the folders,
# which it names beside it (TlbfInstall.cmake writes it field by field).
for kind in protocol python rust; do
  python3 - "$source/mutants/kits/$kind/kit.json" "$prefix/share/tlbf/grade-kits/$kind/kit.json" <<'PY' \
    || fail "the installed $kind kit.json differs from its source's"
import json, sys
source, installed = (json.load(open(path)) for path in sys.argv[1:])
folders = {"reference", "wheats", "chaffs", "patches", "sanity_patch"}
def words(kit):
    out = {k: v for k, v in kit.items() if k not in folders and k != "variants"}
    out["variants"] = {k: v for k, v in kit["variants"].items() if k not in {"from", "mutants"}}
    return out
if words(source) != words(installed):
    sys.exit("%s: %s\n%s: %s" % (sys.argv[1], words(source), sys.argv[2], words(installed)))
PY
done

# tlbf grade from the prefix alone: its Python kit (the reference, patches,
# wheats) installed in share/tlbf/grade-kits, two learners of the tests' class.
mkdir -p "$work/class"
cp -r "$source/mutants/tests/class/python/alice" "$source/mutants/tests/class/python/bob" "$work/class/"
# With one run of each suite, as tlbf mutate above: the verdicts are the test's.
TMPDIR=/tmp "$prefix/$bindir/tlbf" grade "${quick[@]}" --kind python "$work/class" -o "$work/grade" --chaffs none >"$work/grade.log" 2>&1 \
  || { cat "$work/grade.log"; fail "tlbf grade --kind python from the prefix failed"; }
grep -Eq '^alice +meets' "$work/grade.log" && grep -Eq '^bob +short' "$work/grade.log" \
  || { cat "$work/grade.log"; fail "tlbf grade from the prefix gave alice and bob the wrong verdicts"; }
grep -q "$prefix/share/tlbf/grade-kits/python/kit.json" "$work/grade.log" \
  || { cat "$work/grade.log"; fail "tlbf grade did not use the installed kit"; }
# ... and its protocol kit: the oracle's mutants from the installed
# tlbf-mutant, the wheats and chaffs made from the installed Python implementation.
mkdir -p "$work/protocol-class"
cp -r "$source/mutants/tests/class/protocol/alice" "$source/mutants/tests/class/protocol/carol" "$work/protocol-class/"
TMPDIR=/tmp "$prefix/$bindir/tlbf" grade "${quick[@]}" --kind protocol "$work/protocol-class" -o "$work/protocol-grade" --chaffs none \
  >"$work/protocol-grade.log" 2>&1 || { cat "$work/protocol-grade.log"; fail "tlbf grade --kind protocol from the prefix failed"; }
grep -Eq '^alice +meets +10/10' "$work/protocol-grade.log" && grep -Eq '^carol +rejects-correct' "$work/protocol-grade.log" \
  || { cat "$work/protocol-grade.log"; fail "tlbf grade --kind protocol from the prefix gave alice and carol the wrong verdicts"; }
grep -q "$prefix/share/tlbf/grade-kits/protocol/kit.json" "$work/protocol-grade.log" \
  || { cat "$work/protocol-grade.log"; fail "tlbf grade did not use the installed protocol kit"; }

# tlbf check's adapters from the prefix alone: a Python module with the
# course's API, and (where cargo is) the bundled crate through the installed Rust server.
XDG_CACHE_HOME="$work/cache" "$prefix/$bindir/tlbf" check --python-module "$source/conformance/tests/adapters/seed_bloom.py" \
  >"$work/adapter.log" 2>&1 || { cat "$work/adapter.log"; fail "tlbf check --python-module from the prefix failed"; }
if command -v cargo >/dev/null 2>&1 || [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ]; then
  XDG_CACHE_HOME="$work/cache" "$prefix/$bindir/tlbf" check --rust-crate "$source/conformance/impls/rust" \
    >"$work/rust-adapter.log" 2>&1 || { cat "$work/rust-adapter.log"; fail "tlbf check --rust-crate from the prefix failed"; }
fi

# A project outside tlbf: only the installed package, no package registry.
cmake -S "$source/cmake/tests/consumer" -B "$work/consumer" -G "$generator" \
  -DCMAKE_BUILD_TYPE="$config" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/consumer.log" 2>&1 \
  || { cat "$work/consumer.log"; fail "the consumer project does not configure"; }
cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "the consumer project does not build"; }
if grep -q "$source/oracle" "$work/consumer/compile_commands.json"; then
  fail "the consumer compiled against the source tree, not the installed headers"
fi
"$work/consumer/worked_example" || fail "the consumer did not reproduce the worked example"
echo "install test: all passed (prefix $prefix)"
