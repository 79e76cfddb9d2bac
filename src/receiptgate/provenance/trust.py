"""Trust levels, lowest-wins propagation and tool trust classification (seed 002).

Six levels, most trusted first::

    system > owner > local > shared > external > untrusted

A derived artifact inherits the **lowest** trust of its inputs (:func:`lowest`).
The level names are the ones receipts use (:data:`receiptgate.evidence.receipts.TrustLevel`),
so a receipt's trust and a provenance node's trust compare directly.

:class:`ToolTrust` says how trusted a tool's *result* is, by tool name (a glob) and
optionally by argument values (globs too), e.g. ``exec`` is ``local`` but
``exec`` running ``gog gmail …`` reads e-mail and is ``external``. Rules from a
deployment's config are tried first, then the seed's defaults
(:data:`DEFAULT_TOOL_TRUST_RULES`), then ``unknownTool``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from receiptgate._exceptions import ConfigError
from receiptgate._validation import format_validation_error
from receiptgate.evidence.receipts import (
    TRUST_LEVELS,
    ReceiptKind,
    TrustLevel,
    receipt_default_trust,
)

__all__ = [
    "DEFAULT_TOOL_TRUST_RULES",
    "TAINTED_LEVELS",
    "TRUST_LEVELS",
    "ToolTrust",
    "ToolTrustMatch",
    "ToolTrustRule",
    "TrustLevel",
    "at_least",
    "is_tainted",
    "lowest",
    "parse_tool_trust",
    "parse_trust",
    "receipt_trust",
    "trust_rank",
]

#: 0 for ``system`` (most trusted) … 5 for ``untrusted``.
_RANK: dict[TrustLevel, int] = {level: i for i, level in enumerate(TRUST_LEVELS)}

#: Levels whose content an outside party controls (seed 002: "external sources").
TAINTED_LEVELS: frozenset[TrustLevel] = frozenset({"external", "untrusted"})


def trust_rank(level: TrustLevel) -> int:
    """0 for ``system`` up to 5 for ``untrusted``: a higher rank is less trusted."""
    return _RANK[level]


def parse_trust(value: Any, *, field: str = "trust") -> TrustLevel:
    """Checks that ``value`` is a trust level; a :class:`ConfigError` names ``field``."""
    if isinstance(value, str) and value in _RANK:
        return value
    levels = ", ".join(TRUST_LEVELS)
    raise ConfigError(f"{field}: must be one of {levels} (got {value!r})")


def lowest(*levels: TrustLevel | Iterable[TrustLevel]) -> TrustLevel:
    """The least trusted of ``levels`` (lowest wins); iterables are flattened.

    >>> lowest("owner", "external", "local")
    'external'

    Raises:
        ValueError: when no level is given (there is no neutral element to return).
    """
    flat: list[TrustLevel] = []
    for item in levels:
        if isinstance(item, str):
            flat.append(parse_trust(item))
        else:
            flat.extend(parse_trust(x) for x in item)
    if not flat:
        raise ValueError("lowest() needs at least one trust level")
    return max(flat, key=_RANK.__getitem__)


def at_least(level: TrustLevel, floor: TrustLevel) -> bool:
    """True when ``level`` is as trusted as ``floor`` or more (``at_least("owner", "local")``)."""
    return _RANK[level] <= _RANK[floor]


def is_tainted(level: TrustLevel) -> bool:
    """True for ``external`` and ``untrusted``: content an outside party controls."""
    return level in TAINTED_LEVELS


def receipt_trust(kind: ReceiptKind, stated: TrustLevel | None = None) -> TrustLevel:
    """The trust of a receipt: the stated level, else the default of its kind.

    The defaults are :func:`receiptgate.evidence.receipts.receipt_default_trust`
    (``user`` → ``owner``, ``web`` → ``external``, the rest → ``local``).
    """
    return stated if stated is not None else receipt_default_trust(kind)


# ----------------------------------------------------------------- tool trust


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, alias_generator=to_camel, frozen=True
    )


class ToolTrustRule(_Model):
    """One row of the tool trust table.

    ``tool`` is a glob on the tool name (``web_*``); ``args`` maps argument names to
    globs on their string values (``{"command": "gog gmail*"}``), all of which must
    match. ``trust`` is the level of the tool's result; ``null`` marks an action
    (``message send``): not a content source, but a policy target.
    """

    tool: str = Field(min_length=1)
    args: dict[str, str] = Field(default_factory=dict)
    trust: TrustLevel | None
    note: str = ""

    def matches(self, tool: str, args: Mapping[str, Any] | None) -> bool:
        if not fnmatchcase(tool, self.tool):
            return False
        for name, pattern in self.args.items():
            value = (args or {}).get(name)
            if not isinstance(value, str) or not fnmatchcase(value, pattern):
                return False
        return True


#: The seed 002 table ("Tool Trust Classification"); more specific rows first.
DEFAULT_TOOL_TRUST_RULES: tuple[ToolTrustRule, ...] = (
    ToolTrustRule(tool="read", trust="local", note="workspace files, version controlled"),
    ToolTrustRule(
        tool="exec", args={"command": "gog gmail*"}, trust="external", note="e-mail via CLI"
    ),
    ToolTrustRule(tool="exec", trust="local", note="local commands, but powerful"),
    ToolTrustRule(tool="web_fetch", trust="untrusted", note="arbitrary internet content"),
    ToolTrustRule(tool="web_search", trust="untrusted", note="search result snippets"),
    ToolTrustRule(
        tool="vestige_search", trust="shared", note="other agents may have ingested anything"
    ),
    ToolTrustRule(
        tool="message", args={"action": "send"}, trust=None, note="an action, not a source"
    ),
    ToolTrustRule(
        tool="message", args={"action": "read"}, trust="external", note="sender-controlled"
    ),
    ToolTrustRule(tool="message", trust="external", note="other users' content"),
)


@dataclass(frozen=True, slots=True)
class ToolTrustMatch:
    """How a tool was classified and by which rule."""

    tool: str
    trust: TrustLevel | None  # None: an action, not a content source
    origin: Literal["config", "default", "unknown"]
    rule: ToolTrustRule | None

    @property
    def is_source(self) -> bool:
        return self.trust is not None

    @property
    def result_trust(self) -> TrustLevel:
        """The trust of the tool's result; an action's result (an acknowledgement
        written by the runtime) is ``local``."""
        return self.trust if self.trust is not None else "local"


class ToolTrust(_Model):
    """A deployment's tool trust classification (camelCase keys in files).

    ``{"rules": [{"tool": "jira_*", "trust": "external"}], "unknownTool": "local"}``.
    ``unknownTool`` defaults to ``local``, the default trust of a ``tool`` receipt, so
    that classifying tools never changes what a receipt without a stated trust gets.
    """

    rules: tuple[ToolTrustRule, ...] = ()
    use_defaults: bool = True
    unknown_tool: TrustLevel = "local"

    def classify(self, tool: str, args: Mapping[str, Any] | None = None) -> ToolTrustMatch:
        """The first matching rule: config rules, then defaults, then ``unknownTool``."""
        for rule in self.rules:
            if rule.matches(tool, args):
                return ToolTrustMatch(tool, rule.trust, "config", rule)
        if self.use_defaults:
            for rule in DEFAULT_TOOL_TRUST_RULES:
                if rule.matches(tool, args):
                    return ToolTrustMatch(tool, rule.trust, "default", rule)
        return ToolTrustMatch(tool, self.unknown_tool, "unknown", None)

    def trust_of(self, tool: str, args: Mapping[str, Any] | None = None) -> TrustLevel:
        """The trust of ``tool``'s result (``local`` for an action's acknowledgement)."""
        return self.classify(tool, args).result_trust


def parse_tool_trust(data: Any, *, source: str = "toolTrust") -> ToolTrust:
    """Validates a tool trust mapping; a :class:`ConfigError` names ``source`` and the field."""
    if data is None:
        return ToolTrust()
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: must be a mapping with rules, useDefaults, unknownTool")
    try:
        return ToolTrust.model_validate(dict(data))
    except ValidationError as e:
        raise ConfigError(format_validation_error(source, e)) from e
