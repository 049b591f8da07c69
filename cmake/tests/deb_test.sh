#!/usr/bin/env bash
# Makes the Debian package of the build (cmake/TlbfPackage.cmake) and checks
# that apt would install it here, that it holds the installed layout below
# /usr, and that its tlbf, unpacked, finds its tlbf-mutant. It does not
# install the package: that would change the machine for everyone on it.
#   deb_test.sh BUILD_DIR WORK_DIR BINDIR MUTANT_DIR DATADIR LIBDIR BUILT_VIEWER
# (BUILT_VIEWER: the viewer of tlbf mutate --html the build fetched, "" when none)
set -euo pipefail
build=$1 work=$2 bindir=$3 mutantdir=$4 datadir=$5 libdir=$6 built_viewer=${7:-}

fail() { echo "deb test: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
(cd "$build" && cpack -G DEB -B "$work" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack failed"; }
debs=("$work"/tlbf_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single tlbf_*.deb: ${debs[*]}"
deb=${debs[0]}

dpkg-deb -c "$deb" | awk '{print $NF}' >"$work/contents"
for path in "$bindir/tlbf" "$mutantdir/tlbf-mutant" "$mutantdir/tlbf-relay" "$datadir/tlbf/vectors/tlbf_hash_v1.json" \
            "$datadir/tlbf/vectors/schema/tlbf_common_v1.schema.json" "include/tlbf/oracle.hpp" \
            "$libdir/cmake/tlbf/tlbfConfig.cmake" "share/doc/tlbf/format.md" \
            "$datadir/tlbf/grade-kits/python/kit.json" "$datadir/tlbf/grade-kits/rust/reference/src/bloom.rs" \
            "$datadir/tlbf/grade-kits/protocol/kit.json" "$datadir/tlbf/grade-kits/protocol/course/tlbf_client.py" \
            "$datadir/tlbf/grade-kits/protocol/variants/tlbf_impl.py" "$datadir/tlbf/adapters/python/tlbf_adapter.py" \
            "$datadir/tlbf/adapters/python/tlbf_impl.py" "$datadir/tlbf/adapters/rust/main.rs" \
            "share/doc/tlbf/copyright" "share/doc/tlbf/LICENSE"; do
  grep -qx "./usr/$path" "$work/contents" || fail "the package has no /usr/$path"
done
if [ -n "$built_viewer" ]; then
  for path in "$datadir/tlbf/mutation-test-elements.js" "$datadir/tlbf/mutation-testing-elements.LICENSE"; do
    grep -qx "./usr/$path" "$work/contents" || fail "the package has no /usr/$path"
  done
fi
# The man page, where help2man made one (scripts/setup installs it): every command's help in it.
if [ -f "$build/cli/tlbf.1" ]; then
  grep -qx "./usr/share/man/man1/tlbf.1" "$work/contents" || fail "the package has no /usr/share/man/man1/tlbf.1"
  for command in check grade mutate serve; do
    grep -q "^\.SS \"tlbf $command\"" "$build/cli/tlbf.1" || fail "the man page has no section for tlbf $command"
  done
fi
depends=$(dpkg-deb -f "$deb" Depends)
case "$depends" in *libc6*libstdc++6*|*libstdc++6*libc6*) ;; *) fail "Depends is '$depends'; it should name libc6 and libstdc++6" ;; esac

# apt's own verdict, simulated: the package and its dependencies resolve here.
apt-get install --simulate --no-install-recommends "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt refuses the package"; }
grep -q '^Inst tlbf ' "$work/apt.log" || { cat "$work/apt.log"; fail "apt would not install tlbf"; }

dpkg-deb -x "$deb" "$work/root"
answer=$(printf 'fnv1a64 636174\n' | "$work/root/usr/$bindir/tlbf" serve --mutant s10 2>&1) || fail "the packaged tlbf serve --mutant s10 failed: $answer"
case "$answer" in
  "ok f5e307190ce4a327") fail "the packaged tlbf serve --mutant s10 served the oracle" ;;
  "ok "*) ;;
  *) fail "the packaged tlbf serve --mutant s10 answered '$answer'" ;;
esac
echo "deb test: $(basename "$deb") passed (Depends: $depends)"
