"""Which receipts are fresh enough for a claim: the policy's window per receipt kind,
tightened by the claim's risk class (memoised per receipt within one claim)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta

from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.policy.policy_file import ReceiptKindName


def freshness(
    ledger: ReceiptIndex,
    now: datetime,
    by_kind: Mapping[ReceiptKindName, timedelta | None],
    limit: timedelta | None,
) -> Callable[[Receipt], bool]:
    """Whether a receipt is fresh enough for a claim of one risk class (memoised per
    receipt: a figure weighs many values of the same receipts)."""
    seen: dict[int, bool] = {}

    def fresh(r: Receipt) -> bool:
        ok = seen.get(id(r))
        if ok is None:
            # (the agent's earlier replies are no evidence: no window of their own)
            window = None if r.kind == "reply" else by_kind.get(r.kind)
            ok = seen[id(r)] = ledger.is_fresh(r, _tighter(window, limit), now)
        return ok

    return fresh


def _tighter(a: timedelta | None, b: timedelta | None) -> timedelta | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)
