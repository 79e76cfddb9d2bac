"""The receipts policy file (YAML): defaults, loading, validation, and its effects.

Without a file the SPEC §4 defaults hold: every risk class is fail-closed, T2/T3/T6
warn, T1/T4/T7 pass, hedges excuse nothing. A file may relax a risk class
(``warn_only``), let hedges excuse figures of some classes, and remap tags.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from receiptgate._exceptions import ConfigError
from receiptgate.api import build_gate
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt
from receiptgate.policy.policy_file import (
    DEFAULT_POLICY,
    RISK_CLASSES,
    ClaimPolicy,
    load_policy,
    parse_policy,
)
from receiptgate.results import ValidationResult

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)
USER_ASK = Receipt(id="u1", kind="user", content="Please summarise the quarter for me.")

FULL_POLICY_YAML = """\
version: 1
riskClasses:
  financial: {mode: warn_only, freshness: 30d}
  contractual: {mode: fail_closed, freshness: 24h}
  benchmark: {mode: warn_only}
freshness:
  tool: 90s
  web: 15m
  rag: never
  db: 3600
hedging:
  words: [may, reportedly]
  excusesClasses: [benchmark]
tags:
  T3: pass
  T6: block
smallNumbersAreFacts: true
rewrite:
  mode: notice
  blockedReplacement: "[removed]"
  labels: {T2: "(guess)"}
  auditTail: true
  notice: "Blocked by policy."
"""


def _policy_file(tmp_path: Path, content: str, name: str = "policy.yaml") -> Path:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


def _validate(
    text: str, policy: dict[str, Any] | None = None, *receipts: Receipt
) -> ValidationResult:
    gate = Gate(policy=parse_policy(policy) if policy is not None else None)
    return gate.validate(text, receipts=[*receipts, USER_ASK], now=NOW)


# --------------------------------------------------------------------------- defaults


def test_when_no_policy_file_is_given_then_every_risk_class_is_fail_closed() -> None:
    assert {rc: DEFAULT_POLICY.mode_for(rc) for rc in RISK_CLASSES} == {
        rc: "fail_closed" for rc in RISK_CLASSES
    }
    assert set(DEFAULT_POLICY.risk_classes) == set(RISK_CLASSES)


def test_when_no_policy_file_is_given_then_tags_follow_the_spec_table() -> None:
    assert DEFAULT_POLICY.tags == {
        "T1": "pass",
        "T2": "warn",
        "T3": "warn",
        "T4": "pass",
        "T5": "block",
        "T6": "warn",
        "T7": "pass",
    }


def test_when_no_policy_file_is_given_then_hedges_excuse_no_money_or_contract_figure() -> None:
    excused = DEFAULT_POLICY.hedging.excuses_classes
    assert not {"financial", "contractual", "legal", "medical"} & set(excused)
    assert "may" in DEFAULT_POLICY.hedging.words
    assert DEFAULT_POLICY.small_numbers_are_facts is False
    assert DEFAULT_POLICY.rewrite.mode == "sentences"
    assert DEFAULT_POLICY.rewrite.audit_tail is False


def test_when_policy_is_empty_then_it_equals_the_defaults(tmp_path: Path) -> None:
    assert load_policy(_policy_file(tmp_path, "")) == DEFAULT_POLICY
    assert parse_policy({}) == DEFAULT_POLICY
    assert ClaimPolicy() == DEFAULT_POLICY


def test_when_no_policy_is_given_then_an_unsupported_figure_blocks() -> None:
    result = _validate("Revenue was $2.4M.")

    assert result.sentences[0].tag == "T5"
    assert result.verdict == "block"


# --------------------------------------------------------------------------- loading


def test_when_a_full_policy_yaml_is_loaded_then_every_section_is_read(tmp_path: Path) -> None:
    policy = load_policy(_policy_file(tmp_path, FULL_POLICY_YAML))

    assert policy.mode_for("financial") == "warn_only"
    assert policy.mode_for("benchmark") == "warn_only"
    assert policy.mode_for("legal") == "fail_closed"  # unspecified classes keep the default
    assert policy.risk_classes["financial"].freshness == timedelta(days=30)
    assert policy.risk_classes["contractual"].freshness == timedelta(hours=24)
    assert policy.freshness["tool"] == timedelta(seconds=90)
    assert policy.freshness["web"] == timedelta(minutes=15)
    assert policy.freshness["rag"] is None
    assert policy.freshness["db"] == timedelta(hours=1)
    assert policy.freshness["user"] == DEFAULT_POLICY.freshness["user"]  # unspecified kind
    assert policy.hedging.words == ["may", "reportedly"]
    assert policy.hedging.excuses_classes == ["benchmark"]
    assert policy.tags["T3"] == "pass"
    assert policy.tags["T6"] == "block"
    assert policy.tags["T5"] == "block"  # unspecified tags keep the default
    assert policy.small_numbers_are_facts is True
    assert policy.rewrite.mode == "notice"
    assert policy.rewrite.blocked_replacement == "[removed]"
    assert policy.rewrite.labels["T2"] == "(guess)"
    assert policy.rewrite.audit_tail is True
    assert policy.rewrite.notice == "Blocked by policy."


def test_when_a_policy_path_is_given_to_build_gate_then_the_gate_uses_it(tmp_path: Path) -> None:
    path = _policy_file(tmp_path, "riskClasses:\n  financial: {mode: warn_only}\n")

    gate = build_gate(policy=path)
    result = gate.validate("Revenue was $2.4M.", receipts=[USER_ASK], now=NOW)

    assert gate.policy.mode_for("financial") == "warn_only"
    assert result.verdict == "flag"


def test_when_a_policy_file_is_json_then_it_loads_too(tmp_path: Path) -> None:
    path = _policy_file(tmp_path, '{"tags": {"T3": "pass"}}', name="policy.json")

    assert load_policy(path).tags["T3"] == "pass"


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("content", "fragments"),
    [
        ("riskClasses:\n  crypto: {mode: fail_closed}\n", ("riskClasses", "crypto")),
        ("riskClasses:\n  financial: {mode: sometimes}\n", ("riskClasses.financial.mode",)),
        (
            "riskClasses:\n  financial: {freshness: 3 fortnights}\n",
            ("riskClasses.financial.freshness", "3 fortnights"),
        ),
        ("freshness:\n  tool: 3 fortnights\n", ("freshness.tool", "3 fortnights")),
        ("freshness:\n  fax: 3d\n", ("freshness", "fax")),
        ("tags:\n  T9: pass\n", ("tags", "T9")),
        ("tags:\n  T3: ignore\n", ("tags.T3", "ignore")),
        ("riskclasses: {}\n", ("riskclasses",)),
        ("rewrite:\n  modee: notice\n", ("rewrite.modee",)),
        ("rewrite:\n  mode: loud\n", ("rewrite.mode", "loud")),
        ("hedging:\n  excusesClasses: [crypto]\n", ("hedging.excusesClasses", "crypto")),
        ("version: 2\n", ("version",)),
        ("- a\n- b\n", ("mapping",)),
        ("tags: [\n", ("YAML",)),
    ],
    ids=[
        "unknown-risk-class",
        "bad-mode",
        "bad-duration",
        "bad-kind-duration",
        "unknown-receipt-kind",
        "unknown-tag",
        "bad-tag-action",
        "unknown-key",
        "unknown-nested-key",
        "bad-rewrite-mode",
        "unknown-excused-class",
        "unsupported-version",
        "not-a-mapping",
        "invalid-yaml",
    ],
)
def test_when_the_policy_file_is_invalid_then_the_error_names_file_and_field(
    tmp_path: Path, content: str, fragments: tuple[str, ...]
) -> None:
    path = _policy_file(tmp_path, content, name="team-policy.yaml")

    with pytest.raises(ConfigError) as info:
        load_policy(path)

    message = str(info.value)
    assert message.startswith(str(path)), message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_when_the_policy_file_is_missing_then_the_error_names_it(tmp_path: Path) -> None:
    path = tmp_path / "absent-policy.yaml"

    with pytest.raises(ConfigError, match=r"absent-policy\.yaml: file not found"):
        load_policy(path)


# --------------------------------------------------------------------------- warn_only


@pytest.mark.parametrize(
    ("text", "receipts"),
    [
        ("Revenue was $2.4M.", []),
        ("Revenue was $2.4M.", [Receipt(id="crm-1", kind="db", content="revenue_usd=2300000")]),
    ],
    ids=["unsupported", "contradicted"],
)
def test_when_a_risk_class_is_warn_only_then_its_t5_warns_instead_of_blocking(
    text: str, receipts: list[Receipt]
) -> None:
    policy = {"riskClasses": {"financial": {"mode": "warn_only"}}}

    default = _validate(text, None, *receipts)
    relaxed = _validate(text, policy, *receipts)

    assert default.sentences[0].tag == "T5"
    assert default.verdict == "block"
    assert relaxed.sentences[0].tag == "T5"
    assert relaxed.sentences[0].action == "warn"
    assert relaxed.verdict == "flag"
    assert relaxed.delivered_text == f"{text} (unverified)"


def test_when_one_risk_class_is_warn_only_then_other_classes_still_block() -> None:
    policy = {"riskClasses": {"financial": {"mode": "warn_only"}}}

    result = _validate("Revenue was $2.4M. The contract is worth $50,000.", policy)

    assert [s.action for s in result.sentences] == ["warn", "block"]
    assert result.verdict == "block"


@pytest.mark.parametrize(
    "text",
    ["Latency dropped to 120 ms.", "p95 latency is 85 ms.", "Model accuracy was 91%."],
    ids=["latency-ms", "p95-ms", "accuracy-percent"],
)
def test_when_benchmark_is_warn_only_then_an_unsupported_benchmark_figure_warns(
    text: str,
) -> None:
    result = _validate(text, {"riskClasses": {"benchmark": {"mode": "warn_only"}}})

    assert result.sentences[0].tag == "T5"
    assert result.sentences[0].action == "warn", result.sentences[0].reasons
    assert result.verdict == "flag"


# --------------------------------------------------------------------------- hedging


def test_when_a_class_is_excused_by_hedging_then_a_hedged_unsupported_figure_is_t6_warn() -> None:
    text = "Revenue may reach $3M."

    default = _validate(text)
    excused = _validate(text, {"hedging": {"excusesClasses": ["financial"]}})

    assert (default.sentences[0].tag, default.sentences[0].action) == ("T5", "block")
    assert (excused.sentences[0].tag, excused.sentences[0].action) == ("T6", "warn")
    assert excused.verdict == "flag"
    assert excused.delivered_text == "Revenue may reach $3M. (speculative)"


def test_when_a_class_is_excused_then_a_hedged_figure_of_another_class_still_blocks() -> None:
    result = _validate(
        "The contract may be worth $3M.", {"hedging": {"excusesClasses": ["financial"]}}
    )

    assert result.sentences[0].tag == "T5"
    assert result.verdict == "block"


def test_when_a_hedged_figure_is_contradicted_then_hedging_does_not_excuse_it() -> None:
    actual = Receipt(id="crm-1", kind="db", content="revenue: $2,000,000")

    result = _validate(
        "Revenue may be $3M.", {"hedging": {"excusesClasses": ["financial"]}}, actual
    )

    s = result.sentences[0]
    assert any(e.relation == "contradicts" for e in s.evidence)
    assert s.tag == "T5"
    assert result.verdict == "block"


def test_when_a_contract_class_is_excused_then_a_hedged_contract_date_is_t6_warn() -> None:
    text = "The contract may renew on 2026-04-01."

    default = _validate(text)
    excused = _validate(text, {"hedging": {"excusesClasses": ["contractual"]}})

    assert (default.sentences[0].tag, default.sentences[0].action) == ("T5", "block")
    assert (excused.sentences[0].tag, excused.sentences[0].action) == ("T6", "warn")
    assert excused.delivered_text == f"{text} (speculative)"


def test_when_excused_classes_are_emptied_then_a_hedged_schedule_date_blocks() -> None:
    text = "The release may ship on 2026-04-01."

    result = _validate(text, {"hedging": {"excusesClasses": []}})

    assert result.sentences[0].tag == "T5"
    assert result.verdict == "block"


def test_when_hedging_words_are_replaced_then_the_new_words_mark_the_hedge() -> None:
    policy = {"hedging": {"words": ["reportedly"], "excusesClasses": ["contractual"]}}

    custom = _validate("The contract reportedly renews on 2026-04-01.", policy)
    old_word = _validate("The contract may renew on 2026-04-01.", policy)

    assert custom.sentences[0].tag == "T6"
    assert custom.verdict == "flag"
    assert old_word.sentences[0].tag == "T5"  # "may" is no longer a hedge word
    assert old_word.verdict == "block"


# --------------------------------------------------------------------------- tags


@pytest.mark.parametrize(
    ("text", "tags", "expected_tag", "expected_action"),
    [
        ("Python is a popular programming language.", {"T3": "pass"}, "T3", "pass"),
        ("Python is a popular programming language.", {"T3": "block"}, "T3", "block"),
        ("The cache might be stale.", {"T6": "pass"}, "T6", "pass"),
        ("Therefore the cache should reduce latency.", {"T2": "block"}, "T2", "block"),
        ("Our budget is $50,000.", {"T7": "warn"}, "T7", "warn"),
    ],
    ids=["t3-pass", "t3-block", "t6-pass", "t2-block", "t7-warn"],
)
def test_when_tags_are_overridden_then_the_sentence_action_follows(
    text: str, tags: dict[str, str], expected_tag: str, expected_action: str
) -> None:
    budget = Receipt(id="u2", kind="user", content="Our budget is $50,000 for this project.")

    default = _validate(text, None, budget)
    result = _validate(text, {"tags": tags}, budget)

    assert default.sentences[0].tag == expected_tag
    assert default.sentences[0].action != expected_action
    assert result.sentences[0].tag == expected_tag
    assert result.sentences[0].action == expected_action


def test_when_t3_is_pass_then_a_general_statement_is_delivered_unlabelled() -> None:
    result = _validate("Python is a popular programming language.", {"tags": {"T3": "pass"}})

    assert result.verdict == "pass"
    assert result.delivered_text == "Python is a popular programming language."
