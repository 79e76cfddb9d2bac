"""``astream``: a ``StreamGate`` driven by an async token source."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Sequence
from datetime import datetime

from receiptgate.engine import Gate
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import ValidationResult
from receiptgate.rubrics import Rubric
from receiptgate.stream.events import SentenceEvent
from receiptgate.stream.gate import StreamGate

__all__ = ["AsyncStream", "astream"]


class AsyncStream:
    """An async iterator of ``SentenceEvent``; ``result`` holds the report at the end.

    Built by :func:`astream`. The stream flushes itself when the token source
    ends; if you stop iterating early, ``stream_gate.close()`` gives the report
    of what was read.
    """

    def __init__(self, stream_gate: StreamGate, tokens: AsyncIterable[str]) -> None:
        self.stream_gate = stream_gate
        self._tokens = tokens

    def __aiter__(self) -> AsyncIterator[SentenceEvent]:
        return self._events()

    async def _events(self) -> AsyncIterator[SentenceEvent]:
        async for token in self._tokens:
            for ev in self.stream_gate.feed(token):
                yield ev
        for ev in self.stream_gate.flush():
            yield ev

    @property
    def result(self) -> ValidationResult:
        """The report for the whole text.

        Raises:
            RuntimeError: the stream has not been iterated to the end.
        """
        if self.stream_gate._result is None:
            raise RuntimeError("the stream has not ended: iterate it to the end first")
        return self.stream_gate._result


def astream(
    gate: Gate,
    tokens: AsyncIterable[str],
    *,
    agent_id: str | None = None,
    trust: int | None = None,
    channel: str | None = None,
    now: datetime | None = None,
    hook: str | None = None,
    receipts: Sequence[Receipt] | ReceiptIndex = (),
    rubric: Rubric | None = None,
) -> AsyncStream:
    """Streams an async token source through ``gate``::

        stream = astream(gate, tokens, receipts=receipts)
        async for ev in stream:
            await send(ev.delivered)
        report = stream.result

    Validation is synchronous CPU work (about a millisecond a sentence) and
    runs inline on the event loop, like ``gate.validate`` in a hook.
    """
    sg = StreamGate(
        gate,
        agent_id=agent_id,
        trust=trust,
        channel=channel,
        now=now,
        hook=hook,
        receipts=receipts,
        rubric=rubric,
    )
    return AsyncStream(sg, tokens)
