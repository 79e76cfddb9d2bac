"""Rubrics: findings -> grade (PRD "YAML rubrics stored per domain", rubric weights).

The packaged default rubric must grade exactly as the fixed verdict mapping
(pass -> correct, flag -> partially_correct, block -> incorrect) on real
results, so adding rubrics changes no existing output but the new ``rubric``
key. Domain rubrics weigh tags, actions and claim categories; every file error
names the file and the field.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from receiptgate import (
    ConfigError,
    Detector,
    DetectorRegistry,
    Gate,
    GateConfig,
    InputError,
    Pattern,
    build_gate,
    load_rubric,
    load_rubric_dir,
    parse_rubric,
)
from receiptgate.claims.detectors.base import load_plugin_detectors
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import GRADE_BY_VERDICT, SentenceResult, ValidationResult
from receiptgate.rubrics import Rubric, RubricScore, default_rubric

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "benchmarks" / "data"
EXAMPLES = REPO / "examples" / "rubrics"
NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)

FINANCE_YAML = """\
id: finance
domain: finance
description: Numbers in client messages must be exact.
weights:
  tags: {T5: 1.0, T7: 1.0, T6: 0.3, T3: 0.2, T2: 0.1}
  actions: {}
  categories: {quantity: 2.0}
thresholds: {partially_correct: 0.3, incorrect: 1.0}
minGrade: {block: incorrect}
"""


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for name in ("liarbench_rg_dev.jsonl", "liarbench_rg_dev2.jsonl", "liarbench_rg_test.jsonl"):
        with (DATA / name).open(encoding="utf-8") as f:
            cases.extend(json.loads(line) for line in f if line.strip())
    return cases


def _run(gate: Gate, case: dict[str, Any], **kw: Any) -> ValidationResult:
    now = datetime.fromisoformat(case["now"].replace("Z", "+00:00"))
    receipts = [Receipt.model_validate(r) for r in case["receipts"]]
    return gate.validate(case["text"], now=now, receipts=receipts, **kw)


def _write(tmp_path: Path, name: str, content: str) -> Path:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


def _result(*sentences: tuple[str | None, str], verdict: str = "pass") -> ValidationResult:
    r = ValidationResult(id="x", verdict=verdict, created_at="now")  # type: ignore[arg-type]
    for i, (tag, action) in enumerate(sentences):
        r.sentences.append(
            SentenceResult(i, f"s{i}.", i * 4, i * 4 + 3, "prose", tag=tag, action=action)  # type: ignore[arg-type]
        )
    return r


# ------------------------------------------------------------------ the default rubric


def test_when_no_rubric_is_given_then_the_default_grades_every_real_result_by_verdict() -> None:
    cases = _cases()
    assert len(cases) >= 300
    seen: set[str] = set()
    for trust in (None, 10, 60, 85):
        gate = Gate()
        for case in cases:
            r = _run(gate, case, trust=trust)
            assert r.rubric is not None and r.rubric.rubric_id == "default"
            assert r.grade == GRADE_BY_VERDICT[r.verdict], (case["id"], trust, r.rubric)
            assert r.to_dict()["grade"] == GRADE_BY_VERDICT[r.verdict]
            seen.add(r.verdict)
    assert seen == {"pass", "flag", "block"}


def test_when_budgets_or_fail_modes_decide_the_verdict_then_the_default_still_follows_it() -> None:
    text = " ".join(f"svc-{i} is running on host-{i}." for i in range(40))
    truncated = Gate(GateConfig.model_validate({"performance": {"maxTextLength": 60}}))
    capped = Gate(GateConfig.model_validate({"performance": {"maxClaimsPerOutput": 2}}))
    for gate in (truncated, capped):
        r = gate.validate(text, now=NOW)
        assert r.verdict == "flag" and r.notes
        assert r.grade == "partially_correct"

    class Broken(Detector):
        id = "broken"
        category = "system_state"
        PATTERNS = (Pattern("any", r"\bdeploy", subject="self", assertion="x"),)

        def validate_result(self, *args: Any) -> Any:
            raise RuntimeError("boom")

    registry = DetectorRegistry()
    load_plugin_detectors(registry)
    registry.register(Broken())
    for mode, grade in (("fail_open", "partially_correct"), ("fail_closed", "incorrect")):
        gate = Gate(GateConfig(fail_mode=mode), detectors=registry)
        r = gate.validate("The deploy failed. Revenue grew 37%.", now=NOW)
        assert r.fail_mode_applied == mode
        assert r.grade == grade == GRADE_BY_VERDICT[r.verdict]
        assert r.rubric is not None and r.rubric.findings == ()
        assert "sentences not scored" in r.rubric.reason


def test_when_a_result_is_built_without_the_engine_then_grade_falls_back_to_the_verdict() -> None:
    r = _result(("T5", "block"), verdict="block")
    assert r.rubric is None
    assert r.grade == "incorrect"
    assert r.to_dict()["rubric"] is None
    assert r.to_dict()["grade"] == "incorrect"


def test_when_the_default_rubric_scores_then_to_dict_explains_it() -> None:
    r = Gate().validate("Revenue grew 37%. Therefore the cache should help.", now=NOW)
    d = r.to_dict()
    assert d["grade"] == "incorrect"
    assert d["rubric"]["id"] == "default"
    assert d["rubric"]["score"] == 2.0
    assert d["rubric"]["reason"].startswith("verdict block: minGrade incorrect")
    assert [(f["sentence_index"], f["tag"], f["action"]) for f in d["rubric"]["findings"]] == [
        (0, "T5", "block"),
        (1, "T2", "warn"),
    ]
    assert d["rubric"]["findings"][0]["categories"] == ["quantity"]
    json.dumps(d)  # plain JSON


# ------------------------------------------------------------------------- scoring


def test_when_finance_weighs_a_made_up_figure_then_it_counts_double_and_is_incorrect() -> None:
    finance = parse_rubric(json.loads(json.dumps(_yaml(FINANCE_YAML))), source="finance.yaml")
    gate = Gate(rubric=finance)
    r = gate.validate("Revenue grew 37%.", now=NOW)
    assert r.rubric is not None
    assert r.rubric.score == 2.0  # T5 (1.0) x quantity (2.0)
    assert r.grade == "incorrect"
    assert r.rubric.findings[0].categories == ("quantity",)

    hedged = gate.validate("The cache might be stale.", now=NOW)
    assert hedged.verdict == "flag"
    assert hedged.rubric is not None and hedged.rubric.score == 0.3
    assert hedged.grade == "partially_correct"  # 0.3 >= partially_correct 0.3

    inference = gate.validate("Therefore the cache should reduce latency.", now=NOW)
    assert inference.verdict == "flag"
    assert inference.grade == "correct"  # 0.1 < 0.3: an inference alone is fine in finance


def test_when_scores_add_up_then_rounding_does_not_cost_a_threshold() -> None:
    rubric = parse_rubric(
        {
            "id": "r",
            "weights": {"tags": {"T2": 0.1, "T6": 0.2}, "actions": {}},
            "thresholds": {"partiallyCorrect": 0.3},
        }
    )
    score = rubric.score(_result(("T2", "warn"), ("T6", "warn"), verdict="flag"))
    assert score.score == 0.3
    assert score.grade == "partially_correct"


def test_when_several_categories_apply_then_the_largest_multiplier_wins() -> None:
    rubric = parse_rubric(
        {
            "id": "m",
            "weights": {"actions": {"block": 1}, "categories": {"quantity": 3, "temporal": 0.5}},
            "thresholds": {"partiallyCorrect": 1, "incorrect": 10},
            "minGrade": {},
        }
    )
    r = Gate(rubric=rubric).validate(
        "The Acme contract is worth $2.6 million a year and was signed last Friday.", now=NOW
    )
    assert r.verdict == "block"
    assert r.rubric is not None
    assert r.rubric.findings[0].categories == ("quantity", "temporal")
    assert r.rubric.score == 3.0
    assert r.grade == "partially_correct"  # no minGrade: a lenient domain may say so


def test_when_min_grade_applies_then_it_only_ever_makes_the_grade_worse() -> None:
    rubric = parse_rubric({"id": "floor", "minGrade": {"flag": "incorrect"}})
    flagged = rubric.score(_result(("T3", "warn"), verdict="flag"))
    assert flagged.grade == "incorrect"
    assert "minGrade incorrect" in flagged.reason
    passed = rubric.score(_result(("T1", "pass"), verdict="pass"))
    assert passed.grade == "correct"
    assert passed.findings == ()


def test_when_omitted_then_weights_thresholds_and_min_grade_have_safe_defaults() -> None:
    rubric = parse_rubric({"id": "bare"})
    assert rubric.weights.actions == {"warn": 1.0, "block": 1.0}
    assert rubric.thresholds.partially_correct == 1.0
    assert rubric.thresholds.incorrect is None
    assert rubric.min_grade == {"block": "incorrect"}
    assert rubric.score(_result(("T5", "block"), verdict="block")).grade == "incorrect"


# --------------------------------------------------------------- gate and validate


def test_when_validate_names_a_rubric_then_it_overrides_the_gates_for_that_call() -> None:
    strict = parse_rubric({"id": "strict", "minGrade": {"flag": "incorrect"}})
    gate = Gate()
    text = "Therefore the cache should reduce latency."
    assert gate.validate(text, now=NOW).grade == "partially_correct"
    overridden = gate.validate(text, now=NOW, rubric=strict)
    assert overridden.grade == "incorrect"
    assert overridden.to_dict()["rubric"]["id"] == "strict"
    assert gate.validate(text, now=NOW).grade == "partially_correct"  # no state kept


def test_when_validate_gets_a_path_instead_of_a_rubric_then_input_error() -> None:
    with pytest.raises(InputError, match="rubric: expected a Rubric, got str"):
        Gate().validate("hello there", rubric="finance.yaml")  # type: ignore[arg-type]


def test_when_build_gate_gets_a_rubric_path_then_every_result_uses_it(tmp_path: Path) -> None:
    path = _write(tmp_path, "finance.yaml", FINANCE_YAML)
    gate = build_gate(rubric=path)
    assert gate.rubric.id == "finance"
    assert gate.validate("Revenue grew 37%.", now=NOW).to_dict()["rubric"]["id"] == "finance"
    assert build_gate(rubric=gate.rubric).rubric is gate.rubric
    assert build_gate().rubric is default_rubric()


def test_when_the_example_rubrics_load_then_their_ids_are_their_file_names() -> None:
    rubrics = load_rubric_dir(EXAMPLES)
    assert set(rubrics) == {p.stem for p in EXAMPLES.glob("*.yaml")}
    assert {"finance", "support"} <= set(rubrics)
    for rubric in rubrics.values():
        assert rubric.description


# ---------------------------------------------------------------------- file errors


@pytest.mark.parametrize(
    ("content", "fragments"),
    [
        (
            "id: finance\nthresholds: {partiallyCorrect: 0.5, incorrect: 0.2}\n",
            ["finance.yaml: thresholds.incorrect: must be >= thresholds.partiallyCorrect (0.5)"],
        ),
        ("id: finance\nweight: {}\n", ["finance.yaml: weight: unknown field"]),
        ("id: finance\nweights: {tags: {T9: 1}}\n", ["finance.yaml: weights.tags.T9", "T1"]),
        ("id: finance\nweights: {tags: {T5: -1}}\n", ["finance.yaml: weights.tags.T5", "0"]),
        ("id: finance\nweights: {categories: {money: 2}}\n", ["weights.categories.money"]),
        ("id: finance\nweights: {actions: {flag: 1}}\n", ["weights.actions.flag"]),
        ("id: finance\nthresholds: {partiallyCorrect: 0}\n", ["thresholds.partiallyCorrect"]),
        ("id: finance\nthresholds: {incorrect: .inf}\n", ["thresholds.incorrect"]),
        ("id: finance\nminGrade: {block: wrong}\n", ["minGrade.block", "incorrect"]),
        ("id: finance\nminGrade: {warn: incorrect}\n", ["minGrade.warn"]),
        ("id: fin ance\n", ["finance.yaml: id"]),
        ("domain: finance\n", ["finance.yaml: id: field required"]),
        ("- id: finance\n", ["finance.yaml: expected a mapping of rubric keys (got list)"]),
        ("", ["finance.yaml: expected a mapping of rubric keys (got an empty file)"]),
        ("id: [unclosed\n", ["finance.yaml: invalid YAML"]),
    ],
)
def test_when_a_rubric_file_is_wrong_then_config_error_names_the_file_and_field(
    tmp_path: Path, content: str, fragments: list[str]
) -> None:
    path = _write(tmp_path, "finance.yaml", content)
    with pytest.raises(ConfigError) as info:
        load_rubric(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path)), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_when_a_rubric_file_is_json_then_it_loads_like_yaml(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.json", json.dumps({"id": "j", "weights": {"tags": {"T5": 2}}}))
    assert load_rubric(path).weights.tags == {"T5": 2.0}
    bad = _write(tmp_path, "bad.json", "{nope")
    with pytest.raises(ConfigError, match=r"bad\.json: invalid JSON"):
        load_rubric(bad)


def test_when_the_rubric_path_is_missing_or_a_directory_then_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.yaml: file not found"):
        load_rubric(tmp_path / "missing.yaml")
    with pytest.raises(ConfigError, match="is a directory"):
        load_rubric(tmp_path)


def test_when_a_directory_holds_rubrics_then_they_load_by_id_and_other_files_are_skipped(
    tmp_path: Path,
) -> None:
    _write(tmp_path, "a.yaml", "id: finance\n")
    _write(tmp_path, "b.yml", "id: support\n")
    _write(tmp_path, "c.json", '{"id": "legal"}')
    _write(tmp_path, "notes.txt", "not a rubric")
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub", "d.yaml", "id: nested\n")
    rubrics = load_rubric_dir(tmp_path)
    assert sorted(rubrics) == ["finance", "legal", "support"]
    assert all(isinstance(r, Rubric) for r in rubrics.values())


def test_when_two_files_use_one_id_then_the_error_names_both_files(tmp_path: Path) -> None:
    first = _write(tmp_path, "a.yaml", "id: finance\n")
    second = _write(tmp_path, "b.yaml", "id: finance\ndescription: again\n")
    with pytest.raises(ConfigError) as info:
        load_rubric_dir(tmp_path)
    message = str(info.value)
    assert message.startswith(f"{second}: id: rubric id 'finance' is already used by {first}")


def test_when_the_directory_is_missing_or_holds_a_bad_file_then_config_error(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigError, match="rubric directory not found"):
        load_rubric_dir(tmp_path / "nope")
    with pytest.raises(ConfigError, match="not a directory"):
        load_rubric_dir(_write(tmp_path, "file.yaml", "id: x\n"))
    _write(tmp_path, "z.yaml", "id: z\nthresholds: {incorrect: -1}\n")
    with pytest.raises(ConfigError, match=r"z\.yaml: thresholds\.incorrect"):
        load_rubric_dir(tmp_path)


def test_when_a_score_is_serialised_then_it_round_trips_as_plain_json() -> None:
    score = RubricScore("r", 1.5, "partially_correct", (), "score 1.5 >= partiallyCorrect 1")
    assert json.loads(json.dumps(score.to_dict())) == {
        "id": "r",
        "score": 1.5,
        "grade": "partially_correct",
        "reason": "score 1.5 >= partiallyCorrect 1",
        "findings": [],
    }


def _yaml(text: str) -> Any:
    import yaml

    return yaml.safe_load(text)
