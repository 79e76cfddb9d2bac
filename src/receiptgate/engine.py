"""The gate: one synchronous pipeline behind every entry point.

``text + context -> segment -> detect claims -> check facts -> decide -> tag ->
rewrite``. The deterministic path needs no network, model or database, so it can
run inside a synchronous hook (RFC-003 §8.5). Any failure inside a stage yields
the configured fail mode, visibly: ``fail_mode_applied`` and ``error`` are set
and the audit verdict is ``error_fallback``; no error path returns a plain pass.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from receiptgate._exceptions import ConfigError, InputError, UserError
from receiptgate._ids import new_id
from receiptgate.bounds import time_problem
from receiptgate.checkers.base import (
    Checker,
    CheckOutcome,
    CheckRequest,
    apply_outcome,
    targets_for,
)
from receiptgate.checkers.external import is_external
from receiptgate.checks.anchoring import Anchor, anchor
from receiptgate.checks.arithmetic import derive, names_operation
from receiptgate.checks.documents import document_figure, restated_passage
from receiptgate.checks.facts import check_claim
from receiptgate.checks.figures import check_figure
from receiptgate.checks.finding import Finding
from receiptgate.checks.grounding import is_grounded, ungrounded_names
from receiptgate.checks.ledger import (
    check_action,
    check_attribution,
    check_state,
    quoted_output,
    reported_failure,
)
from receiptgate.checks.orderings import check_ordering, ordering_of
from receiptgate.checks.records import (
    check_availability,
    labelled,
    last_digit_spans,
    record_claims,
)
from receiptgate.checks.words import content_words
from receiptgate.claims.collect import (
    ACTION_CLAUSE_EDGE,
    PLAN,
    clause_around,
    clause_of,
    clause_text,
    facts_by_sentence,
)
from receiptgate.claims.detect import ClaimDetector
from receiptgate.claims.detectors.base import HEDGED_CONFIDENCE, DetectorRegistry
from receiptgate.claims.detectors.base import load_plugin_detectors as _load_plugins
from receiptgate.claims.detectors.custom import CustomDetector
from receiptgate.claims.hard import (
    RiskWords,
    clause_bounds,
    clause_words,
    hard_claim,
    requires_receipt,
    risk_class,
    sentence_anchors,
)
from receiptgate.claims.models import DetectedClaim, HardFact
from receiptgate.claims.sentence_type import (
    INTENT,
    NO_HARD_FACT_TYPES,
    classify,
    compile_hedges,
)
from receiptgate.config import GateConfig
from receiptgate.evidence.fact_index import FactIndex
from receiptgate.evidence.facts import Fact, FactRegistry, load_registry, parse_fact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import TRUST_LEVELS, Receipt, TrustLevel
from receiptgate.evidence.records import Record
from receiptgate.policy.decide import ClaimEval, back_labels, decide, rfc_only, tag_sentence
from receiptgate.policy.explain import TAG_REASON, evidence_of, suggestion
from receiptgate.policy.policy_file import DEFAULT_POLICY, ClaimPolicy, RiskClass
from receiptgate.policy.trust import EffectivePolicy, resolve_policy
from receiptgate.results import (
    Evidence,
    FactCheckRecord,
    SentenceResult,
    ValidationResult,
    Violation,
    worst,
)
from receiptgate.rewrite import rewrite
from receiptgate.rubrics import Rubric, default_rubric
from receiptgate.text.clean import clean_text, replaced_note
from receiptgate.text.segment import Sentence, segment

logger = logging.getLogger("receiptgate")

#: Record claims whose words describe a row (kept among a figure's clause words).
_ROW_WORDS = frozenset({"name", "state", "value"})


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
        self._hedges = compile_hedges(self.policy.hedging.words)
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
        self._detectors = enabled
        self._detector = ClaimDetector(enabled)
        self._depth_cache: dict[frozenset[str], ClaimDetector] = {}
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
            self._run(result, text, agent_id, trust, ref, started, receipts, external)
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
        started: int,
        receipts: Sequence[Receipt] | ReceiptIndex,
        external: bool = False,
    ) -> None:
        cfg = self.config
        policy = resolve_policy(cfg, agent_id, trust)
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

        work = text
        if len(text) > cfg.performance.max_text_length:
            work = text[: cfg.performance.max_text_length]
            result.notes.append(
                f"text truncated to maxTextLength {cfg.performance.max_text_length}; "
                f"{len(text) - len(work)} characters not validated "
                f"({'delivered, flagged' if cfg.fail_mode == 'fail_open' else 'withheld'})"
            )
        sentences = segment(work)
        result.sentences = [
            SentenceResult(s.index, s.text, s.start, s.end, s.kind) for s in sentences
        ]
        types: list[str] = [classify(s.text, s.kind, self._hedges) for s in sentences]

        # 1. claims: detectors, then the hard facts no detector claim holds
        index = self._index_for(policy)
        detector = self._detector
        if policy.profile.depth == "contradiction_only":
            detector = self._detector_for(index.categories_with_facts())
        found = detector.detect(work, sentences, max_claims=cfg.performance.max_claims_per_output)
        # Questions and instructions assert nothing ("Make sure nginx is running.").
        claims = [
            c for c in found.claims if types[c.sentence_index] not in ("question", "imperative")
        ]
        risks: dict[int, list[RiskClass]] = {}
        sentence_facts = facts_by_sentence(work, sentences, now)
        claims = self._add_hard_claims(
            work, sentences, types, claims, sentence_facts, risks, cards=bool(len(receipts))
        )
        # The cap was applied in detection; hard-fact claims are always checked.
        cap = cfg.performance.max_claims_per_output
        unchecked = set(found.unchecked)
        dropped = found.dropped
        if dropped:
            result.notes.append(
                f"{dropped} claim(s) past maxClaimsPerOutput {cap} were not checked"
            )
        result.claims = claims

        # 2. evidence: facts, the action ledger, receipts
        if isinstance(receipts, ReceiptIndex):
            ledger: ReceiptIndex | None = receipts if len(receipts) else None
        else:
            ledger = ReceiptIndex(receipts, now=now) if receipts else None
        if ledger is not None and self.policy.grounded_names != "off" and is_grounded(ledger):
            claims = ungrounded_names(sentences, types, claims, ledger)
            result.claims = claims
        anchors = anchor(work, sentences, ledger) if ledger is not None else None
        types = _check_user_restatements(sentences, types, ledger)
        found_values: dict[int, list[Finding]] = {}
        if anchors is not None and ledger is not None:
            claims, found_values = self._add_record_claims(
                claims, sentences, types, anchors, ledger, risks
            )
            result.claims = claims
        evals = [ClaimEval(i, c, risks=risks.get(id(c), [])) for i, c in enumerate(claims)]
        by_sentence: dict[int, list[ClaimEval]] = {}
        for ev in evals:
            by_sentence.setdefault(ev.claim.sentence_index, []).append(ev)
            if id(ev.claim) in found_values:
                ev.hard.extend(found_values[id(ev.claim)])
        for ev in evals:
            self._gather(ev, index, ledger, now, work, sentences[ev.claim.sentence_index])
        for sidx, group in by_sentence.items():
            self._match_hard(
                group,
                ledger,
                work,
                sentences[sidx],
                anchors[sidx] if anchors else Anchor(),
                now,
                sentence_facts.get(sidx, []),
            )
        for sidx, group in by_sentence.items():
            back_labels(group, by_sentence.get(sidx - 1, []))

        # 3. decisions and tags, sentence by sentence
        profile = policy.profile
        claim_policy = self.policy
        for s, stype in zip(result.sentences, types, strict=True):
            group = by_sentence.get(s.index, [])
            # A promise ("it will reach you within 5 to 7 business days") is no observed
            # fact: like a hedge, it excuses a missing receipt for a timeframe, never for
            # money or a percentage (policy ``hedging``).
            hedged = stype in ("hedged", "future") or any(
                e.claim.confidence <= HEDGED_CONFIDENCE for e in group
            )
            action = "pass"
            for ev in group:
                s.claims.append(ev.index)
                s.evidence.extend(evidence_of(ev))
                for d in decide(
                    ev,
                    profile,
                    claim_policy,
                    sentence_hedged=hedged,
                    min_block_confidence=cfg.min_block_confidence,
                ):
                    if d.action == "pass":
                        s.reasons.append(d.reason)
                        continue
                    s.reasons.append(d.reason)
                    action = worst(action, d.action)
                    result.violations.append(
                        Violation(
                            claim_index=ev.index,
                            sentence_index=s.index,
                            category=ev.claim.category,
                            reason=d.reason,
                            severity=d.severity,
                            action=d.action,
                            fact_id=d.fact_id,
                            expected=d.expected,
                            receipt_id=d.receipt_id,
                        )
                    )
            s.tag = tag_sentence(group, stype, hedged, claim_policy)
            if s.tag in ("T2", "T3", "T6") and not group and ledger is not None:
                self._ground_claimless(s, ledger, now)
            if s.tag is not None and action == "pass" and not rfc_only(group):
                tag_action = claim_policy.tags[s.tag]
                if s.tag in ("T2", "T3", "T6") and profile.unverified == "ignore":
                    # Trust-proportional (RFC-003 §9.2): tiers that ignore unverified
                    # claims are not flagged for inferences or general statements.
                    tag_action = "pass"
                if tag_action == "warn":
                    action = "flag"
                elif tag_action == "block" and not group:
                    action = "block"
                    s.reasons.append(f"policy tags: {s.tag} blocks")
            if s.index in unchecked:
                # Budgets must never turn into a silent pass nor into a milder tag:
                # what was not checked follows the fail mode, visibly.
                limit = "fail_closed" if cfg.fail_mode == "fail_closed" else "fail_open"
                action = worst(action, "block" if limit == "fail_closed" else "flag")
                if not group:
                    s.tag = None  # not checked is not "general statement"
                s.reasons.append(f"not checked: past maxClaimsPerOutput {cap} ({limit})")
            s.action = "warn" if action == "flag" else action  # type: ignore[assignment]
            if s.action == "warn" and s.tag in ("T2", "T3", "T6") and not s.reasons:
                s.reasons.append(TAG_REASON[s.tag])
        result.fact_checks.extend(
            FactCheckRecord.of(ev.index, ev.fact) for ev in evals if ev.fact is not None
        )
        failed = self._run_checkers(result, work, types, policy, index, receipts, now, external)
        self._finish(result, work, text, trust, policy)
        if failed:
            result.reason = f"{failed}; {result.reason}"

    def _run_checkers(
        self,
        result: ValidationResult,
        work: str,
        types: Sequence[str],
        policy: EffectivePolicy,
        index: FactIndex,
        receipts: Sequence[Receipt] | ReceiptIndex,
        now: datetime,
        external: bool,
    ) -> str | None:
        """Stage 3 (SPEC §5): the configured checkers, after the deterministic decisions.

        Each checker sees the sentences the deterministic stage could not settle,
        or the whole text of an external communication; its findings join the
        evidence, claims, violations and tags (``checkers.base.apply_outcome``).
        A checker error applies that checker's fail mode. Returns the fail-mode
        note for the result's reason, if any.
        """
        if not self.checkers:
            return None
        hedged = [t == "hedged" for t in types]
        notes: list[str] = []
        evidence: tuple[list[Fact], list[Receipt]] | None = None
        for checker in self.checkers:
            targets = targets_for(checker, result.sentences, external)
            if not targets:
                continue
            if evidence is None:
                evidence = (
                    index.all_facts(),
                    [e.receipt for e in receipts.entries]
                    if isinstance(receipts, ReceiptIndex)
                    else list(receipts),
                )
            request = CheckRequest(
                work,
                result.sentences,
                targets,
                evidence[0],
                evidence[1],
                external,
                result.channel,
                result.hook,
                now,
            )
            try:
                outcome = checker.check(request)
            except Exception as e:  # a checker must not take the gate down
                logger.error("checker %s failed: %s", checker.id, e, exc_info=e)
                outcome = CheckOutcome(error=f"{type(e).__name__}: {e}")
            note = apply_outcome(
                result,
                outcome,
                checker_id=checker.id,
                targets=targets,
                profile=policy.profile,
                min_block_confidence=self.config.min_block_confidence,
                fail_mode=checker.fail_mode,
                hedged=hedged,
            )
            if note:
                notes.append(note)
        return "; ".join(notes) or None

    def _add_hard_claims(
        self,
        work: str,
        sentences: Sequence[Sentence],
        types: Sequence[str],
        claims: list[DetectedClaim],
        sentence_facts: dict[int, list[HardFact]],
        risks: dict[int, list[RiskClass]],
        *,
        cards: bool = False,
    ) -> list[DetectedClaim]:
        """Attaches hard facts to value claims and makes claims of the rest.

        With ``cards`` (there are receipts), a card's last digits ("Visa ending in 7285")
        are no figure: checks/records checks them against the records' last digits.
        """
        small = self.policy.small_numbers_are_facts
        by_sentence: dict[int, list[DetectedClaim]] = {}
        for c in claims:
            by_sentence.setdefault(c.sentence_index, []).append(c)
        out: list[DetectedClaim] = []
        for s, stype in zip(sentences, types, strict=True):
            own = by_sentence.get(s.index, [])
            out.extend(own)
            facts = sentence_facts.get(s.index)
            if not facts or stype in NO_HARD_FACT_TYPES:
                continue
            words: RiskWords | None = None
            card_spans = {(a, b) for a, b, _ in last_digit_spans(s)} if cards else set()
            for h in facts:
                if not requires_receipt(h, small):
                    continue
                if h.kind in ("date", "time", "datetime", "duration") and (
                    (stype == "intent" and _in_intent_clause(work, s, h))
                    or PLAN.search(work, clause_bounds(work, s.start, s.end, h)[0], h.start)
                ):
                    continue  # "I'll look into it tomorrow", "I'd expand it today": plans
                holder = next(
                    (
                        c
                        for c in own
                        if c.detector_id.startswith("quantity.") and c.offset <= h.start < c.end
                    ),
                    None,
                )
                if holder is None:
                    if (h.start, h.end) in card_spans:
                        continue
                    holder = hard_claim(h, s.index, clause_text(work, s.start, s.end, h))
                    out.append(holder)
                else:
                    holder.hard_facts.append(h)
                words = words or RiskWords.of(s.text)
                risks.setdefault(id(holder), []).append(risk_class(h, words))
        out.sort(key=lambda c: (c.sentence_index, c.offset))
        return out

    def _gather(
        self,
        ev: ClaimEval,
        index: FactIndex,
        ledger: ReceiptIndex | None,
        now: datetime,
        work: str,
        sentence: Sentence,
    ) -> None:
        """Facts and ledger evidence for one claim."""
        c = ev.claim
        if index.size and not c.detector_id.startswith("hardfact.") and c.category != "action":
            ev.fact = check_claim(index, c, now=now)
        if ledger is None:
            return
        if c.category == "action":
            if c.assertion != "forged_label":
                # A passive report ("'a.txt' has been written to 'b.txt'") names its object
                # before the verb; an active one ("I wrote b.txt") after it.
                start, end = c.offset, sentence.end
                if c.detector_id.endswith("passive_done"):
                    # ... within its own clause: "X has been installed and its version has
                    # been written to test.txt" holds two claims with two objects
                    start, end = clause_around(
                        work, sentence.start, sentence.end, c.offset, c.end, ACTION_CLAUSE_EDGE
                    )
                ev.ledger = check_action(ledger, c, work[start:end])
        elif c.category in ("system_state", "operational_status", "existence"):
            res = check_state(ledger, c, clause_of(work, sentence, c))
            if res.status != "unsupported":
                ev.ledger = res
            elif (avail := _AVAILABILITY.get(c.assertion)) is not None:
                found = check_availability(ledger, sentence.text, avail)
                if found is not None:
                    ev.ledger = found
        elif c.category == "attribution":
            ev.ledger = check_attribution(ledger, c)

    def _add_record_claims(
        self,
        claims: list[DetectedClaim],
        sentences: Sequence[Sentence],
        types: Sequence[str],
        anchors: Sequence[Anchor],
        ledger: ReceiptIndex,
        risks: dict[int, list[RiskClass]],
    ) -> tuple[list[DetectedClaim], dict[int, list[Finding]]]:
        """Claims for the ids, names, states and values a sentence restates (checks/records)."""
        out = list(claims)
        matches: dict[int, list[Finding]] = {}
        taken: dict[int, list[tuple[int, int]]] = {}
        for c in claims:
            for h in c.hard_facts:
                taken.setdefault(c.sentence_index, []).append((h.start, h.end))
        for s, stype in zip(sentences, types, strict=True):
            if stype == "code":
                continue
            about = anchors[s.index]
            if stype == "label" and about.how != "named":
                # "Cancelled orders:" is about the records its lines name
                about = _lines_under(s.index, sentences, types, anchors) or about
            found = record_claims(s, about, ledger, taken.get(s.index, ()))
            for rc in found:
                claim = DetectedClaim(
                    category="record",
                    detector_id=f"record.{rc.kind}",
                    matched_text=rc.text,
                    offset=rc.start,
                    end=rc.end,
                    subject=rc.text,
                    assertion=rc.kind,
                    confidence=0.9,
                    sentence_index=s.index,
                    value=rc.text,
                    hard_facts=[rc.match.hard_fact],
                )
                out.append(claim)
                matches[id(claim)] = [rc.match]
                risks[id(claim)] = ["general"]
        out.sort(key=lambda c: (c.sentence_index, c.offset))
        return out, matches

    def _match_hard(
        self,
        group: list[ClaimEval],
        ledger: ReceiptIndex | None,
        work: str,
        sentence: Sentence,
        anchor_: Anchor,
        now: datetime,
        facts: Sequence[HardFact],
    ) -> None:
        """Receipts for the hard facts of one sentence's claims (checks/figures);
        ``facts`` are all the sentence's figures and ids."""
        if ledger is None:
            for ev in group:
                ev.hard.extend(
                    Finding("unsupported", detail=f"no receipts: nothing backs {h.text}", value=h)
                    for h in ev.claim.hard_facts
                )
            return
        # A restated name, state or value ("for the web app") is what ties a figure to
        # its row: it stays among the clause's words; other figures and ids do not.
        all_facts = sorted(
            (h for ev in group for h in ev.claim.hard_facts if h.unit not in _ROW_WORDS),
            key=lambda h: h.start,
        )
        sentence_words = clause_words(work, sentence.start, sentence.end, all_facts, None)
        # with its ids and hosts, which are no claims of their own
        named = sentence_anchors(sentence.text, facts)
        freshness = self.policy.freshness
        linked = {
            ev.ledger.receipt_id
            for ev in group
            if ev.ledger is not None and ev.ledger.status == "supported" and ev.ledger.receipt_id
        }
        pending: list[tuple[ClaimEval, int, HardFact, frozenset[str], Any]] = []
        for ev in group:
            if ev.claim.category == "record":
                continue  # checked when it was found
            risk = ev.worst_risk() or "general"
            limit = self.policy.risk_classes[risk].freshness

            seen: dict[int, bool] = {}

            def fresh(
                r: Receipt, limit: timedelta | None = limit, seen: dict[int, bool] = seen
            ) -> bool:
                ok = seen.get(id(r))
                if ok is None:
                    ok = seen[id(r)] = ledger.is_fresh(
                        r, _tighter(freshness.get(r.kind), limit), now
                    )
                return ok

            for h in ev.claim.hard_facts:
                clause = clause_words(work, sentence.start, sentence.end, all_facts, h)
                m = check_figure(ledger, h, anchor_, clause, sentence_words, fresh, named)
                if m.status == "unsupported":
                    m = self._derived(ledger, h, anchor_, fresh, sentence.text) or m
                if m.status == "unsupported":
                    # a rule of the operator's documents ("refunded in 5 to 7 business days")
                    m = document_figure(ledger, h, sentence.text, fresh) or m
                elif m.status == "contradicted" and names_operation(sentence.text):
                    # "the 20% discount on the lamp is $30.05": not the lamp's price,
                    # a figure computed from it
                    d = self._derived(ledger, h, anchor_, fresh, sentence.text)
                    m = d if d is not None and d.status == "supported" else m
                if (
                    m.status == "supported"
                    and h.kind == "money"
                    and (direction := ordering_of(sentence.text))
                ):
                    # "the cheapest available option is $46.85": the lowest of its list?
                    o = check_ordering(ledger, h, sentence.text, direction, anchor_.scope())
                    if o is not None and o.status == "contradicted":
                        r = ledger.receipt_of(o.leaf)
                        m = Finding("contradicted", r.id, r.kind, o.detail, o.leaf.path, value=h)
                    elif o is not None:
                        m = dataclasses.replace(m, detail=f"{m.detail}; {o.detail}")
                ev.hard.append(m)
                if m.status == "supported" and m.receipt_id:
                    linked.add(m.receipt_id)
                elif m.status == "unsupported":
                    pending.append((ev, len(ev.hard) - 1, h, clause, fresh))
        # A receipt that backs another claim of the sentence is what it is about: the
        # test run behind "I ran the tests and all 42 pass".
        for ev, at, h, clause, fresh in pending if linked else ():
            ev.hard[at] = check_figure(
                ledger,
                h,
                anchor_,
                clause,
                sentence_words,
                fresh,
                named,
                frozenset(linked),
            )

    def _ground_claimless(self, s: SentenceResult, ledger: ReceiptIndex, now: datetime) -> None:
        """The receipt of a sentence with no claim of its own (T2, T3 or T6), if it has one.

        "It seems there was an issue locating the order" right after a call that failed
        is backed by the failure, and a line a tool printed, repeated word for word, by
        that output (T1); a statement, inference or hedge that restates a rule of the
        documents by the rule's passage (T4; T1 for a fetched page).
        """
        if s.tag in ("T3", "T6"):
            found = reported_failure(ledger, s.text) or quoted_output(ledger, s.text)
            if found is not None and found.receipt_id is not None:
                s.tag = "T1"
                s.evidence.append(Evidence("tool", found.receipt_id, "supports", found.detail))
        if s.tag not in ("T2", "T3", "T6"):
            return
        freshness = self.policy.freshness

        def fresh(r: Receipt) -> bool:
            return ledger.is_fresh(r, freshness.get(r.kind), now)

        doc = restated_passage(ledger, s.text, fresh)
        if doc is not None:
            s.tag = "T1" if doc.receipt.kind == "web" else "T4"
            s.evidence.append(Evidence(doc.receipt.kind, doc.receipt.id, "supports", doc.line()))

    @staticmethod
    def _derived(
        ledger: ReceiptIndex,
        h: HardFact,
        anchor_: Anchor,
        fresh: Callable[[Receipt], bool],
        sentence: str,
    ) -> Finding | None:
        """A figure no record holds, computed from figures they do (checks/arithmetic)."""
        d = derive(ledger, h, anchor_.records, fresh, sentence)
        if d is None:
            return None
        r = ledger.receipt_of(d.leaf) if d.leaf is not None else None
        rid, kind = (r.id, r.kind) if r is not None else (None, None)
        if d.status == "supported":
            return Finding("supported", rid, kind, f"derived: {d.formula}", value=h)
        return Finding("contradicted", rid, kind, f"miscalculated: {d.formula}", value=h)

    def _detector_for(self, categories: frozenset[str]) -> ClaimDetector:
        """Detection depth "contradiction-only": detectors whose claims a fact can check."""
        det = self._depth_cache.get(categories)
        if det is None:
            det = ClaimDetector(
                d
                for d in self._detectors
                if d.category in categories or d.category in ("action", "attribution")
            )
            self._depth_cache[categories] = det
        return det

    def _finish(
        self,
        result: ValidationResult,
        work: str,
        text: str,
        trust: int | None,
        policy: EffectivePolicy,
    ) -> None:
        verdict = "pass"
        for s in result.sentences:
            verdict = worst(verdict, "flag" if s.action == "warn" else s.action)
        truncated = len(text) > len(work)
        if truncated:
            # Text past maxTextLength was not validated (RFC-003 §12.2): never a pass.
            verdict = worst(verdict, "flag")
        result.verdict = verdict  # type: ignore[assignment]
        trust_note = f"trust {trust}, tier {policy.tier}" if trust is not None else "no trust score"
        if result.violations:
            top = sorted(result.violations, key=lambda v: v.action != "block")
            reasons = "; ".join(v.reason for v in top[:3])
            more = f" (+{len(top) - 3} more)" if len(top) > 3 else ""
            result.reason = f"{verdict} ({trust_note}, {policy.source}): {reasons}{more}"
        elif verdict == "flag":
            result.reason = f"flag ({trust_note}): sentences labelled as inference/unverified"
        elif result.claims:
            result.reason = f"pass ({trust_note}): all claims supported or allowed by policy"
        else:
            result.reason = "pass: no claims detected"
        for v in result.violations:
            claim = result.claims[v.claim_index]
            result.issues.append(
                {
                    "sentence_index": v.sentence_index,
                    "claim_index": v.claim_index,
                    "category": v.category,
                    "severity": v.severity,
                    "action": v.action,
                    "start": claim.offset,
                    "end": claim.end,
                    "message": v.reason,
                }
            )
            result.suggestions.append(suggestion(v, claim))
        flagged = {v.sentence_index for v in result.violations}
        for s in result.sentences:
            if s.action == "warn" and s.index not in flagged:
                result.issues.append(
                    {
                        "sentence_index": s.index,
                        "claim_index": None,
                        "category": None,
                        "severity": "low",
                        "action": "flag",
                        "start": s.start,
                        "end": s.end,
                        "message": s.reasons[0] if s.reasons else f"tag {s.tag}",
                    }
                )
        result.suggestions = list(dict.fromkeys(result.suggestions))
        delivered = rewrite(work, result.sentences, verdict, self.rewrite_settings)
        if (
            truncated
            and delivered is not None
            and delivered != self.rewrite_settings.notice
            and self.config.fail_mode == "fail_open"
        ):
            # fail_open delivers the unchecked tail (flagged); fail_closed withholds it.
            delivered += text[len(work) :]
        result.delivered_text = delivered


def _in_intent_clause(work: str, s: Sentence, h: HardFact) -> bool:
    """Whether a figure of an offer or a plan sits in its intent clause: "I'll call you
    tomorrow" yes; "I can proceed, but the refund takes 5 to 10 business days" no (a
    later clause that is not itself a plan states a fact)."""
    start, _ = clause_around(work, s.start, s.end, h.start, h.end, ACTION_CLAUSE_EDGE)
    if start == s.start:
        return True
    return bool(INTENT.match(work[start : h.start].lstrip()))


def _lines_under(
    at: int, sentences: Sequence[Sentence], types: Sequence[str], anchors: Sequence[Anchor]
) -> Anchor | None:
    """The records the lines under a label name, up to the next label ("Cancelled orders:"
    then "Order #W1 and #W2 have been cancelled.")."""
    records: list[Record] = []
    for j in range(at + 1, len(sentences)):
        if types[j] == "label":
            break
        if anchors[j].how == "named":
            records.extend(r for r in anchors[j].records if r not in records)
    if not records:
        return None
    return Anchor(records, "section", text=sentences[at].text, start=sentences[at].start)


def _clean_id(name: str, value: str | None, notes: list[str]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{name}: expected a string, got {type(value).__name__}")
    value, n = clean_text(value)
    if n:
        notes.append(replaced_note(name, n))
    return value


def _check_user_restatements(
    sentences: Sequence[Sentence], types: list[str], ledger: ReceiptIndex | None
) -> list[str]:
    """A sentence that restates the user's request ("You mentioned you want to return the
    lamp") is T7 only when the user's messages hold its words; else a plain statement."""
    if ledger is None:
        return ["statement" if t == "user" else t for t in types]
    user = ledger.cache.get("user_stems")
    if not isinstance(user, frozenset):
        # the user's words, stemmed like the sentence's; once per index
        user = ledger.cache["user_stems"] = frozenset().union(
            *(e.words for e in ledger.entries if e.receipt.kind == "user")
        )
    out = list(types)
    for s, t in zip(sentences, types, strict=True):
        if t == "user":
            words = content_words(s.text) - _YOU_WORDS
            if not user or not words or len(words & user) * 2 < len(words):
                out[s.index] = "statement"
        elif t == "statement" and user and (m := labelled(s.text)) is not None:
            # "City: New York" after the user gave the address: their words restated
            words = content_words(re.sub(r"\([^)]*\)", " ", m.group(2)))
            if words and words <= user:
                out[s.index] = "user"
    return out


_AVAILABILITY = {
    "available": True,
    "in_stock": True,
    "not_available": False,
    "unavailable": False,
    "out_of_stock": False,
}
_YOU_WORDS = frozenset("mentioned said asked requested like want wish prefer would".split())


def _tighter(a: timedelta | None, b: timedelta | None) -> timedelta | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def _trusted_only(
    receipts: Sequence[Receipt] | ReceiptIndex, min_trust: TrustLevel
) -> tuple[Sequence[Receipt] | ReceiptIndex, int]:
    """The receipts at or above ``min_trust`` (the policy's ``evidence.minTrust``)."""
    floor = TRUST_LEVELS.index(min_trust)  # TRUST_LEVELS runs from most to least trusted
    given = (
        [e.receipt for e in receipts.entries] if isinstance(receipts, ReceiptIndex) else receipts
    )
    kept = [r for r in given if TRUST_LEVELS.index(r.effective_trust) <= floor]
    if len(kept) == len(given):
        return receipts, 0
    if isinstance(receipts, ReceiptIndex):
        return ReceiptIndex(kept, now=receipts.now), len(given) - len(kept)
    return kept, len(given) - len(kept)
