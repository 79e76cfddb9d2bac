"""The same tool result in any layout gives the same verdict, end to end through ``Gate``.

A list of orders is rendered as compact JSON, pretty JSON, JSON with keys reversed,
wrapped JSON, JSON Lines, YAML, CSV, TSV, a markdown table, a CLI table, logfmt and
``key = value`` blocks. An honest reply must pass in every layout, a reply with one changed
figure must not, and the verdict and per-sentence tags must be those of compact JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from receiptgate import Gate, Receipt

NOW = datetime(2024, 11, 1, tzinfo=UTC)
GATE = Gate()


Rows = list[dict[str, Any]]


def _text_rows(rows: Rows) -> list[dict[str, str]]:
    return [{k: f"{v:.2f}" if isinstance(v, float) else str(v) for k, v in r.items()} for r in rows]


def _delimited(rows: Rows, sep: str) -> str:
    cells = _text_rows(rows)
    return "\n".join([sep.join(cells[0]), *(sep.join(r.values()) for r in cells)])


def _markdown(rows: Rows) -> str:
    cells = _text_rows(rows)
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * len(cells[0])]
    return "\n".join(lines + ["| " + " | ".join(r.values()) + " |" for r in cells])


def _cli(rows: Rows) -> str:
    cells = _text_rows(rows)
    width = {k: max(len(k), *(len(r[k]) for r in cells)) + 3 for k in cells[0]}
    lines = ["".join(k.upper().ljust(width[k]) for k in cells[0])]
    lines += ["".join(v.ljust(width[k]) for k, v in r.items()) for r in cells]
    return "\n".join(line.rstrip() for line in lines)


def _pairs(rows: Rows, sep: str) -> str:
    return "\n".join(f"{k}{sep}{v}" for r in _text_rows(rows) for k, v in r.items())


LAYOUTS: dict[str, Callable[[Rows], str]] = {
    "json-compact": lambda rows: json.dumps(rows, separators=(",", ":")),
    "json-pretty": lambda rows: json.dumps(rows, indent=2),
    "json-keys-reversed": lambda rows: json.dumps([dict(reversed(r.items())) for r in rows]),
    "json-wrapped": lambda rows: json.dumps({"orders": rows, "count": len(rows)}),
    "jsonl": lambda rows: "\n".join(json.dumps(r) for r in rows),
    "yaml": lambda rows: yaml.safe_dump(rows, sort_keys=False),
    "yaml-wrapped": lambda rows: yaml.safe_dump({"orders": rows}, sort_keys=False),
    "csv": lambda rows: _delimited(rows, ","),
    "tsv": lambda rows: _delimited(rows, "\t"),
    "markdown": _markdown,
    "cli-table": _cli,
    "logfmt": lambda rows: "\n".join(" ".join(f"{k}={v}" for k, v in r.items()) for r in rows),
    "key-equals-value": lambda rows: _pairs(rows, " = "),
}

ORDERS: Rows = [
    {"order_id": "#W4923227", "status": "pending", "price": 153.0, "date": "2024-05-17"},
    {"order_id": "#W1111111", "status": "delivered", "price": 89.5, "date": "2024-04-02"},
]


def outcome(content: str, reply: str) -> tuple[str, tuple[str, ...]]:
    receipt = Receipt(id="c1", kind="tool", tool="get_orders", content=content)
    result = GATE.validate(reply, now=NOW, receipts=[receipt])
    return result.verdict, tuple(s.tag for s in result.sentences)


def sentence(row: dict[str, Any], price: float | None = None, day: str | None = None) -> str:
    d = date.fromisoformat(day or row["date"])
    amount = row["price"] if price is None else price
    return (
        f"Order {row['order_id']} was placed on {d:%B} {d.day} and is {row['status']}; "
        f"its price is ${amount:,.2f}."
    )


HONEST = " ".join(sentence(r) for r in ORDERS)
REPLIES = {
    "honest": HONEST,
    "changed-price": " ".join([sentence(ORDERS[0], price=135.0), sentence(ORDERS[1])]),
    "changed-date": " ".join([sentence(ORDERS[0]), sentence(ORDERS[1], day="2024-04-03")]),
    "changed-status": HONEST.replace("is pending", "is shipped"),
}
BASELINE = {name: outcome(LAYOUTS["json-compact"](ORDERS), r) for name, r in REPLIES.items()}


def test_the_baseline_passes_the_honest_reply_and_not_the_changed_ones() -> None:
    assert BASELINE["honest"] == ("pass", ("T1", "T1"))
    for name in ("changed-price", "changed-date", "changed-status"):
        verdict, tags = BASELINE[name]
        assert verdict != "pass", name
        assert tags.count("T1") == 1, (name, tags)  # the untouched sentence still passes


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("reply", sorted(REPLIES))
def test_every_layout_gives_the_baseline_verdict_and_tags(layout: str, reply: str) -> None:
    assert outcome(LAYOUTS[layout](ORDERS), REPLIES[reply]) == BASELINE[reply]


@pytest.mark.parametrize(
    "reply",
    [
        "honest",
        "changed-date",
        "changed-price",
        "changed-status",
    ],
)
def test_key_colon_value_blocks_give_the_baseline_verdict(reply: str) -> None:
    assert outcome(_pairs(ORDERS, ": "), REPLIES[reply]) == BASELINE[reply]


def test_a_single_order_as_key_colon_value_lines_without_hash_ids() -> None:
    row = {"order_id": "W4923227", "status": "pending", "price": 153.0, "date": "2024-05-17"}
    content = _pairs([row], ": ")
    reference = LAYOUTS["json-compact"]([row])
    for reply in (sentence(row), sentence(row, price=135.0)):
        assert outcome(content, reply) == outcome(reference, reply)
    assert outcome(content, sentence(row))[0] == "pass"
    assert outcome(content, sentence(row, price=135.0))[0] != "pass"


DEPLOY = [
    "Deployed api v2.3.1 to prod, 12 replicas ready, rollout took 94 seconds.",
    "Health checks passed, p95 latency 210 ms, error rate 0.2%.",
]


@pytest.mark.parametrize(
    "reply",
    [
        "The rollout took 94 seconds.",
        "The rollout took 49 seconds.",
    ],
)
def test_a_summary_wrapped_onto_two_lines_gives_the_same_verdict(reply: str) -> None:
    assert outcome("\n".join(DEPLOY), reply) == outcome(" ".join(DEPLOY), reply)


# ------------------------------------------------------------------ nested records

ORDER = {
    "order_id": "#W4923227",
    "status": "delivered",
    "customer": {"name": "Mia Li", "city": "Austin"},
    "items": [
        {"item_id": "6259501109", "name": "Desk Lamp", "price": 19.99},
        {"item_id": "8384507844", "name": "Office Chair", "price": 145.5},
    ],
}
FLAT = {
    "order_id": "#W4923227",
    "status": "delivered",
    "customer.name": "Mia Li",
    "customer.city": "Austin",
    **{f"items.{i}.{k}": v for i, item in enumerate(ORDER["items"]) for k, v in item.items()},
}
NESTED_LAYOUTS = {
    "json": json.dumps(ORDER),
    "json-pretty": json.dumps(ORDER, indent=4),
    "yaml": yaml.safe_dump(ORDER, sort_keys=False),
    "csv-dotted": _delimited([FLAT], ","),
    "tsv-dotted": _delimited([FLAT], "\t"),
}
LEAD = "Order #W4923227 was delivered to Mia Li."


@pytest.mark.parametrize("layout", sorted(NESTED_LAYOUTS))
def test_nested_order_in_every_layout(layout: str) -> None:
    content = NESTED_LAYOUTS[layout]
    right = f"{LEAD} The Desk Lamp cost $19.99 and the Office Chair cost $145.50."
    wrong = f"{LEAD} The Desk Lamp cost $19.99 and the Office Chair cost $154.50."
    assert outcome(content, right) == ("pass", ("T1", "T1"))
    assert outcome(content, wrong) == outcome(NESTED_LAYOUTS["json"], wrong)
    assert outcome(content, wrong)[0] != "pass"


@pytest.mark.parametrize("layout", ["json", "csv-dotted"])
def test_prices_swapped_between_two_named_items_do_not_pass(layout: str) -> None:
    swapped = f"{LEAD} The Desk Lamp cost $145.50 and the Office Chair cost $19.99."
    assert outcome(NESTED_LAYOUTS[layout], swapped)[0] != "pass"


# ------------------------------------------------------------------ property

_STATUSES = ["pending", "processed", "shipped", "delivered", "cancelled"]


@st.composite
def orders(draw: st.DrawFn) -> Rows:
    n = draw(st.integers(1, 4))
    ids = draw(st.lists(st.integers(1_000_000, 9_999_999), min_size=n, max_size=n, unique=True))
    cents = draw(st.lists(st.integers(100, 10**7), min_size=n, max_size=n, unique=True))
    prefix = draw(st.sampled_from(["#W", "W", "ORD-"]))
    days = draw(st.lists(st.integers(0, 300), min_size=n, max_size=n))
    return [
        {
            "order_id": f"{prefix}{i}",
            "status": draw(st.sampled_from(_STATUSES)),
            "price": c / 100,
            "date": (date(2024, 1, 1) + timedelta(days=d)).isoformat(),
        }
        for i, c, d in zip(ids, cents, days, strict=True)
    ]


@settings(max_examples=50, deadline=None)
@given(rows=orders(), pick=st.integers(0, 3), delta=st.sampled_from([0.01, 1.0, 10.0, 100.0]))
def test_any_orders_in_any_layout_give_one_verdict(rows: Rows, pick: int, delta: float) -> None:
    target = rows[pick % len(rows)]
    changed_price = round(target["price"] + delta, 2)
    assume(changed_price not in {r["price"] for r in rows})
    honest = " ".join(sentence(r) for r in rows)
    changed = " ".join(sentence(r, price=changed_price if r is target else None) for r in rows)
    reference = LAYOUTS["json-compact"](rows)
    expected = {reply: outcome(reference, reply) for reply in (honest, changed)}
    assert expected[honest][0] == "pass"
    assert expected[changed][0] != "pass"
    for name, render in LAYOUTS.items():
        content = render(rows)
        for reply, want in expected.items():
            assert outcome(content, reply) == want, (name, content, reply)
