#!/bin/sh
# Fetches the npm package mutation-testing-elements, pinned by package-lock.json
# beside this script, into WORK (a folder of the build tree) and copies its
# single-file bundle to BUNDLE, where tlbf mutate --html finds it
# (docs/cli.md, "Installing"). The build runs it; npm reuses its cache, so
# only the first build needs the registry.
#   fetch.sh SOURCE_FOLDER WORK BUNDLE
set -eu
src=$1
work=$2
bundle=$3
dist=node_modules/mutation-testing-elements/dist/mutation-test-elements.js
if ! command -v npm >/dev/null; then
  echo "npm is missing: scripts/setup installs it (tlbf mutate --html inlines an npm package)" >&2
  exit 1
fi
mkdir -p "$work"
if ! { [ -s "$work/$dist" ] && cmp -s "$src/package-lock.json" "$work/package-lock.json"; }; then
  cp "$src/package.json" "$src/package-lock.json" "$work/"
  (cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error)
  [ -s "$work/$dist" ] || { echo "npm installed mutation-testing-elements without $dist" >&2; exit 1; }
fi
cp "$work/$dist" "$bundle"
