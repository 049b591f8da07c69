#!/usr/bin/env python3
"""Checks the Python implementation against the vector files alone.

Usage: check_vectors.py VECTORS_DIR

Standard library only: this is how any language consumes the vectors
(docs/vectors.md). "valid" tests must give the expected outputs, "invalid"
tests must fail with the expected error kind, and "acceptable" tests are
reported when they differ but never fail the run.
"""
import json
import math
import pathlib
import sys

from tlbf_impl import (Bloom, TlbfError, check_params, fnv1a64, mix64, optimal_k, optimal_m, positions,
                       predicted_fp_rate)


def real(text):
    return float(text)  # the files spell reals as Python reads them: 0.1, 1e-06, nan, inf


def run(group_type, t):
    """What the implementation says for one test, in the file's terms."""
    try:
        if group_type == "Fnv1a64Test":
            return {"hash": f"{fnv1a64(bytes.fromhex(t['item'])):016x}"}
        if group_type == "Mix64Test":
            return {"output": f"{mix64(int(t['input'], 16)):016x}"}
        if group_type == "OptimalMTest":
            return {"m": optimal_m(t["n"], real(t["p"]))}
        if group_type == "OptimalKTest":
            return {"k": optimal_k(t["m"], t["n"])}
        if group_type == "PredictedFpRateTest":
            return {"rate": predicted_fp_rate(t["m"], t["k"], t["n"])}
        if group_type == "WithRateTest":
            b = Bloom.with_rate(t["n"], real(t["p"]))
            return {"m": b.m, "k": b.k}
        if group_type == "PositionsForTest":
            check_params(t["m"], t["k"])
            return {"positions": positions(t["m"], t["k"], bytes.fromhex(t["item"]))}
        if group_type == "FilterTest":
            how = t["construct"]
            b = (Bloom.with_rate(how["withRate"]["n"], real(how["withRate"]["p"])) if "withRate" in how
                 else Bloom.new(how["new"]["m"], how["new"]["k"]))
            seen = []
            for item in map(bytes.fromhex, t["inserts"]):
                seen.append(positions(b.m, b.k, item))
                b.insert(item)
            return {"m": b.m, "k": b.k, "positions": seen, "countOnes": b.count_ones(),
                    "nInserted": b.n_inserted, "bytes": b.to_bytes().hex(),
                    "present": [b.contains(bytes.fromhex(p)) for p in t["probes"]]}
        if group_type == "UnionTest":
            left = Bloom.from_bytes(bytes.fromhex(t["left"]))
            left.union(Bloom.from_bytes(bytes.fromhex(t["right"])))
            return {"bytes": left.to_bytes().hex()}
        if group_type == "FromBytesTest":
            b = Bloom.from_bytes(bytes.fromhex(t["bytes"]))
            return {"m": b.m, "k": b.k, "nInserted": b.n_inserted, "countOnes": b.count_ones()}
    except TlbfError as e:
        return {"errorKind": e.kind}
    raise ValueError(f"unknown test type {group_type}")


# The outputs each test type has when it succeeds.
OUTPUTS = {
    "Fnv1a64Test": ["hash"], "Mix64Test": ["output"], "OptimalMTest": ["m"], "OptimalKTest": ["k"],
    "PredictedFpRateTest": ["rate"], "WithRateTest": ["m", "k"], "PositionsForTest": ["positions"],
    "FilterTest": ["m", "k", "positions", "countOnes", "nInserted", "bytes", "present"],
    "UnionTest": ["bytes"], "FromBytesTest": ["m", "k", "nInserted", "countOnes"],
}


def agrees(key, want, got):
    if key == "rate":  # exp and pow are not correctly rounded everywhere
        want = real(want)
        return (math.isnan(want) and math.isnan(got)) or want == got or \
            abs(want - got) <= 1e-12 * max(abs(want), abs(got))
    return want == got


def main():
    root = pathlib.Path(sys.argv[1])
    passed = failed = tolerated = 0
    for path in sorted(root.glob("tlbf_*_v1.json")):
        doc = json.loads(path.read_text())
        for group in doc["testGroups"]:
            for t in group["tests"]:
                got = run(group["type"], t)
                keys = ["errorKind"] if "errorKind" in t else OUTPUTS[group["type"]]
                ok = set(keys) <= set(got) and all(agrees(k, t[k], got[k]) for k in keys)
                ok = ok and ("errorKind" in t) == ("errorKind" in got)
                if ok:
                    passed += 1
                elif t["result"] == "acceptable":
                    tolerated += 1
                    print(f"{path.name} tcId {t['tcId']}: differs, acceptable ({', '.join(t['flags'])})")
                else:
                    failed += 1
                    want = {k: t[k] for k in keys}
                    print(f"{path.name} tcId {t['tcId']} ({t['comment']}): expected {want}, got {got}")
    print(f"{passed} passed, {failed} failed, {tolerated} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
