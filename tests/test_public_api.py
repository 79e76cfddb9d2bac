"""The public API: ``__all__`` stays sorted, complete and importable, and cheap to import."""

from __future__ import annotations

import subprocess
import sys

import receiptgate


def test_when_all_is_listed_then_it_is_sorted_and_every_name_resolves() -> None:
    assert receiptgate.__all__ == sorted(receiptgate.__all__)
    assert set(receiptgate.__all__) == set(receiptgate._EXPORTS)
    for name in receiptgate.__all__:
        assert getattr(receiptgate, name) is not None, name


def test_when_the_readme_snippet_runs_then_a_contradicted_name_is_blocked() -> None:
    from receiptgate import GateConfig, build_gate

    config = GateConfig.model_validate(
        {
            "factRegistries": [
                {
                    "id": "team",
                    "facts": [
                        {
                            "id": "irina-name",
                            "category": "entity_name",
                            "subject": "(Irina|Iulia)",
                            "subjectIsRegex": True,
                            "value": {"type": "name", "correctName": "Irina"},
                        }
                    ],
                }
            ]
        }
    )
    result = build_gate(config=config).validate("The user's name is Iulia.", trust=30)
    assert result.verdict == "block"
    assert result.violations[0].fact_id == "irina-name"


def test_when_receiptgate_is_imported_then_heavy_modules_are_not_loaded() -> None:
    code = (
        "import sys, receiptgate; "
        "print(sorted(m for m in ('pydantic', 're2', 'yaml', 'rich', 'click') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
