#!/bin/sh
# Installs the npm package mutation-testing-report-schema, pinned by
# report-schema/package-lock.json, into DEST (a folder of the build tree), for
# the tests that validate tlbf mutate --json against it. A ctest fixture runs
# it; npm reuses its cache, so only the first run needs the registry.
#   install_report_schema.sh SOURCE_FOLDER DEST
set -eu
src=$1
dest=$2
schema=node_modules/mutation-testing-report-schema/dist/src/mutation-testing-report-schema.json
if ! command -v npm >/dev/null; then
  echo "npm is missing: scripts/setup installs it (the report tests validate against an npm package)" >&2
  exit 1
fi
mkdir -p "$dest"
if [ -f "$dest/$schema" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
  exit 0  # installed from this lock file already
fi
cp "$src/package.json" "$src/package-lock.json" "$dest/"
cd "$dest"
npm ci --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error
test -f "$schema" || { echo "npm installed mutation-testing-report-schema without $schema" >&2; exit 1; }
