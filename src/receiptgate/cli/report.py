"""The coloured, human-readable report of ``receiptgate check`` (rich)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from receiptgate.results import ValidationResult

VERDICT_STYLE = {"pass": "bold green", "flag": "bold yellow", "block": "bold red"}
ACTION_STYLE = {"pass": "green", "warn": "yellow", "block": "red"}
TAG_STYLE = {
    "T1": "green",
    "T4": "green",
    "T7": "green",
    "T2": "yellow",
    "T3": "yellow",
    "T6": "yellow",
    "T5": "red",
}
RELATION_MARK = {
    "supports": ("✓", "green"),
    "contradicts": ("✗", "red"),
    "missing": ("?", "yellow"),
    "expired": ("⌛", "yellow"),
    "stale": ("⌛", "yellow"),
}


def render(result: ValidationResult, console: Console) -> None:
    """Prints ``result`` for a person: verdict, sentences with tags, evidence, fixes."""
    head = Text("verdict: ")
    head.append(result.verdict.upper(), style=VERDICT_STYLE[result.verdict])
    head.append(f"  grade: {result.grade}")
    trust = "—" if result.trust_score is None else f"{result.trust_score} ({result.trust_tier})"
    head.append(f"  trust: {trust}  ({result.evaluation_us} µs)", style="dim")
    console.print(head)
    if result.rubric is not None and result.rubric.rubric_id != "default":
        console.print(
            Text(f"rubric {result.rubric.rubric_id}: {result.rubric.reason}", style="dim")
        )
    if result.fail_mode_applied:
        console.print(
            Text(f"fail mode applied: {result.fail_mode_applied} — {result.error}", style="red")
        )
    if result.skipped:
        console.print(Text(f"skipped: {result.skipped}", style="dim"))
    console.print(Text(result.reason, style="dim"))
    for s in result.sentences:
        if s.tag is None:
            continue
        line = Text("\n")
        line.append(f"[{s.index + 1}] ", style="bold")
        line.append(s.tag, style=TAG_STYLE.get(s.tag, ""))
        line.append(" ")
        line.append(s.action.upper(), style=ACTION_STYLE[s.action])
        line.append(f"  {s.text}")
        console.print(line)
        for e in s.evidence:
            mark, style = RELATION_MARK.get(e.relation, ("·", ""))
            ev = Text("     ")
            ev.append(mark, style=style)
            ev.append(f" {e.relation} ", style=style)
            ev.append(f"{e.kind}{':' + e.id if e.id else ''}", style="cyan")
            if e.detail:
                ev.append(f" — {e.detail}")
            console.print(ev)
        for reason in s.reasons:
            console.print(Text(f"     → {reason}", style="dim"))
    for note in result.notes:
        console.print(Text(f"\nnote: {note}", style="yellow"))
    if result.suggestions:
        console.print(Text("\nsuggestions:", style="bold"))
        for sug in result.suggestions:
            console.print(Text(f"  • {sug}"))
    if result.delivered_text is not None:
        console.print(Text("\ndelivered text:", style="bold"))
        console.print(Text(result.delivered_text))
