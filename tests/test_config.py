"""The gate configuration (RFC-003 §10, §15.2; SPEC §10).

Defaults are RFC-003 §10.2; files are YAML or JSON with the RFC's camelCase keys;
every error is a ``ConfigError`` naming the file (or source) and the field path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from receiptgate._exceptions import ConfigError, UserError
from receiptgate.config import GateConfig, load_config, parse_config, read_structured_file
from receiptgate.engine import Gate

#: RFC-003 §10.2 ``OUTPUT_VALIDATION_DEFAULTS``, verbatim.
RFC_DEFAULTS: dict[str, Any] = {
    "enabled": True,
    "minTextLength": 10,
    "exempt": [],
    "trustExemptThreshold": 90,
    "factRegistries": [],
    "customDetectors": [],
    "builtinDetectors": {
        "systemState": True,
        "entityName": True,
        "existence": True,
        "operationalStatus": True,
        "selfReferential": True,
    },
    "defaults": {
        "unverifiedClaimPolicy": "flag",
        "contradictionPolicy": "block",
        "selfReferentialPolicy": "flag",
    },
    "agentOverrides": [],
    "hooks": {"messageSending": True, "beforeMessageWrite": True, "llmOutput": False},
    "performance": {"maxEvalUs": 8000, "maxClaimsPerOutput": 50, "maxTextLength": 10000},
}


def _subset(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _subset(actual[k], v) for k, v in expected.items()
        )
    return bool(actual == expected)


# -------------------------------------------------------------------- defaults


@pytest.mark.parametrize(
    "config",
    [
        pytest.param(GateConfig(), id="constructor"),
        pytest.param(parse_config({}), id="empty-mapping"),
        pytest.param(parse_config(None), id="empty-file"),
    ],
)
def test_when_nothing_is_configured_then_defaults_equal_rfc_10_2(config: GateConfig) -> None:
    dumped = config.model_dump(by_alias=True)
    for key, value in RFC_DEFAULTS.items():
        assert _subset(dumped[key], value), key


def test_when_nothing_is_configured_then_every_builtin_detector_is_on() -> None:
    switches = GateConfig().builtin_detectors.model_dump(by_alias=True)
    assert switches  # receiptgate adds capability, quantity, action, attribution
    assert all(switches.values())


def test_when_nothing_is_configured_then_fail_mode_is_fail_open() -> None:
    # RFC-003 §15.2: the pipeline MUST fail open by default.
    assert GateConfig().fail_mode == "fail_open"


def test_when_nothing_is_configured_then_min_block_confidence_is_below_pattern_confidence() -> None:
    # §14.4 "block only when confidence is high": plain matches (0.85-0.95) can block,
    # hedged ones (<= 0.5) cannot.
    assert 0.5 < GateConfig().min_block_confidence <= 0.85


def test_when_defaults_are_dumped_then_no_unknown_top_level_key_appears() -> None:
    # llmValidator: RFC-006 §8.1; semantic: docs/semantic.md; provenancePolicies: seed 002
    extras = {"failMode", "minBlockConfidence", "llmValidator", "semantic", "provenancePolicies"}
    assert set(GateConfig().model_dump(by_alias=True)) == set(RFC_DEFAULTS) | extras


# ---------------------------------------------------------------- loading files

FULL: dict[str, Any] = {
    "enabled": True,
    "minTextLength": 5,
    "exempt": ["sub-*"],
    "trustExemptThreshold": 95,
    "factRegistries": [
        {
            "id": "system-state",
            "name": "Known System State",
            "facts": [
                {
                    "id": "node-installed",
                    "category": "system_state",
                    "subject": "(node|node.js|nodejs)",
                    "subjectIsRegex": True,
                    "value": {"type": "state", "state": "installed"},
                }
            ],
        }
    ],
    "customDetectors": [
        {
            "id": "queue-stuck",
            "category": "operational_status",
            "patterns": ["(?P<q>[a-z-]+) queue is stuck"],
            "subjectGroup": "q",
            "assertion": "stuck",
        }
    ],
    "builtinDetectors": {"selfReferential": False},
    "defaults": {"unverifiedClaimPolicy": "ignore"},
    "agentOverrides": [
        {"agent": "main", "profile": "lenient"},
        {"agent": "*", "profile": "strict", "excludeRegistries": ["system-state"]},
    ],
    "hooks": {"llmOutput": True},
    "performance": {"maxEvalUs": 4000, "maxClaimsPerOutput": 20, "maxTextLength": 5000},
    "failMode": "fail_closed",
    "minBlockConfidence": 0.8,
}


def _check_full(config: GateConfig) -> None:
    assert config.min_text_length == 5
    assert config.exempt == ["sub-*"]
    assert config.trust_exempt_threshold == 95
    assert config.fact_registries[0].id == "system-state"
    assert config.custom_detectors[0].subject_group == "q"
    assert config.builtin_detectors.self_referential is False
    assert config.builtin_detectors.system_state is True
    assert config.defaults.unverified_claim_policy == "ignore"
    assert config.defaults.contradiction_policy == "block"
    assert [o.profile for o in config.agent_overrides] == ["lenient", "strict"]
    assert config.agent_overrides[1].exclude_registries == ["system-state"]
    assert config.hooks.llm_output is True
    assert config.hooks.message_sending is True
    assert config.performance.max_claims_per_output == 20
    assert config.fail_mode == "fail_closed"
    assert config.min_block_confidence == pytest.approx(0.8)
    Gate(config)  # and the gate accepts it


def test_when_a_json_file_is_loaded_then_every_field_is_read(tmp_path: Path) -> None:
    path = tmp_path / "receiptgate.json"
    path.write_text(json.dumps(FULL), encoding="utf-8")
    config, base = load_config(path)
    _check_full(config)
    assert base == tmp_path


@pytest.mark.parametrize("suffix", [".yaml", ".yml"])
def test_when_a_yaml_file_is_loaded_then_every_field_is_read(tmp_path: Path, suffix: str) -> None:
    yaml = pytest.importorskip("yaml")
    path = tmp_path / f"receiptgate{suffix}"
    path.write_text(yaml.safe_dump(FULL, sort_keys=False), encoding="utf-8")
    config, _ = load_config(str(path))
    _check_full(config)


def test_when_yaml_and_json_say_the_same_then_the_configs_are_equal(tmp_path: Path) -> None:
    yaml = pytest.importorskip("yaml")
    (tmp_path / "a.json").write_text(json.dumps(FULL), encoding="utf-8")
    (tmp_path / "b.yaml").write_text(yaml.safe_dump(FULL), encoding="utf-8")
    assert load_config(tmp_path / "a.json")[0] == load_config(tmp_path / "b.yaml")[0]


def test_when_a_registry_file_path_is_relative_then_it_resolves_next_to_the_config(
    tmp_path: Path,
) -> None:
    facts = {
        "id": "team",
        "name": "Team",
        "facts": [
            {
                "id": "owner",
                "category": "entity_name",
                "subject": "owner",
                "value": {"type": "name", "correctName": "Albert"},
            }
        ],
    }
    (tmp_path / "facts").mkdir()
    (tmp_path / "facts" / "team.json").write_text(json.dumps(facts), encoding="utf-8")
    path = tmp_path / "gate.yaml"
    path.write_text("factRegistries:\n  - filePath: facts/team.json\n", encoding="utf-8")
    config, base = load_config(path)
    gate = Gate(config, base_dir=base)
    assert [r.id for r in gate.registries] == ["team"]


def test_when_a_registry_file_is_missing_then_the_gate_fails_naming_the_file(
    tmp_path: Path,
) -> None:
    config = parse_config({"factRegistries": [{"filePath": "nowhere/facts.json"}]})
    with pytest.raises(ConfigError, match=r"nowhere/facts\.json"):
        Gate(config, base_dir=tmp_path)


def test_when_an_optional_registry_file_is_missing_then_the_gate_loads(tmp_path: Path) -> None:
    config = parse_config(
        {"factRegistries": [{"id": "maybe", "filePath": "nowhere.json", "optional": True}]}
    )
    gate = Gate(config, base_dir=tmp_path)
    (registry,) = gate.registries
    assert registry.facts == ()
    assert registry.warnings


# ----------------------------------------------------------------------- errors


def test_when_a_top_level_key_is_unknown_then_the_error_names_it() -> None:
    with pytest.raises(ConfigError, match=r"gate\.yaml: .*maxClaims") as info:
        parse_config({"maxClaims": 5}, source="gate.yaml")
    assert "unknown" in str(info.value)


def test_when_the_rfc_wrapper_key_is_used_then_the_error_explains_the_layout() -> None:
    with pytest.raises(ConfigError, match="outputValidation"):
        parse_config({"outputValidation": {"enabled": True}}, source="gate.yaml")


@pytest.mark.parametrize(
    "data",
    [pytest.param([1, 2], id="list"), pytest.param("enabled", id="string")],
)
def test_when_the_top_level_is_not_a_mapping_then_loading_fails(data: Any) -> None:
    with pytest.raises(ConfigError, match=r"^gate\.yaml: "):
        parse_config(data, source="gate.yaml")


WRONG_TYPES = [
    pytest.param({"enabled": "maybe"}, "enabled", id="enabled"),
    pytest.param({"minTextLength": "ten"}, "minTextLength", id="minTextLength"),
    pytest.param({"minTextLength": -1}, "minTextLength", id="minTextLength-negative"),
    pytest.param({"exempt": "sub-*"}, "exempt", id="exempt-not-a-list"),
    pytest.param({"trustExemptThreshold": "high"}, "trustExemptThreshold", id="threshold"),
    pytest.param(
        {"performance": {"maxClaimsPerOutput": "many"}},
        "performance.maxClaimsPerOutput",
        id="performance.maxClaimsPerOutput",
    ),
    pytest.param(
        {"performance": {"maxClaimsPerOutput": 0}},
        "performance.maxClaimsPerOutput",
        id="performance.maxClaimsPerOutput-zero",
    ),
    pytest.param(
        {"performance": {"maxEvalUs": -5}}, "performance.maxEvalUs", id="performance.maxEvalUs"
    ),
    pytest.param(
        {"performance": {"maxTextLength": 1.5}},
        "performance.maxTextLength",
        id="performance.maxTextLength",
    ),
    pytest.param(
        {"performance": {"maxClaims": 5}}, "performance.maxClaims", id="performance-unknown-key"
    ),
    pytest.param(
        {"agentOverrides": [{"agent": "x", "profile": "paranoid"}]},
        "agentOverrides[0].profile",
        id="agentOverrides[0].profile",
    ),
    pytest.param(
        {"agentOverrides": [{"agent": "a"}, {"agent": "b", "contradictionPolicy": "warn"}]},
        "agentOverrides[1].contradictionPolicy",
        id="agentOverrides[1].contradictionPolicy",
    ),
    pytest.param(
        {"agentOverrides": [{"profile": "strict"}]},
        "agentOverrides[0].agent",
        id="agentOverrides[0].agent-missing",
    ),
    pytest.param(
        {"factRegistries": [{"filePath": 5}]},
        "factRegistries[0].filePath",
        id="factRegistries[0].filePath",
    ),
    pytest.param(
        {"factRegistries": [{"id": "x", "facts": [], "enabled": "sometimes"}]},
        "factRegistries[0].enabled",
        id="factRegistries[0].enabled",
    ),
    pytest.param({"factRegistries": [{"id": "x"}]}, "factRegistries[0]", id="registry-no-source"),
    pytest.param(
        {"defaults": {"unverifiedClaimPolicy": "warn"}},
        "defaults.unverifiedClaimPolicy",
        id="defaults.unverifiedClaimPolicy",
    ),
    pytest.param(
        {"builtinDetectors": {"systemStat": True}},
        "builtinDetectors.systemStat",
        id="builtinDetectors-typo",
    ),
    pytest.param({"hooks": {"llmOutput": "yes please"}}, "hooks.llmOutput", id="hooks.llmOutput"),
    pytest.param({"minBlockConfidence": 2}, "minBlockConfidence", id="minBlockConfidence"),
]


@pytest.mark.parametrize(("data", "field"), WRONG_TYPES)
def test_when_a_field_has_the_wrong_type_then_the_error_names_its_path(
    data: dict[str, Any], field: str
) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(data, source="gate.yaml")
    message = str(info.value)
    assert message.startswith("gate.yaml: ")
    assert f"{field}:" in message or f"{field} " in message or message.endswith(field)


def test_when_a_file_has_a_wrong_type_then_the_error_names_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "gate.yaml"
    path.write_text("performance:\n  maxClaimsPerOutput: lots\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(path) in str(info.value)
    assert "performance.maxClaimsPerOutput" in str(info.value)


def test_when_the_config_file_is_missing_then_the_error_names_it(tmp_path: Path) -> None:
    path = tmp_path / "absent.yaml"
    with pytest.raises(ConfigError, match=r"absent\.yaml") as info:
        load_config(path)
    assert "not found" in str(info.value)
    assert isinstance(info.value, UserError)


@pytest.mark.parametrize(
    ("name", "content", "kind"),
    [
        pytest.param("bad.yaml", "enabled: [true\nminTextLength: 3\n", "YAML", id="yaml"),
        pytest.param("bad.yml", "a: b: c\n", "YAML", id="yml"),
        pytest.param("bad.json", '{"enabled": true,}', "JSON", id="json"),
    ],
)
def test_when_the_config_file_is_not_valid_then_the_error_names_the_file(
    tmp_path: Path, name: str, content: str, kind: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert str(path) in message
    assert kind in message
    assert "\n" not in message  # one line, fit for a CLI error


def test_when_a_config_file_is_not_utf8_then_the_error_names_it(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"exempt: ['caf\xe9']\n")
    with pytest.raises(ConfigError, match=r"latin1\.yaml"):
        read_structured_file(path)


# -------------------------------------------------------------------- fail mode


@pytest.mark.parametrize("mode", ["fail_open", "fail_closed"])
def test_when_fail_mode_is_valid_then_it_is_kept(mode: str) -> None:
    assert parse_config({"failMode": mode}).fail_mode == mode


@pytest.mark.parametrize("mode", ["open", "closed", "FAIL_OPEN", "", None, True])
def test_when_fail_mode_is_invalid_then_the_error_names_the_field_and_the_choices(
    mode: Any,
) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({"failMode": mode}, source="gate.yaml")
    message = str(info.value)
    assert "failMode" in message
    assert "fail_open" in message
    assert "fail_closed" in message
