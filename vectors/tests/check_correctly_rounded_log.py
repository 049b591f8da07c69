#!/usr/bin/env python3
"""The sizing vectors claim their m is what a correctly rounded log gives.

Usage: check_correctly_rounded_log.py VECTORS_DIR
For every p in (0, 1) in the sizing file, computes ln p to 60 digits with the
decimal module, rounds it to the nearest double, and recomputes m with the
documented expression (docs/format.md, section 7). Then, LogLastBit's
reference point (docs/format.md, "The log's reference"): an optimal_m test's
`alternatives` are exactly the other m that ln p one unit in the last place
either side of the correctly rounded ln p gives. And each test flagged
LogFormula has a way of computing ln p (this platform's log2(p) * LN2,
log10(p) * LN10 or log1p(-(1 - p)), as the bug bank's ports do) that lands
two units in the last place from the correctly rounded ln p, with an m that
is neither m nor an alternative. Exit 1 on any difference.
"""
import decimal
import json
import math
import pathlib
import sys

LN2 = 0.6931471805599453
LN10 = 2.302585092994046
decimal.getcontext().prec = 60
FORMULAS = {
    "log2(p) * LN2": lambda p: math.log2(p) * LN2,
    "log10(p) * LN10": lambda p: math.log10(p) * LN10,
    "log1p(-(1 - p))": lambda p: math.log1p(-(1.0 - p)),
}


def m_of(n, log_p):
    return min(math.ceil((-float(n) * log_p) / (LN2 * LN2)), (1 << 64) - 1)  # saturating, as documented


def ulps_apart(a, b):
    """How many doubles from b to a, both negative and finite."""
    count = 0
    while b != a and count < 8:
        b = math.nextafter(b, a)
        count += 1
    return count


def problems_of(t, group_type):
    p, n = float(t["p"]), t["n"]
    log_p = float(decimal.Decimal(p).ln())  # Decimal to float rounds correctly
    out = []
    m = m_of(n, log_p)
    if m != t["m"]:
        out.append(f"with a correctly rounded log, m = {m}; the file says {t['m']}")
    if group_type == "OptimalMTest":  # with_rate's tests name no alternatives
        nudged = {m_of(n, math.nextafter(log_p, d)) for d in (-math.inf, math.inf)} - {m}
        if sorted(nudged) != t.get("alternatives", []):
            out.append(f"ln p one ulp either side of the correctly rounded one gives {sorted(nudged)}; "
                       f"the file's alternatives are {t.get('alternatives', [])}")
    if "LogFormula" in t["flags"]:
        off = [name for name, formula in FORMULAS.items()
               if ulps_apart(formula(p), log_p) == 2 and m_of(n, formula(p)) not in {m} | set(t.get("alternatives", []))]
        if not off:
            out.append("flagged LogFormula, but no formula lands two ulps off with an m of its own")
        print(f"tcId {t['tcId']}: two ulps off, m not acceptable: {', '.join(off) or 'none'}")
    return out


def main():
    doc = json.loads((pathlib.Path(sys.argv[1]) / "tlbf_sizing_v1.json").read_text())
    checked = failed = 0
    for group in doc["testGroups"]:
        for t in group["tests"]:
            if "p" not in t or "m" not in t or not 0.0 < float(t["p"]) < 1.0 or t["n"] < 1:
                continue
            checked += 1
            found = problems_of(t, group["type"])
            failed += bool(found)
            for problem in found:
                print(f"tcId {t['tcId']}: {problem}")
    print(f"{checked - failed} passed, {failed} failed")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
