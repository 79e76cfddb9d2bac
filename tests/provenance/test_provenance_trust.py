"""Trust levels, lowest-wins propagation and tool trust classification (seed 002)."""

from __future__ import annotations

import pytest

from receiptgate._exceptions import ConfigError
from receiptgate.evidence.receipts import RECEIPT_KINDS, receipt_default_trust
from receiptgate.provenance import (
    TRUST_LEVELS,
    ToolTrust,
    at_least,
    is_tainted,
    lowest,
    parse_tool_trust,
    parse_trust,
    receipt_trust,
    trust_rank,
)


def test_order_is_the_seeds() -> None:
    assert TRUST_LEVELS == ("system", "owner", "local", "shared", "external", "untrusted")
    assert [trust_rank(t) for t in TRUST_LEVELS] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        (("system",), "system"),
        (("system", "owner"), "owner"),
        (("owner", "external"), "external"),  # the seed's example
        (("owner", "local", "shared"), "shared"),
        (("untrusted", "system"), "untrusted"),
        (("local", "external", "shared", "owner"), "external"),
        ((["owner", "shared"], "local"), "shared"),  # iterables are flattened
    ],
)
def test_lowest_wins(levels: tuple[object, ...], expected: str) -> None:
    assert lowest(*levels) == expected  # type: ignore[arg-type]


def test_lowest_of_every_pair_is_the_higher_rank() -> None:
    for a in TRUST_LEVELS:
        for b in TRUST_LEVELS:
            assert lowest(a, b) == lowest(b, a)
            assert trust_rank(lowest(a, b)) == max(trust_rank(a), trust_rank(b))


def test_lowest_rejects_nothing_and_unknown_levels() -> None:
    with pytest.raises(ValueError, match="at least one"):
        lowest()
    with pytest.raises(ConfigError, match="trust: must be one of system"):
        lowest("owner", "root")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^nodes\[2\]\.trust: .*got 'high'"):
        parse_trust("high", field="nodes[2].trust")


def test_at_least_and_tainted() -> None:
    assert at_least("owner", "local")
    assert at_least("local", "local")
    assert not at_least("shared", "local")
    assert [t for t in TRUST_LEVELS if is_tainted(t)] == ["external", "untrusted"]


def test_receipt_kinds_map_like_receipts() -> None:
    for kind in RECEIPT_KINDS:
        assert receipt_trust(kind) == receipt_default_trust(kind)
    assert receipt_trust("web") == "external"
    assert receipt_trust("user") == "owner"
    assert receipt_trust("tool", "untrusted") == "untrusted"


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("read", None, "local"),
        ("exec", {"command": "ls -la"}, "local"),
        ("exec", {"command": "gog gmail search is:unread"}, "external"),
        ("web_fetch", {"url": "https://example.com"}, "untrusted"),
        ("web_search", None, "untrusted"),
        ("vestige_search", None, "shared"),
        ("message", {"action": "read", "channel": "email"}, "external"),
        ("message", {"action": "read", "channel": "slack"}, "external"),
        ("some_new_tool", None, "local"),  # unknownTool = the default of a tool receipt
    ],
)
def test_seed_defaults(tool: str, args: dict[str, str] | None, expected: str) -> None:
    assert ToolTrust().trust_of(tool, args) == expected


def test_message_send_is_an_action_not_a_source() -> None:
    match = ToolTrust().classify("message", {"action": "send", "to": "bob"})
    assert match.trust is None
    assert not match.is_source
    assert match.origin == "default"
    assert match.result_trust == "local"


def test_unknown_tool_is_consistent_with_tool_receipts() -> None:
    assert ToolTrust().trust_of("whatever") == receipt_default_trust("tool")
    assert ToolTrust().classify("whatever").origin == "unknown"


def test_config_overrides_come_first_and_use_camel_case() -> None:
    tt = parse_tool_trust(
        {
            "rules": [
                {"tool": "jira_*", "trust": "external"},
                {
                    "tool": "web_fetch",
                    "args": {"url": "https://intranet.example/*"},
                    "trust": "shared",
                },
                {"tool": "read", "trust": "owner"},
            ],
            "unknownTool": "untrusted",
        }
    )
    assert tt.trust_of("jira_get_issue") == "external"
    assert tt.trust_of("web_fetch", {"url": "https://intranet.example/wiki"}) == "shared"
    assert tt.trust_of("web_fetch", {"url": "https://evil.example/"}) == "untrusted"
    assert tt.trust_of("read") == "owner"
    assert tt.classify("read").origin == "config"
    assert tt.trust_of("brand_new") == "untrusted"


def test_defaults_can_be_switched_off() -> None:
    tt = parse_tool_trust({"useDefaults": False, "unknownTool": "shared"})
    assert tt.trust_of("web_fetch") == "shared"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"rules": [{"tool": "x", "trust": "high"}]},
            r"^tools\.yaml: rules\[0\]\.trust: must be one of",
        ),
        ({"rules": [{"trust": "local"}]}, r"rules\[0\]\.tool: "),
        ({"rules": [{"tool": "", "trust": "local"}]}, r"rules\[0\]\.tool: "),
        ({"unknownTool": "meh"}, r"unknownTool: must be one of"),
        ({"unknown_tools": "local"}, r"unknown_tools: "),
        ({"rules": [{"tool": "x", "args": {"a": 1}, "trust": "local"}]}, r"rules\[0\]\.args\.a: "),
        (["not", "a", "mapping"], r"^tools\.yaml: must be a mapping"),
    ],
)
def test_config_errors_name_the_field(data: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_tool_trust(data, source="tools.yaml")
