"""Streaming: release an LLM's output sentence by sentence, each only once judged.

``StreamGate`` buffers tokens and runs the real segmenter on the buffer. A
sentence is *complete* when a following sentence has begun (its first word has
arrived in full and the segmenter still splits there) or when the stream ends.
Complete sentences are judged by ``gate.validate`` on the text up to the next
sentence, so every offset is an offset into the final text, and each sentence
is released as the gate's rewrite would deliver it: passed sentences as they
are, warned ones labelled, blocked ones dropped (or replaced). A blocked
sentence never reaches the output, and a passed one leaves as soon as the next
sentence starts instead of at the end of the stream.

Released decisions are final. ``close()`` validates the whole text once; when
that agrees with what was released (the ordinary case) the report *is* that
validation. When it does not (a later sentence moved a boundary, a budget or an
internal error differed), the report keeps the released sentences as released,
judges the rest, and says so in ``notes``; no sentence is ever released with
one decision and reported with another.

Modules: ``gate`` (``StreamGate``: feeding, completing, judging and releasing
sentences), ``segments`` (when a boundary is settled, where to re-segment),
``events`` (``SentenceEvent`` and the per-sentence records), ``delivery`` (the
rewrite as a stream), ``report`` (the final report from the records) and
``aio`` (``astream``).
"""

from __future__ import annotations

from receiptgate.stream.aio import AsyncStream, astream
from receiptgate.stream.events import SentenceEvent
from receiptgate.stream.gate import StreamGate

__all__ = ["AsyncStream", "SentenceEvent", "StreamGate", "astream"]
