"""CMakePresets.json mirrors scripts/build: for each configuration, the same
generator, build folder and cache variables, and for fuzz the same targets.
scripts/build is the one CI runs, so it is read as the source and the presets
are checked against it; `cmake --list-presets` checks the file's own form.

    python3 scripts/tests/presets_match_build.py SOURCE_DIR CMAKE
"""
import json
import os
import re
import shlex
import subprocess
import sys

source, cmake = sys.argv[1], sys.argv[2]
script = open(os.path.join(source, "scripts/build")).read()
presets = json.load(open(os.path.join(source, "CMakePresets.json")))
problems = []

# Every -DNAME=VALUE of one configuration's line, and of the line every configuration gets.
common = dict(re.findall(r"-D([A-Z_]+)=(\S+)", re.search(r"^flags\+=\((.*)\)$", script, re.M).group(1)))
lines = dict(re.findall(r"^  (release|asan|fuzz)\)\s+flags=\((.*?)\) ;;$", script, re.M | re.S))
if sorted(lines) != ["asan", "fuzz", "release"]:
    problems.append("scripts/build: cannot read the flags of release, asan and fuzz (found %s)" % sorted(lines))

configure = {p["name"]: p for p in presets["configurePresets"]}
for name, line in lines.items():
    words = shlex.split(line.replace("\n", " "))
    want = dict(common)
    for word in words:
        m = re.match(r"-D([A-Z_0-9]+)=(.*)", word)
        if m:
            value = m.group(2)
            # ${TLBF_FUZZ_CXX:-clang++-14}: the preset holds the default.
            value = re.sub(r"^\$\{[A-Z_]+:-(.*)\}$", r"\1", value)
            want[m.group(1)] = value
    preset = configure.get(name)
    if preset is None:
        problems.append("CMakePresets.json: no configure preset '%s'" % name)
        continue
    if preset.get("cacheVariables") != want:
        problems.append("%s: presets say %s, scripts/build says %s" % (name, preset.get("cacheVariables"), want))
    if preset.get("generator") != "Ninja" or "-G Ninja" not in script:
        problems.append("%s: the generator differs from scripts/build's Ninja" % name)
    if preset.get("binaryDir") != "${sourceDir}/build/" + name or '-B "build/$config"' not in script:
        problems.append("%s: the build folder differs from scripts/build's build/%s" % (name, name))

targets = re.search(r'--target ([a-z_ ]+)\n', script).group(1).split()
fuzz_build = [b for b in presets["buildPresets"] if b["name"] == "fuzz"]
if not fuzz_build or fuzz_build[0].get("targets") != targets:
    problems.append("fuzz: the build preset's targets differ from scripts/build's %s" % targets)

listed = subprocess.run([cmake, "--list-presets=all"], cwd=source, capture_output=True, text=True)
if listed.returncode != 0:
    problems.append("cmake --list-presets refuses CMakePresets.json: " + listed.stderr.strip())

for p in problems:
    print(p)
print("%d presets checked, %d problems" % (len(lines), len(problems)))
sys.exit(1 if problems else 0)
