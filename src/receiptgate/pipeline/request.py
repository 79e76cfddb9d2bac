"""The state of one validation, passed from stage to stage, and the gate's fixed settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from receiptgate.checkers.base import Checker
from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.finding import Finding
from receiptgate.claims.detect import ClaimDetector
from receiptgate.claims.detectors.base import Detector
from receiptgate.claims.models import HardFact
from receiptgate.claims.sentence_type import Hedges
from receiptgate.config import GateConfig
from receiptgate.evidence.fact_index import FactIndex
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf
from receiptgate.policy.decide import ClaimEval
from receiptgate.policy.policy_file import ClaimPolicy
from receiptgate.policy.trust import EffectivePolicy
from receiptgate.results import ValidationResult
from receiptgate.rewrite import RewriteSettings
from receiptgate.text.segment import Sentence


@dataclass(slots=True)
class Settings:
    """What the gate fixes when it loads and every validation reads."""

    config: GateConfig
    policy: ClaimPolicy
    detectors: list[Detector]
    hedges: Hedges
    rewrite: RewriteSettings
    detector: ClaimDetector = field(init=False)
    _by_depth: dict[frozenset[str], ClaimDetector] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.detector = ClaimDetector(self.detectors)

    def detector_for(self, categories: frozenset[str]) -> ClaimDetector:
        """Detection depth "contradiction-only": detectors whose claims a fact can check."""
        det = self._by_depth.get(categories)
        if det is None:
            det = ClaimDetector(
                d
                for d in self.detectors
                if d.category in categories or d.category in ("action", "attribution")
            )
            self._by_depth[categories] = det
        return det


@dataclass(slots=True)
class Request:
    """One validation: its inputs, and what each stage found so far.

    Stages fill it in order (``pipeline.run``): ``segment`` sets ``work``,
    ``sentences`` and ``types``; ``claims`` the claims (``evals``, each with its risk
    classes) and ``sentence_facts``; ``anchor`` the ``ledger``, the ``anchors`` and the
    record claims; ``check`` and ``decide`` write into the claims and ``result``.
    """

    result: ValidationResult
    text: str
    now: datetime
    policy: EffectivePolicy
    facts: FactIndex
    receipts: Sequence[Receipt] | ReceiptIndex
    external: bool = False
    #: the checks after the deterministic stages (the gate's ``checkers`` at call time)
    checkers: Sequence[Checker] = ()
    work: str = ""
    #: how much of ``text`` was read (``maxTextLength``), and, when ``work`` is a reading
    #: of it of another length (text/clean.json_reply), where each of its characters
    #: stands in ``text`` (one more entry: the end)
    read: int = 0
    where: list[int] | None = None
    sentences: list[Sentence] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    sentence_facts: dict[int, list[HardFact]] = field(default_factory=dict)
    evals: list[ClaimEval] = field(default_factory=list)
    #: sentences past ``maxClaimsPerOutput``: not checked, the fail mode decides
    unchecked: set[int] = field(default_factory=set)
    ledger: ReceiptIndex | None = None
    anchors: list[Anchor] | None = None
    #: the record values that backed the figures of the sentences checked so far, in
    #: order (what a later "Total: $1,000" may add up)
    backed: list[Leaf] = field(default_factory=list)
    #: the figures earlier sentences derived (arithmetic) or took from a document's rule,
    #: as (kind, number, finding):
    #: "Total Cost: $216" is an operand of a later "the difference of $2571", and
    #: "$1,625 - $1,327 = $298" restates the $1,327 a line above computed
    computed: list[tuple[str, float, Finding]] = field(default_factory=list)
    #: the agent's earlier replies checked again so far (pipeline/carried), by their
    #: place among the replies and how much of one was read, with the figures they
    #: worked out: shared with the rechecks themselves, so no reply is checked twice
    rechecked: dict[tuple[int, int], list[Finding]] = field(default_factory=dict)

    def by_sentence(self) -> dict[int, list[ClaimEval]]:
        """The claims of each sentence, in order."""
        out: dict[int, list[ClaimEval]] = {}
        for ev in self.evals:
            out.setdefault(ev.claim.sentence_index, []).append(ev)
        return out

    def anchor_of(self, sentence_index: int) -> Anchor:
        return self.anchors[sentence_index] if self.anchors else Anchor()
