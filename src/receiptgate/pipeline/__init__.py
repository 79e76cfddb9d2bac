"""One validation, stage by stage.

``segment -> claims -> anchor -> check -> decide -> checkers -> finish``:

1. ``segment_text`` splits the text into sentences and types them (``text/``,
   ``claims/sentence_type``);
2. ``find_claims`` runs the detectors and makes a claim of every figure no detector
   claim holds (``claims/``);
3. ``anchor_sentences`` indexes the receipts once, finds the records each sentence is
   about and the ids, names, states and values it restates (``evidence/``,
   ``checks/anchoring``, ``checks/records``);
4. ``check_claims`` checks every claim against the facts, the action ledger and the
   records (``checks/``; each check returns a ``checks.finding.Finding``);
5. ``decide_sentences`` turns findings into actions, tags and violations (``policy/``);
6. ``run_checkers`` asks the LLM checkers about what is left open (``checkers/``);
7. ``finish`` gives the verdict, the reason, the issues and the rewrite (``rewrite``).

Every stage reads and extends one :class:`Request`, the state of one validation;
:class:`Settings` holds what the gate fixed when it loaded. ``Gate.validate``
(``engine.py``) checks the arguments and resolves the agent's policy first; the stream
(``stream/``) validates its prefixes through the same run and builds its report with
``verdict_of``, ``top_reasons`` and ``suggestions_of``.
"""

from __future__ import annotations

from receiptgate.pipeline.check import check_claims
from receiptgate.pipeline.claims import anchor_sentences, find_claims, segment_text
from receiptgate.pipeline.request import Request, Settings
from receiptgate.pipeline.verdict import (
    decide_sentences,
    finish,
    run_checkers,
    suggestions_of,
    top_reasons,
    verdict_of,
)

__all__ = [
    "Request",
    "Settings",
    "run",
    "suggestions_of",
    "top_reasons",
    "verdict_of",
]


def run(s: Settings, req: Request, trust: int | None) -> None:
    """All stages, in order, on ``req`` (its result holds what they decided)."""
    segment_text(s, req)
    find_claims(s, req)
    anchor_sentences(s, req)
    check_claims(s, req)
    decide_sentences(s, req)
    failed = run_checkers(s, req)
    finish(s, req, trust)
    if failed:
        req.result.reason = f"{failed}; {req.result.reason}"
