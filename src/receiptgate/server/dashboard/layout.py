"""The report view model: a result's or audit record's sentences laid over its text.

Owns the highlighting: each sentence becomes a :class:`SentenceView` whose
:class:`Part` s mark the matched claim spans; the sentences and the plain text
between them become :class:`Segment` s. When the text was not stored (a
redacted record) only the spans are shown, with ``…`` for the gaps. Also the
evidence and violation lists of the report, and the helpers that read
untrusted record values (:func:`as_str`, :func:`as_int`, :func:`as_mapping`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_MARK = {"supports": "✓", "contradicts": "✗", "missing": "?"}


@dataclass(slots=True)
class Part:
    """A piece of a sentence as shown: plain text, a matched claim span, or a gap."""

    text: str
    kind: str = "text"  # text | claim | gap


@dataclass(slots=True)
class SentenceView:
    index: int
    tag: str | None
    action: str | None
    parts: list[Part]
    evidence: list[dict[str, str]]
    reasons: list[str]
    title: str


@dataclass(slots=True)
class Segment:
    """The highlighted text is a run of sentences and the plain text between them."""

    text: str = ""
    sentence: SentenceView | None = None


@dataclass(slots=True)
class ReportView:
    """Everything the report partial shows for one result or audit record."""

    key: str
    segments: list[Segment]
    sentences: list[SentenceView]
    redacted: bool
    violations: list[dict[str, str]] = field(default_factory=list)


def as_str(value: Any) -> str:
    """``value`` as text; ``""`` for ``None``."""
    return "" if value is None else str(value)


def as_int(value: Any) -> int | None:
    """``value`` if it is an int (not a bool), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def as_mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a mapping, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def _span_of(entry: Any, claims: Sequence[Any]) -> tuple[int | None, int | None, str]:
    """(start, end, text) of a sentence's claim: an index into claims, a span or a string."""
    if isinstance(entry, int) and not isinstance(entry, bool):
        entry = claims[entry] if 0 <= entry < len(claims) else None
    if isinstance(entry, str):
        return None, None, entry
    if not isinstance(entry, Mapping):
        return None, None, ""
    start = entry.get("offset", entry.get("start"))
    end = entry.get("end")
    text = entry.get("matched_text", entry.get("text"))
    return (
        start if isinstance(start, int) else None,
        end if isinstance(end, int) else None,
        as_str(text),
    )


def _merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _full_parts(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> list[Part]:
    parts: list[Part] = []
    pos = start
    for a, b in _merged((max(a, start), min(b, end)) for a, b in spans if a < end and b > start):
        if a > pos:
            parts.append(Part(text[pos:a]))
        parts.append(Part(text[a:b], "claim"))
        pos = b
    if pos < end:
        parts.append(Part(text[pos:end]))
    return parts


def _redacted_parts(
    start: int | None, end: int | None, found: list[tuple[int | None, int | None, str]]
) -> list[Part]:
    """The matched spans of a sentence whose text was not stored; ``…`` for the rest."""
    located = [(a, b, t) for a, b, t in found if a is not None and b is not None and t]
    loose = [t for a, b, t in found if (a is None or b is None) and t]
    parts: list[Part] = []
    if located and start is not None and end is not None:
        pos = start
        for a, b, t in sorted(located, key=lambda x: (x[0], x[1])):
            assert a is not None and b is not None
            if a < pos:  # overlapping spans: the first one shown covers it
                continue
            if a > pos:
                parts.append(Part("…", "gap"))
            parts.append(Part(t, "claim"))
            pos = b
        if pos < end:
            parts.append(Part("…", "gap"))
    for t in loose:
        parts.extend((Part("…", "gap"), Part(t, "claim")))
    if loose:
        parts.append(Part("…", "gap"))
    return parts or [Part("…", "gap")]


def _evidence(raw: Any) -> list[dict[str, str]]:
    out = []
    for ev in raw or ():
        if isinstance(ev, Mapping):
            out.append(
                {
                    "kind": as_str(ev.get("kind")),
                    "id": as_str(ev.get("id")),
                    "relation": as_str(ev.get("relation")),
                    "detail": as_str(ev.get("detail")),
                    "mark": _MARK.get(as_str(ev.get("relation")), "•"),
                }
            )
    return out


def _title(
    tag: str | None, action: str | None, reasons: list[str], ev: list[dict[str, str]]
) -> str:
    head = f"{tag} · {action}" if tag else "no factual claim"
    lines = [head, *(f"→ {r}" for r in reasons)]
    lines += [
        f"{e['mark']} {e['relation']} {e['kind']}{':' + e['id'] if e['id'] else ''} — {e['detail']}"
        for e in ev
    ]
    if tag and not ev:
        lines.append("no evidence found")
    return "\n".join(lines)


def _violations(raw: Any) -> list[dict[str, str]]:
    out = []
    for v in raw or ():
        if not isinstance(v, Mapping):
            continue
        claim = as_mapping(v.get("claim"))
        ref = next(
            (
                f"{label} {v[k]}"
                for k, label in (
                    ("fact_id", "fact"),
                    ("factId", "fact"),
                    ("contradictedFactId", "fact"),
                    ("receipt_id", "receipt"),
                    ("receiptId", "receipt"),
                )
                if v.get(k)
            ),
            "",
        )
        out.append(
            {
                "text": as_str(
                    v.get("matched_text")
                    or v.get("matchedText")
                    or claim.get("matched_text")
                    or claim.get("matchedText")
                    or claim.get("text")
                ),
                "category": as_str(v.get("category") or claim.get("category")),
                "reason": as_str(v.get("reason")),
                "severity": as_str(v.get("severity")),
                "action": as_str(v.get("action")),
                "ref": ref,
            }
        )
    return out


def build_report(
    key: str,
    sentences: Sequence[Any],
    claims: Sequence[Any],
    text: str | None,
    violations: Any = (),
) -> ReportView:
    """Lays a result's or record's sentences over the text (or over their spans when redacted).

    Args:
        key: Unique prefix for element ids (two reports may share a page).
        sentences: ``sentences[]`` of a result or an audit record.
        claims: ``claims[]``, for sentences that refer to claims by index.
        text: The full text, or ``None`` when it was not stored.
        violations: ``violations[]`` in either the result or the RFC-003 shape.
    """
    # Audit records list a sentence's claims as bare strings; their offsets are in
    # claims[] (by sentence_index), and are needed to place the spans.
    located_claims: dict[int, list[tuple[int | None, int | None, str]]] = {}
    for c in claims:
        at = as_int(c.get("sentence_index")) if isinstance(c, Mapping) else None
        if at is not None:
            located_claims.setdefault(at, []).append(_span_of(c, claims))
    views: list[tuple[int, int, SentenceView]] = []
    usable = text is not None
    for s in sentences:
        if not isinstance(s, Mapping):
            continue
        start, end = as_int(s.get("start")), as_int(s.get("end"))
        index = as_int(s.get("index"))
        index = len(views) if index is None else index
        found = [_span_of(c, claims) for c in s.get("claims") or ()]
        if all(a is None for a, _, _ in found) and located_claims.get(index):
            found = located_claims[index]
        if (
            text is not None
            and start is not None
            and end is not None
            and 0 <= start <= end <= len(text)
        ):
            spans = [(a, b) for a, b, _ in found if a is not None and b is not None]
            parts = _full_parts(text, start, end, spans)
        elif text is not None and s.get("text") is not None:
            usable = False
            parts = [Part(as_str(s.get("text")))]
        else:
            usable = False
            parts = _redacted_parts(start, end, found)
        tag = as_str(s.get("tag")) or None
        action = as_str(s.get("action")) or None
        reasons = [as_str(r) for r in s.get("reasons") or ()]
        ev = _evidence(s.get("evidence"))
        view = SentenceView(
            index, tag, action, parts, ev, reasons, _title(tag, action, reasons, ev)
        )
        views.append((start or 0, end or 0, view))
    segments: list[Segment] = []
    if text is not None and usable:
        pos = 0
        for start, end, view in sorted(views, key=lambda x: x[0]):
            if start > pos:
                segments.append(Segment(text[pos:start]))
            segments.append(Segment(sentence=view))
            pos = max(pos, end)
        if pos < len(text):
            segments.append(Segment(text[pos:]))
    else:
        for i, (_, _, view) in enumerate(views):
            if i:
                segments.append(Segment(" "))
            segments.append(Segment(sentence=view))
    return ReportView(
        key=key,
        segments=segments,
        sentences=[v for _, _, v in views],
        redacted=not usable,
        violations=_violations(violations),
    )
