"""The NLI checker's code path, with a tiny random BERT the test builds.

The model has random weights: its probabilities (and so which findings come
out) are meaningless. These tests check loading from a directory, label
mapping, batching, the seam's findings and the errors — not accuracy.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

from receiptgate import ConfigError
from receiptgate.checkers.base import CheckRequest
from receiptgate.checkers.nli import NLIChecker, NLIModel
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt

WORDS = "the service is healthy health check ok 200 in 12ms invoice was paid down".split()


def build_tiny(path: Path, id2label: dict[int, str]) -> Path:
    """A 2-layer, 32-wide BERT classifier with a word-level tokenizer, saved to ``path``."""
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *WORDS])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
    )
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=64,
        num_labels=len(id2label),
        id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )
    BertForSequenceClassification(config).save_pretrained(path)
    fast.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny(
        tmp_path_factory.mktemp("nli"), {0: "entailment", 1: "neutral", 2: "contradiction"}
    )


def test_loads_and_maps_labels(tiny: Path) -> None:
    model = NLIModel(tiny)
    assert model.label_index == {"entailment": 0, "neutral": 1, "contradiction": 2}
    (probs,) = model.scores([("health check ok", "the service is healthy")])
    assert set(probs) == {"entailment", "neutral", "contradiction"}
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-5)


def test_batching_does_not_change_scores(tiny: Path) -> None:
    pairs = [("health check ok 200 in 12ms", "the service is healthy")] * 3 + [
        ("invoice was paid", "the service is down"),
        ("the", "ok"),
    ]
    one = NLIModel(tiny, batch_size=16).scores(pairs)
    small = NLIModel(tiny, batch_size=2).scores(pairs)
    assert len(one) == len(small) == 5
    for a, b in zip(one, small, strict=True):
        for k in a:
            assert a[k] == pytest.approx(b[k], abs=1e-4)


def test_checker_answers_through_the_seam(tiny: Path) -> None:
    receipt = Receipt(id="call_1", kind="tool", content="health check ok: 200 in 12ms")
    # threshold 0: the highest contradiction probability always wins (random weights)
    checker = NLIChecker(NLIModel(tiny), threshold=0.0, top_k=2)
    result = Gate(checkers=[checker]).validate("The service is healthy.", receipts=[receipt])
    (s,) = result.sentences
    nli = [e for e in s.evidence if e.id == f"nli:{tiny.name}"]
    assert [e.relation for e in nli] == ["contradicts"]
    assert s.tag == "T5"
    assert result.checks[-1]["checker"] == "nli" and result.checks[-1]["pairs"] == 1
    # above any probability: no finding
    quiet = NLIChecker(NLIModel(tiny), threshold=1.01)
    request = CheckRequest("The service is healthy.", result.sentences, (0,), receipts=[receipt])
    assert quiet.check(request).findings == []


def test_custom_label_names_need_a_mapping(tmp_path: Path) -> None:
    odd = build_tiny(tmp_path / "odd", {0: "ENTAIL", 1: "NEUTRAL", 2: "CONTRA"})
    model = NLIModel(odd, labels={"entail": "entailment", "Contra": "contradiction"})
    assert model.label_index == {"entailment": 0, "neutral": 1, "contradiction": 2}
    with pytest.raises(ConfigError, match=r"odd.*no label means entailment"):
        NLIModel(odd)


def test_directory_without_config_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=rf"{tmp_path}.*no config.json"):
        NLIModel(tmp_path)
