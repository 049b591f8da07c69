#!/usr/bin/env python3
"""Runs `tlbf check` against the bug bank (buggy_impl.py) and judges the verdicts.

    run_bank.py TLBF MODE [--jobs N] [--only ID,ID]

MODE is one of
  all            every bug, checked once: a bug the catalog marks deterministic
                 with --runs 0 on the cases the catalog names for it (a name
                 may be a prefix, vectors/sizing/...), selected by one
                 --filter glob, their common prefix and *, where it must fail
                 on every one of them; the default check holds those cases, so
                 it fails there too. Any other bug with the default check and
                 --max-failures 1: it must fail (the random sequences, which
                 come last, catch it)
  deterministic  the deterministic half of `all` alone
  whole          as `all`, but each deterministic bug with the whole of
                 --runs 0 (less the behavioural cases and the 2^31 filter
                 unless it names them), as `all` did until 2026-12-05: that
                 its named cases fail alone exactly as in the whole run
  clean          no bug, at seeds 1 to 20: every run must conform. The whole
                 check at seed 1; at seeds 2 to 20 only the cases made from
                 the seed (SEEDED), since the others are the same at every seed
  controls       every control, with --runs 0: each must conform
  model          the random request sequences alone (--filter 'model/*'): every
                 control must conform over 2,000 sequences, one run of
                 --runs 2000, as many as 20 seeds of the default 100 (their
                 answers are ones conformance/judge.hpp calls acceptable), and
                 every bug marked model must fail at seeds 1 to 5 (a wrong
                 answer in the same places)
  report         no verdict: one line per bug, whether the check caught it and
                 by which cases (for measuring)
Exit status 0 when every verdict is as required, 1 otherwise (naming each
bug that escaped), 2 on a usage error.
"""
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUGGY = os.path.join(HERE, "buggy_impl.py")


def catalog():
    out = subprocess.run([sys.executable, BUGGY, "--catalog"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def check(tlbf, bug, extra):
    """(exit status, names of failed cases) of one `tlbf check` run."""
    impl = f"{shlex.quote(sys.executable)} {shlex.quote(BUGGY)} {bug}"
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        run = subprocess.run([tlbf, "check", "--impl", impl, "--json", report] + extra,
                             capture_output=True, text=True, errors="replace", timeout=600)
        failed = []
        if os.path.exists(report):
            with open(report) as f:
                doc = json.load(f)
            failed = [r["name"] for r in doc.get("results", doc.get("cases", [])) if r.get("outcome") == "FAIL"]
    return run.returncode, failed, run.stdout


# The groups of cases made from --seed (conformance/src/check_suite.cpp:
# behavioural_cases(seed) and model_based_case(seed, runs)); every other case
# is the same at every seed.
SEEDED = ("behaviour", "model")


def only_seeded(tlbf):
    """--skip arguments that leave only the SEEDED groups of the default check."""
    listed = subprocess.run([tlbf, "check", "--list"], check=True, capture_output=True, text=True).stdout.split()
    groups = {name.split("/")[0] for name in listed}
    missing = set(SEEDED) - groups
    if missing:
        sys.exit(f"run_bank.py: tlbf check --list has no {', '.join(sorted(missing))} cases: update SEEDED")
    return [arg for g in sorted(groups - set(SEEDED)) for arg in ("--skip", g + "/*")]


def caught_by_named(failed, names):
    return [n for n in names if not any(f == n or f.startswith(n + "/") for f in failed)]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    tlbf, mode = argv[1], argv[2]
    jobs, only = 2, None
    rest = argv[3:]
    while rest:
        if rest[0] == "--jobs":
            jobs, rest = int(rest[1]), rest[2:]
        elif rest[0] == "--only":
            only, rest = set(rest[1].split(",")), rest[2:]
        else:
            sys.exit(f"run_bank.py: unknown option {rest[0]}")
    cat = catalog()
    bugs = [b for b in cat["bugs"] if only is None or b["id"] in only]
    group = lambda b: ["--filter", b["group"]] if b.get("group") else []
    # The behavioural cases (a second of 100,000 contains in every check) and
    # the filter of 2^31 + 64 bits (a 256 MiB bytearray, about a second of
    # this Python implementation's) are left out of a deterministic bug's run
    # unless the catalog names them: what is checked is that the named cases
    # fail, and those two cost a third of the bank's time otherwise.
    slow_cases = ("behaviour/*", "state/index_past_2_pow_31")
    def slow_skips(b):
        skips = []
        for pattern in slow_cases:
            prefix = pattern.rstrip("*")
            if not any(n.startswith(prefix) or prefix.startswith(n) for n in b["caught_by"]):
                skips += ["--skip", pattern]
        return skips
    def whole_run(b):
        return ["--runs", "0"] + slow_skips(b) + group(b)
    def deterministic_run(b):
        # The named cases, not the whole check: the cases clean up after
        # themselves, so a case fails alone as it does among the others
        # (mode whole checks that), and a bug's run takes a tenth of the
        # time. The glob is as narrow as one glob can be; where it is wide
        # (names in two groups) the slow cases and the large group are left
        # out as in the whole run.
        glob = os.path.commonprefix(b["caught_by"]) + "*"
        large = [] if glob.startswith("large/") else ["--skip", "large/*"]
        return ["--runs", "0", "--filter", glob] + slow_skips(b) + large
    if mode in ("all", "whole"):
        run = deterministic_run if mode == "all" else whole_run
        jobs_list = [(b["id"], run(b) if b["deterministic"] else ["--max-failures", "1"] + group(b), b)
                     for b in bugs]
    elif mode == "deterministic":
        jobs_list = [(b["id"], deterministic_run(b), b) for b in bugs if b["deterministic"]]
    elif mode == "clean":
        seeded = only_seeded(tlbf)
        jobs_list = [("none", ["--seed", "1"], None)]
        jobs_list += [("none", ["--seed", str(seed)] + seeded, None) for seed in range(2, 21)]
    elif mode == "controls":
        jobs_list = [(c["id"], ["--runs", "0"], None) for c in cat["controls"]]
    elif mode == "model":
        model = ["--filter", "model/*"]
        # One process a control, not one a seed: the sequences, not the
        # starts of Python and of tlbf check, are what is checked.
        jobs_list = [(c["id"], model + ["--seed", "1", "--runs", "2000"], None) for c in cat["controls"]]
        jobs_list += [(b["id"], model + ["--seed", str(seed)], b) for b in bugs if b.get("model") for seed in range(1, 6)]
    elif mode == "report":
        jobs_list = [(b["id"], argv_runs(rest), b) for b in bugs]
    else:
        sys.exit(f"run_bank.py: unknown mode {mode}")

    problems = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(check, tlbf, bug, extra): (bug, extra, entry) for bug, extra, entry in jobs_list}
        for future in concurrent.futures.as_completed(futures):
            bug, extra, entry = futures[future]
            status, failed, stdout = future.result()
            label = f"{bug} {' '.join(extra)}".strip()
            if mode in ("clean", "controls") or (mode == "model" and entry is None):
                ok = status == 0
                print(f"{'ok  ' if ok else 'BAD '} {label}: exit {status}" + ("" if ok else f"; failed: {', '.join(failed[:8])}"))
                if not ok:
                    problems.append(label)
                    print(stdout[-3000:])
                continue
            named = mode == "deterministic" or (mode in ("all", "whole") and entry["deterministic"])
            missing = caught_by_named(failed, entry["caught_by"]) if named else []
            ok = status == 1 and not missing
            if mode == "report":
                print(f"{'caught' if status == 1 else 'MISSED'} {bug} [{entry['family']}]: {len(failed)} failed: "
                      f"{', '.join(failed[:6])}")
                continue
            why = f"exit {status}" + (f", named cases that did not fail: {', '.join(missing)}" if missing else "")
            print(f"{'ok  ' if ok else 'BAD '} {label}: {why}; {len(failed)} cases failed")
            if not ok:
                problems.append(label)
    if problems:
        print(f"\n{len(problems)} not as required: {', '.join(sorted(problems))}")
        return 1
    print(f"\nall {len(jobs_list)} as required")
    return 0


def argv_runs(rest):
    return []


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    sys.exit(main(sys.argv))
