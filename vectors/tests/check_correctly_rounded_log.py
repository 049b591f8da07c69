#!/usr/bin/env python3
"""The sizing vectors claim their m is what a correctly rounded log gives.

Usage: check_correctly_rounded_log.py VECTORS_DIR
For every p in (0, 1) in the sizing file, computes ln p to 60 digits with the
decimal module, rounds it to the nearest double, and recomputes m with the
documented expression (docs/format.md, section 7). Exit 1 on any difference.
"""
import decimal
import json
import math
import pathlib
import sys

LN2 = 0.6931471805599453
decimal.getcontext().prec = 60


def main():
    doc = json.loads((pathlib.Path(sys.argv[1]) / "tlbf_sizing_v1.json").read_text())
    checked = failed = 0
    for group in doc["testGroups"]:
        for t in group["tests"]:
            if "p" not in t or "m" not in t or not 0.0 < float(t["p"]) < 1.0 or t["n"] < 1:
                continue
            log_p = float(decimal.Decimal(float(t["p"])).ln())  # Decimal to float rounds correctly
            m = min(math.ceil((-float(t["n"]) * log_p) / (LN2 * LN2)), (1 << 64) - 1)  # saturating, as documented
            checked += 1
            if m != t["m"]:
                failed += 1
                print(f"tcId {t['tcId']}: with a correctly rounded log, m = {m}; the file says {t['m']}")
    print(f"{checked - failed} passed, {failed} failed")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
