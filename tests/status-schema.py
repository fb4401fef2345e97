#!/usr/bin/env python3
"""tests/status-schema.py SCHEMA FILE...: validates every qmigrate status
document in FILEs against SCHEMA (contrib/qmigrate-status.schema.json).

A FILE is a status document (a JSON object whose "role" is source, target
or evict), or lines of --events output ({"event": ..., "status": DOC}), or
something else, which is skipped: the caller (tests/lib.sh, at each test's
exit) hands over every small file the test left.  Prints one line per
violation, naming the file, the line for --events output, the member and
the rule; exits 1 when there is one, 0 otherwise."""
import json
import sys

ROLES = ("source", "target", "evict")


def documents(path):
    """(where, document) for each status document in the file at path."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if isinstance(doc, dict):
        if doc.get("role") in ROLES:
            yield path, doc
        return
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("{"):
            continue
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if isinstance(ev, dict) and isinstance(ev.get("status"), dict) and \
                "event" in ev and ev["status"].get("role") in ROLES:
            yield "%s:%d (event %s)" % (path, n, ev["event"]), ev["status"]


def main():
    found = [d for p in sys.argv[2:] for d in documents(p)]
    if not found:
        return 0
    try:
        import jsonschema
    except ImportError:
        print("FAIL: python3-jsonschema is not installed (run.sh installs "
              "it): the status documents cannot be checked")
        return 1
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for where, doc in found:
        for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.path)):
            member = "/".join(str(p) for p in e.absolute_path) or "(top)"
            rule = "/".join(str(p) for p in e.absolute_schema_path)
            msg = e.message if len(e.message) < 200 and \
                not e.message.startswith("{") else \
                "a %s fails %s" % (type(e.instance).__name__, e.validator)
            bad += 1
            if bad <= 20:
                print("FAIL: status document %s: %s: %s (%s, %s)" %
                      (where, member, msg, sys.argv[1], rule))
    if bad > 20:
        print("FAIL: ... and %d more" % (bad - 20))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
