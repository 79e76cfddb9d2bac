"""One receipt index per session: add receipts as they arrive, validate many times."""

from datetime import UTC, datetime

from receiptgate import Receipt, build_gate, load_receipts
from receiptgate import ReceiptIndex

gate = build_gate()
now = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)
ledger = ReceiptIndex(now=now)  # empty at the start of the session

reply = "I ran the tests and they all pass."
print(len(ledger), gate.validate(reply, receipts=ledger, now=now).verdict)  # no test run yet

for receipt in load_receipts("docs/examples/passing-tests.json"):
    ledger.add(receipt)  # e.g. from your runtime's after-tool-call hook
print(len(ledger), gate.validate(reply, receipts=ledger, now=now).verdict)

ledger.add(
    Receipt(
        id="crm-9",
        kind="db",
        source="crm.accounts",
        content="account=Acme arr_usd=1200000",
        created_at=datetime(2026, 3, 11, 9, 0, tzinfo=UTC),
    )
)
print(len(ledger), gate.validate("Acme ARR is $1.2M.", receipts=ledger, now=now).verdict)
