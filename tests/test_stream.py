"""StreamGate: an LLM token stream released sentence by sentence, each once judged.

Every test runs the real engine. Tokens are 1-3 characters (random, seeded),
so every boundary arrives split in every way; the properties checked are the
ones a client relies on: a sentence is released as soon as the next one has
begun, a blocked sentence is never in any delivered text, released offsets
never move, released decisions are what the report says, and on ordinary text
the report equals one ``gate.validate`` of the whole text.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from receiptgate import (
    Detector,
    DetectorRegistry,
    Gate,
    GateConfig,
    InputError,
    Pattern,
    SentenceEvent,
    StreamGate,
    astream,
    parse_config,
    parse_policy,
    parse_rubric,
)
from receiptgate.claims.detectors.base import load_plugin_detectors
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import ValidationResult
from receiptgate.rewrite import BLOCK_NOTICE

REPO = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)

SESSION = [
    Receipt(id="u1", kind="user", content="Our budget is $50,000 for this project."),
    Receipt(id="web-1", kind="web", content="The Pro plan costs $49 per month."),
    Receipt(
        id="rag-1", kind="rag", source="contract.pdf", content="The contract renews on 2026-06-30."
    ),
    Receipt(id="crm-1", kind="db", source="crm", content="revenue_usd=2400000\nchurn rate: 4.5%"),
    Receipt(id="cpu-1", kind="tool", tool="exec", content="CPU usage: 37%"),
]

MARKDOWN = """# Weekly report

The Pro plan costs $49 per month. Revenue grew 37% to $2.6M. Therefore the cache should \
reduce latency, e.g. for the v1.2.3 clients.

## Details
- Acme Inc. The contract renews on 2026-06-30.
- The cache might be stale.
  It was rebuilt at 09:40 UTC on Monday.
1. Dr. Smith said CPU usage is at 37%. nginx is running. redis is down.
2) Our budget is $50,000.

> Python is a popular programming language. The churn rate is 4.5%.
> Sales closed 14 deals last week.

| metric | value |
|---|---|
| CPU | 37% |

```bash
echo "costs $12. Done."
```

Run `make test. Then` deploy. Happy to help!
"""

ORDINARY = [
    "The Pro plan costs $49 per month. Revenue grew 37%. Thanks for asking!",
    "Hello there! Our budget is $50,000. The contract renews on 2026-06-30.",
    "Python is a popular programming language. The cache might be stale. "
    "Therefore the cache should reduce latency. Churn is 4.5% per month.",
    "I ran the tests and they all pass. The build is green. CPU usage is at 37%.",
    "Version v1.2.3 shipped. See e.g. the changelog. Acme Inc. The team agrees. "
    "It cost $3.14 per seat. Dr. Who approved it.",
    MARKDOWN,
    (REPO / "examples" / "quickstart" / "answer.txt").read_text(encoding="utf-8"),
]


def _tokens(text: str, seed: int, sizes: tuple[int, int] = (1, 3)) -> Iterator[str]:
    rnd = random.Random(seed)
    i = 0
    while i < len(text):
        n = rnd.randint(*sizes)
        yield text[i : i + n]
        i += n


class Run:
    """One stream: events with the text length fed when each was released."""

    def __init__(self, sg: StreamGate, text: str, tokens: Sequence[str]) -> None:
        self.sg = sg
        self.text = text
        self.released_at: dict[int, int] = {}
        self.delivered_so_far: list[str] = []
        fed = 0
        for token in tokens:
            fed += len(token)
            for ev in sg.feed(token):
                self.released_at[ev.index] = fed
                self.delivered_so_far.append(sg.delivered_text)
        self.tail = sg.flush()
        self.delivered_so_far.append(sg.delivered_text)
        self.result = sg.close()
        self.events = list(sg.events)


def _stream(
    gate: Gate, text: str, seed: int = 0, *, receipts: Sequence[Receipt] = SESSION, **kw: Any
) -> Run:
    sg = StreamGate(gate, now=NOW, receipts=receipts, **kw)
    return Run(sg, text, list(_tokens(text, seed)))


def _shape(r: ValidationResult) -> list[tuple[int, int, str, str | None, str]]:
    return [(s.start, s.end, s.kind, s.tag, s.action) for s in r.sentences]


# ---------------------------------------------------------------- one-shot agreement


@pytest.mark.parametrize("window", [True, False])
@pytest.mark.parametrize("text", ORDINARY, ids=range(len(ORDINARY)))
def test_when_tokens_are_1_to_3_characters_then_the_report_equals_one_validation(
    text: str, window: bool
) -> None:
    gate = Gate()
    one = gate.validate(text, now=NOW, receipts=SESSION)
    for seed in range(3):
        run = _stream(gate, text, seed, window=window)
        r = run.result
        assert (r.verdict, _shape(r)) == (one.verdict, _shape(one)), seed
        assert r.notes == one.notes  # no stream note: nothing diverged
        assert r.delivered_text == one.delivered_text
        assert [v.to_dict(r.claims) for v in r.violations] == [
            v.to_dict(one.claims) for v in one.violations
        ]
        assert r.grade == one.grade and r.to_dict()["rubric"] == one.to_dict()["rubric"]
        assert [(e.index, e.start, e.end, e.tag, e.action) for e in run.events] == [
            (s.index, s.start, s.end, s.tag, s.action) for s in one.sentences
        ]
        for e in run.events:
            assert text[e.start : e.end] == e.text
            one_s = one.sentences[e.index]
            assert e.evidence == [x.to_dict() for x in one_s.evidence]


def test_when_every_liarbench_case_streams_then_verdicts_and_tags_match_one_shot() -> None:
    gate = Gate()
    cases = 0
    for name in ("liarbench_rg_dev.jsonl", "liarbench_rg_dev2.jsonl", "liarbench_rg_test.jsonl"):
        for line in (REPO / "benchmarks" / "data" / name).read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            now = datetime.fromisoformat(case["now"].replace("Z", "+00:00"))
            receipts = [Receipt.model_validate(x) for x in case["receipts"]]
            one = gate.validate(case["text"], now=now, receipts=receipts)
            sg = StreamGate(gate, now=now, receipts=receipts)
            run = Run(sg, case["text"], list(_tokens(case["text"], cases)))
            assert (run.result.verdict, _shape(run.result)) == (one.verdict, _shape(one)), case[
                "id"
            ]
            assert run.result.delivered_text == one.delivered_text, case["id"]
            assert run.result.notes == one.notes, case["id"]
            cases += 1
    assert cases >= 300


# ------------------------------------------------------------------ release timing


def test_when_the_next_sentence_starts_then_a_passed_sentence_is_released_at_once() -> None:
    text = "The Pro plan costs $49 per month. Revenue grew 37%. Thanks a lot"
    sg = StreamGate(Gate(), now=NOW, receipts=SESSION)
    released: dict[int, int] = {}
    for i, ch in enumerate(text):
        for ev in sg.feed(ch):
            released[ev.index] = i + 1
    # "Revenue" must be whole (the segmenter reads the next word) plus one character.
    first_word_done = text.index("Revenue") + len("Revenue") + 1
    assert released[0] == first_word_done
    assert sg.events[0].delivered == "The Pro plan costs $49 per month."
    assert sg.events[0].action == "pass" and sg.events[0].tag == "T1"
    assert 1 in released  # the blocked one is decided (and dropped) before the end too
    assert sg.events[1].delivered == ""
    assert released[1] == text.index("Thanks") + len("Thanks") + 1
    assert sg.flush()[0].text == "Thanks a lot"


def test_when_a_sentence_is_blocked_then_it_is_in_no_delivered_text_ever() -> None:
    gate = Gate()
    texts = [
        "Happy to help. Revenue grew 37% last quarter. The Pro plan costs $49 per month.",
        "- Churn fell to 1.2% in May.\n- Our budget is $50,000.\n- Sales closed 14 deals.",
        MARKDOWN,
    ]
    for text in texts:
        one = gate.validate(text, now=NOW, receipts=SESSION)
        blocked = [s.text for s in one.sentences if s.action == "block"]
        assert blocked, text
        for seed in range(4):
            run = _stream(gate, text, seed)
            for b in blocked:
                for so_far in run.delivered_so_far:
                    assert b not in so_far, (b, seed)
            for e in run.events:
                if e.action == "block" and not e.last:
                    assert e.delivered == ""


def test_when_blocked_sentences_are_replaced_then_the_replacement_is_released_in_place() -> None:
    gate = Gate(policy=parse_policy({"rewrite": {"blockedReplacement": "[removed]"}}))
    text = "The Pro plan costs $49 per month. Revenue grew 37%. Churn is 4.5% per month."
    run = _stream(gate, text)
    assert [e.delivered for e in run.events] == [
        "The Pro plan costs $49 per month.",
        " [removed]",
        " Churn is 4.5% per month.",
    ]
    assert (
        run.result.delivered_text == gate.validate(text, now=NOW, receipts=SESSION).delivered_text
    )


def test_when_warned_then_the_label_follows_the_sentence_in_its_own_event() -> None:
    run = _stream(Gate(), "Therefore the cache should reduce latency. The cache might be stale.")
    assert [e.delivered for e in run.events] == [
        "Therefore the cache should reduce latency. (inference)",
        " The cache might be stale. (speculative)",
    ]
    assert run.events[-1].last and not run.events[0].last


# ------------------------------------------------------- boundaries arriving in pieces


@pytest.mark.parametrize(
    "tokens",
    [
        ["Release v1.", "2.3 is out today", ". Thanks for waiting."],
        ["It costs $3.", "14 per seat. Thanks for waiting."],
        ["See the notes, e.g.", " the", " changelog. Thanks for waiting."],
        ["See the notes, e.g.", " The", " changelog. Thanks for waiting."],
        ["He joined Acme Inc.", " The", "odore", " Smith runs it. Thanks for waiting."],
        ["He joined Acme Inc.", " The", " team is happy. Thanks for waiting."],
        ["Ask Dr.", " Smith about it. Thanks for waiting."],
        ["nginx is running.", " redis", " is", " down. Thanks for waiting."],
        ["Wait.", ".", ".", " Then it worked. Thanks for waiting."],
        ['He said "done', '."', " Then it worked. Thanks for waiting."],
        ["Use `make.", " Then", " run` now. Thanks for waiting."],
        ["It is at 5 p.", "m.", " The room is free. Thanks for waiting."],
        ["Item No.", " 5 is sold. Thanks for waiting."],
        ["First point.\n", "- ", "Second point.\n", "  continued here. Thanks for waiting."],
    ],
)
def test_when_a_split_arrives_token_by_token_then_released_boundaries_never_move(
    tokens: list[str],
) -> None:
    gate = Gate()
    text = "".join(tokens)
    one = gate.validate(text, now=NOW)
    for pieces in (tokens, list(text), list(_tokens(text, 7))):
        sg = StreamGate(gate, now=NOW)
        for t in pieces:
            sg.feed(t)
        sg.flush()
        report = sg.close()
        assert [(e.start, e.end) for e in sg.events] == [(s.start, s.end) for s in one.sentences]
        assert _shape(report) == _shape(one)
        assert not any(n.startswith("stream:") for n in report.notes)


def test_when_a_next_word_could_still_change_the_split_then_the_sentence_is_held() -> None:
    sg = StreamGate(Gate(), now=NOW)
    assert sg.feed("He joined Acme Inc. The") == []  # "The" may become "Theodore"
    assert sg.feed("odore") == []
    assert sg.feed(" Smith runs it.") == []  # one sentence: nothing is complete yet
    events = sg.flush()
    assert [e.text for e in events] == ["He joined Acme Inc. Theodore Smith runs it."]


# ------------------------------------------------------------------------ edge cases


def test_when_the_stream_is_empty_then_no_event_and_an_empty_pass() -> None:
    sg = StreamGate(Gate(), now=NOW)
    assert sg.flush() == []
    r = sg.close()
    assert r.verdict == "pass" and r.sentences == [] and r.delivered_text == ""
    assert sg.flush() == []  # idempotent
    assert sg.close() is r


def test_when_the_stream_is_whitespace_only_then_nothing_is_delivered() -> None:
    sg = StreamGate(Gate(), now=NOW)
    for t in ("  ", "\n", " \n\n ", "\t"):
        assert sg.feed(t) == []
    assert sg.flush() == []
    r = sg.close()
    assert r.verdict == "pass" and r.sentences == [] and r.delivered_text == ""
    assert r.skipped is not None


def test_when_one_sentence_has_no_final_punctuation_then_it_is_released_at_close() -> None:
    gate = Gate()
    text = "Thanks for the question, happy to help with the migration"
    sg = StreamGate(gate, now=NOW)
    for t in _tokens(text, 3):
        assert sg.feed(t) == []
    events = sg.flush()
    assert len(events) == 1 and events[0].last
    one = gate.validate(text, now=NOW)
    assert events[0].text == text and events[0].delivered == one.delivered_text
    assert sg.close().delivered_text == one.delivered_text


def test_when_the_text_is_shorter_than_min_text_length_then_nothing_is_judged_early() -> None:
    gate = Gate(parse_config({"minTextLength": 40}))
    sg = StreamGate(gate, now=NOW)
    assert sg.feed("Revenue grew 37%. Ok. ") == []  # 21 characters: a validation would skip
    assert sg.validations == 0
    # "The Pro plan ..." is not complete until "Thanks" is whole: still too short.
    assert sg.feed("The Pro plan costs $49 per month. Thanks") == []
    assert sg.validations == 0
    events = sg.feed(" a lot")
    one = gate.validate(sg.text, now=NOW)
    assert [(e.text, e.action) for e in events] == [(s.text, s.action) for s in one.sentences[:3]]


def test_when_fed_something_else_than_text_then_input_error() -> None:
    sg = StreamGate(Gate(), now=NOW)
    with pytest.raises(InputError, match="token: expected a string, got bytes"):
        sg.feed(b"hello")  # type: ignore[arg-type]
    sg.flush()
    with pytest.raises(InputError, match="flushed"):
        sg.feed("more")
    with pytest.raises(InputError, match="trust"):
        StreamGate(Gate(), trust=101)
    with pytest.raises(InputError, match="rubric"):
        StreamGate(Gate(), rubric="finance.yaml")  # type: ignore[arg-type]


def test_when_close_flushes_itself_then_the_last_events_are_in_events() -> None:
    sg = StreamGate(Gate(), now=NOW, receipts=SESSION)
    for t in _tokens("The Pro plan costs $49 per month. Thanks a lot", 1):
        sg.feed(t)
    r = sg.close()
    assert sg.events[-1].last and sg.events[-1].text == "Thanks a lot"
    assert r.delivered_text == sg.delivered_text == "The Pro plan costs $49 per month. Thanks a lot"


# ---------------------------------------------- whole-output notices and the audit tail


def test_when_every_claim_is_blocked_then_the_last_event_carries_the_notice() -> None:
    run = _stream(Gate(), "Hello there! Revenue grew 37%. Churn fell to 1.2% in May.")
    assert [e.action for e in run.events] == ["pass", "block", "block"]
    assert run.events[0].delivered == "Hello there!"
    assert run.events[-1].delivered == "\n\n" + BLOCK_NOTICE
    assert run.result.delivered_text == "Hello there!\n\n" + BLOCK_NOTICE


def test_when_the_policy_is_notice_mode_then_blocked_ones_are_withheld_and_the_end_notes_it() -> (
    None
):
    gate = Gate(policy=parse_policy({"rewrite": {"mode": "notice", "notice": "Blocked."}}))
    text = "The cache might be stale. Revenue grew 37%. The Pro plan costs $49 per month."
    run = _stream(gate, text)
    assert [(e.action, e.delivered) for e in run.events] == [
        ("warn", "The cache might be stale."),  # notice mode labels nothing
        ("block", ""),
        ("pass", " The Pro plan costs $49 per month.\n\nBlocked."),
    ]
    assert run.result.verdict == "block"


def test_when_the_audit_tail_is_on_then_the_last_event_ends_with_it() -> None:
    gate = Gate(policy=parse_policy({"rewrite": {"auditTail": True}}))
    text = "The Pro plan costs $49 per month. Revenue grew 37%. Our budget is $50,000."
    run = _stream(gate, text)
    assert run.events[-1].delivered.endswith(
        "[receiptgate: 1:T1, 2:T5, 3:T7; 1 sentence(s) removed]"
    )
    assert (
        run.result.delivered_text == gate.validate(text, now=NOW, receipts=SESSION).delivered_text
    )


# -------------------------------------------- released decisions are final, never silent


class LateContext(Detector):
    """Claims "the zqx switch" only when the WHOLE text mentions a recall."""

    id = "late"
    category = "operational_status"
    PATTERNS = (Pattern("zqx", r"\bzqx switch\b", subject="self", assertion="down"),)

    def validate_result(self, claim: Any, text: str, sentence: Any, match: Any) -> Any:
        return claim if "recall" in text else None


class FailsOnRecall(Detector):
    """Raises once the text mentions a recall: an internal error on the final pass."""

    id = "fragile"
    category = "operational_status"
    PATTERNS = (Pattern("any", r"\bzqx\b", subject="self", assertion="x"),)

    def validate_result(self, claim: Any, text: str, sentence: Any, match: Any) -> Any:
        if "recall" in text:
            raise RuntimeError("boom")
        return None


def _gate_with(detector: Detector, **config: Any) -> Gate:
    registry = DetectorRegistry()
    load_plugin_detectors(registry)
    registry.register(detector)
    return Gate(GateConfig.model_validate(config), detectors=registry)


def test_when_the_whole_text_decides_a_released_sentence_worse_then_the_report_says_so() -> None:
    gate = _gate_with(LateContext(), defaults={"unverifiedClaimPolicy": "block"})
    text = "Hello team, good morning. We like the zqx switch a lot. We will discuss the recall."
    assert gate.validate(text, now=NOW).sentences[1].action == "block"  # one-shot: block
    run = _stream(gate, text)
    released = run.events[1]
    assert (released.action, released.delivered) == ("pass", " We like the zqx switch a lot.")
    r = run.result
    # The report agrees with what was released ...
    assert [(s.tag, s.action) for s in r.sentences] == [(e.tag, e.action) for e in run.events]
    assert not r.violations
    # ... and says, everywhere a reader looks, that the gate now judges it worse.
    assert r.verdict == "flag" and r.grade == "partially_correct"
    assert any("sentence 2 was released as untagged/pass" in n for n in r.notes)
    assert any(
        i["sentence_index"] == 1 and "released decision stands" in i["message"] for i in r.issues
    )


def test_when_the_final_validation_fails_closed_then_released_ones_stay_and_the_notice_ends() -> (
    None
):
    gate = _gate_with(FailsOnRecall(), failMode="fail_closed")
    text = "Hello team, good morning. We like zqx a lot. We will discuss the recall."
    run = _stream(gate, text)
    r = run.result
    assert [e.action for e in run.events] == ["pass", "pass", "block"]
    assert r.fail_mode_applied == "fail_closed" and r.error and "boom" in r.error
    assert r.verdict == "block"
    assert [s.action for s in r.sentences] == ["pass", "pass", "block"]
    assert run.events[-1].delivered == "\n\n" + BLOCK_NOTICE
    assert "recall" not in r.delivered_text


def test_when_the_final_validation_fails_open_then_the_rest_is_delivered_visibly() -> None:
    gate = _gate_with(FailsOnRecall(), failMode="fail_open")
    text = "Hello team, good morning. We like zqx a lot. We will discuss the recall."
    r = _stream(gate, text).result
    assert r.fail_mode_applied == "fail_open" and r.audit_verdict == "error_fallback"
    assert r.delivered_text == text


def test_when_an_underline_turns_released_text_into_a_heading_then_the_rest_goes_on_alone() -> None:
    gate = Gate()
    text = "Welcome to the team. The plan\n===\nRevenue grew 37%. Thanks a lot. Bye."
    run = _stream(gate, text, receipts=())
    r = run.result
    # After the move the rest keeps streaming: only the last sentence waits for the end.
    assert [e.index for e in run.tail] == [len(run.events) - 1]
    # One-shot reads "Welcome to the team. The plan" as one heading; the stream had
    # already released "Welcome to the team." and keeps it.
    assert run.events[0].text == "Welcome to the team."
    assert [(s.start, s.end) for s in r.sentences] == [(e.start, e.end) for e in run.events]
    assert [s.index for s in r.sentences] == list(range(len(r.sentences)))
    assert any("sentence boundaries moved" in n for n in r.notes)
    assert any(s.text == "Revenue grew 37%." and s.action == "block" for s in r.sentences)
    assert "Revenue" not in r.delivered_text
    for v in r.violations:  # the renumbered report is consistent
        assert r.claims[v.claim_index].sentence_index == v.sentence_index
        assert v.claim_index in r.sentences[v.sentence_index].claims
    json.dumps(r.to_dict())


def test_when_text_runs_past_max_text_length_then_the_rest_is_released_flagged_not_passed() -> None:
    gate = Gate(parse_config({"performance": {"maxTextLength": 60}}))
    text = "The Pro plan costs $49 per month. Thanks for asking. Revenue grew 37%. Bye now."
    run = _stream(gate, text)
    late = [e for e in run.events if e.end > 60]
    assert late and all(e.action == "warn" and "maxTextLength" in e.reasons[0] for e in late)
    assert run.result.verdict == "flag"
    closed = Gate(parse_config({"performance": {"maxTextLength": 60}, "failMode": "fail_closed"}))
    run = _stream(closed, text)
    assert all(e.delivered == "" for e in run.events if e.end > 60 and not e.last)
    assert "Revenue" not in run.result.delivered_text


def test_when_the_agent_is_exempt_then_everything_streams_through_unjudged() -> None:
    gate = Gate(parse_config({"exempt": ["ops-*"]}))
    text = "Revenue grew 37%. Churn fell to 1.2%. Thanks."
    run = _stream(gate, text, agent_id="ops-bot")
    assert [e.action for e in run.events] == ["pass", "pass", "pass"]
    assert run.result.skipped and run.result.sentences == []
    assert run.result.delivered_text == text


def test_when_the_context_sentence_backs_a_label_then_the_window_keeps_it() -> None:
    gate = Gate()
    receipts = [Receipt(id="t1", kind="tool", tool="exec", content="CPU usage: 37%")]
    text = "Hello. CPU usage is at 37%. [T1 verified] Thanks."
    one = gate.validate(text, now=NOW, receipts=receipts)
    for window in (True, False):
        run = _stream(gate, text, receipts=receipts, window=window)
        assert _shape(run.result) == _shape(one)


# ---------------------------------------------------------------- rubric and async


def test_when_a_rubric_is_given_then_the_report_is_graded_by_it() -> None:
    strict = parse_rubric({"id": "strict", "minGrade": {"flag": "incorrect"}})
    run = _stream(Gate(), "Therefore the cache should reduce latency. Thanks.", rubric=strict)
    assert run.result.verdict == "flag"
    assert run.result.grade == "incorrect"
    assert run.result.to_dict()["rubric"]["id"] == "strict"


def test_when_tokens_come_from_an_async_source_then_astream_yields_events_and_the_result() -> None:
    text = "The Pro plan costs $49 per month. Revenue grew 37%. Thanks"

    async def source() -> AsyncIterator[str]:
        for t in _tokens(text, 5):
            await asyncio.sleep(0)
            yield t

    async def main() -> tuple[list[SentenceEvent], ValidationResult]:
        stream = astream(Gate(), source(), now=NOW, receipts=SESSION)
        with pytest.raises(RuntimeError, match="has not ended"):
            _ = stream.result
        events = [ev async for ev in stream]
        return events, stream.result

    events, result = asyncio.run(main())
    assert [e.action for e in events] == ["pass", "block", "pass"]
    assert events[-1].last
    assert "".join(e.delivered for e in events) == result.delivered_text
    assert result.verdict == "block"


def test_when_an_event_is_serialised_then_it_is_plain_json() -> None:
    run = _stream(Gate(), "The Pro plan costs $49 per month. Thanks.")
    d = run.events[0].to_dict()
    assert set(d) == {
        "index", "start", "end", "text", "kind", "tag", "action", "delivered", "evidence",
        "reasons", "last",
    }  # fmt: skip
    assert d["evidence"][0]["kind"] == "web"
    json.dumps(d)


# ------------------------------------------------------------------ random texts

PIECES = [
    "The Pro plan costs $49 per month.", "Revenue grew 37%.", "Acme Inc.", "The team agrees.",
    "e.g.", "the v1.2.3 release", "is out.", "Dr.", "Smith said so.", "nginx is running.",
    "redis is down.", "It costs $3.14 each.", "Wait...", "Really?!", "Hello there!",
    "`make test.`", "Then run it.", "\n", "\n\n", "\n- ", "\n1. ", "\n# ", "\n> ", "\n```\n",
    "| a | b |", "  ", "Therefore the cache should help.", "The cache might be stale.", "U.S.",
    "Army units moved.", "No.", "5 is sold.", "at 5 p.m.", "The room is free.", '"Done."',
    "(See above.)", "I ran the tests and they all pass.", "[T1 verified]",
    "Churn is 4.5% per month.", "it", "works", "fine.",
]  # fmt: skip


def _random_text(rnd: random.Random, pieces: list[str]) -> str:
    text = ""
    for _ in range(rnd.randint(1, 14)):
        p = rnd.choice(pieces)
        glue = p.startswith(("\n", " ")) or not text or text.endswith(("\n", " "))
        text += p if glue else " " + p
    return text


@pytest.mark.parametrize("underlines", [False, True])
def test_when_random_markdown_streams_then_events_report_and_delivery_agree(
    underlines: bool,
) -> None:
    gate = Gate()
    rnd = random.Random(11 if underlines else 12)
    pieces = PIECES + (["\n---\n", "\n===\n"] if underlines else [])
    moved = 0
    for i in range(150):
        text = _random_text(rnd, pieces)
        one = gate.validate(text, now=NOW, receipts=SESSION)
        run = _stream(gate, text, i, window=i % 3 != 0)
        r = run.result
        sentences = [e for e in run.events if e.kind != "end"]
        for e in sentences:
            assert text[e.start : e.end] == e.text
        if r.skipped is None:
            assert [(e.start, e.end, e.tag, e.action) for e in sentences] == [
                (s.start, s.end, s.tag, s.action) for s in r.sentences
            ], text
        assert "".join(e.delivered for e in run.events) == r.delivered_text
        if any(n.startswith("stream:") for n in r.notes):
            moved += 1  # only a setext underline moves a released boundary
            assert underlines, text
            continue
        assert (r.verdict, _shape(r)) == (one.verdict, _shape(one)), text
        if one.delivered_text != BLOCK_NOTICE and one.skipped is None:
            assert r.delivered_text == one.delivered_text, text
    assert moved > 0 or not underlines
