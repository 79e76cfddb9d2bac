"""Replays the OpenClaw governance cases (the seeds' own TypeScript implementation).

``shared/data/openclaw-governance-cases/cases.jsonl`` holds cases transcribed from
``@vainplex/openclaw-governance``'s test suite. That implementation deviates from
RFC-003 in known ways (``shared/data/README.md``); SPEC.md follows the RFC, so:

* cases whose expectation agrees with RFC-003 are replayed as they are;
* cases where the RFC (or SPEC) says otherwise are replayed with the RFC's
  expectation; each one is listed in ``DEVIATIONS`` with the reason, and its test
  id ends in ``--deviation-<slug>``;
* cases that test features outside RFC-003's deterministic gate (the LLM judge, the
  TypeScript config shape) or that RFC-003 leaves undecided are listed in
  ``NOT_PORTED`` with the reason.

Mapping of the reference implementation's vocabulary: claim ``type`` is our
``category``; its ``value`` is our ``assertion`` (``"true"``/``"false"`` for
existence become ``exists``/``not_exists``; for entity names it is the entity kind,
our ``object``); its ``elevated`` tier is our ``privileged``; fact-check statuses
``verified``/``unverified`` are our ``confirmed``/``no_fact_found``; its top-level
``unverifiedClaimPolicy``/``selfReferentialPolicy`` become an agent override for
``*`` (RFC-003 §9.4); ``enabledDetectors`` become ``builtinDetectors`` switches; its
``contradictionThresholds`` (blockBelow/flagAbove) have no RFC-003 counterpart —
the §9.2 tiers fix them — and are dropped.

Numbers in the inputs ("92000 items", "port 80") are also SPEC hard facts, which
need receipts and block by default (every risk class ``fail_closed``). The reference
has no such family, so verdict cases run with ``RFC_ONLY_POLICY``: every risk class
``warn_only``, so a hard fact can flag but cannot block on its own and the RFC-003
decision shows through.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from receiptgate._exceptions import ConfigError
from receiptgate.claims.models import DetectedClaim
from receiptgate.config import GateConfig, parse_config
from receiptgate.engine import Gate
from receiptgate.policy.policy_file import RISK_CLASSES, parse_policy
from receiptgate.policy.trust import trust_tier
from receiptgate.results import ValidationResult

CASES = Path(__file__).resolve().parents[2] / "shared/data/openclaw-governance-cases/cases.jsonl"
NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
AGENT = "agent-under-test"
RFC_ONLY_POLICY = parse_policy({"riskClasses": {rc: {"mode": "warn_only"} for rc in RISK_CLASSES}})


def _load() -> dict[str, dict[str, Any]]:
    if not CASES.is_file():
        return {}
    rows = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line]
    return {row["id"]: row for row in rows}


ALL_CASES = _load()
_MISSING = pytest.mark.skip(reason=f"governance cases file not found: {CASES}")


@dataclass(frozen=True)
class Deviation:
    """A case replayed with the RFC-003/SPEC expectation instead of the reference's."""

    slug: str
    why: str
    expect: Any


# ------------------------------------------------------------------ deviations

DEVIATIONS: dict[str, Deviation] = {
    # -- claim detection
    "cd-ex-deployed": Deviation(
        "deployed-is-system-state",
        "RFC-003 §4.4.1 reads '<X> is deployed' as run/installation state, not existence",
        {"first_of_type": {"type": "system_state", "subject": "v2.0", "value": "deployed"}},
    ),
    "cd-os-has-items": Deviation(
        "counts-are-quantity",
        "RFC-003 has no metric claims; counts are receiptgate's value claims (category "
        "quantity, checked against RFC-006 §8.3 triples)",
        {"first_of_type": {"type": "quantity", "subject": "queue", "value_contains": "150"}},
    ),
    "cd-os-percent": Deviation(
        "percentages-are-quantity",
        "as cd-os-has-items: percentages are quantity value claims",
        {"first_of_type": {"type": "quantity", "subject": "CPU", "value": "85%"}},
    ),
    "cdv-percent": Deviation(
        "percentages-are-quantity",
        "as cd-os-has-items",
        {"types_present": ["quantity"]},
    ),
    "cd-sr-i-have": Deviation(
        "access-object-not-phrase",
        "receiptgate records what the agent claims access to as the claim's object",
        {"first_of_type": {"type": "self_referential", "predicate": "capability"}},
    ),
    "cd-unknown-detector": Deviation(
        "unknown-detector-is-a-config-error",
        "SPEC: config errors are loud (extra keys forbidden); an unknown detector switch "
        "is a ConfigError, not a silently empty detector set",
        {"config_error": "fakeDetector"},
    ),
    # -- verdicts
    "ov-no-facts": Deviation(
        "standard-tier-flags-unverified",
        "RFC-003 §9.2: standard tier (trust 50) has unverifiedClaimPolicy flag; the "
        "reference defaults it to ignore. With no registry, fact validation is skipped "
        "entirely (RFC-003 §12.2.4), so there are no fact-check records",
        {"verdict": "flag", "claims_min": 1, "contradictions_count": 0},
    ),
    "ov-thr-100": Deviation(
        "skipped-by-trust-exempt-threshold",
        "RFC-003 §6.3: trust 100 > trustExemptThreshold 90 skips validation (same verdict "
        "as the reference, for a different reason)",
        {"verdict": "pass", "skipped": True},
    ),
    "ov-custom-thr-85": Deviation(
        "privileged-tier-flags-contradictions",
        "RFC-003 §9.2: privileged tier contradictionPolicy is flag (custom thresholds are "
        "not part of RFC-003)",
        {"verdict": "flag", "contradictions_min": 1},
    ),
    "uc-num-contra-60": Deviation(
        "trusted-tier-flags-contradictions",
        "RFC-003 §9.2: trusted tier contradictionPolicy is flag; the reference passes",
        {"verdict": "flag", "contradictions_min": 1},
    ),
    "it-high-trust-pass": Deviation(
        "trusted-tier-flags-contradictions",
        "RFC-003 §9.2: trusted tier contradictionPolicy is flag; the reference passes",
        {"verdict": "flag", "contradictions_min": 1},
    ),
    "uc-sr-ignore": Deviation(
        "trusted-depth-skips-self-reference",
        "RFC-003 §9.3: trusted agents run contradiction-only detection, so with no "
        "self-referential facts there is no self-referential claim; the sentence is then a "
        "plain statement (SPEC §4 T3), which warns because the case's "
        "unverifiedClaimPolicy is flag",
        {"verdict": "flag", "self_ref_claims_max": 0},
    ),
    "it-unverified-ignore": Deviation(
        "trusted-depth-detects-nothing-without-facts",
        "RFC-003 §9.3: a trusted (60) agent runs contradiction-only detection; with no "
        "fact registry no detector can be fact-checked, so no claim is detected. The "
        "verdict is pass, as in the reference",
        {"verdict": "pass"},
    ),
}

NOT_PORTED: dict[str, str] = {
    "cd-en-server": "'the server X' is not an RFC-003 §4.4.2 entity_name pattern",
    "ov-perf": "timing is shown by benchmarks, not unit tests (SPEC §9); its claims are "
    "checked in test_when_the_perf_case_is_replayed_then_each_sentence_has_its_own_subject",
    "uc-flag-numeric": "numbers are SPEC hard facts decided by risk class and receipts, "
    "not by unverifiedClaimPolicy",
    "uc-block-numeric": "as uc-flag-numeric",
    "uc-ignore-numeric": "as uc-flag-numeric",
    "uc-percent": "as uc-flag-numeric",
    "uc-k8s": "RFC-003 does not say whether an unverifiedClaimPolicy override changes the "
    "contradiction-only detection depth of a trusted (60) agent",
    "uc-typedb": "as uc-k8s",
    "uc-sr-flag": "as uc-k8s, for selfReferentialPolicy",
    "ov-s3-not-external": "LLM judge (RFC-006 / SPEC §5), not the RFC-003 gate",
    "ov-s3-external-pass": "LLM judge",
    "ov-s3-llm-block": "LLM judge",
    "ov-s3-stage2-block": "LLM judge",
    "ov-s3-llm-flag": "LLM judge",
    "ov-s3-llm-throws": "LLM judge",
    "it-llm-no-validator": "LLM judge",
}


def _params(kind: str) -> list[Any]:
    if not ALL_CASES:
        return [pytest.param(None, id=f"{kind}-cases-missing", marks=_MISSING)]
    out = []
    for cid, case in ALL_CASES.items():
        if case["kind"] != kind or cid in NOT_PORTED:
            continue
        dev = DEVIATIONS.get(cid)
        out.append(pytest.param(case, id=f"{cid}--deviation-{dev.slug}" if dev else cid))
    return out


def _expectation(case: dict[str, Any]) -> Any:
    dev = DEVIATIONS.get(case["id"])
    return dev.expect if dev else case["expect"]


@pytest.mark.skipif(not ALL_CASES, reason=f"governance cases file not found: {CASES}")
def test_when_cases_are_listed_then_every_deviation_and_exclusion_names_a_real_case() -> None:
    assert set(DEVIATIONS) <= set(ALL_CASES)
    assert set(NOT_PORTED) <= set(ALL_CASES)
    assert not set(DEVIATIONS) & set(NOT_PORTED)
    kinds = {c["kind"] for c in ALL_CASES.values()}
    assert {"claim_detection", "verdict", "trust_tier"} <= kinds


# ------------------------------------------------------------------- adapters

_SWITCH = {
    "system_state": "systemState",
    "entity_name": "entityName",
    "existence": "existence",
    "operational_status": "operationalStatus",
    "self_referential": "selfReferential",
    "capability": "capability",
    "quantity": "quantity",
    "action": "action",
    "attribution": "attribution",
}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def _switches(enabled: list[str]) -> dict[str, bool]:
    switches = dict.fromkeys(_SWITCH.values(), False)
    for name in enabled:
        switches[_SWITCH.get(name, _camel(name))] = True
    return switches


def _our_config(ts: dict[str, Any] | None) -> GateConfig:
    ts = ts or {}
    data: dict[str, Any] = {}
    if "factRegistries" in ts:
        data["factRegistries"] = [
            {"id": r.get("id", f"registry-{i}"), "facts": r["facts"]}
            for i, r in enumerate(ts["factRegistries"])
        ]
    policies = {k: ts[k] for k in ("unverifiedClaimPolicy", "selfReferentialPolicy") if k in ts}
    if policies:
        data["agentOverrides"] = [{"agent": "*", **policies}]
    if "enabledDetectors" in ts:
        data["builtinDetectors"] = _switches(ts["enabledDetectors"])
    return parse_config(data, source="case config")


def _rfc_claims(result: ValidationResult) -> list[DetectedClaim]:
    return [c for c in result.claims if not c.detector_id.startswith("hardfact.")]


def _matches(c: DetectedClaim, exp: dict[str, Any]) -> bool:
    if "type" in exp and c.category != exp["type"]:
        return False
    if "subject" in exp and c.subject.lower() != exp["subject"].lower():
        return False
    if "predicate" in exp and exp["predicate"] not in (c.predicate, c.assertion):
        return False
    if "value_contains" in exp and exp["value_contains"] not in (c.value or ""):
        return False
    if "value" in exp:
        v = exp["value"]
        if c.category == "existence":
            return c.assertion == ("exists" if v == "true" else "not_exists")
        if c.category == "entity_name":
            return v.lower() in (c.object or "").lower()
        if c.category in ("self_referential", "quantity"):
            return c.value == v
        return c.assertion == v
    return True


def _check_claims(claims: list[DetectedClaim], expect: dict[str, Any]) -> None:
    cats = [c.category for c in claims]
    if expect.get("empty"):
        assert claims == []
    if "min_total" in expect:
        assert len(claims) >= expect["min_total"]
    for exp in expect.get("includes", []):
        assert any(_matches(c, exp) for c in claims), exp
    if "first_of_type" in expect:
        exp = expect["first_of_type"]
        first = next((c for c in claims if c.category == exp["type"]), None)
        assert first is not None, f"no {exp['type']} claim in {cats}"
        assert _matches(first, exp), first
    for t in expect.get("types_present", []):
        assert t in cats
    for t in expect.get("types_absent", []):
        assert t not in cats
    if "count_matching" in expect:
        spec = expect["count_matching"]
        assert sum(_matches(c, spec["matcher"]) for c in claims) == spec["count"]
    for t, n in expect.get("min_count_of_type", {}).items():
        assert cats.count(t) >= n


# ------------------------------------------------------------ claim detection


def _rfc_expect_as_claims(rfc: dict[str, Any]) -> dict[str, Any]:
    if rfc.get("detected") is False:
        return {"empty": True}
    # RFC-003 §4.4.5 makes it a self_referential detector, §13.5 files the claim
    # under "capability"; receiptgate uses self_referential.
    category = rfc["category"].split("/")[0]
    exp: dict[str, Any] = {"type": category}
    for key in ("subject",):
        if key in rfc:
            exp[key] = rfc[key]
    return {"rfc": {**exp, **{k: rfc[k] for k in ("assertion", "negative") if k in rfc}}}


@pytest.mark.parametrize("case", _params("claim_detection"))
def test_when_a_claim_detection_case_is_replayed_then_the_claims_match(
    case: dict[str, Any],
) -> None:
    expect = _expectation(case)
    if expect is None:
        expect = _rfc_expect_as_claims(case["rfc_expect"])
    if "config_error" in expect:
        with pytest.raises(ConfigError, match=expect["config_error"]):
            _our_config(case["config"])
        return
    gate = Gate(_our_config(case.get("config")))
    text = case["input"]
    result = gate.validate(text, now=NOW)
    claims = _rfc_claims(result)
    for c in claims:
        assert text[c.offset : c.end] == c.matched_text
    if "rfc" in expect:
        rfc = expect["rfc"]
        found = [c for c in claims if c.category == rfc["type"]]
        assert found, f"no {rfc['type']} claim in {[c.category for c in claims]}"
        c = found[0]
        if "subject" in rfc:
            assert c.subject == rfc["subject"]
        if "assertion" in rfc:
            assert c.assertion == rfc["assertion"]
        if "negative" in rfc:
            assert c.negative is rfc["negative"]
        return
    _check_claims(claims, expect)


def _case_fact(rfc: dict[str, Any]) -> dict[str, Any]:
    fact = dict(rfc["with_fact"])
    fact.setdefault("id", "case-fact")
    fact.setdefault("category", rfc["category"])
    return fact


#: RFC-003 §13 anti-patterns with a contradicting fact: (case id, trust, verdict).
RFC_13_VERDICTS = [
    ("rfc-131-x", 10, "block"),  # "block (untrusted/restricted) or flag (standard+)"
    ("rfc-131-x", 30, "block"),
    ("rfc-131-x", 50, "flag"),
    ("rfc-131-x", 70, "flag"),
    ("rfc-132-iulia", None, "block"),  # "block (wrong name is always high severity)"
    ("rfc-132-iulia", 30, "block"),
    ("rfc-133-feature", None, "block"),  # "block or flag"
    ("rfc-133-feature", 50, "flag"),
]


@pytest.mark.parametrize(
    ("case_id", "trust", "verdict"),
    [
        pytest.param(cid, t, v, id=f"{cid}-trust-{t if t is not None else 'none'}")
        for cid, t, v in RFC_13_VERDICTS
    ],
)
def test_when_an_rfc_anti_pattern_meets_its_fact_then_it_is_contradicted(
    case_id: str, trust: int | None, verdict: str
) -> None:
    if not ALL_CASES:
        pytest.skip(f"governance cases file not found: {CASES}")
    case = ALL_CASES[case_id]
    rfc = case["rfc_expect"]
    assert rfc["fact_check"] == "contradicted"
    gate = Gate(parse_config({"factRegistries": [{"id": "rfc", "facts": [_case_fact(rfc)]}]}))
    result = gate.validate(case["input"], trust=trust, now=NOW)
    assert [f.status for f in result.fact_checks] == ["contradicted"]
    (violation,) = result.violations
    assert violation.severity == "high"
    assert result.verdict == verdict


# -------------------------------------------------------------------- verdicts


def _contradictions(result: ValidationResult) -> int:
    return sum(f.status == "contradicted" for f in result.fact_checks)


_STATUS = {"verified": "confirmed", "unverified": "no_fact_found", "contradicted": "contradicted"}


@pytest.mark.parametrize("case", _params("verdict"))
def test_when_a_verdict_case_is_replayed_then_the_rfc_verdict_holds(case: dict[str, Any]) -> None:
    expect = _expectation(case)
    gate = Gate(_our_config(case.get("config")), policy=RFC_ONLY_POLICY)
    result = gate.validate(case["input"], agent_id=AGENT, trust=case["trust_score"], now=NOW)
    claims = _rfc_claims(result)
    if "verdict" in expect:
        assert result.verdict == expect["verdict"], result.reason
    if "skipped" in expect:
        assert (result.skipped is not None) is expect["skipped"]
    if "claims_min" in expect:
        assert len(claims) >= expect["claims_min"]
    if "contradictions_count" in expect:
        assert _contradictions(result) == expect["contradictions_count"]
    if "contradictions_min" in expect:
        assert _contradictions(result) >= expect["contradictions_min"]
    if "fact_check_results_min" in expect:
        assert len(result.fact_checks) >= expect["fact_check_results_min"]
    if "some_status" in expect:
        assert _STATUS[expect["some_status"]] in [f.status for f in result.fact_checks]
    if "self_ref_claims_max" in expect:
        assert (
            sum(c.category == "self_referential" for c in claims) <= expect["self_ref_claims_max"]
        )
    for word in expect.get("reason_contains", []):
        assert word.lower() in result.reason.lower()


def test_when_the_perf_case_is_replayed_then_each_sentence_has_its_own_subject() -> None:
    # ov-perf without the timing: four service sentences against 100 facts.
    # Whether "online" contradicts "running" (or "offline" "stopped") is a judgment
    # call; "stopped" vs "running" is not.
    if not ALL_CASES:
        pytest.skip(f"governance cases file not found: {CASES}")
    case = ALL_CASES["ov-perf"]
    gate = Gate(_our_config(case["config"]), policy=RFC_ONLY_POLICY)
    result = gate.validate(case["input"], agent_id=AGENT, trust=case["trust_score"], now=NOW)
    services = [c for c in result.claims if c.subject.startswith("service-")]
    assert [c.subject for c in services] == ["service-0", "service-1", "service-2", "service-3"]
    statuses = {
        result.claims[f.claim_index].subject: f.status
        for f in result.fact_checks
        if result.claims[f.claim_index].subject.startswith("service-")
    }
    assert statuses["service-0"] == "contradicted"
    assert statuses["service-1"] == "contradicted"
    assert result.verdict == "flag"


# ------------------------------------------------------------------ trust tiers


@pytest.mark.parametrize("case", _params("trust_tier"))
def test_when_a_trust_tier_case_is_replayed_then_the_tier_matches(case: dict[str, Any]) -> None:
    # The reference names the top tier "elevated"; RFC-003 §9.2 calls it "privileged".
    expected = {"elevated": "privileged"}.get(case["expect"], case["expect"])
    assert trust_tier(case["input"]) == expected


# ------------------------------------------------------------ config resolution


@pytest.mark.skipif(not ALL_CASES, reason=f"governance cases file not found: {CASES}")
def test_when_cfg_ov_defaults_is_replayed_then_rfc_defaults_apply_instead() -> None:
    # Deviation: the reference defaults to enabled=false and ignore/ignore; RFC-003
    # §10.2 says enabled, unverified flag, self-referential flag, all five detectors.
    case = ALL_CASES["cfg-ov-defaults"]
    assert case["expect"]["enabled"] is False
    config = GateConfig()
    assert config.enabled is True
    assert config.defaults.unverified_claim_policy == "flag"
    assert config.defaults.self_referential_policy == "flag"
    switches = config.builtin_detectors.model_dump(by_alias=True)
    assert sum(switches.values()) >= case["expect"]["enabledDetectors_length"]
    assert config.fact_registries == case["expect"]["factRegistries"]


@pytest.mark.skipif(not ALL_CASES, reason=f"governance cases file not found: {CASES}")
def test_when_cfg_ov_invalid_policy_is_replayed_then_it_is_an_error_not_ignore() -> None:
    # Deviation: the reference silently turns an invalid policy into "ignore"; SPEC
    # wants a ConfigError naming the field.
    case = ALL_CASES["cfg-ov-invalid-policy"]
    bad = case["input"]["outputValidation"]["unverifiedClaimPolicy"]
    with pytest.raises(ConfigError, match=r"defaults\.unverifiedClaimPolicy"):
        parse_config({"defaults": {"unverifiedClaimPolicy": bad}})


@pytest.mark.skipif(not ALL_CASES, reason=f"governance cases file not found: {CASES}")
def test_when_cfg_ov_filter_detectors_is_replayed_then_unknown_detectors_are_an_error() -> None:
    # Deviation: the reference drops unknown detector ids; SPEC rejects unknown keys.
    case = ALL_CASES["cfg-ov-filter-detectors"]
    names = case["input"]["outputValidation"]["enabledDetectors"]
    with pytest.raises(ConfigError, match="invalidDetector"):
        parse_config({"builtinDetectors": _switches(names)})
    known = [n for n in names if n in _SWITCH]
    assert known == case["expect"]
    config = parse_config({"builtinDetectors": _switches(known)})
    on = {k for k, v in config.builtin_detectors.model_dump(by_alias=True).items() if v}
    assert on == {"systemState", "existence"}
