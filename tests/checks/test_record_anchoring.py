"""Sentences anchored to the record they are about (checks/anchoring, checks/figures), end to end.

A retail customer-service agent looked up a customer and two orders (one result per
order, or both orders in one result). Each sentence of its reply is about the record
its ids and names point at, else the sentence before, else the latest result; a figure
is backed by that record's field and contradicted by it, and evidence lines name the
receipt and the field path (``c3 items[0].price = 150.25``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, Receipt, ValidationResult, parse_receipts

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()

USER = {
    "user_id": "mia_li_3668",
    "name": {"first_name": "Mia", "last_name": "Li"},
    "email": "mia.li@example.com",
    "orders": ["#W1234567", "#W7654321"],
}
LAMP_ORDER = {
    "order_id": "#W1234567",
    "user_id": "mia_li_3668",
    "status": "pending",
    "items": [{"name": "Desk Lamp", "item_id": "1111111111", "price": 150.25}],
    "payment_history": [
        {"transaction_type": "payment", "amount": 150.25, "payment_method_id": "credit_card_1234"}
    ],
}
BOOTS_ORDER = {
    "order_id": "#W7654321",
    "user_id": "mia_li_3668",
    "status": "delivered",
    "items": [{"name": "Hiking Boots", "item_id": "3333333333", "price": 243.90}],
    "payment_history": [
        {"transaction_type": "payment", "amount": 243.90, "payment_method_id": "credit_card_1234"}
    ],
}


def _call(cid: str, name: str, args: dict[str, Any], output: Any) -> list[dict[str, Any]]:
    call = {
        "id": cid,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }
    content = output if isinstance(output, str) else json.dumps(output)
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": cid, "content": content},
    ]


def _transcript(*orders_calls: list[dict[str, Any]]) -> list[Receipt]:
    messages = [
        {"role": "system", "content": "You are a retail customer-service agent."},
        {"role": "user", "content": "Hi, I'm Mia Li, zip 10001. What did my orders cost?"},
        *_call(
            "c1", "find_user_id_by_name_zip", {"first_name": "Mia", "zip": "10001"}, "mia_li_3668"
        ),
        *_call("c2", "get_user_details", {"user_id": "mia_li_3668"}, USER),
    ]
    for turn in orders_calls:
        messages += turn
    return parse_receipts(json.dumps({"messages": messages}), source_name="retail")


#: One get_order_details call per order: the boots order is the latest result.
TWO_RESULTS = _transcript(
    _call("c3", "get_order_details", {"order_id": "#W1234567"}, LAMP_ORDER),
    _call("c4", "get_order_details", {"order_id": "#W7654321"}, BOOTS_ORDER),
)
#: Both orders in one result.
ONE_RESULT = _transcript(
    _call("c3", "list_orders", {"user_id": "mia_li_3668"}, {"orders": [LAMP_ORDER, BOOTS_ORDER]}),
)
#: (receipts, where the lamp's price is, where the boots' price is)
LAYOUTS = [
    pytest.param(TWO_RESULTS, "c3 items[0].price", "c4 items[0].price", id="two-results"),
    pytest.param(
        ONE_RESULT, "c3 orders[0].items[0].price", "c3 orders[1].items[0].price", id="one-result"
    ),
]


def _check(text: str, receipts: list[Receipt] = TWO_RESULTS) -> ValidationResult:
    return GATE.validate(text, receipts=receipts, now=NOW)


def _lines(result: ValidationResult, index: int, relation: str) -> list[str]:
    return [e.detail for e in result.sentences[index].evidence if e.relation == relation]


# ----------------------------------------------------------------- two orders, two prices


@pytest.mark.parametrize(("receipts", "lamp", "boots"), LAYOUTS)
def test_when_each_order_is_given_its_own_price_then_the_reply_passes_on_that_field(
    receipts: list[Receipt], lamp: str, boots: str
) -> None:
    result = _check(
        "The Desk Lamp in order #W1234567 costs $150.25. "
        "The Hiking Boots in order #W7654321 cost $243.90.",
        receipts,
    )

    assert result.verdict == "pass", result.reason
    assert [s.tag for s in result.sentences] == ["T1", "T1"]
    assert f"{lamp} = 150.25, matches $150.25" in _lines(result, 0, "supports")
    assert f"{boots} = 243.9, matches $243.90" in _lines(result, 1, "supports")


@pytest.mark.parametrize(("receipts", "lamp", "boots"), LAYOUTS)
@pytest.mark.parametrize(
    "text", ["The price of the Desk Lamp is $243.90.", "The Desk Lamp costs $243.90."]
)
def test_when_the_other_orders_price_is_given_to_an_item_then_its_own_field_contradicts_it(
    receipts: list[Receipt], lamp: str, boots: str, text: str
) -> None:
    result = _check(text, receipts)

    assert result.verdict == "block"
    assert result.sentences[0].tag == "T5"
    contradictions = _lines(result, 0, "contradicts")
    assert contradictions == [f"contradicts {lamp} = 150.25, claimed $243.90"]
    assert all(boots not in d for d in _lines(result, 0, "supports"))


_ORDER_B_PRICE_FOR_A = "the $243.90 of order #W7654321 backs a sentence about order #W1234567"


@pytest.mark.parametrize(("receipts", "lamp", "boots"), LAYOUTS)
@pytest.mark.parametrize(
    "text",
    [
        "Order #W1234567 came to $243.90.",
        "The Desk Lamp in order #W1234567 costs $243.90.",
        "The payment for order #W1234567 was $243.90.",
    ],
)
def test_when_an_order_named_by_id_is_given_the_other_orders_price_then_it_is_caught(
    receipts: list[Receipt], lamp: str, boots: str, text: str
) -> None:
    assert _check(text, receipts).verdict != "pass"


# ----------------------------------------------------------------- no id: the sentence before


@pytest.mark.parametrize(
    ("first", "receipt_field", "price"),
    [
        ("Your order #W1234567 is pending.", "c3 items[0].price", "150.25"),
        ("Your order #W7654321 was delivered.", "c4 items[0].price", "243.9"),
    ],
)
def test_when_a_sentence_names_no_record_then_the_sentence_before_decides_what_contradicts_it(
    first: str, receipt_field: str, price: str
) -> None:
    result = _check(f"{first} Its price is $99.99.")

    assert result.sentences[0].action == "pass"
    assert result.sentences[1].action == "block"
    assert _lines(result, 1, "contradicts") == [
        f"contradicts {receipt_field} = {price}, claimed $99.99"
    ]


def test_when_a_sentence_names_no_record_then_its_state_is_the_previous_sentences_record() -> None:
    honest = _check("Order #W1234567 holds the Desk Lamp. It is still pending.")
    wrong = _check("Order #W1234567 holds the Desk Lamp. It was delivered.")

    assert honest.verdict == "pass"
    assert "c3 status = pending" in _lines(honest, 1, "supports")
    assert wrong.sentences[1].action == "block"
    # "delivered" is the boots order's status: another record never backs this one
    assert _lines(wrong, 1, "contradicts") == ["contradicts c3 status = pending, claimed delivered"]


def test_when_a_sentence_restates_the_previous_records_price_then_it_passes() -> None:
    result = _check("Your order #W1234567 is pending. Its price is $150.25.")

    assert result.verdict == "pass"
    assert "c3 items[0].price = 150.25, matches $150.25" in _lines(result, 1, "supports")


@pytest.mark.parametrize(
    "text",
    [
        "Your order #W1234567 is pending. It cost $150.25.",
        "Your order #W7654321 was delivered. It cost $243.90.",
    ],
)
def test_when_it_cost_restates_the_previous_records_price_then_it_passes(text: str) -> None:
    assert _check(text).verdict == "pass"


@pytest.mark.xfail(strict=True, reason=_ORDER_B_PRICE_FOR_A + " (anchored by the sentence before)")
def test_when_the_sentence_after_an_order_gives_the_other_orders_price_then_it_is_caught() -> None:
    result = _check("Your order #W1234567 is pending. Its price is $243.90.")

    assert result.sentences[1].action != "pass"


# ----------------------------------------------------------------- no id at all: the latest result


def test_when_the_reply_names_no_record_then_the_latest_result_decides() -> None:
    assert _check("The order is delivered.").verdict == "pass"
    assert _check("The price is $243.90.").verdict == "pass"

    pending = _check("The order is pending.")  # the lamp order's status, not the latest's
    assert pending.verdict == "block"
    assert _lines(pending, 0, "contradicts") == [
        "contradicts c4 status = delivered, claimed pending"
    ]
    price = _check("The price is $99.99.")
    assert price.verdict == "block"
    assert _lines(price, 0, "contradicts") == [
        "contradicts c4 items[0].price = 243.9, claimed $99.99"
    ]


def test_when_the_reply_restates_the_latest_results_price_as_a_cost_then_it_passes() -> None:
    assert _check("It cost $243.90.").verdict == "pass"


# ----------------------------------------------------------------- ids and names


@pytest.mark.parametrize(
    ("text", "made_up"),
    [
        ("Order #W9999999 is on its way.", "#W9999999"),
        ("Your user id is mia_li_3669.", "mia_li_3669"),
        ("The Desk Lamp (item 1111111119) is in your order.", "1111111119"),
    ],
)
def test_when_a_restated_id_exists_in_no_record_then_the_sentence_is_blocked(
    text: str, made_up: str
) -> None:
    result = _check(text)

    assert result.verdict == "block"
    assert result.sentences[0].tag == "T5"
    assert any(made_up in v.reason for v in result.violations), result.reason


def test_when_restated_ids_exist_then_they_pass_with_the_record_holding_them() -> None:
    result = _check("Your user id is mia_li_3668. The Desk Lamp (item 1111111111) is in the order.")

    assert result.verdict == "pass", result.reason
    assert "c3 items[0].item_id = 1111111111" in _lines(result, 1, "supports")


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, Mia! Order #W1234567 is pending.",
        "Mia Li, your order #W1234567 is pending.",
        "Your order #W7654321 was delivered, Mia.",
    ],
)
def test_when_the_reply_addresses_the_customer_by_name_then_it_passes(text: str) -> None:
    result = _check(text)

    assert result.verdict == "pass", result.reason


def test_when_the_reply_thanks_someone_else_then_the_name_is_blocked() -> None:
    result = _check("Thanks, Dana! Order #W1234567 is pending.")

    assert result.sentences[0].action == "block"
    assert result.sentences[1].action == "pass"
    assert any("no record names Dana" in v.reason for v in result.violations)


def test_when_the_reply_opens_with_someone_elses_name_then_it_is_caught() -> None:
    assert _check("Dana Li, your order #W1234567 is pending.").verdict != "pass"


# ----------------------------------------------------------------- what the result shows


def test_when_a_figure_is_contradicted_then_the_violation_names_the_receipt_and_field() -> None:
    result = _check("The Desk Lamp costs $243.90. Order #W1234567 is pending.")

    (violation,) = result.violations
    assert (violation.sentence_index, violation.receipt_id) == (0, "c3")
    assert "c3 items[0].price = 150.25" in violation.reason
    assert result.suggestions == ["Sentence 1: use the value from receipt c3 or remove the figure."]
    (evidence,) = [
        e for e in result.to_dict()["sentences"][0]["evidence"] if e["relation"] == "contradicts"
    ]
    assert (evidence["kind"], evidence["id"]) == ("tool", "c3")
    assert evidence["detail"] == "contradicts c3 items[0].price = 150.25, claimed $243.90"
    assert result.delivered_text == "Order #W1234567 is pending."


@pytest.mark.parametrize(
    "text",
    ["Mia Li, your order #W1234567 is pending.", "Good Morning, your order #W1234567 is pending."],
)
def test_when_the_reply_opens_with_the_customers_name_or_a_greeting_then_it_passes(
    text: str,
) -> None:
    assert _check(text).verdict == "pass"


# ------------------------------------------------------------ a card's last digits

_PROFILE = {
    "user_id": "mia_li_3668",
    "payment_methods": {
        "credit_card_1234": {"source": "credit_card", "brand": "visa", "last_four": "7285"},
        "gift_card_5678": {"source": "gift_card", "balance": 62.0},
    },
}
_WITH_CARDS = _transcript(_call("c9", "get_user_details", {"user_id": "mia_li_3668"}, _PROFILE))


@pytest.mark.parametrize(
    "text",
    [
        "The refund will go to your Visa card ending in 7285.",
        "Should I charge the Visa ending with 7285?",
        "The last four digits of the card on file are 7285.",
    ],
)
def test_when_a_cards_last_digits_are_the_records_then_the_sentence_passes(text: str) -> None:
    result = _check(text, _WITH_CARDS)
    assert result.verdict == "pass", result.sentences[0].reasons
    assert any("last_four = 7285" in line for line in _lines(result, 0, "supports"))


@pytest.mark.parametrize(
    "text",
    [
        "The refund will go to your Visa card ending in 2840.",
        # a promise excuses a missing timeframe, not a card that is not the customer's
        "Your refund will be sent to the card ending in 0006 within a week.",
        "Should I charge the Visa ending with 4451?",
    ],
)
def test_when_no_card_ends_in_the_claimed_digits_then_the_sentence_is_blocked(text: str) -> None:
    result = _check(text, _WITH_CARDS)
    s = result.sentences[0]
    assert (s.tag, s.action) == ("T5", "block")
    assert any("last digits here: 7285" in r for r in s.reasons)


def test_when_no_receipt_lists_cards_then_claimed_last_digits_are_unsupported() -> None:
    result = _check("The card on file is the Visa ending in 2840.")
    s = result.sentences[0]
    assert s.action == "block"
    assert any("no receipt holds a card or account ending in 2840" in r for r in s.reasons)


@pytest.mark.parametrize("receipts", [TWO_RESULTS, ONE_RESULT], ids=["two-results", "one-result"])
def test_when_a_label_names_a_state_then_it_is_the_state_of_the_records_listed_under_it(
    receipts: list[Receipt],
) -> None:
    honest = _check("Delivered orders:\n\n- Order #W7654321 (Hiking Boots)", receipts)
    assert honest.verdict == "pass", [s.reasons for s in honest.sentences]
    wrong = _check("Pending orders:\n\n- Order #W7654321 (Hiking Boots)", receipts)
    label = wrong.sentences[0]
    assert (label.tag, label.action) == ("T5", "block")
    assert any("claimed Pending" in r for r in label.reasons)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # an attribute of the named record is asserted, even inside an offer
        ("I can cancel your pending order #W1234567.", "pass"),
        ("I can help you return your delivered order #W1234567.", "block"),
        # a state in a condition is no report
        ("Order #W1234567 can only be returned once it is delivered.", "pass"),
        # an indefinite one is any order
        ("I can assist you with returning a delivered order.", "pass"),
        # an event of its past, where the order went, is no state: a delivered order shipped
        ("The order shipped to Denver is #W7654321.", "pass"),
        ("Order #W1234567 is shipped to Denver.", "block"),
        ("Order #W1234567 has already been delivered to Denver.", "block"),
    ],
)
def test_when_a_state_qualifies_the_record_it_names_then_it_is_checked(
    text: str, verdict: str
) -> None:
    result = _check(text)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]


#: The lamp order looked up while pending, then cancelled.
CANCELLED_LATER = _transcript(
    _call("c3", "get_order_details", {"order_id": "#W1234567"}, LAMP_ORDER),
    _call(
        "c4",
        "cancel_pending_order",
        {"order_id": "#W1234567", "reason": "no longer needed"},
        {**LAMP_ORDER, "status": "cancelled"},
    ),
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # what the order was before the change the sentence reports
        ("Your pending order #W1234567 has been cancelled.", "pass"),
        # a state it never had is still no description of it
        ("Your delivered order #W1234567 has been cancelled.", "block"),
        # an event of its past, under a label: where it was shipped
        ("Your order #W1234567 was shipped to: the address on your profile.", "pass"),
        # a state it may reach, not one it is in
        ("Ping me as soon as #W1234567 flips to delivered and I'll start the return.", "pass"),
        # the state of what a label names, not the order's ...
        ("Order #W1234567 updated.\nShipping address: 10 Main Street — confirmed.", "flag"),
        # ... unless the label names the state or the record
        ("Order #W1234567 updated.\nStatus: confirmed.", "block"),
        ("Order #W1234567: confirmed.", "block"),
    ],
)
def test_a_state_said_of_a_record_in_its_past_or_future_is_no_rival_of_its_state_now(
    text: str, verdict: str
) -> None:
    result = _check(text, CANCELLED_LATER)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]


def test_when_a_plural_state_heads_a_list_then_every_record_under_it_must_hold_it() -> None:
    both = "You have two orders:\n\n- Order #W1234567\n- Order #W7654321"
    assert _check(both).verdict == "pass"
    wrong = _check("You have two pending orders:\n\n- Order #W1234567\n- Order #W7654321")
    assert (wrong.sentences[0].tag, wrong.sentences[0].action) == ("T5", "block")
    assert any("claimed pending" in r for r in wrong.sentences[0].reasons)


def test_when_a_sentence_names_no_record_then_another_records_state_is_no_contradiction() -> None:
    # the reply names no order; one of the customer's orders is delivered, the latest
    # result is the pending one
    result = _check("You can change the payment method for your delivered order.")
    assert result.verdict == "pass", [s.reasons for s in result.sentences]


@pytest.mark.parametrize("receipts", [TWO_RESULTS, ONE_RESULT], ids=["two-results", "one-result"])
def test_when_a_line_sits_under_a_list_item_then_it_is_about_that_items_record(
    receipts: list[Receipt],
) -> None:
    reply = "Your orders:\n\n1. **Desk Lamp**\n   - Color: black\n   - Price: {price}\n"
    assert _check(reply.format(price="$150.25"), receipts).verdict == "pass"
    wrong = _check(reply.format(price="$243.90"), receipts)  # the boots' price
    price = wrong.sentences[-1]
    assert (price.tag, price.action) == ("T5", "block"), price.reasons


@pytest.mark.parametrize("receipts", [TWO_RESULTS, ONE_RESULT], ids=["two-results", "one-result"])
def test_when_a_sibling_line_names_the_record_then_the_other_lines_are_about_it(
    receipts: list[Receipt],
) -> None:
    reply = "Options:\n\n1. **Black, LED**\n   - Price: {price}\n   - Item ID: 1111111111\n"
    assert _check(reply.format(price="$150.25"), receipts).verdict == "pass"
    wrong = _check(reply.format(price="$243.90"), receipts)
    assert [s.action for s in wrong.sentences if "Price" in s.text] == ["block"]


def test_when_the_sentence_before_names_the_record_then_its_amount_backs_a_refund() -> None:
    reply = "The return of the Desk Lamp from order #W1234567 is requested. {} will be refunded."
    assert _check(reply.format("The $150.25")).verdict == "pass"
    # the other order's amount is no refund of this one
    assert _check(reply.format("The $243.90")).verdict != "pass"


PORTS = Receipt(
    id="dk",
    kind="tool",
    tool="exec",
    args={"cmd": "docker ps --format '{{.Names}}\\t{{.Ports}}'"},
    content="api\t0.0.0.0:8080->8080/tcp\npostgres\t0.0.0.0:5432->5432/tcp\nredis\t6379/tcp",
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Port 8080 is published by the api container.", "pass"),
        # 5432 is the postgres row's: no support for a sentence about the api row
        ("The api container listens on port 5432.", "block"),
    ],
)
def test_a_short_name_anchors_its_row(text: str, verdict: str) -> None:
    assert GATE.validate(text, receipts=[PORTS], now=NOW).verdict == verdict


def test_a_restated_name_ties_a_figure_to_its_row() -> None:
    # "web" is a value of the row, not a figure: it tells the row the figure is about.
    slo = Receipt(
        id="slo",
        kind="db",
        source="sre.monthly_slo",
        content="service=web month=2026-02 uptime_pct=99.950 downtime_minutes=20",
    )
    result = GATE.validate("Uptime for the web app was 99.95 percent.", receipts=[slo], now=NOW)

    assert result.verdict == "pass", result.reason
    assert any("uptime_pct = 99.95" in e.detail for e in result.sentences[0].evidence)


def test_a_state_word_is_about_the_order_the_sentence_names_not_an_items_other_order() -> None:
    watch = {"name": "Smart Watch", "item_id": "2554056026", "price": 367.38}
    delivered = {"order_id": "#W9389413", "status": "delivered", "items": [watch]}
    pending = {"order_id": "#W8665881", "status": "pending", "items": [watch]}
    receipts = [
        Receipt(id="c1", kind="tool", tool="get_order_details", content=json.dumps(pending)),
        Receipt(id="c2", kind="tool", tool="get_order_details", content=json.dumps(delivered)),
    ]
    text = "Order #W9389413 is your only pending order, so I will return the Smart Watch from it."
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.verdict == "block", result.reason
    assert "status = delivered" in result.reason


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Order #W1111111 is delivered.", "pass"),
        # each of the orders the sentence lists must hold the state
        ("Both orders #W1111111 and #W2222222 are delivered.", "block"),
        ("Orders #W1111111 and #W2222222 are both delivered.", "block"),
    ],
)
def test_a_quantified_state_must_hold_for_every_record_named(text: str, verdict: str) -> None:
    orders = [
        {"order_id": "#W1111111", "status": "delivered"},
        {"order_id": "#W2222222", "status": "pending"},
    ]
    receipts = [
        Receipt(id=f"c{i}", kind="tool", tool="get_order_details", content=json.dumps(o))
        for i, o in enumerate(orders, 1)
    ]
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.verdict == verdict, result.reason
    if verdict == "block":
        assert "Contradicted status: contradicts c2 status = pending" in result.reason


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Search p99 latency over the last 24 hours was 620 ms.", "pass"),
        # 1,460 ms is the checkout panel's; the sentence names the search panel
        ("Search p99 latency over the last 24 hours was 1,460 ms.", "block"),
    ],
)
def test_a_row_named_by_its_words_in_order_is_the_one_a_figure_is_about(
    text: str, verdict: str
) -> None:
    panels = Receipt(
        id="gr-7",
        kind="db",
        source="grafana.panel_export",
        content="panel='Checkout latency' window=24h p50_ms=210 p95_ms=810 p99_ms=1460\n"
        "panel='Search latency' window=24h p50_ms=95 p95_ms=410 p99_ms=620",
    )
    assert GATE.validate(text, receipts=[panels], now=NOW).verdict == verdict


@pytest.mark.parametrize(("status", "verdict"), [("delivered", "pass"), ("pending", "block")])
def test_a_state_given_as_a_reason_is_the_records_state(status: str, verdict: str) -> None:
    # "exchange" before "since" is what the items are eligible for, not whose status it is
    order = {"order_id": "#W6390527", "status": "delivered", "items": [{"name": "Desk Lamp"}]}
    receipts = [Receipt(id="c9", kind="tool", tool="get_order_details", content=json.dumps(order))]
    text = (
        f"I found your order #W6390527. The items are eligible for exchange since the order "
        f'status is "{status}."'
    )
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == verdict


VACUUM_ORDER = {
    "order_id": "#W9502127",
    "status": "delivered",
    "items": [
        {"name": "Vacuum Cleaner", "product_id": "1762337868", "item_id": "6259501109",
         "price": 622.12},
        {"name": "Air Purifier", "product_id": "3821016478", "item_id": "9534205511",
         "price": 473.43},
    ],
}  # fmt: skip
VACUUM_VARIANTS = {
    "name": "Vacuum Cleaner",
    "product_id": "1762337868",
    "variants": {
        "7958300294": {"item_id": "7958300294", "options": {"type": "canister"}, "price": 642.72}
    },
}
SHOP_CALLS = [
    Receipt(id="c1", kind="tool", tool="get_order_details", content=json.dumps(VACUUM_ORDER)),
    Receipt(id="c2", kind="tool", tool="get_product_details", content=json.dumps(VACUUM_VARIANTS)),
]


@pytest.mark.parametrize(
    ("price", "verdict"),
    [
        ("642.72", "pass"),
        # the price of the vacuum in the order, another item of the same product
        ("622.12", "block"),
    ],
)
def test_a_list_under_a_line_is_about_the_variant_one_of_its_lines_names(
    price: str, verdict: str
) -> None:
    text = (
        "Here are the details:\n\n- **Canister Vacuum Cleaner**\n  - Item ID: 7958300294\n"
        f"  - Price: ${price}\n"
    )
    assert GATE.validate(text, receipts=SHOP_CALLS, now=NOW).verdict == verdict


@pytest.mark.parametrize(("price", "verdict"), [("473.43", "pass"), ("622.12", "block")])
def test_a_list_naming_an_order_and_its_item_is_about_the_item(price: str, verdict: str) -> None:
    text = (
        "Here are the details:\n\n- **Order ID:** #W9502127\n- **Item:** Air Purifier\n"
        f"- **Price:** ${price}\n- **Status:** Delivered\n"
    )
    assert GATE.validate(text, receipts=SHOP_CALLS, now=NOW).verdict == verdict


def test_the_newest_result_for_an_order_decides_its_state_even_with_more_ids() -> None:
    before = {"order_id": "#W9502127", "user_id": "daiki_johnson_9523", "status": "delivered"}
    after = {**before, "status": "return requested", "return_payment_method_id": "paypal_2433177"}
    receipts = [
        Receipt(id="c13", kind="tool", tool="get_order_details", content=json.dumps(before)),
        Receipt(
            id="c17", kind="tool", tool="return_delivered_order_items", content=json.dumps(after)
        ),
    ]
    text = "Order #W9502127 is eligible for return since the order status is delivered."
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.verdict == "block", result.reason
    assert "c17 status = return requested" in result.reason


def test_a_state_the_user_used_is_still_checked_when_the_sentence_names_the_record_by_id() -> None:
    user = Receipt(id="u1", kind="user", content="Can you check my pending orders for a hose?")
    order = {"order_id": "#W5565470", "status": "delivered", "items": [{"name": "Lamp"}]}
    receipts = [
        user,
        Receipt(id="c25", kind="tool", tool="get_order_details", content=json.dumps(order)),
    ]
    named = GATE.validate("The pending order #W5565470 has no hose.", receipts=receipts, now=NOW)
    assert named.verdict == "block", named.reason
    assert "c25 status = delivered" in named.reason


EXCHANGED = {
    "order_id": "#W9502127",
    "status": "exchange requested",
    "items": [{"name": "Vacuum Cleaner", "item_id": "6259501109", "price": 652.61}],
    "payment_history": [
        {"transaction_type": "payment", "amount": 2623.69, "payment_method_id": "paypal_2433177"}
    ],
    "exchange_payment_method_id": "paypal_2433177",
    "exchange_price_difference": -9.89,
}


@pytest.mark.parametrize(("method", "verdict"), [("PayPal", "pass"), ("gift card", "block")])
def test_the_method_an_action_recorded_decides_the_method_a_sentence_names(
    method: str, verdict: str
) -> None:
    call = Receipt(
        id="c19", kind="tool", tool="exchange_delivered_order_items", content=json.dumps(EXCHANGED)
    )
    text = f"The vacuum cleaner will be exchanged, and your $9.89 refund goes to your {method}."
    result = GATE.validate(text, receipts=[call], now=NOW)
    assert result.verdict == verdict, result.reason
    if verdict == "block":
        assert "Contradicted payment method" in result.reason


def test_an_offer_before_any_action_may_name_any_method() -> None:
    order = {k: v for k, v in EXCHANGED.items() if not k.startswith("exchange")}
    call = Receipt(id="c11", kind="tool", tool="get_order_details", content=json.dumps(order))
    text = "I can exchange the vacuum cleaner and send the refund to your gift card."
    assert GATE.validate(text, receipts=[call], now=NOW).verdict == "pass"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a figure in brackets after a name is that name's, however near the next name is
        ("The Desk Lamp (black, $150.25) and the Hiking Boots ($243.90) are eligible.", "pass"),
        ("The Desk Lamp (black, $243.90) and the Hiking Boots ($150.25) are eligible.", "block"),
        # the next clause's name does not own a figure of this one
        ("The Desk Lamp came to $150.25, then the Hiking Boots to $243.90.", "pass"),
        ("The Desk Lamp came to $243.90, then the Hiking Boots to $150.25.", "block"),
    ],
)
def test_a_figure_belongs_to_the_name_before_it_in_its_clause(text: str, verdict: str) -> None:
    assert _check(text).verdict == verdict, [s.reasons for s in _check(text).sentences]


@pytest.mark.parametrize(
    ("address", "verdict"), [("mia.li@example.com", "pass"), ("mia.lee@example.com", "block")]
)
def test_an_email_address_is_held_word_for_word_or_contradicted(address: str, verdict: str) -> None:
    assert _check(f"I found your account under {address}.").verdict == verdict


@pytest.mark.parametrize(("count", "verdict"), [("2 orders", "pass"), ("3 orders", "block")])
def test_a_count_of_what_a_list_field_holds_is_its_length(count: str, verdict: str) -> None:
    assert _check(f"I found {count} on your account.").verdict == verdict


def test_when_a_count_of_items_is_claimed_then_the_orders_list_of_items_decides_it() -> None:
    # a three-item order, one item of which is a 6 ft hose: "6 items" is no size
    order = {
        "order_id": "#W5550001",
        "user_id": "mia_li_3668",
        "status": "cancelled",
        "items": [
            {"name": "Garden Hose", "item_id": "5555500001", "options": {"length": "6 ft"}},
            {"name": "Watering Can", "item_id": "5555500002", "price": 21.5},
            {"name": "Gloves", "item_id": "5555500003", "price": 9.99},
        ],
    }
    cancel = {"order_id": "#W5550001", "reason": "no longer needed"}
    receipts = _transcript(_call("c3", "cancel_pending_order", cancel, order))
    ok = _check("All 3 items in the order have been cancelled.", receipts)
    assert ok.verdict == "pass", ok.reason
    assert "c3 items lists 3" in _lines(ok, 0, "supports")
    wrong = _check("All 6 items in the order have been cancelled.", receipts)
    assert wrong.verdict != "pass"
    assert not any("6 ft" in line for line in _lines(wrong, 0, "supports"))


def test_when_a_spelled_count_matches_the_list_then_it_is_backed_and_otherwise_stays() -> None:
    # the user's details list two orders; a spelled number is no figure of its own
    result = _check("You have two orders on your account.")
    (s,) = result.sentences
    assert (s.tag, s.action) == ("T1", "pass")
    # what the customer has is counted: another length contradicts it
    three = _check("You have three orders on your account.")
    assert [(x.tag, x.action) for x in three.sentences] == [("T5", "block")]
    # elsewhere a spelled number may be a manner of speech: it stays unchecked
    loose = _check("Three orders came up in the search.")
    assert [x.tag for x in loose.sentences] == ["T3"]


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        # the order is named in the clause before: the amount is not said to be its price
        ("Shall I go ahead with order #W1234567, and where should the $12.40 go?", None),
        # the same clause names the order: its price is the field the amount is about
        ("Order #W1234567 comes to $12.40.", "contradicts"),
    ],
)
def test_when_a_figure_stands_in_another_clause_than_the_record_then_its_field_is_no_rival(
    text: str, relation: str | None
) -> None:
    result = _check(text)
    relations = {e.relation for s in result.sentences for e in s.evidence}
    assert ("contradicts" in relations) == (relation == "contradicts"), result.reason
    assert result.verdict == "block"  # no receipt holds $12.40 either way


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Order #W1234567 has no hiking boots.", "T1"),  # the boots are in #W7654321
        ("Order #W1234567 does not contain hiking boots.", "T1"),
        ("Order #W1234567 does not contain a desk lamp.", "T5"),  # it does
        ("Order #W7654321 has no desk lamp in it.", "T1"),
    ],
)
def test_a_thing_said_not_to_be_in_an_order_is_checked_against_its_items(
    text: str, tag: str
) -> None:
    result = _check(text)
    assert result.sentences[0].tag == tag, result.reason


def test_a_state_word_after_the_agents_own_act_is_the_act_not_the_records_state() -> None:
    # "#W7654321 is delivered"; "the order we just cancelled" reports an act of this
    # conversation's, which the ledger checks, not a cancelled status of #W7654321
    text = "Order #W7654321 is delivered. The other boots were in the two orders we just cancelled."
    result = _check(text)
    assert not any("claimed cancelled" in r for s in result.sentences for r in s.reasons)
    assert _check("Order #W7654321 is cancelled.").verdict == "block"  # a state: delivered


def test_a_method_the_sentence_sets_aside_is_not_the_one_it_names() -> None:
    call = Receipt(
        id="c19", kind="tool", tool="exchange_delivered_order_items", content=json.dumps(EXCHANGED)
    )
    text = (
        "The vacuum cleaner will be exchanged; the $9.89 went to your PayPal account "
        "rather than a gift card."
    )
    assert GATE.validate(text, receipts=[call], now=NOW).verdict == "pass"


def test_one_of_two_orders_is_pending_says_nothing_of_the_other() -> None:
    result = _check("One of your two orders is pending; #W7654321 is delivered.")
    assert result.verdict == "pass", result.reason
    assert _check("Both of your orders are pending.").verdict != "pass"


@pytest.mark.parametrize(("card", "action"), [("paypal_9", "pass"), ("credit_card_1234", "block")])
def test_a_line_naming_only_a_method_is_about_the_order_of_the_item_it_sits_under(
    card: str, action: str
) -> None:
    # the lamp order was paid with PayPal; the boots order, the newest result, by card
    lamp = {**LAMP_ORDER, "payment_history": [{**LAMP_ORDER["payment_history"][0]}]}
    lamp["payment_history"][0]["payment_method_id"] = "paypal_9"
    receipts = _transcript(
        _call("c3", "get_order_details", {"order_id": "#W1234567"}, lamp),
        _call("c4", "get_order_details", {"order_id": "#W7654321"}, BOOTS_ORDER),
    )
    text = f"- Order #W1234567:\n  - Refund to the original payment method {card}."
    line = _check(text, receipts).sentences[-1]
    assert line.action == action, line.reasons


@pytest.mark.parametrize(("limit", "action"), [("$86.00", "pass"), ("$87.00", "block")])
def test_a_limit_the_sentence_compares_with_is_a_value_any_record_holds(
    limit: str, action: str
) -> None:
    # the sentence names the PayPal account; the $86 it compares with is the gift card's
    user = {
        "user_id": "ethan_garcia_1261",
        "payment_methods": {
            "paypal_3798357": {"source": "paypal", "id": "paypal_3798357"},
            "gift_card_4332117": {"source": "gift_card", "id": "gift_card_4332117", "balance": 86},
        },
    }
    receipts = parse_receipts(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": "Can I change the shoes?"},
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "c1",
                                "type": "function",
                                "function": {"name": "get_user_details", "arguments": "{}"},
                            }
                        ],
                    },
                    {"role": "tool", "tool_call_id": "c1", "content": json.dumps(user)},
                ]
            }
        ),
        source_name="t.json",
    )
    text = f"If the difference exceeds {limit}, may I use paypal_3798357 as fallback?"
    (s,) = GATE.validate(text, receipts=receipts, now=NOW).sentences
    assert s.action == action, s.reasons


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Support closed 19 tickets yesterday.", "pass"),
        ("Support opened 23 tickets yesterday.", "pass"),
        # 23 is yesterday's opened count: the sentence's "closed" names the other field
        ("Support closed 23 tickets yesterday.", "block"),
    ],
)
def test_the_words_of_the_sentence_pick_the_field_of_the_row(text: str, verdict: str) -> None:
    stats = Receipt(
        id="hd-1",
        kind="db",
        source="helpdesk.daily_stats",
        content=(
            "date=2026-03-10 tickets_opened=23 tickets_closed=19 backlog=141\n"
            "date=2026-03-09 tickets_opened=31 tickets_closed=23 backlog=137"
        ),
        created_at=datetime(2026, 3, 11, 6, tzinfo=UTC),
    )
    result = GATE.validate(text, receipts=[stats], now=NOW)
    assert result.verdict == verdict, result.sentences[0].reasons
