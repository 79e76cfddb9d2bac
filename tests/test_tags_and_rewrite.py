"""Sentence tags T1–T7 (SPEC §4) and the delivered text of the outbound rewrite.

One row per tag, plus the sentences that get no tag; contradiction beats
support; and the rewrite: blocked sentences go, warned ones get a label, an
all-blocked output becomes the block notice, and every offset the result
reports indexes the ORIGINAL text.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate.config import parse_config
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt
from receiptgate.policy.policy_file import parse_policy
from receiptgate.results import ValidationResult
from receiptgate.rewrite import BLOCK_NOTICE

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)

USER_ASK = Receipt(
    id="u1", kind="user", content="Our budget is $50,000 for this project. Please summarise."
)
PRICING = Receipt(
    id="web-1",
    kind="web",
    source="https://example.com/pricing",
    content="The Pro plan costs $49 per month.",
)
CONTRACT = Receipt(
    id="rag-1", kind="rag", source="contract.pdf#p4", content="The contract renews on 2026-06-30."
)
CRM = Receipt(id="crm-1", kind="db", source="crm", content="revenue_usd=2400000\nchurn rate: 4.5%")
CPU = Receipt(
    id="cpu-1", kind="tool", tool="exec", args={"command": "top -bn1"}, content="CPU usage: 37%"
)
SESSION = [USER_ASK, PRICING, CONTRACT, CRM, CPU]


def _validate(
    text: str, receipts: list[Receipt] | None = None, policy: dict[str, Any] | None = None
) -> ValidationResult:
    gate = Gate(policy=parse_policy(policy) if policy is not None else None)
    return gate.validate(text, receipts=SESSION if receipts is None else receipts, now=NOW)


def _assert_offsets_index_the_original(text: str, result: ValidationResult) -> None:
    for s in result.sentences:
        assert text[s.start : s.end] == s.text, (s.index, s.text)
    for c in result.claims:
        assert text[c.offset : c.end] == c.matched_text, c
    for issue in result.issues:
        if issue.get("start") is not None:
            assert 0 <= issue["start"] <= issue["end"] <= len(text)
            if issue.get("claim_index") is not None:
                claim = result.claims[issue["claim_index"]]
                assert text[issue["start"] : issue["end"]] == claim.matched_text


# --------------------------------------------------------------------------- one row per tag


@pytest.mark.parametrize(
    ("text", "expected_tag", "expected_action"),
    [
        ("The Pro plan costs $49 per month.", "T1", "pass"),
        ("Therefore the cache should reduce latency.", "T2", "warn"),
        ("Python is a popular programming language.", "T3", "warn"),
        ("The contract renews on 2026-06-30.", "T4", "pass"),
        ("Revenue grew 37%.", "T5", "block"),
        ("The cache might be stale.", "T6", "warn"),
        ("Our budget is $50,000.", "T7", "pass"),
        ("Hello there, happy to help!", None, "pass"),
        ("What would you like me to do next?", None, "pass"),
        ("How much did revenue grow in 2025?", None, "pass"),
        ("Run the migration before deploying.", None, "pass"),
        ("Also, since there might be a price difference, please provide a card.", None, "pass"),
        ("This will help me check your order and proceed accordingly.", None, "pass"),
    ],
    ids=[
        "T1-web-receipt",
        "T2-inference",
        "T3-general-statement",
        "T4-rag-chunk",
        "T5-unsupported-figure",
        "T6-hedged",
        "T7-user-supplied",
        "none-greeting",
        "none-question",
        "none-question-with-year",
        "none-instruction",
        "none-instruction-after-a-condition",
        "none-purpose-of-the-next-step",
    ],
)
def test_when_a_sentence_is_validated_then_it_gets_the_tag_and_default_action_of_spec_4(
    text: str, expected_tag: str | None, expected_action: str
) -> None:
    result = _validate(text)

    (s,) = result.sentences
    assert s.tag == expected_tag, s.reasons
    assert s.action == expected_action, s.reasons


@pytest.mark.parametrize(
    ("text", "receipts"),
    [
        ("I ran the tests and they all pass.", []),
        ("The nats-events stream has 255908 events.", [USER_ASK]),
        ("All tests pass [T1 verified].", [USER_ASK]),
    ],
    ids=["action-no-receipt", "value-no-receipt", "forged-label"],
)
def test_when_a_hard_or_action_claim_has_no_receipt_then_it_is_t5(
    text: str, receipts: list[Receipt]
) -> None:
    result = _validate(text, receipts)

    assert result.sentences[0].tag == "T5"


def test_when_a_value_claim_is_backed_by_a_tool_receipt_then_it_is_t1_and_passes() -> None:
    nats = Receipt(
        id="t-1",
        kind="tool",
        tool="exec",
        args={"command": "nats stream info nats-events"},
        content="nats-events: 255908 events",
    )

    result = _validate("The nats-events stream has 255908 events.", [nats, USER_ASK])

    s = result.sentences[0]
    assert s.tag == "T1", s.reasons
    assert s.action == "pass", s.reasons
    assert result.delivered_text == "The nats-events stream has 255908 events."


# --------------------------------------------------------------------------- contradiction wins


def test_when_an_action_is_supported_but_its_figure_contradicted_then_contradiction_wins() -> None:
    deploy = Receipt(
        id="d-1",
        kind="tool",
        tool="deploy",
        args={"service": "web", "version": "2.3.0"},
        content="rollout complete: web 2.3.0 is live",
        ok=True,
    )

    result = _validate("I deployed version 2.3.1 to production.", [deploy, USER_ASK])

    s = result.sentences[0]
    relations = {e.relation for e in s.evidence}
    assert {"supports", "contradicts"} <= relations
    assert s.tag == "T5"
    assert s.action == "block"


def test_when_one_figure_is_supported_and_another_contradicted_then_the_sentence_is_t5() -> None:
    crm = Receipt(id="crm-2", kind="db", content="revenue_usd=2400000\nchurn rate: 4%")

    result = _validate("Revenue was $2.4M and churn was 5%.", [crm, USER_ASK])

    s = result.sentences[0]
    relations = [(e.relation, e.detail) for e in s.evidence]
    assert any(rel == "supports" and "$2.4M" in d for rel, d in relations), relations
    assert any(rel == "contradicts" and "5%" in d for rel, d in relations), relations
    assert s.tag == "T5"


def test_when_two_receipts_disagree_on_the_figure_then_contradiction_wins_over_support() -> None:
    old = Receipt(id="crm-old", kind="db", content="revenue_usd=2300000")

    result = _validate("Revenue was $2.4M.", [CRM, old, USER_ASK])

    s = result.sentences[0]
    assert s.tag == "T5"
    assert s.action == "block"


def test_when_a_fact_contradicts_and_a_user_message_repeats_the_claim_then_it_is_t5() -> None:
    fact = {
        "id": "nginx-state",
        "category": "system_state",
        "subject": "nginx",
        "value": {"type": "state", "state": "running"},
    }
    gate = Gate(parse_config({"factRegistries": [{"id": "ops", "facts": [fact]}]}))
    said = Receipt(id="u9", kind="user", content="nginx is stopped, I think.")

    result = gate.validate("nginx is stopped.", receipts=[said], now=NOW)

    assert result.sentences[0].tag == "T5"
    assert any(e.relation == "contradicts" for e in result.sentences[0].evidence)


# --------------------------------------------------------------------------- delivered text


def test_when_one_sentence_is_blocked_then_it_is_removed_and_the_rest_delivered() -> None:
    text = "Revenue was $2.4M. Revenue grew 37%. Churn was 4.5%."

    result = _validate(text)

    assert [s.action for s in result.sentences] == ["pass", "block", "pass"]
    assert result.verdict == "block"
    assert result.delivered_text == "Revenue was $2.4M. Churn was 4.5%."


@pytest.mark.parametrize(
    ("text", "policy", "label"),
    [
        ("Therefore the cache should reduce latency.", None, "(inference)"),
        ("The cache might be stale.", None, "(speculative)"),
        ("Python is a popular programming language.", None, "(unverified background)"),
        (
            "Revenue grew 37%.",
            {"riskClasses": {"financial": {"mode": "warn_only"}}},
            "(unverified)",
        ),
    ],
    ids=["T2-inference", "T6-speculative", "T3-background", "T5-warn-unverified"],
)
def test_when_a_sentence_is_warned_then_it_is_delivered_with_its_label(
    text: str, policy: dict[str, Any] | None, label: str
) -> None:
    result = _validate(f"Revenue was $2.4M. {text}", policy=policy)

    assert result.sentences[1].action == "warn"
    assert result.verdict == "flag"
    assert result.delivered_text == f"Revenue was $2.4M. {text} {label}"


def test_when_labels_are_configured_then_the_configured_label_is_used() -> None:
    result = _validate(
        "The cache might be stale.", policy={"rewrite": {"labels": {"T6": "[maybe]"}}}
    )

    assert result.delivered_text == "The cache might be stale. [maybe]"


@pytest.mark.parametrize(
    "text",
    [
        "Revenue grew 37%.",
        "Revenue grew 37%. I ran the tests and they all pass.",
        "Hi Dana! Revenue grew 37%. Thanks!",
    ],
    ids=["one-sentence", "two-blocked", "only-greetings-left"],
)
def test_when_every_claim_sentence_is_blocked_then_the_block_notice_is_delivered(
    text: str,
) -> None:
    result = _validate(text)

    assert result.verdict == "block"
    assert result.delivered_text == BLOCK_NOTICE


def test_when_a_notice_is_configured_then_it_replaces_an_all_blocked_output() -> None:
    result = _validate("Revenue grew 37%.", policy={"rewrite": {"notice": "Withheld: unverified."}})

    assert result.delivered_text == "Withheld: unverified."


def test_when_blocked_replacement_is_set_then_it_stands_where_the_sentence_was() -> None:
    result = _validate(
        "Revenue was $2.4M. Revenue grew 37%. Churn was 4.5%.",
        policy={"rewrite": {"blockedReplacement": "[removed: no receipt]"}},
    )

    assert result.delivered_text == "Revenue was $2.4M. [removed: no receipt] Churn was 4.5%."


def test_when_audit_tail_is_enabled_then_a_summary_line_follows_the_text() -> None:
    result = _validate(
        "Revenue was $2.4M. Revenue grew 37%. The cache might be stale.",
        policy={"rewrite": {"auditTail": True}},
    )

    assert result.delivered_text is not None
    body, sep, tail = result.delivered_text.rpartition("\n\n")
    assert sep, result.delivered_text
    assert body == "Revenue was $2.4M. The cache might be stale. (speculative)"
    assert "\n" not in tail
    for tag in ("T4", "T5", "T6"):
        assert tag in tail
    assert "1 sentence(s) removed" in tail


def test_when_audit_tail_is_off_then_no_summary_is_appended() -> None:
    result = _validate("Revenue was $2.4M. Revenue grew 37%.")

    assert result.delivered_text == "Revenue was $2.4M."


@pytest.mark.parametrize(
    ("mode", "text", "expected"),
    [
        ("notice", "Revenue was $2.4M. Revenue grew 37%.", BLOCK_NOTICE),
        ("notice", "Revenue was $2.4M. The cache might be stale.", None),
        ("none", "Revenue was $2.4M. Revenue grew 37%.", None),
        ("none", "Revenue was $2.4M. The cache might be stale.", None),
    ],
    ids=["notice-blocked", "notice-flagged", "none-blocked", "none-flagged"],
)
def test_when_rewrite_mode_is_notice_or_none_then_text_is_all_or_nothing(
    mode: str, text: str, expected: str | None
) -> None:
    result = _validate(text, policy={"rewrite": {"mode": mode}})

    if result.verdict == "block":
        assert result.delivered_text == expected
    else:
        assert result.delivered_text == text  # delivered unchanged, no labels


def test_when_a_blocked_sentence_ends_a_line_then_no_trailing_space_is_left() -> None:
    text = "Revenue was $2.4M. Revenue grew 37%.\nChurn was 4.5%."

    result = _validate(text)

    assert result.delivered_text == "Revenue was $2.4M.\nChurn was 4.5%."


def test_when_a_blocked_sentence_is_a_whole_list_item_then_no_empty_bullet_is_left() -> None:
    text = "Summary:\n- Revenue was $2.4M.\n- Revenue grew 37%.\n- Churn was 4.5%."

    result = _validate(text)

    assert result.delivered_text is not None
    assert "Revenue grew 37%" not in result.delivered_text
    assert all(line.strip() not in ("-", "*") for line in result.delivered_text.splitlines())
    assert "- Revenue was $2.4M." in result.delivered_text
    assert "- Churn was 4.5%." in result.delivered_text


# --------------------------------------------------------------------------- offsets


@pytest.mark.parametrize(
    "text",
    [
        "Revenue was $2.4M. Revenue grew 37%. Churn was 4.5%.",
        "  Leading spaces.  Revenue grew 37%.   Therefore the cache should reduce latency.  ",
        "👋 Hi Dana!\n\n- Revenue was $2.4M.\n- Revenue grew 37%.\n\nOur budget is $50,000.",
        "✅ verified: churn was 4.5%.\tThe cache might be stale…  I ran the tests and they pass.",
        "Über-Kunden: Revenue was $2.4M — the contract renews on 2026-06-30. Ça va?",
        "Line one is plain.\r\nRevenue grew 37%.\r\nThe Pro plan costs $49 per month.",
    ],
    ids=["plain", "extra-whitespace", "emoji-and-list", "labels-and-tabs", "accents", "crlf"],
)
def test_when_the_text_is_rewritten_then_offsets_still_index_the_original_text(
    text: str,
) -> None:
    result = _validate(text, policy={"rewrite": {"auditTail": True}})

    assert result.sentences, "sentences must be reported"
    assert result.claims, "claims must be reported"
    _assert_offsets_index_the_original(text, result)
    if result.delivered_text not in (None, BLOCK_NOTICE):
        assert result.delivered_text != text  # something was labelled, removed or appended


def test_when_text_is_rewritten_then_the_result_keeps_the_original_sentence_texts() -> None:
    text = "Revenue was $2.4M. Revenue grew 37%. The cache might be stale."

    result = _validate(text)

    assert [s.text for s in result.sentences] == [
        "Revenue was $2.4M.",
        "Revenue grew 37%.",
        "The cache might be stale.",
    ]
    assert result.delivered_text == "Revenue was $2.4M. The cache might be stale. (speculative)"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Would you like me to book it?", "no claim: a question"),
        ("Thanks for your patience!", "no claim: a greeting, thanks or apology"),
        ("Please confirm the new address.", "no claim: an instruction to the user"),
        ("Returning a watch is easy! ⌚", "no claim: an opinion"),
        (
            "Just tell me which ones you'd like to send back, and I'll set it up!",
            "no claim: an instruction to the user",
        ),
        ("I'm here if you need anything else too!", "no claim: a greeting, thanks or apology"),
        ("There is a second problem.", "no claim: a label for the lines under it"),
        ("I'd like to put this right.", "no claim: a plan, an offer or an ability"),
        (
            "What I can still do is upgrade the cabin or add checked bags.",
            "no claim: a plan, an offer or an ability",
        ),
        ("That works perfectly!", "no claim: an opinion"),
        (
            "Or, if it's easier, send me your first name, last name and zip code.",
            "no claim: an instruction to the user",
        ),
        ("Then we can get that camera return moving.", "no claim: a plan, an offer or an ability"),
        (
            "To make this change, I would update your reservation to the flights above.",
            "no claim: a plan, an offer or an ability",
        ),
        (
            "To change the cabin, we would need to cancel this reservation first.",
            "no claim: a plan, an offer or an ability",
        ),
        ("Re-check the email address for any typos.", "no claim: an instruction to the user"),
        (
            "Now I need to implement this in the FilePathField classes.",
            "no claim: a plan, an offer or an ability",
        ),
        (
            "It may help to confirm the exact email address on the account.",
            "no claim: an instruction to the user",
        ),
        (
            "That could help me find it faster; otherwise I'll go through them one by one.",
            "no claim: an instruction to the user",
        ),
        (
            "(Or if you've got another email you signed up with, that works too.)",
            "no claim: a plan, an offer or an ability",
        ),
        (
            "Double-check the spelling, or share another email you may have used.",
            "no claim: an instruction to the user",
        ),
        ("Change of plan", "no claim: a line with no verb (an option or a heading)"),
        (
            "For example, the flights, the cabin, or baggage.",
            "no claim: a line with no verb (an option or a heading)",
        ),
        ("I need your order number to look it up.", "no claim: a plan, an offer or an ability"),
        ("Then we'll move the booking to Friday.", "no claim: a plan, an offer or an ability"),
        (
            "That said, I can change the cabin class while keeping the same flights.",
            "no claim: a plan, an offer or an ability",
        ),
        (
            "- **Cancel the entire reservation** and rebook with only the passengers you need.",
            "no claim: a plan, an offer or an ability",
        ),
        (
            "| Payment Method | Please confirm which card to use. |",
            "no claim: an instruction to the user",
        ),
        ("I'm so sorry to hear about the delay.", "no claim: a greeting, thanks or apology"),
        ("Status: Awaiting your confirmation.", "no claim: a plan, an offer or an ability"),
        ("Status: Return pending your reply.", "no claim: a plan, an offer or an ability"),
        ("Your reservation remains unchanged.", "no claim: a plan, an offer or an ability"),
        ("All other content remains unchanged.", "no claim: a plan, an offer or an ability"),
        (
            "Your existing checked bag and travel insurance carry over unchanged.",
            "no claim: a plan, an offer or an ability",
        ),
        ("Contents and status not checked yet.", "no claim: a plan, an offer or an ability"),
        ("No changes made to the order.", "no claim: a plan, an offer or an ability"),
        ("**Changes made:** none", "no claim: a plan, an offer or an ability"),
        ("Customer to provide the order ID.", "no claim: a plan, an offer or an ability"),
        ("Next: look up the orders on the profile.", "no claim: an instruction to the user"),
        ("Next steps: none for now.", "no claim: a plan, an offer or an ability"),
        ("And let me know if there's anything else!", "no claim: a greeting, thanks or apology"),
        ("Here's the return I'm ready to set up 👇", "no claim: a label for the lines under it"),
        (
            "There is one thing I should be upfront about.",
            "no claim: a label for the lines under it",
        ),
        ("**What I need next**", "no claim: code or a heading"),
        (
            "Need: the new size you want",
            "no claim: an item of a plan or a request (the list under the line before)",
        ),
        (
            "Information needed: the order ID, if you have it.",
            "no claim: an item of a plan or a request (the list under the line before)",
        ),
        (
            "| Order lookup | Awaiting order ID |",
            "no claim: an item of a plan or a request (the list under the line before)",
        ),
        (
            "Option: search DTW–LGA flights on May 17 and LGA–DTW on May 19.",
            "no claim: a plan, an offer or an ability",
        ),
        ("Got it, Ethan!", "no claim: a greeting, thanks or apology"),
        ("No further action is needed from you.", "no claim: a greeting, thanks or apology"),
        (
            "Here's a summary of the change before I make it.",
            "no claim: a label for the lines under it",
        ),
        ("Here's the breakdown: 💰", "no claim: a label for the lines under it"),
        ("There's one thing I wanted to mention.", "no claim: a label for the lines under it"),
        ("Here's how it shakes out.", "no claim: a label for the lines under it"),
        (
            "I also need to correct something I said earlier.",
            "no claim: a plan, an offer or an ability",
        ),
        (
            "To continue I need the reason for cancellation.",
            "no claim: a plan, an offer or an ability",
        ),
        ("I'd be glad to help with that.", "no claim: a greeting, thanks or apology"),
        (
            "I'm happy to look into other flights for you.",
            "no claim: a greeting, thanks or apology",
        ),
        ("Hope everything's OK at home.", "no claim: a greeting, thanks or apology"),
        ("Yes, that works.", "no claim: a greeting, thanks or apology"),
        ("I'm here to assist.", "no claim: a greeting, thanks or apology"),
        ("I appreciate you providing those details.", "no claim: a greeting, thanks or apology"),
        ("That's a creative idea!", "no claim: a greeting, thanks or apology"),
        ("You’re very welcome!", "no claim: a greeting, thanks or apology"),
        ("I really wish I could help with this.", "no claim: a greeting, thanks or apology"),
        ("(No change fee needed.)", "no claim: a greeting, thanks or apology"),
        (
            "Given these circumstances, I'm unable to process your requests.",
            "no claim: a plan, an offer or an ability",
        ),
        (
            "If the order is already delivered, I won't be able to change the address.",
            "no claim: a plan, an offer or an ability",
        ),
        (
            "I understand what you're trying to do, but unfortunately, I'm not able to do it.",
            "no claim: a plan, an offer or an ability",
        ),
        ("You're all set!", "no claim: a greeting, thanks or apology"),
        (
            "I don't need anything else from you at this time.",
            "no claim: a greeting, thanks or apology",
        ),
        ("**Which option would you like to choose?**", "no claim: a question"),
        (
            'After confirmation: status "return requested", an email with return steps',
            "no claim: what will happen",
        ),
    ],
)
def test_a_sentence_with_no_claim_keeps_the_reason_it_was_skipped(text: str, reason: str) -> None:
    (s,) = Gate().validate(text, now=NOW).sentences
    assert (s.tag, s.action, s.reasons) == (None, "pass", [reason])


PLAN_ORDER = Receipt(
    id="call_1",
    kind="tool",
    tool="get_order_details",
    content='{"order_id": "#W1", "items": [{"name": "Desk Lamp", "item_id": "5320792178"}]}',
)


@pytest.mark.parametrize(
    "lead",
    [
        "Here's what we'll do:",
        "To proceed with booking your reservation, I'll need the following details:",
        "Please provide the following:",
        "### To set up your return",  # a heading that says what the list is for
        "To update the delivery address I need two things.",  # a sentence of what is needed
        # the choices a question or an offer lays out
        "Is it:",
        "So for the upgrade, you would need to use one of these:",
    ],
)
def test_the_items_of_a_plan_or_a_request_are_no_general_statements(lead: str) -> None:
    text = f"{lead}\n\n1. Origin and destination airports.\n2. Modify the order to add the lamp."

    result = Gate().validate(text, receipts=[PLAN_ORDER], now=NOW)

    items = result.sentences[1:]
    assert [(s.tag, s.action) for s in items] == [(None, "pass")] * 2
    assert items[0].reasons == [
        "no claim: an item of a plan or a request (the list under the line before)"
    ]
    assert result.verdict == "pass"


def test_an_item_under_a_plan_is_still_checked_for_its_ids() -> None:
    text = (
        "Please confirm the following details:\n\n"
        "- Order ID: #W1\n"
        "- Item to return: Desk Lamp (Item ID: 5320792999)"
    )

    result = Gate().validate(text, receipts=[PLAN_ORDER], now=NOW)

    assert result.sentences[-1].action == "block"


def test_the_items_under_a_report_stay_statements() -> None:
    text = "Here is what I found:\n\n- The warehouse moved to a new building last spring."

    result = Gate().validate(text, receipts=[PLAN_ORDER], now=NOW)

    assert (result.sentences[-1].tag, result.sentences[-1].action) == ("T3", "warn")


def test_empathy_that_goes_on_to_a_claim_is_checked() -> None:
    result = Gate().validate("I understand your concern, but the fee is $100.", now=NOW)
    assert result.sentences[0].action == "block"


@pytest.mark.parametrize(
    "text",
    [
        "I really do empathize with your situation.",
        "I appreciate the detailed information!",
        "I completely understand your desire to stay within your budget.",
        "I understand your budget concern, but unfortunately I'm not able to do that.",
        "I appreciate the trust, but I'm not able to make payment decisions for you.",
    ],
)
def test_sympathy_and_then_a_limit_of_the_agent_carry_no_claim(text: str) -> None:
    result = Gate().validate(text, now=NOW)
    assert [(s.tag, s.action) for s in result.sentences] == [(None, "pass")]


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("I don’t have an exact ship date in this system.", False),
        ("I don't have a view here into whether drop-off is offered.", False),
        ("I don't have a way to fetch the carrier.", False),
        # what a look-up found is still a claim about the records
        ("We don't have any seats available on that flight.", True),
        ("I don't have any record of order #W1.", True),
    ],
)
def test_what_the_agent_itself_cannot_see_is_no_claim(text: str, claims: bool) -> None:
    result = Gate().validate(text, now=NOW)
    assert (result.sentences[0].tag is not None) == claims, result.sentences[0].reasons


def test_sympathy_and_then_what_the_agent_did_is_checked() -> None:
    result = Gate().validate("I understand your concern, but I have cancelled the order.", now=NOW)
    assert result.sentences[0].action == "block"


def test_the_items_under_a_question_are_what_it_asks_for() -> None:
    text = "Could you share the new address?\n\n- Address line 1\n- Address line 2 (if any)"
    result = Gate().validate(text, receipts=[PLAN_ORDER], now=NOW)
    assert [(s.tag, s.action) for s in result.sentences[1:]] == [(None, "pass")] * 2


def test_a_table_header_row_is_a_label() -> None:
    text = "I'll need these details:\n\n| Field | Your new value |\n|---|---|\n| City | ? |"
    result = Gate().validate(text, receipts=[PLAN_ORDER], now=NOW)
    header = next(s for s in result.sentences if s.text.startswith("| Field"))
    assert (header.tag, header.reasons) == (None, ["no claim: a label for the lines under it"])


def test_a_sentence_that_goes_on_after_unchanged_keeps_its_claims() -> None:
    text = "It was rejected because the flight left on May 13, so XEWRD9 is still unchanged."
    result = Gate().validate(text, receipts=[PLAN_ORDER], now=NOW)
    assert result.sentences[0].action == "block"


@pytest.mark.parametrize(
    "text",
    [
        # items under a title of what the agent still needs
        "**What I need next:**\n* **Order ID** for the order with the lamp\n* **Refund method:** "
        "the original card or a gift card",
        # a numbered section title over the items, and a later section that states facts
        "1. **What I need to proceed**\n   - **User ID:** required to open the reservation",
        # a request's outcome under a section, no record's status
        "1. **Flight change**\n   - **Status:** Not possible",
    ],
)
def test_items_of_what_is_needed_and_request_outcomes_claim_nothing(text: str) -> None:
    result = Gate().validate(text, now=NOW)
    assert all(s.tag is None for s in result.sentences), [(s.text, s.tag) for s in result.sentences]


def test_an_option_keeps_its_price_and_a_step_title_keeps_the_claims_under_it() -> None:
    gate = Gate()
    # an option laid out for the user is no claim, but the amount and the item it quotes
    # are claims
    offer = gate.validate("- **Cancel the reservation** and get a refund of $584.")
    assert offer.verdict == "block"
    assert "Unsupported financial figure '$584'" in " ".join(offer.sentences[0].reasons)
    item = gate.validate("- **Desk Lamp**: Change to Black (Item ID: 9523846355)")
    assert "9523846355" in " ".join(item.sentences[0].reasons)
    # a title naming a step ("**Cancel Reservation XEHM4B**:") heads what is true of it
    steps = gate.validate(
        "Here are the steps:\n\n**Cancel Reservation XEHM4B**:\n"
        "- The reservation can be canceled for a full refund."
    )
    assert steps.sentences[-1].tag == "T3"


def test_the_items_under_a_lead_that_gives_its_reasons_are_claims() -> None:
    # "Let me finish the task since:" plans one thing; the items say why, and are claims
    result = Gate().validate(
        "Let me finish the task since:\n- The bug has been identified and fixed\n"
        "- All tests are passing"
    )
    assert [s.tag for s in result.sentences[1:]] == ["T3", "T5"]
    assert result.verdict == "block"
