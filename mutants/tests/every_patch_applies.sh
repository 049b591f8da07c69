#!/bin/sh
# Every planted bug, chaff and sanity patch applies to the implementation it
# patches. A change to an implementation (a faster count_ones, say) can leave
# a patch behind; a grading then stops on it as a harness error, late, and
# only in the slow class tests. This finds it in a second.
#   every_patch_applies.sh SOURCE_DIR
set -eu
source_dir=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
for kind in python rust; do
  for patch in "$source_dir"/mutants/patches/$kind/*.patch "$source_dir"/mutants/chaffs/$kind/*.patch \
               "$source_dir"/mutants/patches/$kind-sanity.patch; do
    [ -f "$patch" ] || continue
    rm -rf "$scratch/copy"
    cp -r "$source_dir/conformance/impls/$kind" "$scratch/copy"
    if ! (cd "$scratch/copy" && patch -p1 --dry-run --force -s <"$patch" >"$scratch/out" 2>&1); then
      echo "does not apply to conformance/impls/$kind: ${patch#"$source_dir"/}"
      sed 's/^/  /' "$scratch/out"
      failed=1
    fi
  done
done
exit $failed
