"""Custom detectors from config (RFC-003 §4.5, §14.1) and plugin detectors (SPEC §2).

A custom detector is one ``customDetectors`` entry: RE2 patterns, a category, an
assertion, optional ``subjectGroup``, ``negative`` and ``confidence``. Patterns RE2
cannot compile, or longer than 500 characters, fail at load with an error naming
the detector. A plugin is a ``register(register_fn)`` function, the same shape as
the ``receiptgate.detectors`` entry point the built-ins use.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from receiptgate._exceptions import ConfigError
from receiptgate.claims.detectors import builtin
from receiptgate.claims.detectors.base import (
    Detector,
    DetectorRegistry,
    Pattern,
    RegisterFn,
    load_plugin_detectors,
)
from receiptgate.claims.detectors.custom import MAX_PATTERN_LENGTH
from receiptgate.claims.models import DetectedClaim
from receiptgate.config import load_config, parse_config
from receiptgate.engine import Gate
from receiptgate.results import ValidationResult
from receiptgate.text.segment import Sentence

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)


def _detector(**overrides: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "id": "ticket-closed",
        "category": "existence",
        "patterns": [r"ticket ([A-Z]+-\d+) is closed"],
        "assertion": "closed",
    }
    spec.update(overrides)
    return spec


def _gate(*detectors: dict[str, Any], **config: Any) -> Gate:
    return Gate(parse_config({"customDetectors": list(detectors), **config}))


def _custom_claims(result: ValidationResult, detector_id: str) -> list[DetectedClaim]:
    return [c for c in result.claims if c.detector_id == detector_id]


def _validate(gate: Gate, text: str, **kwargs: Any) -> ValidationResult:
    result = gate.validate(text, now=NOW, **kwargs)
    for c in result.claims:
        assert text[c.offset : c.end] == c.matched_text, c
    return result


# -------------------------------------------------------------------- matching

SUBJECTS = [
    pytest.param(
        _detector(
            id="env-degraded",
            category="operational_status",
            patterns=[r"(?P<env>\w+) env is (?P<svc>[\w-]+) degraded"],
            subjectGroup="svc",
            assertion="degraded",
        ),
        "Today the prod env is api-gw degraded again.",
        "api-gw",
        "prod env is api-gw degraded",
        id="named-subject-group",
    ),
    pytest.param(
        _detector(),
        "As noted, ticket ABC-12 is closed now.",
        "ABC-12",
        "ticket ABC-12 is closed",
        id="first-group-by-default",
    ),
    pytest.param(
        _detector(id="no-gpu", category="capability", patterns=[r"\bno GPU\b"], assertion="no_gpu"),
        "Sadly this host has no GPU at all.",
        "no GPU",
        "no GPU",
        id="whole-match-without-groups",
    ),
    pytest.param(
        _detector(patterns=[r"(?i)ticket ([a-z]+-\d+) is closed"]),
        "As noted, TICKET xyz-9 IS CLOSED now.",
        "xyz-9",
        "TICKET xyz-9 IS CLOSED",
        id="inline-case-insensitive-flag",
    ),
]


@pytest.mark.parametrize(("spec", "text", "subject", "matched"), SUBJECTS)
def test_when_custom_pattern_matches_then_claim_has_the_configured_subject(
    spec: dict[str, Any], text: str, subject: str, matched: str
) -> None:
    result = _validate(_gate(spec), text)
    (claim,) = _custom_claims(result, spec["id"])
    assert claim.subject == subject
    assert claim.matched_text == matched
    assert claim.offset == text.index(matched)
    assert claim.category == spec["category"]
    assert claim.assertion == spec["assertion"]


def test_when_custom_detector_sets_negative_and_confidence_then_the_claim_carries_them() -> None:
    spec = _detector(
        id="not-deployed",
        category="system_state",
        patterns=[r"(?P<svc>[a-z][\w-]*) was never rolled out"],
        subjectGroup="svc",
        assertion="not_deployed",
        negative=True,
        confidence=0.55,
    )
    result = _validate(_gate(spec), "Heads up: billing-api was never rolled out.")
    (claim,) = _custom_claims(result, "not-deployed")
    assert (claim.category, claim.subject, claim.assertion) == (
        "system_state",
        "billing-api",
        "not_deployed",
    )
    assert claim.negative is True
    assert claim.confidence == pytest.approx(0.55)


def test_when_custom_detector_omits_negative_and_confidence_then_rfc_defaults_apply() -> None:
    # RFC-003 §4.5: negative defaults to false, confidence to 0.8.
    result = _validate(_gate(_detector()), "As noted, ticket ABC-12 is closed now.")
    (claim,) = _custom_claims(result, "ticket-closed")
    assert claim.negative is False
    assert claim.confidence == pytest.approx(0.8)


def test_when_custom_detector_has_several_patterns_then_each_one_matches() -> None:
    spec = _detector(
        patterns=[r"ticket ([A-Z]+-\d+) is closed", r"closed ticket ([A-Z]+-\d+)"],
    )
    text = "First, ticket AB-1 is closed. Then I saw closed ticket CD-2 too."
    result = _validate(_gate(spec), text)
    claims = _custom_claims(result, "ticket-closed")
    assert [(c.subject, c.sentence_index) for c in claims] == [("AB-1", 0), ("CD-2", 1)]


def test_when_custom_pattern_matches_twice_in_a_sentence_then_both_claims_are_kept() -> None:
    text = "Yes, ticket AB-1 is closed and ticket CD-2 is closed."
    result = _validate(_gate(_detector()), text)
    assert [c.subject for c in _custom_claims(result, "ticket-closed")] == ["AB-1", "CD-2"]


def test_when_custom_detector_is_loaded_from_a_yaml_file_then_the_gate_uses_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "gate.yaml"
    path.write_text(
        "customDetectors:\n"
        "  - id: queue-stuck\n"
        "    category: operational_status\n"
        "    patterns: ['(?P<queue>[a-z-]+) queue is stuck']\n"
        "    subjectGroup: queue\n"
        "    assertion: stuck\n"
        "    negative: false\n"
        "    confidence: 0.9\n",
        encoding="utf-8",
    )
    config, _ = load_config(path)
    result = _validate(Gate(config), "Heads up: the emails queue is stuck.")
    (claim,) = _custom_claims(result, "queue-stuck")
    assert (claim.subject, claim.assertion) == ("emails", "stuck")


def test_when_custom_claim_is_contradicted_by_a_fact_then_trust_policy_applies() -> None:
    gate = _gate(
        _detector(
            id="decommissioned",
            category="system_state",
            patterns=[r"(?P<svc>[a-z][\w-]*) has been decommissioned"],
            subjectGroup="svc",
            assertion="stopped",
        ),
        factRegistries=[
            {
                "id": "infra",
                "facts": [
                    {
                        "id": "legacy-running",
                        "category": "system_state",
                        "subject": "legacy-api",
                        "value": {"type": "state", "state": "running"},
                    }
                ],
            }
        ],
    )
    text = "Good news: legacy-api has been decommissioned."
    restricted = _validate(gate, text, trust=30)
    assert [(f.status, f.fact_id) for f in restricted.fact_checks] == [
        ("contradicted", "legacy-running")
    ]
    assert restricted.verdict == "block"
    assert _validate(gate, text, trust=50).verdict == "flag"


# ------------------------------------------------------------- load-time errors

REJECTED_BY_RE2 = [
    pytest.param(r"(a)\1", id="backreference"),
    pytest.param(r"foo(?=x)", id="lookahead"),
    pytest.param(r"foo(?!x)", id="negative-lookahead"),
    pytest.param(r"(?<=x)foo", id="lookbehind"),
    pytest.param(r"(unclosed", id="syntax-error"),
]


@pytest.mark.parametrize("pattern", REJECTED_BY_RE2)
def test_when_re2_cannot_compile_a_pattern_then_loading_fails_naming_the_detector(
    pattern: str,
) -> None:
    config = parse_config({"customDetectors": [_detector(id="bad-one", patterns=[pattern])]})
    with pytest.raises(ConfigError, match="bad-one") as info:
        Gate(config)
    assert "customDetectors[0]" in str(info.value)
    assert "patterns[0]" in str(info.value)


def test_when_the_second_pattern_is_invalid_then_the_error_names_its_index() -> None:
    spec = _detector(id="two", patterns=[r"ok (\w+)", r"(a)\1"])
    with pytest.raises(ConfigError, match=r"'two'.*patterns\[1\]"):
        Gate(parse_config({"customDetectors": [spec]}))


def test_when_pattern_is_longer_than_500_characters_then_loading_fails_naming_the_detector() -> (
    None
):
    pattern = "a" * (MAX_PATTERN_LENGTH + 1)
    config = parse_config({"customDetectors": [_detector(id="too-long", patterns=[pattern])]})
    with pytest.raises(ConfigError, match="too-long") as info:
        Gate(config)
    assert "500" in str(info.value)


def test_when_pattern_is_exactly_500_characters_then_it_loads() -> None:
    assert MAX_PATTERN_LENGTH == 500
    pattern = "(" + "a" * (MAX_PATTERN_LENGTH - 2) + ")"
    Gate(parse_config({"customDetectors": [_detector(id="just-fits", patterns=[pattern])]}))


def test_when_subject_group_is_not_a_named_group_then_loading_fails_naming_both() -> None:
    spec = _detector(id="svc-up", patterns=[r"(?P<svc>\w+) is up"], subjectGroup="service")
    with pytest.raises(ConfigError, match="svc-up") as info:
        Gate(parse_config({"customDetectors": [spec]}))
    assert "service" in str(info.value)


def test_when_two_custom_detectors_share_an_id_then_loading_fails_naming_the_id() -> None:
    config = parse_config(
        {"customDetectors": [_detector(id="dup"), _detector(id="dup", patterns=["x (y)"])]}
    )
    with pytest.raises(ConfigError, match=r"customDetectors\[1\].*'dup'"):
        Gate(config)


def test_when_custom_detector_reuses_a_builtin_id_then_loading_fails() -> None:
    config = parse_config({"customDetectors": [_detector(id="system_state")]})
    with pytest.raises(ConfigError, match="system_state"):
        Gate(config)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        pytest.param({"patterns": []}, "customDetectors[0].patterns", id="no-patterns"),
        pytest.param({"category": "weather"}, "customDetectors[0].category", id="bad-category"),
        pytest.param({"confidence": 1.5}, "customDetectors[0].confidence", id="confidence-gt-1"),
        pytest.param({"negative": "sometimes"}, "customDetectors[0].negative", id="bad-negative"),
        pytest.param({"id": "has space"}, "customDetectors[0].id", id="bad-id"),
        pytest.param({"subjectGrp": "x"}, "customDetectors[0].subjectGrp", id="unknown-key"),
    ],
)
def test_when_custom_detector_field_is_invalid_then_the_error_names_the_field(
    overrides: dict[str, Any], field: str
) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({"customDetectors": [_detector(**overrides)]}, source="gate.yaml")
    message = str(info.value)
    assert message.startswith("gate.yaml: ")
    assert field in message


# ----------------------------------------------------------------------- plugins


class TicketDetector(Detector):
    """A third-party detector: one class of constants, as the seam promises."""

    id = "acme.ticket"
    category = "existence"
    PATTERNS = (
        Pattern(
            "resolved",
            r"\bticket\s+([a-z]+-\d+)\s+(?:is|was)\s+resolved\b",
            subject=1,
            assertion="resolved",
            confidence=0.9,
        ),
    )


def register_acme(register: RegisterFn) -> None:
    """What a plugin's ``receiptgate.detectors`` entry point would name."""
    register(TicketDetector())


def _registry_with(*hooks: Any) -> DetectorRegistry:
    registry = DetectorRegistry()
    builtin.register_detectors(registry.register)
    for hook in hooks:
        hook(registry.register)
    return registry


def test_when_a_plugin_registers_a_detector_then_the_gate_uses_it_beside_the_builtins() -> None:
    gate = Gate(detectors=_registry_with(register_acme))
    text = "Node.js is not installed. Also ticket OPS-42 was resolved."
    result = _validate(gate, text)
    rows = [(c.category, c.detector_id, c.subject, c.assertion) for c in result.claims]
    assert ("system_state", "system_state.state", "Node.js", "not_installed") in rows
    assert ("existence", "acme.ticket.resolved", "OPS-42", "resolved") in rows


def test_when_a_plugin_claim_is_unverified_then_it_is_decided_like_any_rfc_claim() -> None:
    gate = Gate(detectors=_registry_with(register_acme))
    result = _validate(gate, "Good news: ticket OPS-42 was resolved.", trust=10)
    (violation,) = [v for v in result.violations if v.category == "existence"]
    assert violation.action == "block"  # untrusted: unverifiedClaimPolicy block (§9.2)


def test_when_plugin_validate_result_vetoes_a_match_then_no_claim_is_made() -> None:
    class OnlyUppercaseTickets(TicketDetector):
        id = "acme.upper"

        def validate_result(
            self, claim: DetectedClaim, text: str, sentence: Sentence, match: Any
        ) -> DetectedClaim | None:
            return claim if claim.subject.isupper() else None

    def register(register_fn: RegisterFn) -> None:
        register_fn(OnlyUppercaseTickets())

    gate = Gate(detectors=_registry_with(register))
    text = "Ticket ops-1 was resolved. Ticket OPS-2 was resolved."
    subjects = [c.subject for c in _validate(gate, text).claims if c.detector_id.startswith("acme")]
    assert subjects == ["OPS-2"]


def test_when_entry_points_are_loaded_then_every_builtin_detector_is_registered() -> None:
    registry = DetectorRegistry()
    load_plugin_detectors(registry)
    expected = {cls.id for cls in builtin.BUILTIN_DETECTORS}
    assert expected <= set(registry.ids())
    assert {
        "system_state",
        "entity_name",
        "existence",
        "operational_status",
        "capability",
        "self_referential",
    } <= set(registry.ids())


def test_when_a_plugin_reuses_a_detector_id_then_it_replaces_the_first() -> None:
    class QuietSystemState(Detector):
        id = "system_state"
        category = "system_state"
        PATTERNS = ()

    registry = _registry_with(lambda register: register(QuietSystemState()))
    gate = Gate(detectors=registry)
    result = _validate(gate, "Node.js is not installed")
    assert [c.category for c in result.claims if c.category == "system_state"] == []


def test_when_a_detector_has_no_id_then_registering_it_fails() -> None:
    class Anonymous(Detector):
        PATTERNS = ()

    with pytest.raises(ValueError, match="Anonymous"):
        DetectorRegistry().register(Anonymous())


def _iter_ids(registry: DetectorRegistry) -> Iterator[str]:
    yield from (d.id for d in registry)


def test_when_a_registry_is_iterated_then_it_yields_detectors_in_registration_order() -> None:
    registry = _registry_with(register_acme)
    ids = list(_iter_ids(registry))
    assert ids[-1] == "acme.ticket"
    assert len(ids) == len(registry)
