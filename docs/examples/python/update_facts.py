import threading
from datetime import UTC, datetime

from receiptgate import ConfigError, build_gate

now = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)
gate = build_gate(facts=["docs/examples/facts.yaml"])
text = "The pipeline is broken."
print(gate.validate(text, now=now).verdict)  # the registry says operational

# An operator marks the pipeline down (replaces by id, or adds).
fact = gate.update_fact(
    "system-state",
    {
        "id": "pipeline-status",
        "category": "operational_status",
        "subject": "pipeline",
        "value": {"type": "status", "status": "down"},
        "updatedAt": "2026-03-11T09:55:00Z",
        "ttlSeconds": 3600,
    },
)
print(fact.id, fact.value, gate.validate(text, now=now).verdict)

print(gate.remove_fact("system-state", "pipeline-status"))  # True
print(gate.remove_fact("system-state", "pipeline-status"))  # False: already gone
print(gate.validate(text, now=now).verdict)  # no fact: unverified -> flag

try:
    gate.update_fact(
        "nope",
        {
            "id": "x",
            "category": "existence",
            "subject": "y",
            "value": {"type": "exists", "exists": True},
        },
    )
except ConfigError as e:
    print("ConfigError:", e)
try:
    gate.update_fact(
        "system-state",
        {
            "id": "x",
            "category": "existence",
            "subject": "y",
            "value": {"type": "state", "state": "on"},
        },
    )
except ConfigError as e:
    print("ConfigError:", e)


# Updates may come from another thread while validations run.
def writer() -> None:
    for i in range(100):
        gate.update_fact(
            "system-state",
            {
                "id": f"svc-{i}",
                "category": "system_state",
                "subject": f"svc-{i}",
                "value": {"type": "state", "state": "running"},
            },
        )


t = threading.Thread(target=writer)
t.start()
for _ in range(50):
    gate.validate("svc-7 is not running.", now=now)  # never sees a half-built index
t.join()
print(gate.validate("svc-7 is not running.", now=now).verdict)  # svc-7 is running: block
