"""Ports a socket listing shows, or does not: "Nothing is listening on port 5432 on db-04"
after ``ss -ltn`` on db-04 listed ports 22 and 9100 only.

A port number a sentence says nothing listens on is no value a receipt holds, so on its
own it is a figure without a receipt. The newest listing of listening sockets (``ss``,
``netstat``, ``lsof -i``) of the host the sentence names (any host when it names none)
decides it: its rows do not hold the port, so the absence is backed; a row that listens on
it contradicts the sentence.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

#: A command that lists listening sockets.
_LISTING = re.compile(r"\b(?:ss|netstat|lsof\s+-i\S*|sockstat)\b")
#: A port of a listing row: "0.0.0.0:22", "[::]:443", "*:8080".
_ROW_PORT = re.compile(r"(?:[\d.]+|\[[0-9a-f:]*\]|\*|localhost):(\d{1,5})\b", re.IGNORECASE)
#: "port 5432" or "on :5432" right before the figure.
_PORT_BEFORE = re.compile(r"\bport\s*$|:\s*$", re.IGNORECASE)
#: What says nothing listens there: "nothing is listening", "no process on", "not open".
_NONE_LISTENS = re.compile(
    r"\b(?:nothing|no\s+(?:process|service|one|server|listener)s?)\b[^.;]{0,30}"
    r"\b(?:listen\w*|bound|running|open|on)\b|\b(?:not|isn['’]t|aren['’]t|n['’]t)\s+"
    r"(?:listening|open|bound|serving|in\s+use)\b|\bis\s+(?:free|closed|unused)\b",
    re.IGNORECASE,
)
_HOST = re.compile(r"\b[a-z][a-z0-9]*-\d+[a-z0-9-]*\b")


def absent_port(
    index: ReceiptIndex, h: HardFact, text: str, start: int, end: int
) -> Finding | None:
    """The listing that backs (or contradicts) "nothing listens on port ``h``" in the
    sentence ``text[start:end]``; ``None`` when the figure is no such port or no listing
    of the host was made."""
    if h.kind != "number" or h.number is None or not 0 < h.number < 65536:
        return None
    if not _PORT_BEFORE.search(text, max(start, h.start - 8), h.start):
        return None
    sentence = text[start:end]
    if not _NONE_LISTENS.search(sentence):
        return None
    hosts = set(_HOST.findall(sentence.lower()))
    listing = _newest_listing(index, hosts)
    if listing is None:
        return None
    rid = listing.receipt.id
    port = int(h.number)
    listed = {int(p) for p in _ROW_PORT.findall(listing.receipt.content)}
    if not listed:
        return None  # not a listing this reads
    if port in listed:
        detail = f"contradicts {rid}: the listing shows port {port} listening"
        return Finding("contradicted", rid, "tool", detail, value=h)
    shown = ", ".join(str(p) for p in sorted(listed))
    return Finding("supported", rid, "tool", f"{rid}: no port {port} among {shown}", value=h)


def _newest_listing(index: ReceiptIndex, hosts: set[str]) -> ReceiptEntry | None:
    for e in reversed(index.entries):
        if e.receipt.kind != "tool":
            continue
        head = e.text.split("\n", 1)[0]
        if not _LISTING.search(head):
            continue
        if hosts and not any(host in e.text for host in hosts):
            continue  # a listing of another host
        return e
    return None
