#!/usr/bin/python3
"""Validates every vector file against its JSON Schema with python3-jsonschema.

Usage: validate_schemas.py VECTORS_DIR
The schemas are in VECTORS_DIR/schema; each file names its own in "schema".
Exit 0 when every file is valid, 1 otherwise.
"""
import json
import pathlib
import sys

import jsonschema


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    schema_dir = root / "schema"
    files = sorted(root.glob("tlbf_*_v1.json"))
    if not files:
        print(f"no vector files in {root}")
        return 1
    failures = 0
    for path in files:
        doc = json.loads(path.read_text())
        schema = json.loads((schema_dir / doc["schema"]).read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        resolver = jsonschema.RefResolver(base_uri=schema_dir.as_uri() + "/", referrer=schema)
        validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for error in errors[:10]:
            print(f"{path.name}: {'/'.join(map(str, error.absolute_path))}: {error.message[:200]}")
        failures += len(errors)
        print(f"{path.name}: {'valid' if not errors else f'{len(errors)} errors'} against {doc['schema']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
