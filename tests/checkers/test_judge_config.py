"""``llmValidator`` in the gate config (RFC-006 §8.1 keys, extended)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from scripted_llm import GateFactory, ScriptedLLM, ok

from receiptgate._exceptions import ConfigError
from receiptgate.config import GateConfig, parse_config
from receiptgate.engine import Gate

SAMPLES = [
    "I ran the tests and they all pass. The Acme contract is worth $2.6 million.",
    "Node.js is not installed on the build host, so the pipeline is broken.",
    "If we pin the runner image, the build should go green again. Thanks!",
]


def test_the_rfc_8_1_keys_and_the_extensions_parse() -> None:
    cfg = parse_config(
        {
            "llmValidator": {
                "enabled": True,
                "model": "gemini/gemini-3-flash-preview",
                "maxTokens": 400,
                "timeoutMs": 4000,
                "externalChannels": ["twitter"],
                "externalCommands": ["bird tweet"],
                "baseUrl": "http://localhost:11434/v1",
                "apiKeyEnv": "JUDGE_KEY",
                "failMode": "fail_closed",
                "cacheTtlSeconds": 60,
                "cacheUrl": "redis://localhost:6379/0",
                "maxRetries": 1,
                "scope": "all",
                "responseFormat": "json_object",
                "cascade": {"fastModel": "small", "escalateBelow": 0.7, "ensemble": ["a", "b"]},
            }
        }
    ).llm_validator
    assert (cfg.model, cfg.max_tokens, cfg.timeout_ms) == (
        "gemini/gemini-3-flash-preview",
        400,
        4000,
    )
    assert (cfg.base_url, cfg.api_key_env, cfg.fail_mode) == (
        "http://localhost:11434/v1",
        "JUDGE_KEY",
        "fail_closed",
    )
    assert cfg.cascade.fast_model == "small"
    assert cfg.cascade.ensemble == ["a", "b"]


def test_the_defaults_are_rfc_8_1() -> None:
    cfg = GateConfig().llm_validator
    assert cfg.enabled is False
    assert (cfg.max_tokens, cfg.timeout_ms) == (500, 5000)
    assert cfg.external_channels == ["twitter", "linkedin", "email", "sms"]
    assert cfg.external_commands == ["bird tweet", "bird reply"]
    assert cfg.scope == "external"
    assert cfg.fail_mode is None  # the gate's failMode


@pytest.mark.parametrize(
    ("section", "message"),
    [
        pytest.param({"modle": "x"}, "llmValidator.modle", id="unknown-key"),
        pytest.param({"enabled": True}, "llmValidator.model: required", id="model-missing"),
        pytest.param({"timeoutMs": "soon"}, "llmValidator.timeoutMs", id="bad-type"),
        pytest.param({"timeoutMs": 0}, "llmValidator.timeoutMs", id="zero-timeout"),
        pytest.param({"failMode": "fail_sideways"}, "llmValidator.failMode", id="bad-fail-mode"),
        pytest.param({"cascade": {"fast": "x"}}, "llmValidator.cascade.fast", id="cascade-key"),
        pytest.param(
            {"cascade": {"escalateBelow": 2}}, "llmValidator.cascade.escalateBelow", id="range"
        ),
    ],
)
def test_errors_name_the_field(section: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace(".", r"\.")) as info:
        parse_config({"llmValidator": section}, source="cfg.yaml")
    assert str(info.value).startswith("cfg.yaml: ")


def test_without_the_judge_extra_an_enabled_judge_is_a_config_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)  # as if openai were not installed
    with pytest.raises(ConfigError, match=r"llmValidator\.enabled: .*receiptgate\[judge\]"):
        parse_config({"llmValidator": {"enabled": True, "model": "m"}})
    parse_config({"llmValidator": {"enabled": False}})  # a disabled judge needs nothing


def test_an_explicit_api_key_variable_must_be_set(
    llm: ScriptedLLM, make_gate: GateFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RG_JUDGE_KEY", raising=False)
    with pytest.raises(ConfigError, match=r"llmValidator\.apiKeyEnv: .*RG_JUDGE_KEY"):
        make_gate(apiKeyEnv="RG_JUDGE_KEY")
    monkeypatch.setenv("RG_JUDGE_KEY", "sk-test-123")
    gate = make_gate(apiKeyEnv="RG_JUDGE_KEY")
    llm.push(ok((0, "supported")))
    gate.validate("Our API never goes down.", channel="twitter")
    headers = {k.lower(): v for k, v in llm.headers[0].items()}
    assert headers["authorization"] == "Bearer sk-test-123"


def test_the_openai_api_needs_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    cfg = parse_config({"llmValidator": {"enabled": True, "model": "gpt-4o-mini"}})
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        Gate(cfg)


def test_a_bad_cache_url_is_a_config_error(make_gate: GateFactory) -> None:
    with pytest.raises(ConfigError, match=r"llmValidator\.cacheUrl"):
        make_gate(cacheUrl="ftp://example.com/cache")


def test_without_llm_validator_results_do_not_change(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    plain = Gate()
    disabled = make_gate(enabled=False)
    assert plain.checkers == [] and disabled.checkers == []
    volatile = {"id", "created_at", "evaluation_us"}
    for text in SAMPLES:
        for channel in (None, "twitter"):
            a = plain.validate(text, channel=channel).to_dict()
            b = disabled.validate(text, channel=channel).to_dict()
            assert {k: v for k, v in a.items() if k not in volatile} == {
                k: v for k, v in b.items() if k not in volatile
            }
            assert a["checks"] == []
    assert llm.requests == []


def test_the_core_does_not_import_openai() -> None:
    code = (
        "import sys\n"
        "from receiptgate import build_gate\n"
        "build_gate().validate('Node.js is not installed.', channel='twitter')\n"
        "print('openai' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
