"""The LLM judge: RFC-006 Stage 3 on any OpenAI-compatible endpoint (SPEC §5).

``llmValidator`` in the config turns it on; it needs ``receiptgate[judge]`` (the
``openai`` SDK, imported on first use). One judgement:

1. :func:`~receiptgate.checkers.prompt.build_prompt` puts the instructions in
   the system message and the sentences, facts and receipts in the user message
   as data;
2. the cascade (PRD FR-6): with ``cascade.fastModel``, the fast model answers
   first and its answer stands when it is sure (every confidence at least
   ``cascade.escalateBelow``) and flags nothing; otherwise the accurate stage
   decides: ``model``, or every model of ``cascade.ensemble`` by majority vote
   (a tie goes to the more severe verdict; a majority of the ensemble must
   answer);
3. every model call goes through the cache (text + evidence signature, TTL),
   asks for JSON against a schema (structured output, stepping down to JSON mode
   and then to plain text when the endpoint refuses it) and is retried with
   exponential backoff on timeouts, connection errors, 429, 5xx and unreadable
   answers, inside ``timeoutMs`` per model;
4. the answer becomes per-sentence findings; when no usable answer comes, the
   outcome carries the error and the fail mode applies (never a silent pass).

Every call is recorded (stage, model, latency, tokens, attempts, cache hit,
status) in ``ValidationResult.checks``.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from receiptgate._exceptions import ConfigError
from receiptgate.checkers.base import CheckerFinding, CheckOutcome, CheckRequest, call_record
from receiptgate.checkers.cache import JudgeCache, cache_key, open_cache
from receiptgate.checkers.prompt import (
    ANSWER_SCHEMA,
    PROMPT_VERSION,
    SEVERITY,
    AnswerError,
    Prompt,
    SentenceVerdict,
    build_prompt,
    instruction_findings,
    parse_answer,
)
from receiptgate.config import FailMode, LlmValidator

logger = logging.getLogger("receiptgate.judge")

#: Idle clients kept for reuse (keep-alive connections); more calls at once make more.
_IDLE_CLIENTS = 4

ResponseFormat = Literal["json_schema", "json_object", "none"]
_FORMAT_STEPS: dict[ResponseFormat, ResponseFormat | None] = {
    "json_schema": "json_object",
    "json_object": "none",
    "none": None,
}
#: First retry waits this long; each further retry twice as long (with jitter).
BACKOFF_S = 0.2
_RELATION: dict[str, Literal["supports", "contradicts", "missing"]] = {
    "supported": "supports",
    "unsupported": "missing",
    "contradicted": "contradicts",
}


class _Retryable(Exception):
    """A failure worth another attempt (status for the record, message)."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


class _Fatal(Exception):
    """A failure no retry fixes (401, 404, a refused request)."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(slots=True)
class _Answer:
    model: str
    verdicts: dict[int, SentenceVerdict] | None
    record: dict[str, Any]
    error: str | None = None


@dataclass(slots=True)
class _Usage:
    prompt: int = 0
    completion: int = 0
    total: int = 0
    calls: int = 0

    def add(self, usage: Any) -> None:
        self.calls += 1
        if usage is None:
            return
        self.prompt += int(getattr(usage, "prompt_tokens", 0) or 0)
        self.completion += int(getattr(usage, "completion_tokens", 0) or 0)
        self.total += int(getattr(usage, "total_tokens", 0) or 0)


@dataclass(slots=True)
class _Adapt:
    """What the endpoint accepts, learnt from its 400 answers."""

    response_format: ResponseFormat
    auto: bool
    token_param: str = "max_tokens"
    temperature: bool = True
    lock: threading.Lock = field(default_factory=threading.Lock)


def resolve_api_key(config: LlmValidator) -> str:
    """The API key from ``apiKeyEnv``.

    Local servers (Ollama, vLLM, llama.cpp) take any key, so with a ``baseUrl``
    and the default ``apiKeyEnv`` unset a placeholder is used; an explicitly
    named variable, or the OpenAI API itself, must be set.

    Raises:
        ConfigError: when the variable is required and not set.
    """
    key = os.environ.get(config.api_key_env, "")
    if key:
        return key
    if "api_key_env" in config.model_fields_set or config.base_url is None:
        raise ConfigError(
            f"llmValidator.apiKeyEnv: the environment variable {config.api_key_env} "
            "(the judge's API key) is not set"
        )
    return "unused"


class Judge:
    """The LLM judge, a :class:`~receiptgate.checkers.base.Checker`.

    Args:
        config: the ``llmValidator`` section.
        fail_mode: the gate's ``failMode``, used when ``llmValidator.failMode`` is unset.
        base_dir: the config file's folder (relative SQLite cache paths).
        cache: a cache to use instead of the one ``cacheUrl`` names.

    Raises:
        ConfigError: the API key variable is missing, or the cache cannot be opened.
    """

    id = "judge"

    def __init__(
        self,
        config: LlmValidator,
        *,
        fail_mode: FailMode = "fail_open",
        base_dir: Path | None = None,
        cache: JudgeCache | None = None,
    ) -> None:
        if config.model is None:
            raise ConfigError("llmValidator.model: required when llmValidator.enabled is true")
        self.config = config
        self.model: str = config.model
        self.scope = config.scope
        self.fail_mode: FailMode = config.fail_mode or fail_mode
        self._api_key = resolve_api_key(config)
        if cache is None and config.cache_ttl_seconds > 0:
            cache = open_cache(config.cache_url, base_dir)
        self.cache = cache
        fmt = config.response_format
        self._adapt = _Adapt("json_schema" if fmt == "auto" else fmt, fmt == "auto")
        #: Idle OpenAI clients (each with its own connections): a call takes one and
        #: gives it back; a call past its deadline closes its client instead.
        self._clients: list[Any] = []
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    # -- the checker -------------------------------------------------------------------

    def check(self, request: CheckRequest) -> CheckOutcome:
        """Judges the target sentences of ``request`` (never raises for endpoint trouble)."""
        started = time.perf_counter()
        prompt = build_prompt(request)
        targets = prompt.targets
        outcome = CheckOutcome()
        outcome.findings.extend(instruction_findings(request, "judge:rules"))
        cascade = self.config.cascade
        final: dict[int, SentenceVerdict] | None = None
        source = f"judge:{self.model}"
        escalated = False
        if cascade.fast_model:
            fast = self._ask(cascade.fast_model, prompt, "fast")
            outcome.calls.append(fast.record)
            if fast.verdicts is not None and not self._unsure(fast.verdicts, prompt):
                final, source = fast.verdicts, f"judge:{cascade.fast_model}"
            else:
                escalated = True
        votes = 0
        if final is None:
            voters = list(cascade.ensemble) or [self.model]
            answers = self._ask_all(voters, prompt)
            outcome.calls.extend(a.record for a in answers)
            ok = [a for a in answers if a.verdicts is not None]
            votes = len(ok)
            if len(ok) * 2 <= len(voters):
                errors = "; ".join(f"{a.model}: {a.error}" for a in answers if a.error)
                outcome.error = errors or "no answer"
                if len(voters) > 1:
                    outcome.error = f"{len(ok)} of {len(voters)} ensemble models answered: {errors}"
            elif len(voters) == 1:
                final = ok[0].verdicts
            else:
                final = _vote(
                    [a.verdicts for a in ok if a.verdicts is not None], targets, len(voters)
                )
                source = f"judge:vote({','.join(a.model for a in ok)})"
        if final is not None:
            for i in targets:
                v = final.get(i)
                if v is None:
                    if i in prompt.required:
                        outcome.unchecked.append(i)  # a sentence with content went unjudged
                elif v.verdict != "no_claim":
                    outcome.findings.append(self._finding(v, source, prompt))
        outcome.calls.append(
            call_record(
                "judge",
                "result",
                None,
                started=started,
                external=request.external,
                escalated=escalated,
                votes=votes,
                sentences=list(targets),
                findings=sum(1 for f in outcome.findings if f.relation != "supports"),
                unchecked=list(outcome.unchecked),
                status="failed" if outcome.error else "ok",
                error=outcome.error,
            )
        )
        if outcome.error:
            logger.warning("LLM judge failed (%s): %s", self.fail_mode, outcome.error)
        return outcome

    def _unsure(self, verdicts: dict[int, SentenceVerdict], prompt: Prompt) -> bool:
        """The fast model hands over when it misses a sentence, flags one or is unsure."""
        limit = self.config.cascade.escalate_below
        for i in prompt.targets:
            v = verdicts.get(i)
            if v is None:
                if i in prompt.required:
                    return True
            elif v.verdict in ("unsupported", "contradicted") or v.confidence < limit:
                return True
        return False

    @staticmethod
    def _finding(v: SentenceVerdict, source: str, prompt: Prompt) -> CheckerFinding:
        facts = [e for e in v.evidence if e in prompt.fact_ids]
        receipts = [e for e in v.evidence if e in prompt.receipt_ids]
        detail = (
            v.reason.strip()
            or {
                "supported": "supported by the facts and receipts",
                "unsupported": "nothing in the facts or receipts supports it",
                "contradicted": "the facts or receipts say otherwise",
            }[v.verdict]
        )
        return CheckerFinding(
            v.index,
            _RELATION[v.verdict],
            v.check,
            detail,
            v.confidence,
            "judge",
            source,
            v.quote or None,
            None,
            facts[0] if facts else None,
            receipts[0] if receipts else None,
        )

    def _ask_all(self, models: Sequence[str], prompt: Prompt) -> list[_Answer]:
        stage = "accurate" if len(models) == 1 else "ensemble"
        if len(models) == 1:
            return [self._ask(models[0], prompt, stage)]
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=min(8, len(models)), thread_name_prefix="receiptgate-judge"
                )
            pool = self._pool
        futures = [pool.submit(self._ask, m, prompt, stage) for m in models]
        return [f.result() for f in futures]

    # -- one model ---------------------------------------------------------------------

    def _ask(self, model: str, prompt: Prompt, stage: str) -> _Answer:
        """One model's verdicts: from the cache, or from the endpoint with retries."""
        started = time.perf_counter()
        cfg = self.config
        key = cache_key(PROMPT_VERSION, model, cfg.max_tokens, prompt.messages)
        base: dict[str, Any] = {"sentences": list(prompt.targets)}
        cached = self._cache_get(key, prompt.required)
        if cached is not None:
            record = call_record(
                "judge",
                stage,
                model,
                started=started,
                cached=True,
                attempts=0,
                prompt_tokens=0,
                completion_tokens=0,
                total_tokens=0,
                status="ok",
                error=None,
                response_format=None,
                **base,
            )
            return _Answer(model, cached, record)
        deadline = started + cfg.timeout_ms / 1000
        usage = _Usage()
        attempts = 0
        status: str = "error"
        error: str | None = None
        verdicts: dict[int, SentenceVerdict] | None = None
        fmt: ResponseFormat = self._adapt.response_format
        while True:
            attempts += 1
            fmt = self._adapt.response_format
            try:
                content = self._call_before(model, prompt, deadline, usage)
                verdicts = parse_answer(content, prompt.targets)
                status, error = "ok", None
                break
            except AnswerError as e:
                status, error = "malformed", str(e)
            except _Retryable as e:
                status, error = e.status, str(e)
            except _Fatal as e:
                status, error = e.status, str(e)
                break
            if status == "timeout" or attempts > cfg.max_retries:
                break  # a timeout has used up timeoutMs
            pause = BACKOFF_S * (2 ** (attempts - 1)) * random.uniform(0.75, 1.25)
            if time.perf_counter() + pause >= deadline:
                error = f"{error}; no time left for a retry within timeoutMs {cfg.timeout_ms}"
                break
            time.sleep(pause)
        if verdicts is not None and prompt.required <= set(verdicts):
            self._cache_put(key, verdicts)
        record = call_record(
            "judge",
            stage,
            model,
            started=started,
            cached=False,
            attempts=attempts,
            prompt_tokens=usage.prompt,
            completion_tokens=usage.completion,
            total_tokens=usage.total,
            status=status,
            error=error,
            response_format=fmt,
            **base,
        )
        return _Answer(model, verdicts, record, error)

    def _take_client(self) -> Any:
        with self._lock:
            if self._clients:
                return self._clients.pop()
        import openai  # the judge extra; the core install does not need it

        return openai.OpenAI(
            base_url=self.config.base_url,
            api_key=self._api_key,
            max_retries=0,  # retries are ours: backoff inside timeoutMs
            timeout=self.config.timeout_ms / 1000,
        )

    def _give_back(self, client: Any) -> None:
        with self._lock:
            if len(self._clients) < _IDLE_CLIENTS:
                self._clients.append(client)
                return
        client.close()

    def _call_before(
        self, model: str, prompt: Prompt, deadline: float, usage: _Usage
    ) -> str | None:
        """:meth:`_call`, ended at ``deadline`` whatever the endpoint does.

        The SDK's timeout bounds each socket read, so an endpoint that sends a byte
        every 100 ms would hold a validation for a minute: the call runs in a thread
        and, past the deadline, its client is closed (which ends the read) and the
        call counts as timed out.
        """
        remaining = max(deadline - time.perf_counter(), 0.001)
        client = self._take_client()
        box: dict[str, Any] = {}
        done = threading.Event()

        def run() -> None:
            try:
                box["content"] = self._call(client, model, prompt, remaining, usage)
            except BaseException as e:  # handed to the caller below
                box["error"] = e
            finally:
                done.set()

        threading.Thread(target=run, name="receiptgate-judge-call", daemon=True).start()
        if not done.wait(remaining):
            client.close()
            raise _Retryable(
                "timeout",
                f"no complete answer within timeoutMs {self.config.timeout_ms} "
                "(the whole call: connect, headers and body)",
            )
        self._give_back(client)
        if "error" in box:
            raise box["error"]
        content: str | None = box.get("content")
        return content

    def _request(self, model: str, prompt: Prompt) -> dict[str, Any]:
        a = self._adapt
        kwargs: dict[str, Any] = {
            "model": model,
            "messages": prompt.messages,
            a.token_param: self.config.max_tokens,
        }
        if a.temperature:
            kwargs["temperature"] = 0
        if a.response_format == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "judgement", "strict": True, "schema": ANSWER_SCHEMA},
            }
        elif a.response_format == "json_object":
            kwargs["response_format"] = {"type": "json_object"}
        return kwargs

    def _call(
        self, client: Any, model: str, prompt: Prompt, timeout: float, usage: _Usage
    ) -> str | None:
        """One chat completion; endpoint errors become ``_Retryable`` or ``_Fatal``."""
        import openai

        for _ in range(4):  # at most three adaptations to what the endpoint accepts
            kwargs = self._request(model, prompt)
            try:
                response = client.chat.completions.create(timeout=timeout, **kwargs)
            except openai.APITimeoutError:
                raise _Retryable("timeout", f"timed out after {timeout * 1000:.0f} ms") from None
            except openai.APIConnectionError as e:
                raise _Retryable("connection_error", f"connection failed: {e}") from None
            except openai.APIStatusError as e:
                code = e.status_code
                message = _status_message(e)
                if code in (400, 422) and self._learn(message):
                    continue
                # llama-cpp-python's server answers an unsupported response_format
                # (json_schema) with a 500 carrying its validation error.
                if code >= 500 and "response_format" in message and self._learn(message):
                    continue
                if code == 429 or code >= 500 or code in (408, 409):
                    raise _Retryable(f"http_{code}", f"HTTP {code}: {message}") from None
                raise _Fatal(f"http_{code}", f"HTTP {code}: {message}") from None
            except openai.OpenAIError as e:
                raise _Retryable("error", f"{type(e).__name__}: {e}") from None
            usage.add(getattr(response, "usage", None))
            choices = getattr(response, "choices", None) or []
            if not choices:
                raise AnswerError("the answer has no choices")
            message_obj = choices[0].message
            content = getattr(message_obj, "content", None)
            if not content:
                refusal = getattr(message_obj, "refusal", None)
                raise AnswerError(f"empty answer{f' (refusal: {refusal})' if refusal else ''}")
            return str(content)
        raise _Fatal("http_400", "the endpoint refused every request format")

    def _learn(self, message: str) -> bool:
        """Adapts to a 400 answer; ``True`` when a changed request may be accepted."""
        low = message.lower()
        a = self._adapt
        with a.lock:
            if "max_completion_tokens" in low and a.token_param == "max_tokens":
                a.token_param = "max_completion_tokens"
                return True
            if "temperature" in low and a.temperature:
                a.temperature = False
                return True
            step = _FORMAT_STEPS[a.response_format]
            if a.auto and step is not None:
                logger.info(
                    "judge endpoint refused response_format %s (%s); using %s",
                    a.response_format,
                    message[:200],
                    step,
                )
                a.response_format = step
                return True
        return False

    # -- cache ---------------------------------------------------------------------------

    def _cache_get(self, key: str, required: frozenset[int]) -> dict[int, SentenceVerdict] | None:
        if self.cache is None:
            return None
        try:
            value = self.cache.get(key)
            if value is None:
                return None
            verdicts = {
                v.index: v for v in (SentenceVerdict.from_dict(d) for d in value["verdicts"])
            }
        except Exception as e:  # a broken cache must not break validation
            logger.warning("judge cache read failed (%s): %s", self.cache.backend, e)
            return None
        return verdicts if required <= set(verdicts) else None

    def _cache_put(self, key: str, verdicts: dict[int, SentenceVerdict]) -> None:
        if self.cache is None:
            return
        try:
            value = {"verdicts": [v.to_dict() for v in verdicts.values()]}
            self.cache.put(key, value, self.config.cache_ttl_seconds)
        except Exception as e:
            logger.warning("judge cache write failed (%s): %s", self.cache.backend, e)

    def close(self) -> None:
        """Closes the HTTP client, the cache and the ensemble threads."""
        with self._lock:
            clients, self._clients = self._clients, []
            if self._pool is not None:
                self._pool.shutdown(wait=False)
                self._pool = None
        for client in clients:
            client.close()
        if self.cache is not None:
            self.cache.close()


def _status_message(e: Any) -> str:
    body = getattr(e, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        if isinstance(err, str):
            return err
    return str(getattr(e, "message", e))


def _vote(
    answers: Sequence[dict[int, SentenceVerdict]], targets: Sequence[int], voters: int
) -> dict[int, SentenceVerdict]:
    """Majority per sentence; a tie goes to the more severe verdict.

    A sentence counts as judged only when a majority of the ``voters`` answered it.
    """
    out: dict[int, SentenceVerdict] = {}
    for i in targets:
        votes = [a[i] for a in answers if i in a]
        if len(votes) * 2 <= voters:
            continue
        counts = Counter(v.verdict for v in votes)
        top = max(counts.values())
        winner = max((k for k, c in counts.items() if c == top), key=lambda k: SEVERITY[k])
        agreeing = [v for v in votes if v.verdict == winner]
        best = max(agreeing, key=lambda v: v.confidence)
        confidence = sum(v.confidence for v in agreeing) / len(agreeing)
        out[i] = SentenceVerdict(
            i,
            best.verdict,
            best.check,
            best.quote,
            f"{best.reason} ({len(agreeing)} of {len(votes)} votes)".strip(),
            round(confidence, 4),
            best.evidence,
        )
    return out


def build_checkers(
    config: LlmValidator, *, fail_mode: FailMode, base_dir: Path | None = None
) -> list[Judge]:
    """The checkers a gate config asks for (the judge when ``llmValidator.enabled``)."""
    if not config.enabled:
        return []
    return [Judge(config, fail_mode=fail_mode, base_dir=base_dir)]
