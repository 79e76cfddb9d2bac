"""An NLI checker: a local entailment model decides whether evidence entails a sentence.

:class:`NLIModel` loads any sequence-classification entailment model (MNLI/SNLI
style: entailment / neutral / contradiction) from a directory the user points to
— never a hub id, nothing is downloaded (``local_files_only``). Label names come
from the model's ``config.id2label`` (case-insensitive), or from an explicit
mapping (``nliLabels``) when the model names them otherwise (``LABEL_0``...).

:class:`NLIChecker` implements the ``Checker`` seam: for each target sentence it
scores (premise = a receipt/fact passage, hypothesis = the sentence) for the
``topK`` passages closest by embedding (or the first ones without an embedding
model) and answers ``supports`` when an entailment probability reaches the
threshold, ``contradicts`` when a contradiction probability does (contradiction
wins: a checker can make a sentence worse, never better).

Needs ``pip install 'receiptgate[nli]'`` (transformers, torch CPU).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from receiptgate._exceptions import ConfigError
from receiptgate.checkers.base import CheckerFinding, CheckOutcome, CheckRequest, call_record
from receiptgate.checkers.semantic import NLI_EXTRA, Passage, _require, _short, passages
from receiptgate.config import FailMode

if TYPE_CHECKING:
    from receiptgate.checkers.semantic import EmbeddingMatcher

NLILabel = Literal["entailment", "neutral", "contradiction"]
_NAMES: tuple[NLILabel, ...] = ("entailment", "neutral", "contradiction")


class NLIModel:
    """A local sequence-classification entailment model.

    Args:
        model_dir: a directory holding ``config.json``, the weights and the tokenizer.
        labels: model label name -> entailment/neutral/contradiction, for models whose
            ``id2label`` does not use those names (case-insensitive on both sides).
        max_length: tokens per (premise, hypothesis) pair.
        batch_size: pairs per forward pass.

    Raises:
        ConfigError: the ``nli`` extra is missing; the directory has no
            ``config.json``; the model cannot be loaded; or no label means entailment.
    """

    def __init__(
        self,
        model_dir: str | Path,
        *,
        labels: Mapping[str, str] | None = None,
        max_length: int = 256,
        batch_size: int = 16,
    ) -> None:
        _require(("transformers", "torch"), "the NLI checker", NLI_EXTRA)
        self.model_dir = Path(model_dir)
        self.max_length = max_length
        self.batch_size = batch_size
        self._lock = threading.Lock()
        if not (self.model_dir / "config.json").is_file():
            raise ConfigError(
                f"{self.model_dir}: not an NLI model directory (no config.json); "
                "point nliModelDir at a local sequence-classification model"
            )
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        try:
            self.tokenizer: Any = AutoTokenizer.from_pretrained(
                str(self.model_dir), local_files_only=True
            )
            self.model: Any = AutoModelForSequenceClassification.from_pretrained(
                str(self.model_dir), local_files_only=True
            )
        except Exception as e:
            raise ConfigError(f"{self.model_dir}: cannot load the NLI model ({e})") from e
        self.model.eval()
        self.model_id = self.model_dir.name
        self.label_index = self._label_index(dict(self.model.config.id2label), labels or {})

    def _label_index(
        self, id2label: Mapping[int, str], labels: Mapping[str, str]
    ) -> dict[NLILabel, int]:
        mapping = {k.lower(): v.lower() for k, v in labels.items()}
        out: dict[NLILabel, int] = {}
        for idx, raw in id2label.items():
            name = str(raw).lower()
            name = mapping.get(name, name)
            for known in _NAMES:
                if name == known:
                    out[known] = int(idx)
        if "entailment" not in out:
            found = ", ".join(f"{i}={n}" for i, n in sorted(id2label.items()))
            raise ConfigError(
                f"{self.model_dir}: no label means entailment (id2label: {found}); "
                "set nliLabels to map the model's labels to entailment/neutral/contradiction"
            )
        return out

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[dict[NLILabel, float]]:
        """Probabilities per (premise, hypothesis) pair, by label (the labels the model has)."""
        import torch

        out: list[dict[NLILabel, float]] = []
        with self._lock, torch.inference_mode():
            for i in range(0, len(pairs), self.batch_size):
                batch = pairs[i : i + self.batch_size]
                enc = self.tokenizer(
                    [p for p, _ in batch],
                    [h for _, h in batch],
                    padding=True,
                    truncation=True,
                    max_length=self.max_length,
                    return_tensors="pt",
                )
                if not self._uses_token_types():
                    enc.pop("token_type_ids", None)
                probs = torch.softmax(self.model(**enc).logits.float(), dim=-1).tolist()
                for row in probs:
                    out.append({name: float(row[j]) for name, j in self.label_index.items()})
        return out

    def _uses_token_types(self) -> bool:
        return int(getattr(self.model.config, "type_vocab_size", 0) or 0) > 0


class NLIChecker:
    """The NLI checker of the ``Checker`` seam (id ``nli``, kind ``semantic``)."""

    id = "nli"
    kind = "semantic"

    def __init__(
        self,
        model: NLIModel,
        *,
        threshold: float = 0.7,
        top_k: int = 3,
        max_passages: int = 256,
        scope: Literal["external", "all"] = "all",
        fail_mode: FailMode = "fail_open",
        matcher: EmbeddingMatcher | None = None,
    ) -> None:
        self.model = model
        self.threshold = threshold
        self.top_k = top_k
        self.max_passages = max_passages
        self.scope: Literal["external", "all"] = scope
        self.fail_mode: FailMode = fail_mode
        self.matcher = matcher
        self.source = f"nli:{model.model_id}"

    def _candidates(self, sentence: str, found: Sequence[Passage]) -> list[Passage]:
        if len(found) <= self.top_k:
            return list(found)
        if self.matcher is None:
            return list(found[: self.top_k])
        ranked = self.matcher.similar(
            sentence, [p.text for p in found], threshold=-1.0, top_k=self.top_k
        )
        return [found[i] for i, _ in ranked]

    def check(self, request: CheckRequest) -> CheckOutcome:
        started = time.perf_counter()
        by_index = {s.index: s for s in request.sentences}
        targets = [i for i in request.targets if i in by_index and by_index[i].text.strip()]
        found = passages(request.receipts, request.facts, self.max_passages)
        outcome = CheckOutcome()
        if not targets or not found:
            return outcome
        jobs: list[tuple[int, Passage]] = []
        for i in targets:
            jobs += [(i, p) for p in self._candidates(by_index[i].text, found)]
        probs = self.model.scores([(p.text, by_index[i].text) for i, p in jobs])
        best: dict[int, dict[str, tuple[float, Passage]]] = {}
        for (i, p), pr in zip(jobs, probs, strict=True):
            slot = best.setdefault(i, {})
            for name in ("entailment", "contradiction"):
                score = pr.get(name)
                if score is not None and (name not in slot or score > slot[name][0]):
                    slot[name] = (score, p)
        for i in targets:
            slot = best.get(i, {})
            contra = slot.get("contradiction")
            entail = slot.get("entailment")
            if contra is not None and contra[0] >= self.threshold:
                score, p = contra
                outcome.findings.append(
                    CheckerFinding(
                        sentence_index=i,
                        relation="contradicts",
                        check="contradiction",
                        detail=f"{p.ref} contradicts it: {_short(p.text)!r} (p={score:.2f})",
                        confidence=round(score, 4),
                        kind=self.kind,
                        source=self.source,
                        receipt_id=p.receipt_id,
                        fact_id=p.fact_id,
                    )
                )
            elif entail is not None and entail[0] >= self.threshold:
                score, p = entail
                outcome.findings.append(
                    CheckerFinding(
                        sentence_index=i,
                        relation="supports",
                        check="none",
                        detail=f"entailed by {p.ref}: {_short(p.text)!r} (p={score:.2f})",
                        confidence=round(score, 4),
                        kind=self.kind,
                        source=self.source,
                        receipt_id=p.receipt_id,
                        fact_id=p.fact_id,
                    )
                )
        outcome.calls.append(
            call_record(
                self.id,
                "nli",
                self.model.model_id,
                started=started,
                sentences=len(targets),
                pairs=len(jobs),
                status="ok",
            )
        )
        return outcome
