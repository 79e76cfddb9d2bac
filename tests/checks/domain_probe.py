"""The harness of the domain probes (test_hotel_domain, test_banking_domain,
test_saas_domain): a chat transcript of one support session in the OpenAI dialect, its
tool results compact or pretty-printed, and the four tests every probe asks of it.

Each probe lists pairs (an honest sentence, the same with one thing changed) and its
known misses; :func:`probe_tests` returns the tests for the module to bind at its top
level with ``globals().update(probe_tests(...))`` (pytest collects them by their
``test_`` names):

* every honest sentence not known to fail passes, in both layouts;
* every changed sentence not known to pass is blocked, in both layouts;
* each known miss still fails (strict xfails: a fix shows up as a failure to update the
  list).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any

import pytest

from receiptgate import Gate, Receipt, parse_receipts

GATE = Gate()

Call = tuple[str, dict[str, Any], Any]  # (tool, arguments, result)


def chat_receipts(
    system: str,
    user: str,
    calls: Sequence[Call],
    *,
    indent: int | None,
    prefix: str = "c",
    together: bool = False,
) -> list[Receipt]:
    """The receipts of a session: the system prompt, the user's message, each call and
    its JSON result (``together``: all calls in one assistant message, as parallel tool
    calls are sent)."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system},
        {"role": "user", "content": user},
    ]
    made = [
        {
            "id": f"{prefix}{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)},
        }
        for i, (name, args, _) in enumerate(calls, 1)
    ]
    results = [
        {"role": "tool", "tool_call_id": f"{prefix}{i}", "content": json.dumps(out, indent=indent)}
        for i, (_, _, out) in enumerate(calls, 1)
    ]
    if together:
        messages.append({"role": "assistant", "content": None, "tool_calls": made})
        messages.extend(results)
    else:
        for call, result in zip(made, results, strict=True):
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
            messages.append(result)
    return parse_receipts(json.dumps(messages), source_name=prefix)


def starting(texts: Collection[str], *prefixes: str) -> set[str]:
    """The texts that begin with each prefix (exactly one each): known misses named by
    their first words, where the whole reply would not fit a line."""
    out: set[str] = set()
    for prefix in prefixes:
        found = [t for t in texts if t.startswith(prefix)]
        assert len(found) == 1, f"{prefix!r} begins {len(found)} texts"
        out.add(found[0])
    return out


def probe_tests(
    pairs: Sequence[tuple[str, str]],
    receipts: dict[int | None, list[Receipt]],
    now: datetime,
    *,
    no_claim: Collection[str] = (),
    honest_failing: Collection[str] = (),
    changed_passing: Collection[str] = (),
) -> dict[str, Callable[..., None]]:
    """The tests of a probe by name, for ``globals().update(...)`` (see the module doc);
    a list of known misses that is empty has no test."""
    layouts = pytest.mark.parametrize("indent", [None, 2], ids=["compact", "pretty"])
    honest = sorted(
        {h for h, _ in pairs if h not in honest_failing} | set(no_claim) - set(honest_failing)
    )
    changed = [c for _, c in pairs if c and c not in changed_passing]

    def verdict(text: str, indent: int | None = None) -> str:
        return GATE.validate(text, receipts=receipts[indent], now=now).verdict

    @layouts
    @pytest.mark.parametrize("text", honest)
    def test_when_an_honest_sentence_restates_the_records_then_it_passes(
        text: str, indent: int | None
    ) -> None:
        assert verdict(text, indent) == "pass"

    @layouts
    @pytest.mark.parametrize("text", changed)
    def test_when_one_thing_is_changed_then_the_sentence_is_blocked(
        text: str, indent: int | None
    ) -> None:
        assert verdict(text, indent) == "block"

    @pytest.mark.xfail(strict=True, reason="a known miss of the probe")
    @pytest.mark.parametrize("text", sorted(honest_failing))
    def test_known_honest_sentences_not_passing(text: str) -> None:
        assert verdict(text) == "pass"

    @pytest.mark.xfail(strict=True, reason="a known miss of the probe")
    @pytest.mark.parametrize("text", sorted(changed_passing))
    def test_known_changes_not_blocked(text: str) -> None:
        assert verdict(text) == "block"

    tests = [
        test_when_an_honest_sentence_restates_the_records_then_it_passes,
        test_when_one_thing_is_changed_then_the_sentence_is_blocked,
    ]
    if honest_failing:
        tests.append(test_known_honest_sentences_not_passing)
    if changed_passing:
        tests.append(test_known_changes_not_blocked)
    return {t.__name__: t for t in tests}
