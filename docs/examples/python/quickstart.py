"""Validate one agent reply against a transcript, as `receiptgate check` does."""

import json
from datetime import UTC, datetime

from receiptgate import build_gate, load_receipt_files

gate = build_gate(
    config="docs/examples/config.yaml",  # a path or a GateConfig; None = defaults
    facts=["docs/examples/facts-incident.yaml"],  # extra registry files, applied last
    policy=None,  # a path or a ClaimPolicy; None = defaults
)
receipts = load_receipt_files(["docs/examples/failing-tests.json"])

result = gate.validate(
    "I ran the tests and they all pass. The pipeline is broken.",
    agent_id="support-eu",
    trust=None,  # 0-100; None uses the config's `defaults`
    channel="slack",
    now=datetime(2026, 3, 11, 10, 0, tzinfo=UTC),
    hook="message_sending",
    receipts=receipts,
)

print(result.verdict, result.grade, result.audit_verdict, result.trust_tier)
for s in result.sentences:
    print(f"[{s.index}] {s.tag} {s.action} {s.text!r} ({s.start}-{s.end})")
    for e in s.evidence:
        print(f"     {e.relation} {e.kind}:{e.id}")
for v in result.violations:
    claim = result.claims[v.claim_index]
    print("violation:", v.action, v.severity, claim.matched_text, "|", v.receipt_id, v.fact_id)
print("deliver:", result.delivered_text)

record = result.to_dict()  # the JSON of `receiptgate check --format json`
print(sorted(record))
print(json.dumps(record["policy"]))
