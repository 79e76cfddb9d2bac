"""Links a statement gives: "Your prepaid return label is here:
https://returns.example.de/labels/RMA-2025-061284.pdf".

A link a receipt holds (its content or its call's arguments) is supported; one whose host
a receipt's link has, with another path, is contradicted by that link (a label of another
return, a changed id in the path); a link to a host no receipt names is unverified
(flagged, as code no receipt shows is: ``policy.decide.FLAGGED_ONLY``).
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.text.segment import Sentence

_URL = re.compile(r"https?://[^\s<>()\[\]\"'`*]+", re.IGNORECASE)
_TRAILING = ".,;:!?)"


def _links(index: ReceiptIndex) -> list[tuple[str, str]]:
    """Every link of the receipts (lowercase, as held) with the id of its receipt, once
    per index size."""
    cached = index.cache.get("links")
    if isinstance(cached, tuple) and cached[0] == len(index.entries):
        return cached[1]  # type: ignore[no-any-return]
    found: list[tuple[str, str]] = []
    for e in index.entries:
        if e.receipt.kind == "reply" or "http" not in e.text:
            continue
        found.extend((m.group().rstrip(_TRAILING), e.receipt.id) for m in _URL.finditer(e.text))
    index.cache["links"] = (len(index.entries), found)
    return found


def _host(url: str) -> str:
    return url.split("://", 1)[-1].split("/", 1)[0]


def link_claims(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """Each link of a statement, checked against the receipts' links (see the module doc)."""
    if "http" not in s.text:
        return []
    out: list[RecordClaim] = []
    for m in _URL.finditer(s.text):
        url = m.group().rstrip(_TRAILING)
        low = url.lower()
        a, b = s.start + m.start(), s.start + m.start() + len(url)
        fact = record_fact("url", a, b, url)
        links = _links(index)
        held = next((rid for link, rid in links if link == low or link == low.rstrip("/")), None)
        if held is not None:
            finding = Finding("supported", held, "tool", f"{held} holds {url}", value=fact)
        elif same := [(link, rid) for link, rid in links if _host(link) == _host(low)]:
            link, rid = same[-1]
            finding = Finding("contradicted", rid, "tool", f"contradicts {rid}: {link}", value=fact)
        else:
            finding = Finding("unsupported", None, None, f"no receipt links to {url}", value=fact)
        out.append(RecordClaim("url", a, b, url, finding))
    return out
