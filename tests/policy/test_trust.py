"""Trust-proportional validation (RFC-003 §7.2, §9, §10, §14.4, §15.2).

Texts here carry no numbers or dates, so only RFC-003 claims decide (no hard-fact
claims). A fact registry with one system_state fact about an unrelated subject is
always loaded, so that the system_state detector also runs at the "contradiction-only"
detection depth of the trusted tiers and "unverified" really means "no fact found".
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate._exceptions import ConfigError, InputError
from receiptgate.claims.detectors import builtin
from receiptgate.claims.detectors.base import Detector, DetectorRegistry, Pattern, RegisterFn
from receiptgate.claims.models import DetectedClaim
from receiptgate.config import GateConfig, parse_config
from receiptgate.engine import Gate
from receiptgate.policy.trust import (
    NAMED_PROFILES,
    TIER_PROFILES,
    find_override,
    resolve_policy,
    trust_tier,
)
from receiptgate.results import ValidationResult
from receiptgate.text.segment import Sentence

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)

UNVERIFIED = "nginx is running"  # no fact about nginx in the base registry
CONTRADICTED = "postgres is stopped"  # the base registry says postgres is running
SELF_REF = "I'm an AI assistant"


def _fact(fid: str, category: str, subject: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"id": fid, "category": category, "subject": subject, "value": value}


BASE_REGISTRY: dict[str, Any] = {
    "id": "infra",
    "facts": [
        _fact("postgres-running", "system_state", "postgres", {"type": "state", "state": "running"})
    ],
}


def _config(**extra: Any) -> GateConfig:
    data: dict[str, Any] = {"factRegistries": [BASE_REGISTRY]}
    data.update(extra)
    return parse_config(data)


def _validate(gate: Gate, text: str, **kwargs: Any) -> ValidationResult:
    return gate.validate(text, now=NOW, **kwargs)


def _rfc_actions(result: ValidationResult, category: str) -> list[str]:
    return [v.action for v in result.violations if v.category == category]


# ------------------------------------------------------------ §9.2, row by row
#
# trustExemptThreshold is raised to 100 so that trust 100 reaches the privileged
# row instead of being skipped (by default trust > 90 skips validation, §6.3).

_TIERS = [
    ("untrusted", 0),
    ("untrusted", 19),
    ("restricted", 20),
    ("restricted", 39),
    ("standard", 40),
    ("standard", 59),
    ("trusted", 60),
    ("trusted", 79),
    ("privileged", 80),
    ("privileged", 100),
]

#: RFC-003 §9.2 as verdicts: (unverified, contradicted, self-referential).
TABLE_9_2 = {
    "untrusted": ("block", "block", "block"),
    "restricted": ("flag", "block", "flag"),
    "standard": ("flag", "flag", "flag"),
    "trusted": ("pass", "flag", "pass"),
    "privileged": ("pass", "flag", "pass"),
}


@pytest.fixture(scope="module")
def table_gate() -> Gate:
    return Gate(_config(trustExemptThreshold=100))


@pytest.mark.parametrize(("tier", "trust"), [pytest.param(t, s, id=f"{t}-{s}") for t, s in _TIERS])
def test_when_trust_is_at_a_tier_edge_then_the_score_maps_to_that_tier(
    tier: str, trust: int
) -> None:
    assert trust_tier(trust) == tier
    assert resolve_policy(GateConfig(), None, trust).tier == tier


@pytest.mark.parametrize(("tier", "trust"), [pytest.param(t, s, id=f"{t}-{s}") for t, s in _TIERS])
def test_when_claim_is_unverified_then_verdict_follows_the_tier_row(
    table_gate: Gate, tier: str, trust: int
) -> None:
    result = _validate(table_gate, UNVERIFIED, trust=trust)
    assert result.trust_tier == tier
    assert [c.subject for c in result.claims] == ["nginx"]
    assert [f.status for f in result.fact_checks] == ["no_fact_found"]
    assert result.verdict == TABLE_9_2[tier][0]


@pytest.mark.parametrize(("tier", "trust"), [pytest.param(t, s, id=f"{t}-{s}") for t, s in _TIERS])
def test_when_claim_is_contradicted_then_verdict_follows_the_tier_row(
    table_gate: Gate, tier: str, trust: int
) -> None:
    result = _validate(table_gate, CONTRADICTED, trust=trust)
    assert [(f.status, f.fact_id) for f in result.fact_checks] == [
        ("contradicted", "postgres-running")
    ]
    expected = TABLE_9_2[tier][1]
    assert result.verdict == expected
    (violation,) = result.violations
    assert (violation.action, violation.fact_id, violation.severity) == (
        expected,
        "postgres-running",
        "high",
    )


@pytest.mark.parametrize(("tier", "trust"), [pytest.param(t, s, id=f"{t}-{s}") for t, s in _TIERS])
def test_when_claim_is_self_referential_then_verdict_follows_the_tier_row(
    table_gate: Gate, tier: str, trust: int
) -> None:
    result = _validate(table_gate, SELF_REF, trust=trust)
    assert result.verdict == TABLE_9_2[tier][2]
    if TABLE_9_2[tier][2] != "pass":
        assert _rfc_actions(result, "self_referential") == [TABLE_9_2[tier][2]]


def test_when_tier_profiles_are_read_then_they_are_the_rfc_table() -> None:
    rows = {
        tier: (p.unverified, p.contradiction, p.self_referential, p.depth)
        for tier, p in TIER_PROFILES.items()
    }
    assert rows == {
        "untrusted": ("block", "block", "block", "all"),
        "restricted": ("flag", "block", "flag", "all"),
        "standard": ("flag", "flag", "flag", "all"),
        "trusted": ("ignore", "flag", "ignore", "contradiction_only"),
        "privileged": ("ignore", "flag", "ignore", "contradiction_only"),
    }


@pytest.mark.parametrize("trust", [-1, 101])
def test_when_trust_is_outside_0_to_100_then_validate_raises_input_error(trust: int) -> None:
    with pytest.raises(InputError, match="trust"):
        Gate().validate("nginx is running", trust=trust, now=NOW)


# ------------------------------------------------------------ §9.3 detection depth


def _depth_gate() -> Gate:
    # Facts exist only for the existence category.
    registry = {
        "id": "features",
        "facts": [_fact("y-exists", "existence", "Y", {"type": "exists", "exists": True})],
    }
    return Gate(parse_config({"factRegistries": [registry]}))


TEXT_TWO_CATEGORIES = "Node.js is not installed. Feature Y doesn't exist."


@pytest.mark.parametrize("trust", [60, 79, 80, 90])
def test_when_agent_is_trusted_then_detectors_without_facts_do_not_run(trust: int) -> None:
    result = _validate(_depth_gate(), TEXT_TWO_CATEGORIES, trust=trust)
    assert [c.category for c in result.claims] == ["existence"]
    assert result.policy["detection_depth"] == "contradiction_only"
    assert [f.status for f in result.fact_checks] == ["contradicted"]
    assert result.verdict == "flag"


@pytest.mark.parametrize("trust", [0, 20, 40, 59])
def test_when_agent_is_below_trusted_then_all_detectors_run(trust: int) -> None:
    result = _validate(_depth_gate(), TEXT_TWO_CATEGORIES, trust=trust)
    assert [c.category for c in result.claims] == ["system_state", "existence"]
    assert result.policy["detection_depth"] == "all"


def test_when_agent_is_trusted_and_no_registry_exists_then_no_rfc_claims_are_detected() -> None:
    result = _validate(Gate(), "Pipeline is broken. I'm an AI assistant.", trust=70)
    assert result.claims == []
    assert result.verdict == "pass"


# ------------------------------------------------------------- §9.4 overrides


def test_when_several_override_globs_match_then_the_first_one_wins() -> None:
    gate = Gate(
        _config(
            agentOverrides=[
                {"agent": "forge-*", "profile": "strict"},
                {"agent": "forge-1", "profile": "lenient"},
                {"agent": "*", "profile": "lenient"},
            ]
        )
    )
    result = _validate(gate, UNVERIFIED, agent_id="forge-1", trust=70)
    assert result.verdict == "block"  # strict: unverified -> block
    assert "override:forge-*" in result.policy["source"]
    other = _validate(gate, UNVERIFIED, agent_id="main", trust=10)
    assert other.verdict == "pass"  # lenient: unverified -> ignore
    assert "override:*" in other.policy["source"]


def test_when_no_override_glob_matches_then_the_tier_applies() -> None:
    gate = Gate(_config(agentOverrides=[{"agent": "forge-*", "profile": "strict"}]))
    result = _validate(gate, UNVERIFIED, agent_id="main", trust=50)
    assert result.verdict == "flag"
    assert result.policy["source"] == "tier:standard"


def test_when_override_sets_individual_policies_then_they_beat_its_profile() -> None:
    gate = Gate(
        _config(
            agentOverrides=[
                {"agent": "main", "profile": "lenient", "contradictionPolicy": "block"},
            ]
        )
    )
    assert _validate(gate, CONTRADICTED, agent_id="main", trust=70).verdict == "block"
    assert _validate(gate, UNVERIFIED, agent_id="main", trust=70).verdict == "pass"


def test_when_override_sets_only_a_policy_then_the_rest_of_the_tier_row_stays() -> None:
    gate = Gate(_config(agentOverrides=[{"agent": "sub-*", "selfReferentialPolicy": "ignore"}]))
    assert _validate(gate, SELF_REF, agent_id="sub-7", trust=10).verdict == "pass"
    assert _validate(gate, UNVERIFIED, agent_id="sub-7", trust=10).verdict == "block"


def test_when_rfc_example_overrides_are_used_then_each_agent_gets_its_profile() -> None:
    # RFC-003 §10.3: main lenient, forge standard, everyone else strict.
    config = _config(
        agentOverrides=[
            {"agent": "main", "profile": "lenient"},
            {"agent": "forge", "profile": "standard"},
            {"agent": "*", "profile": "strict"},
        ]
    )
    assert find_override(config, "main").profile == "lenient"  # type: ignore[union-attr]
    assert find_override(config, "forge").profile == "standard"  # type: ignore[union-attr]
    assert find_override(config, "helper-3").profile == "strict"  # type: ignore[union-attr]
    assert find_override(config, None) is None
    gate = Gate(config)
    assert _validate(gate, UNVERIFIED, agent_id="main", trust=30).verdict == "pass"
    assert _validate(gate, UNVERIFIED, agent_id="forge", trust=30).verdict == "flag"
    assert _validate(gate, UNVERIFIED, agent_id="helper-3", trust=70).verdict == "block"


@pytest.mark.parametrize(
    ("profile", "unverified", "contradicted", "self_ref"),
    [
        pytest.param("strict", "block", "block", "block", id="strict"),
        # Judgment call: RFC-003 names "standard" but does not define it; receiptgate
        # uses the §10.2 defaults (contradiction blocks), not the §9.2 standard row.
        pytest.param("standard", "flag", "block", "flag", id="standard"),
        pytest.param("lenient", "pass", "flag", "pass", id="lenient"),
    ],
)
def test_when_override_names_a_profile_then_its_policies_apply_whatever_the_trust(
    profile: str, unverified: str, contradicted: str, self_ref: str
) -> None:
    gate = Gate(_config(agentOverrides=[{"agent": "a*", "profile": profile}]))
    for trust in (5, 50, 75):
        assert _validate(gate, UNVERIFIED, agent_id="agent", trust=trust).verdict == unverified
        assert _validate(gate, CONTRADICTED, agent_id="agent", trust=trust).verdict == contradicted
        assert _validate(gate, SELF_REF, agent_id="agent", trust=trust).verdict == self_ref


def test_when_named_profiles_are_read_then_strict_and_lenient_are_the_extreme_tier_rows() -> None:
    assert NAMED_PROFILES["strict"] == TIER_PROFILES["untrusted"]
    assert NAMED_PROFILES["lenient"] == TIER_PROFILES["trusted"]


def test_when_override_profile_is_disabled_then_validation_is_skipped() -> None:
    gate = Gate(_config(agentOverrides=[{"agent": "bot-*", "profile": "disabled"}]))
    result = _validate(gate, CONTRADICTED, agent_id="bot-1", trust=0)
    assert result.verdict == "pass"
    assert result.skipped is not None
    assert result.claims == []
    assert _validate(gate, CONTRADICTED, agent_id="human", trust=0).verdict == "block"


# ------------------------------------------------- §6.3 exemptions and threshold


@pytest.mark.parametrize(
    ("agent", "skipped"),
    [
        pytest.param("sub-1", True, id="glob-match"),
        pytest.param("sub-agent-x", True, id="glob-match-long"),
        pytest.param("auditor", True, id="exact-match"),
        pytest.param("main", False, id="no-match"),
        pytest.param("my-sub-1", False, id="glob-is-anchored"),
    ],
)
def test_when_agent_is_exempt_then_validation_is_skipped(agent: str, skipped: bool) -> None:
    gate = Gate(_config(exempt=["sub-*", "auditor"]))
    result = _validate(gate, CONTRADICTED, agent_id=agent, trust=0)
    assert (result.skipped is not None) is skipped
    assert result.verdict == ("pass" if skipped else "block")


def test_when_no_agent_id_is_given_then_exemptions_do_not_apply() -> None:
    gate = Gate(_config(exempt=["*"]))
    assert _validate(gate, CONTRADICTED, trust=0).verdict == "block"


@pytest.mark.parametrize(
    ("trust", "skipped"),
    [pytest.param(90, False, id="90-validated"), pytest.param(91, True, id="91-skipped")],
)
def test_when_trust_is_above_trust_exempt_threshold_then_validation_is_skipped(
    trust: int, skipped: bool
) -> None:
    result = _validate(Gate(_config()), CONTRADICTED, trust=trust)
    assert (result.skipped is not None) is skipped
    if skipped:
        assert result.verdict == "pass"
        assert result.claims == []
    else:
        assert result.verdict == "flag"  # privileged: contradiction -> flag


def test_when_trust_exempt_threshold_is_lowered_then_lower_scores_are_skipped() -> None:
    gate = Gate(_config(trustExemptThreshold=50))
    assert _validate(gate, CONTRADICTED, trust=50).skipped is None
    assert _validate(gate, CONTRADICTED, trust=51).skipped is not None


def test_when_validation_is_disabled_then_everything_passes_unchecked() -> None:
    result = _validate(Gate(_config(enabled=False)), CONTRADICTED, trust=0)
    assert result.verdict == "pass"
    assert result.skipped is not None


# ------------------------------------------ §9.4 additional / excluded registries


def _registry_gate() -> Gate:
    return Gate(
        parse_config(
            {
                "factRegistries": [
                    {
                        "id": "main",
                        "facts": [
                            _fact(
                                "nginx-stopped",
                                "system_state",
                                "nginx",
                                {"type": "state", "state": "stopped"},
                            )
                        ],
                    },
                    {
                        "id": "extra",
                        "enabled": False,
                        "facts": [
                            _fact(
                                "redis-stopped",
                                "system_state",
                                "redis",
                                {"type": "state", "state": "stopped"},
                            )
                        ],
                    },
                ],
                "agentOverrides": [
                    {"agent": "ops", "additionalRegistries": ["extra"]},
                    {"agent": "solo", "excludeRegistries": ["main"]},
                ],
            }
        )
    )


def test_when_a_registry_is_disabled_then_it_does_not_apply_to_other_agents() -> None:
    result = _validate(_registry_gate(), "redis is running", agent_id="someone", trust=30)
    assert [f.status for f in result.fact_checks] in ([], ["no_fact_found"])
    assert result.verdict == "flag"  # restricted: unverified -> flag


def test_when_override_adds_a_disabled_registry_then_its_facts_apply_to_that_agent() -> None:
    result = _validate(_registry_gate(), "redis is running", agent_id="ops", trust=30)
    assert [(f.status, f.fact_id) for f in result.fact_checks] == [
        ("contradicted", "redis-stopped")
    ]
    assert result.verdict == "block"  # restricted: contradiction -> block


def test_when_override_excludes_a_registry_then_its_facts_do_not_apply() -> None:
    gate = _registry_gate()
    assert _validate(gate, "nginx is running", agent_id="someone", trust=30).verdict == "block"
    result = _validate(gate, "nginx is running", agent_id="solo", trust=30)
    assert all(f.status != "contradicted" for f in result.fact_checks)
    assert result.verdict == "flag"


def test_when_override_names_an_unknown_registry_then_loading_fails_naming_it() -> None:
    config = _config(agentOverrides=[{"agent": "ops", "additionalRegistries": ["nope"]}])
    with pytest.raises(ConfigError, match=r"agentOverrides\[0\]\.additionalRegistries\[0\]"):
        Gate(config)


# ------------------------------------------------------------ §7.2 worst wins


@pytest.mark.parametrize(
    ("text", "trust", "verdict", "actions"),
    [
        pytest.param(
            "postgres is stopped and nginx is running.",
            30,
            "block",
            ["block", "flag"],
            id="block-beats-flag",
        ),
        pytest.param(
            "postgres is running and nginx is running.",
            30,
            "flag",
            ["flag"],
            id="flag-beats-confirmed-pass",
        ),
        pytest.param(
            "postgres is running. Hello there!",
            30,
            "pass",
            [],
            id="confirmed-only-passes",
        ),
        pytest.param(
            "nginx is running. I'm an AI assistant.",
            10,
            "block",
            ["block", "block"],
            id="two-blocks",
        ),
        pytest.param(
            "postgres is stopped. I'm an AI assistant.",
            70,
            "flag",
            ["flag"],
            id="trusted-contradiction-flags-self-ref-ignored",
        ),
    ],
)
def test_when_claims_have_different_outcomes_then_the_worst_wins(
    text: str, trust: int, verdict: str, actions: list[str]
) -> None:
    result = _validate(Gate(_config()), text, trust=trust)
    assert sorted(v.action for v in result.violations) == sorted(actions)
    assert result.verdict == verdict


def test_when_no_claims_are_detected_then_the_verdict_is_pass() -> None:
    result = _validate(Gate(_config()), "Hello, how are you today?", trust=0)
    assert result.claims == []
    assert result.verdict == "pass"


# ------------------------------------------------------ defaults without trust


def test_when_no_trust_is_given_then_the_rfc_defaults_apply() -> None:
    gate = Gate(_config())
    assert _validate(gate, UNVERIFIED).verdict == "flag"
    assert _validate(gate, CONTRADICTED).verdict == "block"
    assert _validate(gate, SELF_REF).verdict == "flag"
    result = _validate(gate, UNVERIFIED)
    assert result.trust_tier is None
    assert result.policy["source"] == "defaults"


def test_when_no_trust_is_given_then_configured_defaults_apply() -> None:
    gate = Gate(
        _config(
            defaults={
                "unverifiedClaimPolicy": "block",
                "contradictionPolicy": "flag",
                "selfReferentialPolicy": "ignore",
            }
        )
    )
    assert _validate(gate, UNVERIFIED).verdict == "block"
    assert _validate(gate, CONTRADICTED).verdict == "flag"
    assert _validate(gate, SELF_REF).verdict == "pass"


def test_when_trust_is_given_then_config_defaults_do_not_apply() -> None:
    gate = Gate(_config(defaults={"unverifiedClaimPolicy": "block"}))
    assert _validate(gate, UNVERIFIED, trust=50).verdict == "flag"


def test_when_defaults_are_used_then_an_override_still_applies() -> None:
    gate = Gate(_config(agentOverrides=[{"agent": "main", "unverifiedClaimPolicy": "ignore"}]))
    assert _validate(gate, UNVERIFIED, agent_id="main").verdict == "pass"
    assert _validate(gate, UNVERIFIED, agent_id="other").verdict == "flag"


# ------------------------------------------------------ §14.4 minBlockConfidence


@pytest.mark.parametrize("trust", [0, 10, 19])
def test_when_claim_is_hedged_then_it_flags_and_never_blocks(trust: int) -> None:
    registry = {
        "id": "status",
        "facts": [
            _fact(
                "nginx-up",
                "operational_status",
                "nginx",
                {"type": "status", "status": "operational"},
            )
        ],
    }
    gate = Gate(parse_config({"factRegistries": [registry]}))
    hedged = _validate(gate, "I think nginx is down.", trust=trust)
    assert [f.status for f in hedged.fact_checks] == ["contradicted"]
    assert hedged.verdict == "flag"
    plain = _validate(gate, "nginx is down.", trust=trust)
    assert plain.verdict == "block"


def test_when_hedged_claim_is_unverified_at_untrusted_tier_then_it_only_flags() -> None:
    result = _validate(Gate(_config()), "I think redis is down.", trust=0)
    assert [v.action for v in result.violations if v.category == "operational_status"] == ["flag"]
    assert result.verdict == "flag"


def test_when_min_block_confidence_is_lowered_then_a_hedged_claim_can_block() -> None:
    result = _validate(Gate(_config(minBlockConfidence=0.1)), "I think redis is down.", trust=0)
    assert result.verdict == "block"


def test_when_speaker_claim_has_low_confidence_then_it_flags_instead_of_blocking() -> None:
    # entity_name "<Name> said" matches with confidence 0.7 < default 0.75.
    result = _validate(Gate(_config()), "Irina said hello.", trust=0)
    assert [v.action for v in result.violations if v.category == "entity_name"] == ["flag"]


# -------------------------------------------------------------- §15.2 fail modes


class ExplodingDetector(Detector):
    """A plugin with a bug: raises whenever its prefilter fires."""

    id = "acme.exploding"
    category = "existence"
    PATTERNS = (Pattern("kaboom", r"\bkaboom\b", subject="self", assertion="kaboom"),)

    def detect(self, text: str, sentence: Sentence, pattern_index: int) -> Any:
        raise RuntimeError("plugin exploded")

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: Any
    ) -> DetectedClaim | None:  # pragma: no cover - never reached
        return claim


def register_exploding(register: RegisterFn) -> None:
    register(ExplodingDetector())


def _exploding_gate(**config: Any) -> Gate:
    registry = DetectorRegistry()
    builtin.register_detectors(registry.register)
    register_exploding(registry.register)
    return Gate(parse_config(config), detectors=registry)


BOOM = "The kaboom word triggers the broken plugin."


def test_when_a_detector_raises_and_mode_is_fail_open_then_output_is_delivered_flagged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    gate = _exploding_gate()  # failMode defaults to fail_open (RFC-003 §15.2)
    with caplog.at_level(logging.ERROR, logger="receiptgate"):
        result = _validate(gate, BOOM, trust=0)
    assert result.verdict == "flag"
    assert result.fail_mode_applied == "fail_open"
    assert result.error is not None
    assert "plugin exploded" in result.error
    assert result.audit_verdict == "error_fallback"
    assert result.to_dict()["audit_verdict"] == "error_fallback"
    assert result.delivered_text == BOOM
    assert any(r.levelno == logging.ERROR for r in caplog.records)


def test_when_a_detector_raises_and_mode_is_fail_closed_then_output_is_blocked() -> None:
    # trust 0: all detectors run (at trusted tiers the plugin's category has no facts).
    result = _validate(_exploding_gate(failMode="fail_closed"), BOOM, trust=0)
    assert result.verdict == "block"
    assert result.fail_mode_applied == "fail_closed"
    assert result.error is not None
    assert result.audit_verdict == "error_fallback"
    assert result.delivered_text != BOOM


def test_when_the_broken_detector_does_not_fire_then_no_fail_mode_is_applied() -> None:
    result = _validate(_exploding_gate(failMode="fail_closed"), "Pipeline is broken.", trust=30)
    assert result.fail_mode_applied is None
    assert result.error is None
    assert result.verdict == "flag"
    assert result.audit_verdict == "output_flag"
