"""Prints a `receiptgate check --format json` result in a few lines (used by the docs).

receiptgate check … --format json | python3 docs/examples/summary.py
… | python3 docs/examples/summary.py --oneline [--reasons]
… | python3 docs/examples/summary.py --claims
"""

import json
import sys

r = json.load(sys.stdin)
if "--claims" in sys.argv:
    for c in r["claims"]:
        extra = "".join(
            f" {k}={c[k]!r}" for k in ("object", "predicate", "value") if c[k] is not None
        )
        neg = " negative" if c["negative"] else ""
        print(
            f"  {c['detector_id']}: {c['category']} subject={c['subject']!r} "
            f"assertion={c['assertion']}{neg}{extra} confidence={c['confidence']}"
        )
    sys.exit(0)
if "--oneline" in sys.argv:
    for s in r["sentences"]:
        if s["tag"] is not None:
            if "--reasons" in sys.argv:
                why = "; ".join(s["reasons"])
            else:
                why = "; ".join(e["detail"] for e in s["evidence"]) or "; ".join(s["reasons"])
            print(f"{s['tag']} {s['action']:<5} {s['text']}  <- {why}")
    sys.exit(0)
trust = r["trust"]
who = f"trust={trust['score']} tier={trust['tier']}" if trust["score"] is not None else "no trust"
print(f"verdict={r['verdict']} ({who}, policy {r['policy'].get('source')})")
if r["skipped"]:
    print(f"  skipped: {r['skipped']}")
for s in r["sentences"]:
    if s["tag"] is None:
        continue
    print(f"  [{s['index'] + 1}] {s['tag']} {s['action']:<5} {s['text']}")
    for e in s["evidence"]:
        print(f"        {e['relation']} {e['kind']}:{e['id']} {e['detail']}")
for n in r["notes"]:
    print(f"  note: {n}")
