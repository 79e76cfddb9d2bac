"""Fixtures for the checker tests: a scripted OpenAI-compatible server and gates pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from scripted_llm import GateFactory, ScriptedLLM

from receiptgate.config import parse_config
from receiptgate.engine import Gate


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM()
    try:
        yield server
    finally:
        server.close()


def judge_section(llm: ScriptedLLM, **overrides: Any) -> dict[str, Any]:
    """An ``llmValidator`` section for the scripted server (memory cache, short timeout)."""
    section: dict[str, Any] = {
        "enabled": True,
        "model": "accurate",
        "baseUrl": llm.url,
        "timeoutMs": 3000,
        "cacheUrl": "memory:",
    }
    section.update(overrides)
    return section


@pytest.fixture
def make_gate(llm: ScriptedLLM, monkeypatch: pytest.MonkeyPatch) -> Iterator[GateFactory]:
    """Builds gates whose judge talks to ``llm``; ``facts`` become one inline registry."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    gates: list[Gate] = []

    def make(
        *,
        facts: list[dict[str, Any]] | None = None,
        top: dict[str, Any] | None = None,
        **judge: Any,
    ) -> Gate:
        data: dict[str, Any] = {"llmValidator": judge_section(llm, **judge)}
        if facts:
            data["factRegistries"] = [{"id": "ops", "facts": facts}]
        data.update(top or {})
        gate = Gate(parse_config(data, source="test"))
        gates.append(gate)
        return gate

    yield make
    for gate in gates:
        for checker in gate.checkers:
            close = getattr(checker, "close", None)
            if close is not None:
                close()
