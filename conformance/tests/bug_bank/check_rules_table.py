#!/usr/bin/env python3
"""Keeps docs/check.md's "Rules and the cases that check them" true.

    check_rules_table.py DOCS_DIR TLBF

Fails (exit 1, naming each problem) when a name in the table is not a case of
`tlbf check --list` (a name ending in "/*" must match at least one), when a
rule names no case, when a case under protocol/, format/, items/ or state/
is named by no rule, or when a row of docs/format.md's summary of decisions
is not a rule of the table; or when the pages do not say the same about
real precision, the log's reference and allocation: docs/protocol.md,
docs/format.md, docs/check.md and docs/vectors.md each hold one paragraph that
begins "**Reals.**", one that begins "**The log's reference.**" and one that
begins "**Allocation.**", and the four of each are the same words.
"""
import fnmatch
import os
import re
import subprocess
import sys

HEADING = "## Rules and the cases that check them"
# Each rule the pages once worded differently (issue 38): rates by a tolerance
# or by reading back, a log one ulp off from what, and whether an
# implementation that cannot allocate may end the session.
ONE_RULE = ("**Reals.**", "**The log's reference.**", "**Allocation.**")
PAGES = ("protocol.md", "format.md", "check.md", "vectors.md")


def table_rows(text, heading):
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("## "):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[1:]  # without the header row


def one_rule_problems(docs, marker):
    """The paragraphs that begin with `marker` must agree word for word."""
    paragraphs = {}
    problems = []
    for page in PAGES:
        text = open(os.path.join(docs, page)).read()
        found = [p for p in re.split(r"\n\s*\n", text) if p.lstrip().startswith(marker)]
        if len(found) != 1:
            problems.append(f"{page} has {len(found)} paragraphs that begin {marker}; it must have one")
        else:
            paragraphs[page] = " ".join(found[0].split())
    if len(set(paragraphs.values())) > 1:
        problems.append(f"the {marker} paragraphs differ: " +
                        "; ".join(f"{page}: '{text}'" for page, text in paragraphs.items()))
    return problems


def main(docs, tlbf):
    check_md = open(os.path.join(docs, "check.md")).read()
    format_md = open(os.path.join(docs, "format.md")).read()
    cases = subprocess.run([tlbf, "check", "--list"], check=True, capture_output=True, text=True).stdout.split()
    problems = []
    named = set()
    rules = table_rows(check_md, HEADING)
    if not rules:
        problems.append("the table has no rules")
    for rule, _source, names_cell in rules:
        names = re.findall(r"`([^`]+)`", names_cell)
        if not names:
            problems.append(f"rule '{rule}' names no case")
        for name in names:
            matches = fnmatch.filter(cases, name) if name.endswith("/*") else [c for c in cases if c == name]
            if not matches:
                problems.append(f"rule '{rule}' names '{name}', which is no case of tlbf check --list")
            named.update(matches)
    for case in cases:
        if case.split("/")[0] in ("protocol", "format", "items", "state") and case not in named:
            problems.append(f"case {case} is named by no rule")
    rule_texts = [r[0] for r in rules]
    for question, *_ in table_rows(format_md, "## 12. Summary of decisions"):
        if question not in rule_texts:
            problems.append(f"format.md decides '{question}', which is no rule of the table")
    for marker in ONE_RULE:
        problems += one_rule_problems(docs, marker)
    for p in problems:
        print(p)
    print(f"{len(rules)} rules, {len(named)} cases named, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
