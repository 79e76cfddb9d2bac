"""Declarative provenance policies (seed 002, "Security Policies"; SPEC §7).

A policy file (YAML or JSON) or an inline list of rules, in the seed's schema::

    policies:
      - name: no-exec-when-tainted
        when:
          context_taint_includes: [external, untrusted]
        action:
          remove_tools: [exec]
      - name: max-recursion
        when:
          iteration_gte: 5
        action:
          block_turn: true
          reason: "Max recursion depth exceeded"

``when`` holds the conditions (all must hold): ``context_taint_includes`` (any of
these trust levels is present in the turn's context) and ``iteration_gte`` (the
agent loop's iteration, 0-based, is at least this). ``action`` holds the effects:

* ``remove_tools``: removed from the tool list of ``before_llm_call``; calls to
  them are also filtered (``after_llm_call``) and blocked (``before_tool_call``);
* ``block_tools``: calls are filtered and blocked; the tool list is untouched;
* ``block_turn`` (with ``reason``): the turn is blocked;
* ``log_full_context`` / ``persist_graph``: flags for the audit trail.

A tool selector is a glob on the tool name (``exec``, ``web_*``), optionally
followed by a space and an ``action`` argument value: ``message send`` is the
``message`` tool called with ``action: send``. A selector with an action cannot
remove the tool itself from a tool list (its other actions stay usable); it
filters and blocks the calls with that action.

Built-in safety rules (on by default; a file may turn them off under ``builtins``):
``builtin:runaway-loop`` (iteration ≥ 25 blocks the turn),
``builtin:no-exec-when-tainted`` (``exec`` and ``message send`` removed once
``external`` or ``untrusted`` content is in the context) and
``builtin:no-exfiltration`` (``message send`` blocked after ``untrusted`` content).

Errors name the source, the rule (index and name) and the field:
``policies.yaml: policies[1].when.iteration_gte: must be >= 1 (got 0) [rule "max-recursion"]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from receiptgate._exceptions import ConfigError
from receiptgate._validation import describe_value
from receiptgate.provenance.graph import GraphNode, TurnGraph
from receiptgate.provenance.trust import TRUST_LEVELS, TrustLevel

__all__ = [
    "BUILTIN_PREFIX",
    "DEFAULT_RUNAWAY_ITERATIONS",
    "SOURCE_KINDS",
    "BuiltinRules",
    "PolicyAction",
    "PolicyEvaluation",
    "PolicyFlags",
    "PolicyRule",
    "PolicySet",
    "PolicyWhen",
    "RuleMatch",
    "ToolSelector",
    "context_taint",
    "decision_nodes",
    "load_provenance_policies",
    "parse_provenance_policies",
    "policy_flags",
]

BUILTIN_PREFIX = "builtin:"
DEFAULT_RUNAWAY_ITERATIONS = 25

#: Node kinds that are content *entering* the context (sources); llm calls, outputs,
#: tool calls and decisions derive from them and do not count as context taint.
SOURCE_KINDS = frozenset({"system", "user_message", "history", "context", "tool_result"})


# ------------------------------------------------------------------ tool selectors


@dataclass(frozen=True, slots=True)
class ToolSelector:
    """``name`` (a glob) and optionally the value of the call's ``action`` argument."""

    name: str
    action: str | None = None

    @classmethod
    def parse(cls, text: str) -> ToolSelector:
        parts = text.split()
        if not parts or len(parts) > 2:
            raise ValueError(
                f"must be a tool name (glob), optionally followed by an action "
                f'("exec", "message send"), got {text!r}'
            )
        return cls(parts[0], parts[1] if len(parts) == 2 else None)

    def __str__(self) -> str:
        return self.name if self.action is None else f"{self.name} {self.action}"

    def matches_tool(self, tool: str) -> bool:
        """Whether a tool *definition* named ``tool`` is removed (no action given)."""
        return self.action is None and fnmatchcase(tool, self.name)

    def matches_call(self, tool: str, args: Mapping[str, Any] | str | None) -> bool:
        """Whether a call of ``tool`` with ``args`` is selected."""
        if not fnmatchcase(tool, self.name):
            return False
        if self.action is None:
            return True
        action = args.get("action") if isinstance(args, Mapping) else None
        return isinstance(action, str) and action == self.action


# ------------------------------------------------------------------ models


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _selectors(value: Any) -> Any:
    if isinstance(value, list):
        out: list[Any] = []
        for item in value:
            if isinstance(item, str):
                ToolSelector.parse(item)  # raises a ValueError naming the selector
                out.append(" ".join(item.split()))
            else:
                out.append(item)
        return out
    return value


class PolicyWhen(_Model):
    """The conditions of a rule; every one given must hold."""

    context_taint_includes: list[TrustLevel] | None = Field(default=None, min_length=1)
    iteration_gte: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _one_condition(self) -> PolicyWhen:
        if self.context_taint_includes is None and self.iteration_gte is None:
            raise ValueError("needs at least one condition: context_taint_includes, iteration_gte")
        return self


class PolicyAction(_Model):
    """The effects of a rule."""

    remove_tools: list[str] = Field(default_factory=list)
    block_tools: list[str] = Field(default_factory=list)
    block_turn: bool = False
    reason: str | None = Field(default=None, min_length=1)
    log_full_context: bool = False
    persist_graph: bool = False

    _check_selectors = field_validator("remove_tools", "block_tools", mode="before")(_selectors)

    @model_validator(mode="after")
    def _one_effect(self) -> PolicyAction:
        if not (
            self.remove_tools
            or self.block_tools
            or self.block_turn
            or self.log_full_context
            or self.persist_graph
        ):
            raise ValueError(
                "needs at least one of remove_tools, block_tools, block_turn, "
                "log_full_context, persist_graph"
            )
        return self

    @property
    def removed(self) -> list[ToolSelector]:
        return [ToolSelector.parse(s) for s in self.remove_tools]

    @property
    def blocked(self) -> list[ToolSelector]:
        return [ToolSelector.parse(s) for s in self.block_tools]


class PolicyRule(_Model):
    """One named rule: ``when`` → ``action``."""

    name: str = Field(min_length=1)
    description: str = ""
    enabled: bool = True
    when: PolicyWhen
    action: PolicyAction

    def describe(self, iteration: int | None, taint: Iterable[TrustLevel]) -> str:
        """Why the rule fired, for decision nodes and block reasons."""
        if self.action.reason:
            return f"{self.name}: {self.action.reason}"
        why: list[str] = []
        if self.when.context_taint_includes is not None:
            hit = [lvl for lvl in self.when.context_taint_includes if lvl in set(taint)]
            why.append("context taint includes " + ", ".join(hit))
        if self.when.iteration_gte is not None:
            why.append(f"iteration {iteration} >= {self.when.iteration_gte}")
        return f"{self.name}: " + "; ".join(why)


class BuiltinRules(_Model):
    """The built-in safety rules; ``runaway_loop`` is the iteration threshold or ``false``."""

    runaway_loop: int | bool = DEFAULT_RUNAWAY_ITERATIONS
    tainted_tools: bool = True
    exfiltration: bool = True

    @field_validator("runaway_loop")
    @classmethod
    def _threshold(cls, value: int | bool) -> int | bool:
        if value is True:
            return DEFAULT_RUNAWAY_ITERATIONS
        if not isinstance(value, bool) and value < 1:
            raise ValueError(f"must be >= 1 or false (got {value})")
        return value

    def rules(self) -> list[PolicyRule]:
        out: list[PolicyRule] = []
        if self.runaway_loop is not False:
            n = int(self.runaway_loop)
            out.append(
                PolicyRule(
                    name=f"{BUILTIN_PREFIX}runaway-loop",
                    description="a runaway agent loop is stopped",
                    when=PolicyWhen(iteration_gte=n),
                    action=PolicyAction(
                        block_turn=True,
                        reason=f"runaway loop (iteration >= {n})",
                        persist_graph=True,
                    ),
                )
            )
        if self.tainted_tools:
            out.append(
                PolicyRule(
                    name=f"{BUILTIN_PREFIX}no-exec-when-tainted",
                    description="exec and message send are taken away once outside content is in "
                    "the context",
                    when=PolicyWhen(context_taint_includes=["external", "untrusted"]),
                    action=PolicyAction(remove_tools=["exec", "message send", "message_send"]),
                )
            )
        if self.exfiltration:
            out.append(
                PolicyRule(
                    name=f"{BUILTIN_PREFIX}no-exfiltration",
                    description="no message is sent after untrusted content was read",
                    when=PolicyWhen(context_taint_includes=["untrusted"]),
                    action=PolicyAction(
                        block_tools=["message send", "message_send"], persist_graph=True
                    ),
                )
            )
        return out


BUILTINS_OFF = BuiltinRules(runaway_loop=False, tainted_tools=False, exfiltration=False)


# ------------------------------------------------------------------ evaluation


def context_taint(graph: TurnGraph) -> dict[TrustLevel, list[str]]:
    """The trust levels present in the turn's context, each with the ids of the
    source nodes that state it (see :data:`SOURCE_KINDS`)."""
    out: dict[TrustLevel, list[str]] = {}
    for node in graph.nodes:
        if node.kind not in SOURCE_KINDS or node.stated_trust is None:
            continue
        out.setdefault(node.stated_trust, []).append(node.id)
    return out


@dataclass(frozen=True, slots=True)
class RuleMatch:
    """A rule that fired, why, and the nodes that made it fire."""

    rule: PolicyRule
    reason: str
    triggers: tuple[str, ...] = ()


@dataclass(slots=True)
class PolicyEvaluation:
    """What the rules that fired ask for."""

    matches: list[RuleMatch] = field(default_factory=list)

    @property
    def block_turn(self) -> bool:
        return any(m.rule.action.block_turn for m in self.matches)

    @property
    def block_reason(self) -> str | None:
        reasons = [m.reason for m in self.matches if m.rule.action.block_turn]
        return "; ".join(reasons) if reasons else None

    @property
    def log_full_context(self) -> bool:
        return any(m.rule.action.log_full_context for m in self.matches)

    @property
    def persist_graph(self) -> bool:
        return any(m.rule.action.persist_graph for m in self.matches)

    @property
    def remove_tools(self) -> list[str]:
        return list(dict.fromkeys(s for m in self.matches for s in m.rule.action.remove_tools))

    @property
    def block_tools(self) -> list[str]:
        return list(dict.fromkeys(s for m in self.matches for s in m.rule.action.block_tools))

    def removing(self, tool: str) -> RuleMatch | None:
        """The first rule that removes tool definition ``tool`` from the tool list."""
        for m in self.matches:
            if any(s.matches_tool(tool) for s in m.rule.action.removed):
                return m
        return None

    def blocking_call(
        self, tool: str, args: Mapping[str, Any] | str | None = None
    ) -> RuleMatch | None:
        """The first rule that removes or blocks a call of ``tool`` with ``args``."""
        for m in self.matches:
            selectors = [*m.rule.action.removed, *m.rule.action.blocked]
            if any(s.matches_call(tool, args) for s in selectors):
                return m
        return None


@dataclass(frozen=True, slots=True)
class PolicySet:
    """The rules of a deployment plus the built-in safety rules."""

    rules: tuple[PolicyRule, ...] = ()
    builtins: BuiltinRules = field(default_factory=BuiltinRules)
    source: str = "provenancePolicies"

    def effective_rules(self) -> list[PolicyRule]:
        """The enabled rules: the deployment's, then the built-ins."""
        return [r for r in (*self.rules, *self.builtins.rules()) if r.enabled]

    def evaluate(self, graph: TurnGraph, iteration: int | None = None) -> PolicyEvaluation:
        """The rules that fire for ``graph`` at ``iteration`` (default: the graph's)."""
        it = iteration if iteration is not None else graph.iteration
        taint = context_taint(graph)
        result = PolicyEvaluation()
        for rule in self.effective_rules():
            when = rule.when
            triggers: list[str] = []
            if when.iteration_gte is not None and (it is None or it < when.iteration_gte):
                continue
            if when.context_taint_includes is not None:
                hit = [lvl for lvl in when.context_taint_includes if lvl in taint]
                if not hit:
                    continue
                triggers = [nid for lvl in hit for nid in taint[lvl]]
            result.matches.append(RuleMatch(rule, rule.describe(it, taint), tuple(triggers)))
        return result


# ------------------------------------------------------------------ loading


def _path(loc: Iterable[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not part.startswith(("function-", "int", "bool", "list[", "str")):
            out += f".{part}" if out else part
    return out


def _message(err: Mapping[str, Any]) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    got = describe_value(err.get("input"))
    if kind == "missing":
        return "field required"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "greater_than_equal":
        return f"must be >= {ctx.get('ge')} (got {got})"
    if kind == "literal_error":
        return f"must be one of {', '.join(TRUST_LEVELS)} (got {got})"
    if kind == "too_short":
        return "must not be empty"
    if kind == "string_too_short":
        return "must not be empty"
    if kind in ("bool_type", "bool_parsing"):
        return f"must be true or false (got {got})"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"must be an integer (got {got})"
    msg = str(err["msg"]).removeprefix("Value error, ")
    msg = msg[:1].lower() + msg[1:]
    if kind != "value_error":
        msg += f" (got {got})"
    return msg


def _rule_errors(source: str, prefix: str, index: int, data: Any) -> list[str]:
    name = data.get("name") if isinstance(data, Mapping) else None
    named = f' [rule "{name}"]' if isinstance(name, str) and name else ""
    where = f"{prefix}[{index}]"
    if not isinstance(data, Mapping):
        return [f"{source}: {where}: must be a mapping with name, when, action{named}"]
    try:
        PolicyRule.model_validate(dict(data))
    except ValidationError as e:
        out: list[str] = []
        seen: set[tuple[str, str]] = set()
        for err in e.errors(include_url=False):
            sub = _path(err["loc"])
            msg = _message(err)
            if (sub, msg) in seen:
                continue
            seen.add((sub, msg))
            out.append(f"{source}: {where}{'.' + sub if sub else ''}: {msg}{named}")
        return out
    return []


def parse_provenance_policies(
    data: Any, *, source: str = "provenancePolicies", builtins: BuiltinRules | None = None
) -> PolicySet:
    """Validates policies: a list of rules, or a mapping ``{policies, builtins}``.

    Raises:
        ConfigError: naming ``source``, the rule (``policies[1]`` and its name) and
            the field; every broken rule is reported, one per line.
    """
    built = builtins if builtins is not None else BuiltinRules()
    if data is None:
        return PolicySet((), built, source)
    errors: list[str] = []
    if isinstance(data, Mapping):
        unknown = sorted(str(k) for k in data if k not in ("policies", "builtins"))
        errors.extend(
            f"{source}: {k}: unknown field (expected policies, builtins)" for k in unknown
        )
        if data.get("builtins") is not None:
            try:
                built = BuiltinRules.model_validate(data["builtins"])
            except ValidationError as e:
                for err in e.errors(include_url=False):
                    sub = _path(err["loc"])
                    errors.append(f"{source}: builtins{'.' + sub if sub else ''}: {_message(err)}")
        rules_data: Any = data.get("policies", [])
    else:
        rules_data = data
    if rules_data is None:
        rules_data = []
    if not isinstance(rules_data, list):
        errors.append(
            f"{source}: policies: must be a list of rules (got {describe_value(rules_data)})"
        )
        rules_data = []
    rules: list[PolicyRule] = []
    names: dict[str, int] = {}
    for i, item in enumerate(rules_data):
        errs = _rule_errors(source, "policies", i, item)
        if errs:
            errors.extend(errs)
            continue
        rule = PolicyRule.model_validate(dict(item))
        if rule.name.startswith(BUILTIN_PREFIX):
            errors.append(
                f'{source}: policies[{i}].name: the prefix "{BUILTIN_PREFIX}" is reserved '
                f'[rule "{rule.name}"]'
            )
        elif rule.name in names:
            errors.append(
                f"{source}: policies[{i}].name: duplicate name (also policies[{names[rule.name]}])"
                f' [rule "{rule.name}"]'
            )
        names.setdefault(rule.name, i)
        rules.append(rule)
    if errors:
        raise ConfigError("\n".join(errors))
    return PolicySet(tuple(rules), built, source)


def load_provenance_policies(
    value: str | Path | Sequence[Any] | Mapping[str, Any] | None,
    base_dir: str | Path | None = None,
    *,
    builtins: BuiltinRules | None = None,
) -> PolicySet:
    """The policies of the config key ``provenancePolicies``: a path (YAML/JSON,
    relative to ``base_dir``, the config file's folder) or an inline list of rules
    (or an inline ``{policies, builtins}`` mapping). ``None`` gives the built-ins only.

    Raises:
        ConfigError: an unreadable file or an invalid rule (naming rule and field).
    """
    if value is None:
        return parse_provenance_policies(None, builtins=builtins)
    if isinstance(value, str | Path):
        if isinstance(value, str) and not value.strip():
            raise ConfigError("provenancePolicies: must be a file path or a list of rules")
        path = Path(value)
        if not path.is_absolute() and base_dir is not None:
            path = Path(base_dir) / path
        from receiptgate.config import read_structured_file  # config may import this module

        return parse_provenance_policies(
            read_structured_file(path), source=str(path), builtins=builtins
        )
    if isinstance(value, Mapping):
        return parse_provenance_policies(dict(value), builtins=builtins)
    if isinstance(value, Sequence) and not isinstance(value, bytes):
        return parse_provenance_policies(list(value), builtins=builtins)
    raise ConfigError(
        f"provenancePolicies: must be a file path or a list of rules (got {type(value).__name__})"
    )


def decision_nodes(graph: TurnGraph) -> list[GraphNode]:
    """The graph's policy decisions, in order."""
    return [n for n in graph.nodes if n.kind == "policy_decision"]


@dataclass(frozen=True, slots=True)
class PolicyFlags:
    """The audit flags the rules that fired during a turn asked for."""

    log_full_context: bool = False
    persist_graph: bool = False


def policy_flags(graph: TurnGraph) -> PolicyFlags:
    """Whether a rule asked to log the full context / persist ``graph`` (read from
    its ``policy_decision`` nodes, so a stored graph still says so)."""
    actions = {n.metadata.get("action") for n in decision_nodes(graph)}
    return PolicyFlags("log_full_context" in actions, "persist_graph" in actions)
