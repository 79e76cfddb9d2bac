from datetime import UTC, datetime

from receiptgate import (
    Gate,
    Receipt,
    parse_config,
    parse_policy,
    parse_receipts,
    receipts_from_messages,
)

config = parse_config(
    {
        "failMode": "fail_closed",
        "factRegistries": [
            {
                "id": "ops",
                "facts": [
                    {
                        "id": "nginx-state",
                        "category": "system_state",
                        "subject": "nginx",
                        "value": {"type": "state", "state": "running"},
                    }
                ],
            }
        ],
    },
    source="inline config",
)
policy = parse_policy({"rewrite": {"auditTail": True}})
gate = Gate(config, policy=policy)

messages = [
    {"role": "user", "content": "What did Acme pay last month?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "crm_query", "arguments": '{"account": "Acme"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "month=2026-02 account=Acme paid_usd=18250"},
]
receipts = receipts_from_messages(messages)
receipts += parse_receipts('{"kind": "memory", "content": "Acme renews every March."}')
receipts.append(Receipt(id="ops-1", kind="tool", tool="exec", content="nginx: active (running)"))
for r in receipts:
    print(r.id, r.kind, r.tool, r.effective_trust)

result = gate.validate(
    "Acme paid $18,250 last month. Nginx is running.",
    now=datetime(2026, 3, 11, 10, 0, tzinfo=UTC),
    receipts=receipts,
)
print(result.verdict, [(s.tag, s.action) for s in result.sentences])
for s in result.sentences:
    print(s.text, [(e.kind, e.id, e.relation) for e in s.evidence], s.reasons)
print(result.delivered_text)
