"""Declarative provenance policies: loading, validation errors, evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from receiptgate._exceptions import ConfigError
from receiptgate.provenance import TurnGraph
from receiptgate.provenance.policies import (
    BuiltinRules,
    PolicySet,
    ToolSelector,
    load_provenance_policies,
    parse_provenance_policies,
)

SEED = """
policies:
  - name: no-exec-when-tainted
    when:
      context_taint_includes: [external, untrusted]
    action:
      remove_tools: [exec]
  - name: no-send-when-untrusted
    when:
      context_taint_includes: [untrusted]
    action:
      block_tools: [message]
  - name: max-recursion
    when:
      iteration_gte: 5
    action:
      block_turn: true
      reason: "Max recursion depth exceeded"
  - name: audit-external
    when:
      context_taint_includes: [external]
    action:
      log_full_context: true
      persist_graph: true
"""

OFF = BuiltinRules(runaway_loop=False, tainted_tools=False, exfiltration=False)


def _graph(*trust: str) -> TurnGraph:
    g = TurnGraph("t")
    g.add_node("user_message", "hi")
    g.begin_iteration()
    for level in trust:
        g.add_node("tool_result", "x", trust=level)  # type: ignore[arg-type]
    return g


def test_seed_file_loads_relative_to_base_dir(tmp_path: Path) -> None:
    (tmp_path / "policies.yaml").write_text(SEED, encoding="utf-8")
    ps = load_provenance_policies("policies.yaml", tmp_path)
    assert [r.name for r in ps.rules] == [
        "no-exec-when-tainted",
        "no-send-when-untrusted",
        "max-recursion",
        "audit-external",
    ]
    assert ps.source == str(tmp_path / "policies.yaml")
    assert [r.name for r in ps.effective_rules()][-3:] == [
        "builtin:runaway-loop",
        "builtin:no-exec-when-tainted",
        "builtin:no-exfiltration",
    ]


def test_inline_list_json_file_and_none(tmp_path: Path) -> None:
    rules = [{"name": "r", "when": {"iteration_gte": 2}, "action": {"block_turn": True}}]
    assert load_provenance_policies(rules).rules[0].name == "r"
    (tmp_path / "p.json").write_text(json.dumps({"policies": rules}), encoding="utf-8")
    assert load_provenance_policies(tmp_path / "p.json").rules[0].when.iteration_gte == 2
    assert load_provenance_policies(None).rules == ()
    with pytest.raises(ConfigError, match="file not found"):
        load_provenance_policies("missing.yaml", tmp_path)
    with pytest.raises(ConfigError, match="provenancePolicies: must be a file path"):
        load_provenance_policies(3)  # type: ignore[arg-type]


def test_errors_name_rule_and_field(tmp_path: Path) -> None:
    p = tmp_path / "policies.yaml"
    p.write_text(
        SEED.replace("iteration_gte: 5", "iteration_gte: 0").replace("[untrusted]", "[bogus]"),
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as e:
        load_provenance_policies(p)
    lines = str(e.value).splitlines()
    assert (
        f'{p}: policies[2].when.iteration_gte: must be >= 1 (got 0) [rule "max-recursion"]' in lines
    )
    assert any(
        line.startswith(f"{p}: policies[1].when.context_taint_includes[0]: must be one of")
        and line.endswith('[rule "no-send-when-untrusted"]')
        for line in lines
    )


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ({"name": "a", "when": {}, "action": {"block_turn": True}}, "policies[0].when: needs at"),
        ({"name": "a", "when": {"iteration_gte": 1}, "action": {}}, "policies[0].action: needs"),
        (
            {"name": "a", "when": {"iteration_gte": 1}, "action": {"remove_tool": ["x"]}},
            "policies[0].action.remove_tool: unknown field",
        ),
        (
            {"name": "a", "when": {"iteration_gte": 1}, "action": {"block_tools": ["a b c"]}},
            "policies[0].action.block_tools: must be a tool name",
        ),
        ({"when": {"iteration_gte": 1}, "action": {"block_turn": True}}, "policies[0].name: field"),
        (
            {"name": "builtin:x", "when": {"iteration_gte": 1}, "action": {"block_turn": True}},
            'policies[0].name: the prefix "builtin:" is reserved',
        ),
        ("nope", "policies[0]: must be a mapping"),
    ],
)
def test_rule_errors(rule: object, message: str) -> None:
    with pytest.raises(ConfigError, match="^inline: " + message.replace("[", r"\[")):
        parse_provenance_policies([rule], source="inline")


def test_duplicates_and_top_level_errors() -> None:
    r = {"name": "a", "when": {"iteration_gte": 1}, "action": {"block_turn": True}}
    with pytest.raises(ConfigError, match=r"policies\[1\].name: duplicate name"):
        parse_provenance_policies([r, r])
    with pytest.raises(ConfigError, match="polices: unknown field"):
        parse_provenance_policies({"polices": [r]})
    with pytest.raises(ConfigError, match=r"builtins\.runaway_loop: must be >= 1 or false"):
        parse_provenance_policies({"builtins": {"runaway_loop": 0}})


def test_evaluation_of_the_seed_rules() -> None:
    ps = parse_provenance_policies(__import__("yaml").safe_load(SEED), builtins=OFF)
    clean = ps.evaluate(_graph("local"), 0)
    assert clean.matches == []
    ext = ps.evaluate(_graph("external"), 1)
    assert [m.rule.name for m in ext.matches] == ["no-exec-when-tainted", "audit-external"]
    assert ext.removing("exec") is not None and ext.removing("message") is None
    assert ext.log_full_context and ext.persist_graph and not ext.block_turn
    bad = ps.evaluate(_graph("untrusted"), 5)
    assert bad.block_turn and bad.block_reason == "max-recursion: Max recursion depth exceeded"
    m = bad.blocking_call("message", {"action": "send"})
    assert m is not None and m.rule.name == "no-send-when-untrusted"
    assert m.reason == "no-send-when-untrusted: context taint includes untrusted"
    assert len(m.triggers) == 1
    assert bad.remove_tools == ["exec"] and bad.block_tools == ["message"]


def test_tool_selectors_and_builtins() -> None:
    send = ToolSelector.parse("message  send")
    assert str(send) == "message send"
    assert send.matches_call("message", {"action": "send"})
    assert not send.matches_call("message", {"action": "read"})
    assert not send.matches_tool("message")
    assert ToolSelector.parse("web_*").matches_tool("web_fetch")
    ps = PolicySet()
    ev = ps.evaluate(_graph("external"), 0)
    assert ev.blocking_call("exec", {}) is not None
    assert ev.blocking_call("message", {"action": "send"}) is not None
    assert ev.blocking_call("message", {"action": "read"}) is None
    ev = ps.evaluate(_graph("untrusted"), 25)
    assert ev.block_turn and "runaway loop" in (ev.block_reason or "")
    assert {m.rule.name for m in ev.matches} == {
        "builtin:runaway-loop",
        "builtin:no-exec-when-tainted",
        "builtin:no-exfiltration",
    }
    disabled = parse_provenance_policies(
        [
            {
                "name": "x",
                "enabled": False,
                "when": {"iteration_gte": 1},
                "action": {"block_turn": True},
            }
        ],
        builtins=OFF,
    )
    assert disabled.evaluate(_graph(), 9).matches == []
