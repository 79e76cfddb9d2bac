"""Documents as evidence (checks/documents), end to end through ``Gate.validate``.

An operator's policy arrives as the transcript's system message (or as a ``rag``
receipt): a sentence that restates a rule is T4 with the passage as its evidence, a
figure that changes the rule's figure is a contradiction even in a promise, and a
sentence the policy does not state stays what it was.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from receiptgate import Gate, Receipt, ValidationResult, parse_receipts
from receiptgate.checks.documents import split_passages

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()

POLICY = """# Store policy

## Returns

- Delivered orders can be returned within 30 days of delivery.
- The refund must go to the original payment method or an existing gift card.
- Refunds to a gift card are immediate; other refunds take 5 to 7 business days.

## Shipping

Standard shipping takes 3 to 5 business days and costs $4.99. Express shipping is not
available for furniture.
"""
USER = {"role": "user", "content": "Can I still return the lamp I got last week?"}


def _transcript(*messages: dict[str, Any]) -> list[Receipt]:
    return parse_receipts(json.dumps({"messages": list(messages)}), source_name="t.json")


WITH_POLICY = _transcript({"role": "system", "content": POLICY}, USER)
WITHOUT_POLICY = _transcript(USER)


def _only(result: ValidationResult) -> tuple[str | None, str, str]:
    (s,) = result.sentences
    return s.tag, s.action, " | ".join(e.detail for e in s.evidence)


def check(text: str, receipts: list[Receipt] = WITH_POLICY) -> tuple[str | None, str, str]:
    return _only(GATE.validate(text, receipts=receipts, now=NOW))


def test_system_and_developer_messages_are_document_receipts() -> None:
    receipts = _transcript(
        {"role": "system", "content": POLICY},
        {"role": "developer", "content": [{"type": "text", "text": "Answer in English."}]},
        {"role": "system", "content": "   "},  # nothing to read: no receipt
        USER,
    )
    docs = [(r.id, r.kind, r.source, r.trust) for r in receipts if r.kind == "rag"]
    assert docs == [("sys1", "rag", "system", "system"), ("dev1", "rag", "developer", "system")]


def test_a_sentence_restating_a_rule_is_T4_with_the_passage_as_evidence() -> None:
    tag, action, evidence = check(
        "The refund goes to the original payment method or an existing gift card."
    )
    assert (tag, action) == ("T4", "pass")
    assert evidence.startswith("sys1 § Returns: 'The refund must go to the original payment")
    # without the policy it is a general statement, flagged
    assert check(
        "The refund goes to the original payment method or an existing gift card.",
        WITHOUT_POLICY,
    )[:2] == ("T3", "warn")


def test_a_negated_rule_is_not_its_restatement() -> None:
    tag, action, _ = check("The refund does not go to the original payment method.")
    assert (tag, action) == ("T3", "warn")


def test_a_sentence_sharing_a_few_words_with_a_rule_is_not_backed_by_it() -> None:
    tag, action, _ = check("Refunds can be sent to any bank account you like.")
    assert (tag, action) == ("T3", "warn")


def test_a_figure_of_the_policy_is_backed_by_its_passage() -> None:
    tag, action, evidence = check("Your refund will reach your card in 5 to 7 business days.")
    assert (tag, action) == ("T4", "pass")
    assert "5 to 7 business days" in evidence
    # without the policy, a timeframe in a promise is not backed
    assert check("Your refund will reach your card in 5 to 7 business days.", WITHOUT_POLICY)[
        :2
    ] != ("T4", "pass")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # a promise excuses a missing timeframe, never one the policy states otherwise
        ("Your refund will reach your card within 10 business days.", "7 business days"),
        ("Returns are accepted within 60 days of delivery.", "30 days"),
        ("Standard shipping costs $5.99.", "$4.99"),
    ],
)
def test_a_changed_policy_figure_is_contradicted_by_its_passage(text: str, rule: str) -> None:
    tag, action, evidence = check(text)
    assert (tag, action) == ("T5", "block")
    assert evidence.startswith("contradicts sys1") and rule in evidence


def test_the_same_policy_as_a_rag_receipt_gives_the_same_verdicts() -> None:
    rag = [Receipt(id="kb-12", kind="rag", source="kb/policy.md", content=POLICY)]
    for text in (
        "Delivered orders can be returned within 30 days of delivery.",
        "Your refund will reach your card within 10 business days.",
        "The refund goes to the original payment method or an existing gift card.",
    ):
        assert check(text, rag)[:2] == check(text)[:2]


def test_a_page_past_its_freshness_window_backs_nothing() -> None:
    # rag documents never go stale by default; fetched pages do after 365 days
    old = [
        Receipt(
            id="w-1",
            kind="web",
            source="https://shop.example/policy",
            content=POLICY,
            created_at=datetime(2020, 1, 1, tzinfo=UTC),
        )
    ]
    text = "The refund goes to the original payment method or an existing gift card."
    assert check(text, old)[0] == "T3"
    assert check(text, [old[0].model_copy(update={"created_at": NOW})])[0] == "T1"


def test_passages_are_sentences_and_list_items_under_their_heading() -> None:
    passages = split_passages(POLICY, NOW)
    assert [(p.heading, p.text[:30]) for p in passages] == [
        ("Returns", "Delivered orders can be return"),
        ("Returns", "The refund must go to the orig"),
        ("Returns", "Refunds to a gift card are imm"),
        ("Shipping", "Standard shipping takes 3 to 5"),
        ("Shipping", "Express shipping is not availa"),
    ]
    assert passages[4].negated and not passages[3].negated
    assert {v.shown for _, v in passages[3].values} >= {"5 business days", "$4.99"}


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("I can start the return, but please note that refunds take 5 to 7 business days.", "T4"),
        ("I can start the return, but please note that refunds take 10 business days.", "T5"),
        # the timeframe of the offer itself is a plan, not a claim
        ("I can start the return within 2 business days.", None),
    ],
)
def test_a_fact_in_a_later_clause_of_an_offer_is_checked(text: str, tag: str | None) -> None:
    assert check(text)[0] == tag


def test_a_hedged_restatement_of_a_rule_is_backed_by_the_rule() -> None:
    rules = Receipt(
        id="sys1",
        kind="rag",
        trust="system",
        content="# Returns\n- The refund must either go to the original payment method, "
        "or an existing gift card.\n",
    )
    result = Gate().validate(
        "It seems that the refund must be processed to either the original payment method "
        "or a gift card.",
        receipts=[rules],
    )
    assert (result.verdict, result.sentences[0].tag) == ("pass", "T4")


@pytest.mark.parametrize(
    "text",
    [
        # two rules joined in one sentence: each clause restates one
        "Delivered orders can be returned, and refunds to a gift card are immediate.",
        # a rule said of the customer's record: the sentence holds the rule's words and
        # adds which order it is about
        "Unfortunately, your order is furniture, for which express shipping is not available.",
    ],
)
def test_a_sentence_restating_rules_clause_by_clause_is_backed(text: str) -> None:
    tag, action, evidence = check(text)
    assert (tag, action) == ("T4", "pass"), evidence


def test_a_sentence_with_one_clause_no_rule_states_is_not_backed() -> None:
    # the first clause restates a rule, the second is no rule of the policy
    tag, _, _ = check(
        "Delivered orders can be returned, but the store repaints every lamp before resale."
    )
    assert tag != "T4"


def test_when_a_short_sentence_is_all_a_rules_words_then_it_restates_it() -> None:
    from receiptgate import Gate
    from receiptgate.evidence.receipts import Receipt

    rules = Receipt(
        id="sys1",
        kind="rag",
        content=(
            "# Policy\n\nThe rules are strict regardless of the membership status.\n\n"
            "The refund will go to original payment methods in 5 to 7 business days.\n"
        ),
    )
    gate = Gate()
    said = gate.validate("The policies are quite strict in this regard.", receipts=[rules])
    assert said.sentences[0].tag == "T4"
    # two words that every rule uses say nothing of one rule
    other = gate.validate("The refund rules apply.", receipts=[rules])
    assert other.sentences[0].tag != "T4"


FLIGHT_POLICY = _transcript(
    {
        "role": "system",
        "content": "# Change flights\n\n- Basic economy flights cannot be modified. Other "
        "reservations can be modified without changing the origin, destination, and trip type.",
    },
    {"role": "user", "content": "Can I fly to Boston instead?"},
)


@pytest.mark.parametrize(
    "text",
    [
        "Under our policy, a flight change on an existing reservation cannot alter its origin "
        "or destination.",
        "One thing to keep in mind: under our policy, a flight change on an existing "
        "reservation cannot alter its origin or destination.",
    ],
)
def test_a_rule_restated_in_other_words_after_a_lead_is_backed_by_it(text: str) -> None:
    tag, action, evidence = check(text, FLIGHT_POLICY)
    assert (tag, action) == ("T4", "pass"), evidence
    assert "without changing the origin" in evidence


INSURANCE_POLICY = _transcript(
    {
        "role": "system",
        "content": "# Book flight\n\n- Travel insurance costs 30 dollars per passenger and "
        "enables a full refund if the passenger cancels for health reasons.",
    },
    {"role": "user", "content": "What would the refund be for both of us?"},
)


def test_a_rate_of_the_rules_says_nothing_of_a_total_only_of_another_rate() -> None:
    total = GATE.validate("The refund would be $414 for 2 passengers.", receipts=INSURANCE_POLICY)
    assert not any("30 dollars" in e.detail for s in total.sentences for e in s.evidence)
    tag, action, evidence = check("Travel insurance is $35 per passenger.", INSURANCE_POLICY)
    assert (tag, action) == ("T5", "block") and "30 dollars" in evidence


# A second operator, worded unlike the benchmark policies: rules restated in another
# writer's words, with the limit put another way and the sentence applying the rule.
RENTAL = """# Bike rental rules

## Changes

- A booking can only be changed if its status is 'confirmed', and you should check its status first.
- The bike type must be the same for every day of a booking; changing the bike for just
  one day is not possible.
- The change tool can only be called once per booking.
- Bookings can be extended without changing the pickup location.

## Refunds

- Electric bikes cannot be refunded.
"""
WITH_RENTAL = _transcript({"role": "system", "content": RENTAL}, USER)


@pytest.mark.parametrize(
    ("sentence", "passage"),
    [
        # "only" on one side, "if" on the other; the label's "not possible" applies it
        (
            "**Change:** not possible, since only confirmed bookings can be changed.",
            "A booking can only be changed if its status is 'confirmed'",
        ),
        # the rule's first clause, though its second is negated
        (
            "Every day of a booking must use the same bike type.",
            "The bike type must be the same for every day",
        ),
        # the clause after "so" speaks to this user, not of the rules
        (
            "A booking can only be changed once, so please list everything you'd like to change.",
            "The change tool can only be called once per booking.",
        ),
        # "without changing" is a limit: said as "cannot be changed"
        (
            "Note that the pickup location cannot be changed.",
            "Bookings can be extended without changing the pickup location.",
        ),
    ],
)
def test_a_rule_restated_in_other_words_is_T4_with_its_own_passage(
    sentence: str, passage: str
) -> None:
    tag, action, evidence = check(sentence, WITH_RENTAL)
    assert (tag, action) == ("T4", "pass")
    assert passage in evidence


def test_a_connective_before_a_rule_is_no_word_of_the_rule() -> None:
    rules = (
        "- Orders can be cancelled while pending.\n"
        "- Orders can be changed while pending.\n"
        "- An order cannot be cancelled or changed once it has shipped.\n"
    )
    receipts = _transcript({"role": "system", "content": rules}, USER)
    tag, action, evidence = check(
        "Because of that, the order can't be cancelled or changed.", receipts
    )
    assert (tag, action) == ("T4", "pass")
    assert "cannot be cancelled or changed once it has shipped" in evidence


def test_a_rule_restated_with_its_negation_dropped_stays_flagged() -> None:
    assert check("Electric bikes can be refunded.", WITH_RENTAL)[:2] == ("T3", "warn")
    assert check("Electric bikes cannot be refunded.", WITH_RENTAL)[:2] == ("T4", "pass")


@pytest.mark.parametrize(
    "sentence",
    [
        # "can't" for the rule's "cannot", and a word of its own ("after returning")
        "Electric bikes can't be refunded after returning.",
        # a lead with an aside before the rule
        "Also worth knowing (not to rain on the parade): electric bikes can't be refunded.",
    ],
)
def test_a_rule_said_with_a_contraction_or_behind_an_aside_is_backed_by_it(sentence: str) -> None:
    tag, action, evidence = check(sentence, WITH_RENTAL)
    assert (tag, action) == ("T4", "pass"), evidence
    assert "Electric bikes cannot be refunded." in evidence
    # and the negation still counts: the rule turned round is no restatement
    turned = sentence.replace("can't", "can")
    assert check(turned, WITH_RENTAL)[:2] != ("T4", "pass")


INSURANCE_RULE = _transcript(
    {
        "role": "system",
        "content": "# Insurance\n\n- Travel insurance is 30 dollars per passenger and enables a "
        "full refund if the user needs to cancel the flight given health or weather reasons.",
    },
    USER,
)


def test_a_rule_restated_with_what_it_leaves_out_is_backed_by_it() -> None:
    said = "The insurance enables a full refund if you cancel for health or weather reasons"
    tag, action, evidence = check(f"{said} but it does not cover change fees.", INSURANCE_RULE)
    assert (tag, action) == ("T4", "pass"), evidence
    assert "Travel insurance is 30 dollars per passenger" in evidence
    # a negated clause that turns the rule round is no omission
    turned = f"{said}, but it does not refund cancellations for weather reasons."
    assert check(turned, INSURANCE_RULE)[:2] != ("T4", "pass")


AIRLINE_POLICY = _transcript(
    {
        "role": "system",
        "content": (
            Path(__file__).parents[2] / "benchmarks" / "data" / "taubench_airline_policy.md"
        ).read_text(encoding="utf-8"),
    },
    USER,
)


def test_nearly_all_of_a_rule_in_more_words_of_the_replys_own_restates_it() -> None:
    said = "Refunds for cancelled reservations {} go back to the original payment methods used {}"
    tag, action, evidence = check(
        said.format("typically", "at the time of booking."), AIRLINE_POLICY
    )
    assert (tag, action) == ("T4", "pass"), evidence
    assert "The refund will go to original payment methods" in evidence
    turned = said.format("never", "at the time of booking.")
    assert check(turned, AIRLINE_POLICY)[:2] != ("T4", "pass")


def test_a_rules_spelled_out_count_backs_the_same_count_in_figures() -> None:
    rules = (
        "# Payment\n\n"
        "- Each reservation can use at most one certificate and at most three gift cards."
    )
    receipts = _transcript({"role": "system", "content": rules}, USER)
    tag, action, evidence = check("You can pay with up to 3 gift cards.", receipts)
    assert (tag, action) == ("T4", "pass"), evidence
    assert check("You can pay with up to 4 gift cards.", receipts)[:2] != ("T4", "pass")


def test_a_figure_on_a_bare_label_line_is_read_with_its_sections_heading() -> None:
    rules = (
        "# Cancel pending order\n\n- After confirmation the order is cancelled, and the total "
        "is refunded to the original payment method in 5 to 7 business days."
    )
    receipts = _transcript({"role": "system", "content": rules}, USER)
    reply = "### Cancellation summary\n\n- **Timing:** {}"
    result = GATE.validate(reply.format("5 to 7 business days"), receipts=receipts, now=NOW)
    assert result.verdict == "pass", result.reason
    assert result.sentences[-1].tag == "T4"
    changed = GATE.validate(reply.format("5 to 10 business days"), receipts=receipts, now=NOW)
    assert changed.sentences[-1].action == "block"


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        # the policy never says "fee": its silence is what the sentence reports
        ("There's no restocking fee in our policy.", "T4"),
        ("Fees: our policy does not list a separate restocking fee.", "T4"),
        # the policy speaks of express shipping: what it says decides, not its silence
        ("Our policy does not mention express shipping.", "T3"),
    ],
)
def test_a_sentence_that_the_policy_leaves_something_out_is_backed_by_its_silence(
    text: str, tag: str
) -> None:
    got, _, evidence = check(text)
    assert got == tag, evidence
    if tag == "T4":
        assert "no passage has the word 'fee'" in evidence
    assert check(text, WITHOUT_POLICY)[0] != "T4"  # no documents: nothing to be silent


EXCHANGES = _transcript(
    {
        "role": "system",
        "content": "## Exchange delivered order\n\n"
        "- An order can only be exchanged if its status is 'delivered'.\n"
        "- Each item can be exchanged to an available new item of the same product but of "
        "different product option.",
    },
    USER,
)


@pytest.mark.parametrize(
    "text",
    [
        # "version" and "variant" are a product's options; "swapped" is exchanged
        "Each item can only be swapped for a different version of the same product.",
        "An item can only be exchanged for another variant of the same product.",
        # "possible" is how the rule binds, not what it is of
        "Exchanges are possible only for delivered orders.",
    ],
)
def test_a_rule_restated_in_the_words_writers_use_for_it_is_t4(text: str) -> None:
    assert check(text, EXCHANGES)[0] == "T4"


def test_eligible_says_how_a_rule_binds_not_what_it_is_of() -> None:
    text = "Since you have travel insurance, you are eligible for a full refund."
    assert check(text, AIRLINE_POLICY)[0] == "T4"


def test_a_rules_limit_or_a_count_of_other_things_does_not_contradict_a_count() -> None:
    rules = (
        "# Payment\n\n"
        "- There are three types of payment methods: credit card, gift card, certificate.\n"
        "- Each reservation can use at most one certificate and at most three gift cards."
    )
    receipts = _transcript({"role": "system", "content": rules}, USER)
    # the user's two gift cards: neither the three types nor the limit of three speak to it
    assert "contradicts" not in check("You have 2 gift cards on file.", receipts)[2]
    # a limit restated with another figure still contradicts the rule's limit
    assert "contradicts" in check("You can pay with up to 4 gift cards.", receipts)[2]


def test_a_span_of_time_the_rules_state_backs_the_sentence_that_reasons_with_it() -> None:
    rules = "# Cancel flight\n\n- The booking was made within the last 24 hrs.\n"
    receipts = _transcript({"role": "system", "content": rules}, USER)
    tag, action, evidence = check("It was created more than 24 hours ago.", receipts)
    assert (tag, action) == ("T4", "pass"), evidence
    assert check("It was created more than 48 hours ago.", receipts)[:2] != ("T4", "pass")
    # two rules with spans of their own: the sentence's words must choose, none is taken
    two = rules + "- Refunds take up to 72 hours.\n- Changes lock 24 hours before departure.\n"
    receipts = _transcript({"role": "system", "content": two}, USER)
    assert check("It was created more than 24 hours ago.", receipts)[:2] != ("T4", "pass")


def test_a_rule_restated_with_another_form_of_a_short_verb_is_backed_by_it() -> None:
    rules = (
        "# Payment\n\n"
        "- There are three types of payment methods: credit card, gift card, travel certificate.\n"
        "- Each reservation can use at most one travel certificate, at most one credit card, "
        "and at most three gift cards.\n"
        "- The remaining amount of a travel certificate is not refundable.\n"
    )
    receipts = _transcript({"role": "system", "content": rules}, USER)
    text = "Per our policy, only one travel certificate can be used per reservation."
    assert check(text, receipts)[:2] == ("T4", "pass")


def test_the_day_a_sentence_gives_as_today_is_the_day_the_documents_say_it_is() -> None:
    rules = "# Policy\n\nThe current time is 2026-03-11 10:00:00 EST.\n"
    flight = {"flight_number": "HAT001", "date": "2026-03-10", "status": "landed"}
    receipts = _transcript(
        {"role": "system", "content": rules},
        USER,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "function": {"name": "get_flight", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps(flight)},
    )
    # the flight's day is no rival of today's
    assert check("Since today is March 11, 2026, I will check the flight.", receipts)[:2] == (
        "T4",
        "pass",
    )
    assert check("Since today is March 12, 2026, I will check the flight.", receipts)[1] == "block"


def test_a_span_of_another_thing_in_the_same_measure_is_no_rival() -> None:
    # the policy's only "business days" are the refund's: a replacement's dispatch time
    # is not backed by it, but not contradicted either
    policy = (
        "# Store policy\n\n## Modify payment\n\nThe original payment method will be refunded "
        "immediately if it is a gift card, otherwise it will be refunded within 5 to 7 "
        "business days."
    )
    receipts = _transcript({"role": "system", "content": policy}, USER)
    shipping = check(
        "Exchange shipping: the replacement ships once your returned lamp is scanned in, "
        "typically within 1–2 business days after it's received.",
        receipts,
    )
    assert "contradicts" not in shipping[2]
    refund = check("Your refund will reach your card within 10 business days.", receipts)
    assert "contradicts" in refund[2]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("The shipping address can only be updated while the order is pending.", "pending"),
        ("Insurance cannot be added afterwards.", "insurance"),
    ],
)
def test_update_and_afterwards_restate_change_and_after(text: str, rule: str) -> None:
    policy = (
        "# Policy\n\n- The shipping address of an order can only be changed if it is pending.\n"
        "- The user cannot add insurance after the initial booking."
    )
    tag, action, evidence = check(text, _transcript({"role": "system", "content": policy}, USER))
    assert (tag, action) == ("T4", "pass")
    assert rule in evidence
