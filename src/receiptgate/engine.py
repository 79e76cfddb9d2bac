"""The gate: one synchronous pipeline behind every entry point.

``Gate`` loads the configuration, the fact registries, the detectors and the
checkers once; ``Gate.validate`` checks its arguments, resolves the agent's policy
and runs the stages of ``pipeline/`` (segment -> claims -> anchor -> check -> decide
-> checkers -> finish). The deterministic path needs no network, model or database, so it can
run inside a synchronous hook (RFC-003 §8.5). Any failure inside a stage yields
the configured fail mode, visibly: ``fail_mode_applied`` and ``error`` are set
and the audit verdict is ``error_fallback``; no error path returns a plain pass.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from receiptgate import pipeline
from receiptgate._exceptions import ConfigError, InputError, UserError
from receiptgate._ids import new_id
from receiptgate.bounds import time_problem
from receiptgate.checkers.base import (
    Checker,
)
from receiptgate.checkers.external import is_external
from receiptgate.claims.detectors.base import DetectorRegistry
from receiptgate.claims.detectors.base import load_plugin_detectors as _load_plugins
from receiptgate.claims.detectors.custom import CustomDetector
from receiptgate.claims.sentence_type import (
    compile_hedges,
)
from receiptgate.config import GateConfig
from receiptgate.evidence.fact_index import FactIndex
from receiptgate.evidence.facts import Fact, FactRegistry, load_registry, parse_fact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import TRUST_LEVELS, Receipt, TrustLevel
from receiptgate.pipeline import Request, Settings
from receiptgate.policy.policy_file import DEFAULT_POLICY, ClaimPolicy
from receiptgate.policy.trust import EffectivePolicy, resolve_policy
from receiptgate.results import (
    ValidationResult,
)
from receiptgate.rubrics import Rubric, default_rubric
from receiptgate.text.clean import clean_text, replaced_note

logger = logging.getLogger("receiptgate")


def _new_result(
    text: str, agent_id: str | None, channel: str | None, hook: str | None, trust: int | None
) -> ValidationResult:
    """An empty result for ``text`` (verdict "pass" until a stage says otherwise)."""
    return ValidationResult(
        id=new_id(),
        verdict="pass",
        created_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        agent_id=agent_id,
        channel=channel,
        hook=hook,
        trust_score=trust,
        source_text=text,
    )


class Gate:
    """A configured claim gate.

    Args:
        config: the gate configuration (defaults: RFC-003 §10.2).
        base_dir: folder that relative ``filePath`` registries resolve against.
        registries: extra fact registries (e.g. from ``--facts`` files), applied
            after the configured ones.
        detectors: a detector registry; by default built-ins and plugins from
            the ``receiptgate.detectors`` entry points.
        policy: the receipts policy (risk classes, tags, rewrite); SPEC §4
            defaults when omitted.
        rubric: grades every result (``correct`` / ``partially_correct`` /
            ``incorrect``); the packaged default rubric grades by verdict.
        checkers: extra checks after the deterministic stage (SPEC §5), run after
            the LLM judge that ``llmValidator`` configures.
    """

    def __init__(
        self,
        config: GateConfig | None = None,
        *,
        base_dir: Path | None = None,
        registries: Iterable[FactRegistry] = (),
        detectors: DetectorRegistry | None = None,
        policy: ClaimPolicy | None = None,
        rubric: Rubric | None = None,
        checkers: Sequence[Checker] = (),
    ) -> None:
        self.config = config or GateConfig()
        self.policy = policy or DEFAULT_POLICY
        self.rubric = rubric or default_rubric()
        self.rewrite_settings = self.policy.rewrite.settings()
        self._lock = threading.Lock()
        #: Load-time problems that did not stop loading (an optional registry missing).
        self.warnings: list[str] = []
        self._registries: dict[str, FactRegistry] = {}
        for i, cfg in enumerate(self.config.fact_registries):
            # Disabled registries are loaded too: an agent override may add them back.
            reg = load_registry(
                cfg.model_copy(update={"enabled": True}),
                base_dir=base_dir,
                where=f"factRegistries[{i}]",
            )
            self._add_registry(
                dataclasses.replace(reg, enabled=cfg.enabled), f"factRegistries[{i}]"
            )
        for reg in registries:
            self._add_registry(reg, str(reg.path) if reg.path else "registries")
        self._check_override_registries()
        self._index_cache: dict[tuple[str, ...], FactIndex] = {}

        if detectors is None:
            detectors = DetectorRegistry()
            _load_plugins(detectors)
        switches = self.config.builtin_detectors.model_dump(by_alias=True)
        enabled = [d for d in detectors if d.config_key is None or switches.get(d.config_key, True)]
        builtin_ids = {d.id for d in detectors}
        seen: set[str] = set()
        for i, spec in enumerate(self.config.custom_detectors):
            where = f"customDetectors[{i}]"
            if spec.id in builtin_ids or spec.id in seen:
                raise ConfigError(f"{where}.id: detector id {spec.id!r} is already registered")
            seen.add(spec.id)
            enabled.append(CustomDetector(spec, where))
        # Build the default fact index now, not in the first validation.
        self._index_for(resolve_policy(self.config, None, None))
        #: Checks after the deterministic stage (SPEC §5): the LLM judge, then ``checkers``.
        self.checkers: list[Checker] = []
        if self.config.llm_validator.enabled:
            from receiptgate.checkers.judge import Judge  # only with receiptgate[judge]

            self.checkers.append(
                Judge(self.config.llm_validator, fail_mode=self.config.fail_mode, base_dir=base_dir)
            )
        if self.config.semantic.enabled:
            from receiptgate.checkers.semantic import build_checkers  # receiptgate[semantic]

            self.checkers.extend(
                build_checkers(
                    self.config.semantic, fail_mode=self.config.fail_mode, base_dir=base_dir
                )
            )
        self.checkers.extend(checkers)
        self._settings = Settings(
            self.config,
            self.policy,
            enabled,
            compile_hedges(self.policy.hedging.words),
            self.rewrite_settings,
        )

    # -- fact registries -------------------------------------------------------------

    def _add_registry(self, reg: FactRegistry, where: str) -> None:
        if reg.id in self._registries:
            first = self._registries[reg.id].path
            earlier = f" (first in {first})" if first else ""
            raise ConfigError(f"{where}: registry id {reg.id!r} is used twice{earlier}")
        self._registries[reg.id] = reg
        self.warnings.extend(reg.warnings)

    def _check_override_registries(self) -> None:
        for i, o in enumerate(self.config.agent_overrides):
            for key, ids in (
                ("additionalRegistries", o.additional_registries),
                ("excludeRegistries", o.exclude_registries),
            ):
                for j, rid in enumerate(ids):
                    if rid not in self._registries:
                        raise ConfigError(
                            f"agentOverrides[{i}].{key}[{j}]: no fact registry with id {rid!r}"
                        )

    @property
    def registries(self) -> list[FactRegistry]:
        return list(self._registries.values())

    def _index_for(self, policy: EffectivePolicy) -> FactIndex:
        ids = tuple(
            rid
            for rid, reg in self._registries.items()
            if (reg.enabled or rid in policy.additional_registries)
            and rid not in policy.exclude_registries
        )
        index = self._index_cache.get(ids)
        if index is None:
            with self._lock:
                index = self._index_cache.get(ids)
                if index is None:
                    index = FactIndex(
                        [dataclasses.replace(self._registries[i], enabled=True) for i in ids]
                    )
                    self._index_cache[ids] = index
        return index

    def update_fact(self, registry_id: str, fact: Fact | dict[str, Any]) -> Fact:
        """Adds or replaces (by id) a fact at run time: the operator API, never agents.

        Raises:
            ConfigError: unknown registry or invalid fact (the message says which field).
        """
        parsed = parse_fact(fact, registry_id=registry_id, where=f"registry {registry_id!r}")
        with self._lock:
            reg = self._registry(registry_id)
            facts = [f for f in reg.facts if f.id != parsed.id]
            replaced = len(facts) != len(reg.facts)
            if replaced:
                facts = [parsed if f.id == parsed.id else f for f in reg.facts]
            else:
                facts.append(parsed)
            self._registries[registry_id] = dataclasses.replace(reg, facts=type(reg.facts)(facts))
            self._index_cache = {}
        return parsed

    def remove_fact(self, registry_id: str, fact_id: str) -> bool:
        """Removes a fact at run time; returns whether it existed."""
        with self._lock:
            reg = self._registry(registry_id)
            facts = [f for f in reg.facts if f.id != fact_id]
            if len(facts) == len(reg.facts):
                return False
            self._registries[registry_id] = dataclasses.replace(reg, facts=type(reg.facts)(facts))
            self._index_cache = {}
        return True

    def _registry(self, registry_id: str) -> FactRegistry:
        reg = self._registries.get(registry_id)
        if reg is None:
            known = ", ".join(self._registries) or "none"
            raise ConfigError(f"no fact registry with id {registry_id!r} (known: {known})")
        return reg

    # -- validation ------------------------------------------------------------------

    def validate(
        self,
        text: str,
        *,
        agent_id: str | None = None,
        trust: int | None = None,
        channel: str | None = None,
        now: datetime | None = None,
        hook: str | None = None,
        receipts: Sequence[Receipt] | ReceiptIndex = (),
        rubric: Rubric | None = None,
        external: bool | None = None,
    ) -> ValidationResult:
        """Validates one agent output.

        Args:
            text: the text about to leave the agent.
            agent_id: the agent's id (for overrides and exemptions).
            trust: the agent's trust score, 0-100; ``None`` uses ``defaults``.
            channel: where the text is going (recorded; used by policies).
            now: reference time for TTLs, freshness and relative dates.
            hook: the runtime hook that triggered this validation.
            receipts: the session's evidence (tool calls, retrieval, user input): a
                list, or a ``ReceiptIndex`` built once per session (much faster).
            rubric: grades this result instead of the gate's rubric.
            external: whether the text is an external communication (the LLM judge
                checks all of it); ``None`` decides from ``channel`` and ``hook``
                (``llmValidator.externalChannels``, ``before_external_communication``).

        Raises:
            InputError: for bad arguments (a trust score outside 0-100).
        """
        if not isinstance(text, str):
            raise InputError(f"text: expected a string, got {type(text).__name__}")
        if trust is not None and not (0 <= trust <= 100):
            raise InputError(f"trust: must be between 0 and 100 (got {trust})")
        if rubric is not None and not isinstance(rubric, Rubric):
            raise InputError(f"rubric: expected a Rubric, got {type(rubric).__name__}")
        started = time.perf_counter_ns()
        # Input is never a fault (text/clean.py): lone surrogates become U+FFFD, noted.
        cleaned: list[str] = []
        text, n = clean_text(text)
        if n:
            cleaned.append(replaced_note("text", n))
        agent_id, channel, hook = (
            _clean_id(name, value, cleaned)
            for name, value in (("agent_id", agent_id), ("channel", channel), ("hook", hook))
        )
        ref = now or datetime.now(UTC)
        if ref.tzinfo is None:
            ref = ref.replace(tzinfo=UTC)
        if (problem := time_problem(ref)) is not None:
            raise InputError(f"now: {problem}")
        result = _new_result(text, agent_id, channel, hook, trust)
        result.notes.extend(cleaned)
        if external is None:
            external = is_external(channel=channel, hook=hook, config=self.config.llm_validator)
        min_trust = self.policy.evidence.min_trust
        if min_trust is not None:
            receipts, ignored = _trusted_only(receipts, min_trust)
            if ignored:
                result.notes.append(
                    f"{ignored} receipt(s) below evidence.minTrust {min_trust!r} were not "
                    "used as evidence"
                )
        try:
            self._run(result, text, agent_id, trust, ref, receipts, external)
        except UserError:
            raise
        except Exception as e:
            self._fail(result, text, e)
        (rubric or self.rubric).apply(result)
        result.evaluation_us = (time.perf_counter_ns() - started) // 1000
        return result

    def failed(
        self,
        text: str,
        error: BaseException,
        *,
        agent_id: str | None = None,
        channel: str | None = None,
        hook: str | None = None,
        trust: int | None = None,
    ) -> ValidationResult:
        """The result of a validation that could not finish (a stream cut off by an
        error): the fail mode applied, visibly, for the caller to audit."""
        text, _ = clean_text(text)
        result = _new_result(text, agent_id, channel, hook, trust)
        self._fail(result, text, error)
        self.rubric.apply(result)
        return result

    def _fail(self, result: ValidationResult, text: str, error: BaseException) -> None:
        mode = self.config.fail_mode
        logger.error("validation failed (%s): %s", mode, error, exc_info=error)
        result.fail_mode_applied = mode
        result.error = f"{type(error).__name__}: {error}"
        if mode == "fail_closed":
            result.verdict = "block"
            result.delivered_text = self.rewrite_settings.notice
            result.reason = f"Internal error; fail_closed blocked the output ({result.error})"
        else:
            # Delivered, but flagged: a fault never reads as "pass" (the caller sees
            # fail_mode_applied, and --fail-on / alerting on flag catch it).
            result.verdict = "flag"
            result.delivered_text = text
            result.reason = (
                f"Internal error; fail_open delivered the output flagged ({result.error})"
            )
        result.issues.append({"severity": "high", "message": result.reason})
        # Whatever a stage decided before it failed is not a judgement: every sentence
        # shows the fail mode's action (a stream releases them as that).
        action = "block" if mode == "fail_closed" else "warn"
        for s in result.sentences:
            s.tag, s.action = None, action  # type: ignore[assignment]
            s.reasons = [f"internal error ({mode}): {result.error}"]

    def _skip_reason(self, text: str, agent_id: str | None, trust: int | None) -> str | None:
        cfg = self.config
        if not cfg.enabled:
            return "output validation disabled"
        if agent_id is not None and any(fnmatchcase(agent_id, g) for g in cfg.exempt):
            return f"agent {agent_id!r} is exempt"
        if trust is not None and trust > cfg.trust_exempt_threshold:
            return f"trust {trust} is above trustExemptThreshold {cfg.trust_exempt_threshold}"
        if len(text.strip()) < cfg.min_text_length:
            return f"text shorter than minTextLength {cfg.min_text_length}"
        return None

    def _run(
        self,
        result: ValidationResult,
        text: str,
        agent_id: str | None,
        trust: int | None,
        now: datetime,
        receipts: Sequence[Receipt] | ReceiptIndex,
        external: bool = False,
    ) -> None:
        policy = resolve_policy(self.config, agent_id, trust)
        result.trust_tier = policy.tier
        result.policy = policy.to_dict()
        skip = self._skip_reason(text, agent_id, trust)
        if skip is None and policy.disabled:
            skip = f"validation disabled for agent {agent_id!r} ({policy.source})"
        if skip is not None:
            result.skipped = skip
            result.reason = f"Skipped: {skip}"
            result.delivered_text = text
            return
        request = Request(
            result, text, now, policy, self._index_for(policy), receipts, external, self.checkers
        )
        pipeline.run(self._settings, request, trust)


def _clean_id(name: str, value: str | None, notes: list[str]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{name}: expected a string, got {type(value).__name__}")
    value, n = clean_text(value)
    if n:
        notes.append(replaced_note(name, n))
    return value


def _trusted_only(
    receipts: Sequence[Receipt] | ReceiptIndex, min_trust: TrustLevel
) -> tuple[Sequence[Receipt] | ReceiptIndex, int]:
    """The receipts at or above ``min_trust`` (the policy's ``evidence.minTrust``)."""
    floor = TRUST_LEVELS.index(min_trust)  # TRUST_LEVELS runs from most to least trusted
    given = receipts.given() if isinstance(receipts, ReceiptIndex) else receipts
    # the agent's earlier replies are no evidence, so no trust floor applies to them
    kept = [r for r in given if r.kind == "reply" or TRUST_LEVELS.index(r.effective_trust) <= floor]
    if len(kept) == len(given):
        return receipts, 0
    if isinstance(receipts, ReceiptIndex):
        return ReceiptIndex(kept, now=receipts.now), len(given) - len(kept)
    return kept, len(given) - len(kept)
