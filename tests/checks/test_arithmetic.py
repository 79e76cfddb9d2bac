"""Derived figures (checks/arithmetic), end to end: totals, refunds, differences, shares.

A retail agent looked up an order, a product's variants and a promotion, then wrote
figures that no field holds but that follow from fields that do: the refund for two
items, two units at a unit price, a price difference, a discount. Honest figures pass
with their formula as evidence; wrong ones are blocked, and written-out arithmetic
("2 × $20.10 = $40.20") is checked as written.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, Receipt, ValidationResult, parse_receipts
from tool_transcripts import tool_transcript

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()


def _item(name: str, price: float, ids: tuple[str, str] | None, **options: str) -> dict[str, Any]:
    item: dict[str, Any] = {"name": name, "price": price, "options": options}
    if ids is not None:  # tau-bench's shape: numeric product and item ids
        item |= {"product_id": ids[0], "item_id": ids[1]}
    return item


def _order(*items: dict[str, Any], payments: tuple[float, ...]) -> dict[str, Any]:
    return {
        "order_id": "#W2611340",
        "user_id": "noah_brown_6181",
        "status": "delivered",
        "items": list(items),
        "payment_history": [
            {"transaction_type": "payment", "amount": a, "payment_method_id": f"paypal_{i}"}
            for i, a in enumerate(payments)
        ],
    }


LAMP = _item("Desk Lamp", 150.25, ("6817146515", "8384507844"), color="black")
BOTTLE = _item("Water Bottle", 20.10, ("8310926033", "4579334072"), capacity="750ml")
BOOTS = _item("Hiking Boots", 243.90, ("7363354090", "1615379700"), size="9")
VARIANTS = {
    "name": "Desk Lamp",
    "product_id": LAMP["product_id"],
    "variants": {
        "9083642334": {"item_id": "9083642334", "options": {"color": "white"}, "price": 163.10},
        LAMP["item_id"]: {
            "item_id": LAMP["item_id"],
            "options": {"color": "black"},
            "price": 150.25,
        },
    },
}


def _transcript(*calls: tuple[str, dict[str, Any], Any]) -> list[Receipt]:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "I'm Noah Brown. I'd like to return some items from my order."}
    ]
    for n, (name, args, output) in enumerate(calls, 1):
        fn = {"name": name, "arguments": json.dumps(args)}
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [{"id": f"c{n}", "function": fn}]},
            {"role": "tool", "tool_call_id": f"c{n}", "content": json.dumps(output)},
        ]
    return parse_receipts(json.dumps({"messages": messages}), source_name="retail")


#: Three items paid at once; the lamp's variants; a 20% promotion.
SHOP = _transcript(
    (
        "get_order_details",
        {"order_id": "#W2611340"},
        _order(LAMP, BOTTLE, BOOTS, payments=(414.25,)),
    ),
    ("get_product_details", {"product_id": LAMP["product_id"]}, VARIANTS),
    ("get_promotion", {"code": "SPRING20"}, {"code": "SPRING20", "discount": 20}),
)
#: Two items paid with a gift card and PayPal: the order's total is held by no field.
SPLIT = _transcript(
    ("get_order_details", {"order_id": "#W2611340"}, _order(LAMP, BOTTLE, payments=(100.0, 70.35)))
)


def _check(text: str, receipts: list[Receipt] = SHOP) -> ValidationResult:
    return GATE.validate(text, receipts=receipts, now=NOW)


def _derived(result: ValidationResult) -> list[str]:
    return [e.detail for s in result.sentences for e in s.evidence if "derived" in e.detail]


# (honest sentence, its formula as evidence, the same sentence with a wrong figure)
HONEST = [
    pytest.param(
        "Returning the Desk Lamp and the Water Bottle gets you a refund of $170.35.",
        "derived: 170.35 = 150.25 + 20.1 (items[0].price, items[1].price)",
        "Returning the Desk Lamp and the Water Bottle gets you a refund of $172.35.",
        id="sum-of-two-item-prices",
    ),
    pytest.param(
        "Two Water Bottles come to $40.20.",
        "derived: 40.2 = 2 × 20.1 (items[1].price)",
        "Two Water Bottles come to $42.20.",
        id="count-times-unit-price",
    ),
    pytest.param(
        "The white Desk Lamp is $12.85 more than your black one.",
        'derived: 12.85 = 163.1 − 150.25 (variants["9083642334"].price, items[0].price)',
        "The white Desk Lamp is $14.85 more than your black one.",
        id="price-difference",
    ),
    pytest.param(
        "With the 20% discount you save $30.05 on the Desk Lamp.",
        "derived: 30.05 = 20% of 150.25 (discount, items[0].price)",
        "With the 20% discount you save $32.05 on the Desk Lamp.",
        id="percentage-of-a-price",
    ),
]


@pytest.mark.parametrize(("honest", "formula", "wrong"), HONEST)
def test_when_a_figure_follows_from_the_records_then_it_passes_with_its_formula(
    honest: str, formula: str, wrong: str
) -> None:
    result = _check(honest)

    assert result.verdict == "pass", result.reason
    assert result.sentences[0].tag == "T1"
    assert formula in _derived(result)


@pytest.mark.parametrize(("honest", "formula", "wrong"), HONEST)
def test_when_the_derived_figure_is_wrong_then_the_sentence_is_blocked(
    honest: str, formula: str, wrong: str
) -> None:
    result = _check(wrong)

    assert result.verdict == "block"
    assert result.sentences[0].tag == "T5"
    assert not _derived(result)


# ----------------------------------------------------------------- totals over a list


def test_when_the_refund_total_is_the_sum_of_the_orders_items_then_it_passes() -> None:
    result = _check("Your total refund for both items is $170.35.", SPLIT)

    assert result.verdict == "pass", result.reason
    assert _derived(result) == ["derived: 170.35 = 150.25 + 20.1"]


@pytest.mark.parametrize(
    "total",
    [
        "$175.35",
        "$165.35",
        # a $100.00 payment is an amount, never "100%" of the lamp's price
        pytest.param("$150.25", id="one-items-price"),
        pytest.param("$20.10", id="other-items-price"),
    ],
)
def test_when_the_refund_total_is_wrong_then_it_is_blocked(total: str) -> None:
    result = _check(f"Your total refund for both items is {total}.", SPLIT)

    assert result.verdict == "block"
    assert result.sentences[0].tag == "T5"


def _wrong_total_detail(items: list[dict[str, Any]]) -> list[str]:
    receipts = _transcript(
        ("get_order_details", {"order_id": "#W2611340"}, _order(*items, payments=(170.35,)))
    )
    result = _check("The total refund will be $175.35.", receipts)
    assert result.verdict == "block"
    return [e.detail for e in result.sentences[0].evidence if e.relation == "contradicts"]


def test_when_a_total_is_miscalculated_then_the_evidence_gives_the_right_total() -> None:
    items = [_item("Desk Lamp", 150.25, None), _item("Water Bottle", 20.10, None)]

    assert _wrong_total_detail(items) == ["miscalculated: 150.25 + 20.1 = 170.35, not 175.35"]


def test_when_a_total_is_of_something_else_then_the_items_sum_does_not_contradict_it() -> None:
    items = [_item("Desk Lamp", 150.25, None), _item("Water Bottle", 20.10, None)]
    receipts = _transcript(
        ("get_order_details", {"order_id": "#W2611340"}, _order(*items, payments=(170.35,)))
    )
    # "total compensation" is no sum of the items' prices: unsupported, not miscalculated
    result = _check("The total compensation will be $175.35.", receipts)
    assert "miscalculated" not in " ".join(r for s in result.sentences for r in s.reasons)


@pytest.mark.parametrize(
    "text",
    [
        "Payment: certificate_7504069 and certificate_4856383.\n\n"
        "**Total amount to be paid:** $0 (fully covered by the two certificates)",
        "**Total amount to be paid:** $10 (the two certificates cover the rest)",
    ],
)
def test_when_a_total_is_what_remains_to_pay_then_the_methods_sum_does_not_contradict_it(
    text: str,
) -> None:
    user = {
        "user_id": "mia_li_3975",
        "payment_methods": {
            "certificate_7504069": {
                "source": "certificate",
                "id": "certificate_7504069",
                "amount": 250,
            },
            "certificate_4856383": {
                "source": "certificate",
                "id": "certificate_4856383",
                "amount": 100,
            },
        },
    }
    receipts = _transcript(("get_user_details", {"user_id": "mia_li_3975"}, user))
    result = _check(text, receipts)
    # what is left to pay is no sum of the certificates (350): unsupported, not miscalculated
    assert "miscalculated" not in " ".join(r for s in result.sentences for r in s.reasons)


def test_when_items_have_numeric_ids_then_a_miscalculated_total_still_gives_the_right_one() -> None:
    assert _wrong_total_detail([LAMP, BOTTLE]) == [
        "miscalculated: 150.25 + 20.1 = 170.35, not 175.35"
    ]


# ----------------------------------------------------------------- written-out arithmetic


@pytest.mark.parametrize(
    ("text", "formula"),
    [
        ("$163.10 - $150.25 = $12.85.", "derived: 163.1 - 150.25 = 12.85"),
        ("2 × $20.10 = $40.20.", "derived: 2 × 20.1 = 40.2"),
        ("$20.10 x 2 = $40.20.", "derived: 20.1 x 2 = 40.2"),
        # three terms, labels after them, brackets and division: written as models do
        ("$150.25 + $20.10 + $163.10 = $333.45.", "derived: 150.25 + 20.1 + 163.1 = 333.45"),
        (
            "$163.10 (white) + $20.10 (bottle) - $150.25 (black) = $32.95.",
            "derived: 163.1 + 20.1 - 150.25 = 32.95",
        ),
        ("($163.10 – $150.25) × 2 = **$25.70**.", "derived: (163.1 – 150.25) × 2 = 25.7"),
        ("Half of it: $150.25 ÷ 2 = $75.13 each.", "derived: 150.25 ÷ 2 = 75.12"),
    ],
)
def test_when_written_arithmetic_is_right_then_it_passes(text: str, formula: str) -> None:
    result = _check(text)

    assert result.verdict == "pass", result.reason
    assert formula in _derived(result)


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("$163.10 - $150.25 = $13.85.", "miscalculated: 163.1 - 150.25 = 12.85, not 13.85"),
        ("2 × $20.10 = $42.20.", "miscalculated: 2 × 20.1 = 40.2, not 42.2"),
        ("$150.25 + $20.10 = $171.35.", "miscalculated: 150.25 + 20.1 = 170.35, not 171.35"),
        (
            "$150.25 + $20.10 + $163.10 = $343.45.",
            "miscalculated: 150.25 + 20.1 + 163.1 = 333.45, not 343.45",
        ),
    ],
)
def test_when_written_arithmetic_is_wrong_then_it_is_blocked_with_the_right_result(
    text: str, detail: str
) -> None:
    result = _check(text)

    assert result.verdict == "block"
    assert result.sentences[0].tag == "T5"
    contradictions = [e.detail for e in result.sentences[0].evidence if e.relation == "contradicts"]
    assert contradictions == [detail]


@pytest.mark.xfail(strict=True, reason="'2 x' is read as a figure no receipt holds; '2 ×' is not")
def test_when_written_arithmetic_uses_an_ascii_x_after_the_count_then_it_passes() -> None:
    assert _check("2 x $20.10 = $40.20.").verdict == "pass"


# ----------------------------------------------------------------- percentages from other fields


def test_when_a_discount_is_derived_then_the_formula_names_the_percentage_first() -> None:
    result = _check("With the 20% discount, you save $30.05.")

    assert result.verdict == "pass"
    assert any("= 20% of 150.25" in d for d in _derived(result)), _derived(result)


def _one_lamp_and(field: str) -> list[Receipt]:
    """An order of one Desk Lamp ($150.25) and a promotion whose one field holds 20."""
    return _transcript(
        ("get_order_details", {"order_id": "#W2611340"}, _order(LAMP, payments=(150.25,))),
        ("get_promotion", {"code": "SPRING20"}, {"code": "SPRING20", field: 20}),
    )


def test_when_the_named_item_has_one_price_then_a_discount_on_it_still_passes() -> None:
    result = _check("The 20% discount on the Desk Lamp is $30.05.", _one_lamp_and("discount"))

    assert result.verdict == "pass", result.reason


@pytest.mark.parametrize(
    ("text", "field"),
    [("With the 20% discount, you save $30.05.", "discount"), ("It is 20%.", "discount_percent")],
)
def test_when_a_promotion_holds_the_rate_then_the_rate_and_the_amount_pass(
    text: str, field: str
) -> None:
    assert _check(text, _one_lamp_and(field)).verdict == "pass"


def test_when_the_rate_field_is_named_discount_percent_then_the_derived_amount_passes() -> None:
    result = _check("With the 20% discount, you save $30.05.", _one_lamp_and("discount_percent"))

    assert result.verdict == "pass"


def test_when_a_fee_is_given_in_a_percent_field_then_the_percentage_passes() -> None:
    result = _check("The restocking fee is 20%.", _one_lamp_and("restocking_fee_percent"))

    assert result.verdict == "pass"


def test_when_no_count_is_stated_then_a_multiple_of_a_value_is_no_derivation() -> None:
    # "net 60" is twice the contract's 30 days, but nothing says to double it.
    contract = Receipt(
        id="msa",
        kind="rag",
        source="contracts/msa.pdf",
        content="6.1 Payment. Invoices are payable within thirty (30) days of receipt (net 30).",
    )
    result = GATE.validate(
        "Payment terms are net 60 under the agreement.", receipts=[contract], now=NOW
    )

    assert result.verdict == "block", result.reason
    assert not _derived(result)


def test_when_the_records_hold_the_count_then_a_count_times_a_price_is_derived() -> None:
    order = {"order_id": "#W1", "items": [{"name": "Water Bottle", "price": 20.10, "quantity": 2}]}
    receipts = _transcript(("get_order_details", {"order_id": "#W1"}, order))

    result = _check("The Water Bottles in order #W1 come to $40.20.", receipts)

    assert result.verdict == "pass", result.reason
    assert "derived: 40.2 = 2 × 20.1 (items[0].price)" in _derived(result)


KUBECTL = Receipt(
    id="k3",
    kind="tool",
    tool="exec",
    args={"cmd": "kubectl get deploy -n prod"},
    content="NAME       READY   UP-TO-DATE   AVAILABLE   AGE\n"
    "checkout   6/6     6            6           41d\n"
    "search     12/12   12           12          41d\n"
    "worker     3/3     3            3           41d",
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # 12 is search's; no sum of checkout's columns (6 available + 6 up to date) backs it
        ("The checkout deployment in prod is running 12 replicas.", "block"),
        # one field over two rows: a total
        ("Checkout and worker together run 9 available replicas.", "pass"),
        # but one row's count less another's is no difference anyone asked for: 3 = 6 - 3
        ("The worker deployment has 3 replicas left.", "pass"),
        ("The checkout deployment has 3 replicas left.", "block"),
    ],
)
def test_counts_are_summed_within_one_field_only(text: str, verdict: str) -> None:
    assert GATE.validate(text, receipts=[KUBECTL], now=NOW).verdict == verdict


def test_a_total_over_a_list_counts_back_past_results_that_hold_no_list() -> None:
    # the order, then a run of calculator answers: the order is still one of the newest
    # results that hold a list its total can add up
    calls = [("calculate", {"expression": f"{n} + 1"}, float(n + 1)) for n in range(7)]
    receipts = _transcript(
        ("get_order_details", {"order_id": "#W2611340"}, _order(LAMP, BOTTLE, payments=(90.0,))),
        *calls,
    )

    result = _check("**Total Price**: $170.35", receipts)

    assert result.verdict == "pass", [s.reasons for s in result.sentences]
    assert _derived(result) == ["derived: 170.35 = 150.25 + 20.1"]


#: A reservation and the fares of its flights, then answers that hold no list: the lines
#: of an upgrade's cost restate fares no operand search reaches any more.
UPGRADE = _transcript(
    (
        "get_reservation_details",
        {"reservation_id": "JG7FMM"},
        {
            "reservation_id": "JG7FMM",
            "flights": [
                {"flight_number": "HAT028", "price": 140},
                {"flight_number": "HAT277", "price": 101},
            ],
        },
    ),
    (
        "search_direct_flight",
        {"origin": "MCO", "destination": "CLT"},
        [
            {"flight_number": "HAT028", "prices": {"economy": 150, "business": 350}},
            {"flight_number": "HAT277", "prices": {"economy": 120, "business": 300}},
        ],
    ),
    *[("calculate", {"expression": f"{n} + 1"}, float(n + 1)) for n in range(7)],
)


def test_arithmetic_over_lines_above_is_backed_by_the_receipts_behind_their_terms() -> None:
    text = (
        "- HAT028: $350 (Business) - $140 (Economy) = $210\n"
        "- HAT277: $300 (Business) - $101 (Economy) = $199\n"
        "- Total upgrade cost: $210 + $199 = $409"
    )

    result = _check(text, UPGRADE)

    assert [(s.tag, s.action) for s in result.sentences] == [("T1", "pass")] * 3


def test_arithmetic_over_a_line_with_an_unbacked_term_is_no_receipts_support() -> None:
    text = (
        "- Lamp and bottle: $150.25 + $20.10 = $170.35\n"
        "- Boots and a mug: $243.90 + $11.00 = $254.90\n"
        "- Twice that: $254.90 + $254.90 = $509.80"
    )

    result = _check(text)

    assert result.sentences[1].action == "block"  # $11.00: no receipt holds it
    assert result.sentences[2].tag == "T3"


def test_a_price_a_question_offers_is_checked() -> None:
    result = _check("Would you like me to return the Desk Lamp for $163.25?")
    assert result.verdict == "block"
    assert _check("Would you like me to return the Desk Lamp for $150.25?").verdict == "pass"


def test_a_remainder_on_a_named_kind_of_payment_method_is_derived_from_its_balance() -> None:
    profile = {
        "user_id": "noah_brown_6181",
        "payment_methods": {
            "certificate_7504069": {"source": "certificate", "amount": 500, "id": "c_1"},
            "credit_card_1": {"source": "credit_card", "brand": "visa", "id": "cc_1"},
        },
    }
    calls = [("calculate", {"expression": f"{n} + 1"}, float(n + 1)) for n in range(7)]
    booking = "Error: payment amount does not add up, total price is 375, but paid 299"
    receipts = _transcript(
        ("get_user_details", {"user_id": "noah_brown_6181"}, profile),
        *calls,
        ("book_reservation", {"user_id": "noah_brown_6181"}, booking),
    )

    text = "Paying the full amount of $375 leaves you $125 remaining on the certificate."
    result = _check(text, receipts)

    assert result.verdict != "block", [s.reasons for s in result.sentences]
    assert _derived(result) == [
        "derived: 125 = 500 − 375 (payment_methods.certificate_7504069.amount, text)"
    ]


def test_a_total_of_a_run_of_lines_the_reply_listed_is_their_sum() -> None:
    # four items returned, one kept and listed apart: the total is that of the four
    items = [_item(f"Item {n}", 10.0 + n, None) for n in range(1, 5)]
    kept = _item("Espresso Machine", 2866.37, None)
    receipts = _transcript(
        ("get_order_details", {"order_id": "#W2611340"}, _order(kept, *items, payments=(2916.37,)))
    )
    lines = "".join(f"- Item {n}: ${10 + n}.00\n" for n in range(1, 5))
    text = f"To return:\n{lines}Kept:\n- Espresso Machine: $2,866.37\nRefund:\n- Total: $50.00"
    result = _check(text, receipts)
    assert result.verdict == "pass", [s.reasons for s in result.sentences]
    assert _derived(result) == ["derived: 50 = 11 + 12 + 13 + 14"]
    assert _check(text.replace("$50.00", "$52.00"), receipts).verdict == "block"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("White lamp: $163.10 vs. $150.25 = $12.85", "pass"),
        ("White lamp: $163.10 vs. $150.25 = $14.85", "block"),
        ("Your order's $414.25 is $14.25 more than the $400 you mentioned.", "pass"),
        ("Your order's $414.25 is $24.25 more than the $400 you mentioned.", "block"),
    ],
)
def test_a_difference_of_two_amounts_compared_is_checked_as_written(
    text: str, verdict: str
) -> None:
    assert _check(text).verdict == verdict


def test_a_difference_from_an_amount_the_reply_gave_above_is_backed_by_that_line() -> None:
    text = "Order total: $414.25\nThat is $14.25 more than the $400 you mentioned."
    assert _check(text).verdict == "pass"
    # no line above gives the $424.25 that "$24.25 more than $400" implies
    wrong = "Order total: $414.25\nThat is $24.25 more than the $400 you mentioned."
    assert _check(wrong).verdict == "block"


def test_a_refund_of_one_items_price_to_the_named_payment_method_is_no_contradiction() -> None:
    # the payment paypal_0 names was $414.25; returning the bottle refunds its $20.10
    result = _check("Refund: $20.10 to PayPal (paypal_0), the original payment method.")
    assert result.verdict == "pass", [s.reasons for s in result.sentences]
    assert _derived(result) == ["derived: refund of c1 items[1].price = 20.1"]
    assert _check("Refund: $21.10 to PayPal (paypal_0), the original payment method.").verdict == (
        "block"
    )


def test_a_term_of_written_arithmetic_may_itself_be_a_sum_of_the_records() -> None:
    # $183.20 is the white lamp ($163.10) and the bottle ($20.10) together
    text = "With the white lamp: $183.20 - $150.25 = $32.95"
    result = _check(text)
    assert result.verdict == "pass", [s.reasons for s in result.sentences]
    assert _check(text.replace("$32.95", "$33.95")).verdict == "block"


# (a table whose header names what each column's figure is, the wrong figure)
TABLES = [
    pytest.param(
        "| Item | Unit price | Total for 2 |\n|---|---|---|\n| Water Bottle | $20.10 | $40.20 |",
        "derived: 40.2 = 2 × 20.1",
        "$42.20",
        id="column-total-for-a-count",
    ),
    pytest.param(
        "Here is what you would get back:\n\n| Items returned | Refund due |\n|:--|--:|\n"
        "| Desk Lamp and Water Bottle | $170.35 |",
        "derived: 170.35 = 150.25 + 20.1",
        "$172.35",
        id="column-refund-of-two-items",
    ),
]


@pytest.mark.parametrize(("table", "formula", "wrong"), TABLES)
def test_when_a_table_column_names_the_operation_then_its_cells_are_derived_figures(
    table: str, formula: str, wrong: str
) -> None:
    result = _check(table)

    assert result.verdict == "pass", result.reason
    assert any(formula in d for d in _derived(result))
    right = formula.split(" = ")[0].removeprefix("derived: ")
    changed = _check(table.replace(f"${float(right):,.2f}", wrong))
    assert changed.verdict == "block", changed.reason
    assert wrong in changed.sentences[-1].text
    assert changed.sentences[-1].action == "block"


def test_when_written_arithmetic_names_each_terms_record_then_its_result_is_that_sum() -> None:
    # "$20.10 (Water Bottle) = $170.35": the result is not the bottle's price, it is the sum
    honest = _check("Prices: $150.25 (Desk Lamp) + $20.10 (Water Bottle) = $170.35.")
    assert honest.verdict == "pass", honest.reason
    assert _check("Prices: $150.25 (Desk Lamp) + $20.10 (Water Bottle) = $172.35.").verdict == (
        "block"
    )


def test_when_a_summary_comes_before_the_lines_it_adds_up_then_they_back_it() -> None:
    lines = "\n\n- Desk Lamp: $150.25\n- Water Bottle: $20.10"
    honest = _check("**Option A is $170.35.**" + lines)
    assert honest.verdict == "pass", honest.reason
    assert any("170.35 = 150.25 + 20.1 (the lines below)" in d for d in _derived(honest))
    # a summary the lines below do not add up to stays a figure no receipt holds
    wrong = _check("**Option A is $172.35.**" + lines)
    assert (wrong.sentences[0].tag, wrong.sentences[0].action) == ("T5", "block")


TRIP = _transcript(
    (
        "get_reservation_details",
        {"reservation_id": "K7Q2XM"},
        {
            "reservation_id": "K7Q2XM",
            "flights": [
                {"flight_number": "HAT085", "date": "2024-05-19", "price": 177},
                {"flight_number": "HAT023", "date": "2024-05-19", "price": 146},
                {"flight_number": "HAT278", "date": "2024-05-22", "price": 180},
            ],
        },
    ),
    (
        "search_direct_flight",
        {"origin": "SFO", "destination": "JFK", "date": "2024-05-19"},
        [{"flight_number": "HAT072", "prices": {"economy": 98, "business": 282}}],
    ),
    (
        "search_direct_flight",
        {"origin": "JFK", "destination": "SFO", "date": "2024-05-23"},
        [{"flight_number": "HAT278", "prices": {"economy": 180, "business": 443}}],
    ),
)


def test_when_a_table_row_names_the_operation_then_its_figure_is_worked_out() -> None:
    reply = (
        "The fare difference comes to {}.\n\n| | Flights | Fare |\n|---|---|---|\n"
        "| Current | HAT085 ($177) + HAT023 ($146) + HAT278 ($180) | $503 |\n"
        "| New | HAT072 ($282) + HAT278 ($443) | $725 |\n| Difference | | {} |\n"
    )
    honest = _check(reply.format("$222", "$222"), TRIP)
    assert honest.verdict == "pass", honest.reason
    # the row's label names the operation over the rows above; the summary above the
    # table is backed by that row's formula
    assert any("222 = 725 − " in d and "(a line below)" in d for d in _derived(honest))
    wrong = _check(reply.format("$232", "$232"), TRIP)
    assert [s.action for s in wrong.sentences if "$232" in s.text] == ["block", "block"]


def test_when_one_part_of_a_split_is_left_then_it_is_the_total_less_the_others() -> None:
    plan = "Payment plan:\n\n- Desk Lamp, on the gift card: $150.25\n- The rest, on your {}\n"
    honest = _check(plan.format("Mastercard: $264.00") + "- Total: $414.25")
    assert honest.verdict == "pass", honest.reason
    assert any("264 = 414.25 − 150.25 (the total below)" in d for d in _derived(honest))
    assert _check(plan.format("Mastercard: $254.00") + "- Total: $414.25").verdict == "block"
    # with a total no receipt holds, nothing backs the part
    assert _check(plan.format("Mastercard: $264.00") + "- Total: $424.25").verdict == "block"


@pytest.mark.parametrize(
    ("lines", "verdict"),
    [
        # the lines taken off are written with a minus sign ...
        ("- Order total: $414.25\n- Gift card: -$150.25\n- **PayPal: $264.00**", "pass"),
        ("- Order total: $414.25\n- Gift card: -$150.25\n- **PayPal: $254.00**", "block"),
        # ... or the last line says what is left
        ("- Order total: $414.25\n- Gift card: $150.25\n- Remaining balance: $264.00", "pass"),
        ("- Order total: $414.25\n- Gift card: $150.25\n- Remaining balance: $274.00", "block"),
        # a plain list of amounts is no balance: $264 is no line of it taken off another
        ("- Order total: $414.25\n- Gift card: $150.25\n- PayPal: $264.00", "block"),
    ],
)
def test_what_is_left_once_the_lines_above_are_taken_off_is_worked_out(
    lines: str, verdict: str
) -> None:
    wallet = {"payment_methods": {"gift_card_1": {"source": "gift_card", "balance": 150.25}}}
    receipts = [*SHOP, *_transcript(("get_user_details", {"user_id": "noah"}, wallet))]
    result = _check(f"Payment plan:\n\n{lines}", receipts)
    assert result.verdict == verdict, result.reason
    if verdict == "pass" and "-$" in lines:
        # (the remaining balance is the order's payment less the card's: records enough)
        assert "derived: 264 = 414.25 − 150.25 (the lines above)" in _derived(result)


@pytest.mark.parametrize(("rest", "verdict"), [("$113.75", "pass"), ("$123.75", "block")])
def test_when_the_part_left_is_said_first_then_restated_in_the_split_it_is_still_derived(
    rest: str, verdict: str
) -> None:
    # the total is itself worked out (bottle + boots, 20.10 + 243.90); the part left is
    # said twice, one unknown, not two
    wallet = {"payment_methods": {"gift_card_1": {"source": "gift_card", "balance": 150.25}}}
    receipts = [*SHOP, *_transcript(("get_user_details", {"user_id": "noah"}, wallet))]
    reply = (
        f"I'll use the $150.25 gift card and charge the remaining {rest} to your card.\n\n"
        f"- Gift card: $150.25\n- Mastercard: {rest}\n"
        "- Total for the Water Bottle and the Hiking Boots: $264.00"
    )
    assert _check(reply, receipts).verdict == verdict


@pytest.mark.parametrize(
    "line",
    [
        "**White Desk Lamp** (9083642334): $163.10, pay {}",
        "**White Desk Lamp** (9083642334): $163.10, {} to pay",
    ],
)
def test_when_a_line_says_what_is_left_to_pay_then_it_is_a_difference(line: str) -> None:
    # the white lamp less the black one in the order: 163.10 - 150.25
    honest = _check(line.format("$12.85"))
    assert honest.verdict == "pass", honest.reason
    assert any("12.85 = 163.1 − 150.25" in d for d in _derived(honest))
    assert _check(line.format("$14.85")).verdict == "block"


def test_when_a_label_adds_two_named_rows_then_its_figure_is_their_sum() -> None:
    # the figure follows the lamp's id, but "+" between the two rows makes it their sum
    label = "Water Bottle (4579334072) + white Desk Lamp (9083642334): {}"
    honest = _check(label.format("$183.20"))
    assert honest.verdict == "pass", honest.reason
    assert any("183.2 = " in d for d in _derived(honest))
    assert _check(label.format("$185.20")).verdict == "block"


def test_when_a_header_states_the_count_then_no_other_count_multiplies() -> None:
    # "Total for 2": twice the row's price, never 3 times another item's (3 x 20.10 = 60.30)
    table = "| Item | Price | Total for 2 |\n|---|---|---|\n| Water Bottle | $20.10 | {} |"
    assert _check(table.format("$40.20")).verdict == "pass"
    assert _check(table.format("$60.30")).verdict == "block"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("- K7Q2XM: HAT085, HAT023 and HAT278. Fare paid $503.", "pass"),
        ("- K7Q2XM: HAT085 and HAT023. Fare paid $323.", "pass"),
        # the fares of other rows than those just listed, or a wrong sum
        ("- K7Q2XM: HAT085 and HAT023. Fare paid $503.", "block"),
        ("- K7Q2XM: HAT085, HAT023 and HAT278. Fare paid $513.", "block"),
    ],
)
def test_when_a_line_lists_records_then_the_next_figure_may_be_their_sum(
    text: str, verdict: str
) -> None:
    assert _check(text, TRIP).verdict == verdict


def test_when_a_calculation_is_written_in_steps_then_each_steps_terms_are_backed() -> None:
    # the 12.85 and 40.2 of the second step are the first step's operations worked out
    text = "Difference: ($163.10 - $150.25) + (2 × $20.10) = $12.85 + $40.20 = $53.05."
    assert _check(text).verdict == "pass", _check(text).reason
    wrong = "Difference: ($163.10 - $150.25) + (2 × $20.10) = $13.85 + $40.20 = $54.05."
    assert _check(wrong).verdict == "block"


_THREE_ON_BOARD = tool_transcript(
    [
        (
            "get_reservation_details",
            {"reservation_id": "K1NW8N"},
            {
                "reservation_id": "K1NW8N",
                "passengers": [
                    {"first_name": n, "last_name": "Silva"} for n in ("Ana", "Raj", "Liam")
                ],
                "flights": [
                    {"flight_number": "HAT023", "price": 364},
                    {"flight_number": "HAT082", "price": 404},
                ],
            },
        )
    ]
)


def _last_action(text: str) -> str:
    """The action on the last sentence of ``text`` over the three passengers' reservation."""
    return Gate().validate(text, receipts=_THREE_ON_BOARD, now=NOW).sentences[-1].action


@pytest.mark.parametrize(
    ("line", "action"),
    [
        # the flights' prices are each one passenger's: their sum is one fare
        ("- **Total fare:** **$768** for all three passengers", "block"),
        ("- **Total fare:** $768 per passenger", "pass"),
        # a total the sentence says is per head, beside a total for the heads
        ("- **Per person:** $768, so $2,304 in total for 3 passengers", "pass"),
    ],
)
def test_a_sum_of_one_passengers_fares_is_not_the_fare_of_all_of_them(
    line: str, action: str
) -> None:
    assert _last_action(f"Reservation K1NW8N:\n- HAT023: $364\n- HAT082: $404\n{line}") == action


@pytest.mark.parametrize(("total", "action"), [("$1,092", "pass"), ("$1,456", "block")])
def test_a_per_passenger_amount_times_the_reservations_passengers_is_its_total(
    total: str, action: str
) -> None:
    # "$364 per passenger" with a count of its own in the sentence ("2 flights"): the heads
    # a total is over are the reservation's three passengers, not that count
    assert (
        _last_action(f"Of your 2 flights, HAT023 is $364 per passenger ({total} total).") == action
    )


def test_a_per_passenger_rate_of_the_rules_times_the_newest_reservations_passengers() -> None:
    rules = Receipt(
        id="policy", kind="rag", content="The travel insurance is 30 dollars per passenger."
    )
    # the newest result is a search (no passengers): the heads are the reservation's
    search = tool_transcript(
        [("search_direct_flight", {"origin": "JFK"}, [{"flight_number": "HAT023", "price": 364}])]
    )
    receipts = [rules, *_THREE_ON_BOARD, *[r.model_copy(update={"id": "s1"}) for r in search]]
    ok = "Travel insurance is $30 per passenger ($90 total) if you'd like it."
    wrong = "Travel insurance is $30 per passenger ($120 total) if you'd like it."
    assert Gate().validate(ok, receipts=receipts, now=NOW).verdict == "pass"
    assert Gate().validate(wrong, receipts=receipts, now=NOW).verdict == "block"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        # labels in words between the terms are no part of the arithmetic
        ("Gift card $150.25 + PayPal $264.00 = $414.25", "pass"),
        ("Gift card $150.25 + PayPal $264.00 = $424.25", "block"),
        # a dash before the result takes it off: the sum is what is taken off
        ("- Order total: $414.25\n- Gift card $150.25 = –$150.25\n- **PayPal: $264.00**", "pass"),
        ("- Order total: $414.25\n- Gift card $150.25 = –$150.25\n- **PayPal: $274.00**", "block"),
        # ... or is its sign: a negative result written as such
        ("Net: $150.25 - $414.25 = -$264.00 (you get $264.00 back)", "pass"),
        ("Net: $150.25 - $414.25 = -$274.00 (you get $274.00 back)", "block"),
        # a figure worked out on a line above, a term of the sum below
        (
            "- Order total: $414.25\n- Gift card: -$150.25\n- PayPal: $264.00\n\n"
            "Together: $264.00 + $150.25 = $414.25",
            "pass",
        ),
    ],
)
def test_written_sums_read_around_their_labels_and_signs(reply: str, verdict: str) -> None:
    wallet = {"payment_methods": {"gift_card_1": {"source": "gift_card", "balance": 150.25}}}
    receipts = [*SHOP, *_transcript(("get_user_details", {"user_id": "noah"}, wallet))]
    result = _check(reply, receipts)
    assert result.verdict == verdict, result.reason


@pytest.mark.parametrize(
    ("sentence", "verdict"),
    [
        ("The fare comes to $97 per passenger.", "pass"),
        # a rate is no gap between two fares that happens to give it
        ("The fare comes to $37 per passenger.", "block"),
        # ... unless the sentence says it is one
        ("HAT002 is $37 cheaper per passenger than HAT001.", "pass"),
    ],
)
def test_a_rate_per_head_is_no_difference_of_two_records(sentence: str, verdict: str) -> None:
    flights = [
        {"flight_number": "HAT001", "prices": {"economy": 97}},
        {"flight_number": "HAT002", "prices": {"economy": 60}},
    ]
    receipts = _transcript(("search_direct_flight", {"origin": "JFK"}, flights))
    assert _check(sentence, receipts).verdict == verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        # the line above the list says what its figures are: the white lamp's price less
        # the black one's, named by the item only
        (
            "Price difference (charged to your PayPal):\n"
            "- If you switch to item 9083642334: you'll be charged $12.85",
            "pass",
        ),
        (
            "Price difference (charged to your PayPal):\n"
            "- If you switch to item 9083642334: you'll be charged $22.85",
            "block",
        ),
        # with no such line the figure is read as the price of the item it names
        ("- If you switch to item 9083642334: you'll be charged $12.85", "block"),
        # "net" names the difference as its own word does
        ("Switching to item 9083642334: net +$12.85", "pass"),
        ("Switching to item 9083642334: net +$14.85", "block"),
    ],
)
def test_a_difference_named_by_the_line_above_or_net(reply: str, verdict: str) -> None:
    result = _check(reply)
    assert result.verdict == verdict, result.reason
    if verdict == "pass":
        assert any("12.85 = 163.1 − 150.25" in d for d in _derived(result)), _derived(result)


@pytest.mark.parametrize(("rest", "verdict"), [("$264.00", "pass"), ("$274.00", "block")])
def test_a_payment_line_draws_what_is_left_not_the_whole_balance(rest: str, verdict: str) -> None:
    # the second card pays the order's total less what the first one covers, not its
    # whole balance: under "Payment:" the line is a draw on it
    wallet = {
        "payment_methods": {
            "gift_card_1": {"source": "gift_card", "id": "gift_card_1", "amount": 150.25},
            "gift_card_2": {"source": "gift_card", "id": "gift_card_2", "amount": 300.0},
        }
    }
    receipts = [*SHOP, *_transcript(("get_user_details", {"user_id": "noah"}, wallet))]
    reply = (
        "Order total: $414.25\n\nPayment:\n- $150.25 from gift card (gift_card_1)\n"
        f"- {rest} from gift card (gift_card_2)"
    )
    result = _check(reply, receipts)
    assert result.verdict == verdict, result.reason


@pytest.mark.parametrize(
    ("paid", "verdict"),
    [
        # the two cards meet the total above them: nothing is left to pay
        ("- Gift card: $150.25\n- PayPal: $264.00", "pass"),
        # they leave $10 of it: "$0" to pay is wrong
        ("- Gift card: $150.25\n- PayPal: $254.00", "block"),
    ],
)
def test_nothing_left_to_pay_when_the_lines_above_meet_the_total(paid: str, verdict: str) -> None:
    wallet = {"payment_methods": {"gift_card_1": {"source": "gift_card", "balance": 150.25}}}
    receipts = [*SHOP, *_transcript(("get_user_details", {"user_id": "noah"}, wallet))]
    reply = f"Order total: $414.25\n\nPaid with:\n{paid}\n\nAmount still to be paid: $0"
    result = _check(reply, receipts)
    last = result.sentences[-1]
    assert last.action == ("pass" if verdict == "pass" else "block"), result.reason


@pytest.mark.parametrize(("said", "verdict"), [("12.85", "pass"), ("14.85", "block")])
def test_an_amount_to_the_cent_before_charge_is_money_not_a_count(said: str, verdict: str) -> None:
    # "a 12.85 charge": no currency sign, and no count of charges
    text = f"Changing item 8384507844 to item 9083642334 means a {said} charge before tax."
    assert _check(text).verdict == verdict


@pytest.mark.parametrize(("left", "verdict"), [("$85.75", "pass"), ("$95.75", "block")])
def test_what_a_certificate_leaves_unused_is_its_amount_less_the_total(
    left: str, verdict: str
) -> None:
    wallet = {
        "payment_methods": {
            "certificate_1": {"source": "certificate", "id": "certificate_1", "amount": 500.0}
        }
    }
    receipts = [*SHOP, *_transcript(("get_user_details", {"user_id": "noah"}, wallet))]
    reply = (
        "Order total: $414.25\n\nPayment:\n- Certificate (certificate_1): $500\n"
        f"- Forfeited amount: {left}"
    )
    assert _check(reply, receipts).verdict == verdict
