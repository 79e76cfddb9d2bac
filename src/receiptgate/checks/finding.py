"""What a check found for one claim: the one result type of every deterministic check.

The figure check (``checks/figures``), the record checks (``checks/records``), the
action ledger (``checks/ledger``), a document's figures (``checks/documents``) and the
operator facts (``checks/facts``) return a :class:`Finding`; a derived figure
(``checks/arithmetic``) and an ordering (``checks/orderings``) return how they were
computed, which the check stage (``pipeline/check``) turns into one. The policy
(``policy/decide``) reads its status; the explanation (``policy/explain``) turns it into
the result's evidence lines.

The LLM checkers (judge, semantic) judge whole sentences through the checker seam and
return ``checkers.base.CheckerFinding``, their public plugin contract; both end as the
same ``Evidence`` lines of the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from receiptgate.claims.models import HardFact

FindingStatus = Literal["supported", "contradicted", "unsupported", "stale", "expired"]

#: The fact-check vocabulary of RFC-003 §5.4, which the result's ``fact_checks`` keep.
FACT_CHECK_STATUS: dict[str, str] = {
    "supported": "confirmed",
    "contradicted": "contradicted",
    "unsupported": "no_fact_found",
    "expired": "expired_fact",
    "stale": "expired_fact",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """The outcome of one check of one claim (or of one value in it).

    Attributes:
        status: ``supported``, ``contradicted``, ``unsupported``, ``stale`` (a receipt
            holds it but is past its freshness window) or ``expired`` (an operator fact
            would decide it but has expired).
        receipt_id: the deciding receipt, if any.
        receipt_kind: its kind (``tool``, ``db``, ``rag``, ..., or ``fact``).
        detail: one readable sentence for the audit trail.
        path: the field that decided, ``items[0].price`` (records) or a passage's heading.
        value: the claimed figure, id, name or state the finding is about.
        fact_id: the deciding operator fact.
        expected: what the fact says, as a short string.
        claimed: what the claim says, in the same terms.
        registry_id: the registry holding the fact.
    """

    status: FindingStatus
    receipt_id: str | None = None
    receipt_kind: str | None = None
    detail: str = ""
    path: str | None = None
    value: HardFact | None = None
    fact_id: str | None = None
    expected: str | None = None
    claimed: str | None = None
    registry_id: str | None = None

    @property
    def hard_fact(self) -> HardFact:
        """The claimed value (every figure and record finding has one)."""
        assert self.value is not None, "a finding about no value"
        return self.value
