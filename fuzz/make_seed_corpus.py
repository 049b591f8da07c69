#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_from_bytes (and fuzz_diff) from the vector files.

Every filter's bytes in the vectors, valid or malformed, becomes one file,
named by the SHA-1 of its content as libFuzzer names corpus entries, so
running this again adds nothing twice.

    fuzz/make_seed_corpus.py VECTORS_DIR CORPUS_DIR
"""
import hashlib
import json
import pathlib
import sys


def filter_bytes(test):
    for key in ("bytes", "left", "right"):
        value = test.get(key)
        if isinstance(value, str):
            yield bytes.fromhex(value)


def main(vectors_dir, corpus_dir):
    corpus = pathlib.Path(corpus_dir)
    corpus.mkdir(parents=True, exist_ok=True)
    written = 0
    for name in ("from_bytes", "filter", "union"):
        doc = json.loads((pathlib.Path(vectors_dir) / f"tlbf_{name}_v1.json").read_text())
        for group in doc["testGroups"]:
            for test in group["tests"]:
                for data in filter_bytes(test):
                    path = corpus / hashlib.sha1(data).hexdigest()
                    if not path.exists():
                        path.write_bytes(data)
                        written += 1
    print(f"{written} new seeds in {corpus}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
