"""Figures the agent worked out in an earlier reply, said again (pipeline/carried).

An airline agent found the cheapest business round trip and, in one reply, added its
fares up to $871 a passenger. Two turns later it writes the payment plan: "Flight cost:
$871", the certificate and gift card taken off, the rest on the Mastercard. No record
holds $871 and the plan names no flight: the earlier reply is checked again against the
receipts before it, and what it worked out there backs the same figure now. What it
got wrong, what changed since and what belongs to another record stay unbacked.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, ValidationResult, parse_receipts
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.policy.policy_file import ClaimPolicy

NOW = datetime(2024, 5, 15, 15, tzinfo=UTC)
GATE = Gate()

USER = {
    "user_id": "mo_9265",
    "payment_methods": {
        "certificate_3765853": {"source": "certificate", "amount": 500, "id": "cert_1"},
        "gift_card_8020792": {"source": "gift_card", "amount": 198, "id": "gift_card_8020792"},
        "credit_card_2198526": {"source": "credit_card", "brand": "mastercard", "id": "cc_1"},
    },
}


def _flight(number: str, origin: str, destination: str, business: int) -> dict[str, Any]:
    return {
        "flight_number": number,
        "origin": origin,
        "destination": destination,
        "prices": {"business": business},
    }


OUT = [_flight("HAT023", "JFK", "SFO", 364)]
BACK = [[_flight("HAT204", "SFO", "SEA", 248), _flight("HAT100", "SEA", "JFK", 259)]]
WORKED_OUT = (
    "The cheapest business itinerary:\n- HAT023 JFK → SFO: $364\n"
    "- HAT204 + HAT100 SFO → SEA → JFK: $507\n\n**Total per passenger: {}**"
)
PLAN = (
    "Here is the payment plan:\n- Flight cost: {}\n- Certificate: -$500\n"
    "- Gift card: -$198\n- **Mastercard: {}**"
)


def _call(i: int, name: str, args: dict[str, Any], out: Any) -> list[dict[str, Any]]:
    function = {"name": name, "arguments": json.dumps(args)}
    call = {"id": f"c{i}", "type": "function", "function": function}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"c{i}", "content": json.dumps(out)},
    ]


def _conversation(*earlier: str) -> list[Receipt]:
    """The look-ups, then the agent's earlier replies, each answered by the user."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Cheapest business, please."}]
    messages += _call(0, "get_user_details", {"user_id": "mo_9265"}, USER)
    messages += _call(1, "search_direct_flight", {"origin": "JFK", "destination": "SFO"}, OUT)
    messages += _call(2, "search_onestop_flight", {"origin": "SFO", "destination": "JFK"}, BACK)
    for text in earlier:
        messages += [
            {"role": "assistant", "content": text},
            {"role": "user", "content": "Certificate and gift card first, then my Mastercard."},
        ]
    return parse_receipts(json.dumps({"messages": messages}))


def _check(text: str, *earlier: str) -> ValidationResult:
    return GATE.validate(text, receipts=_conversation(*earlier), now=NOW)


def _action(result: ValidationResult, part: str) -> str:
    return next(s.action for s in result.sentences if part in s.text)


def test_when_an_earlier_reply_worked_the_figure_out_then_saying_it_again_passes() -> None:
    result = _check(PLAN.format("$871", "$173"), WORKED_OUT.format("$871"))

    assert result.verdict == "pass", result.reason
    details = [e.detail for s in result.sentences for e in s.evidence]
    carried = "said before (reply a1): derived: 871 = 507 + 364 (a line above, [0].prices.business)"
    assert carried in details
    # what is left once the lines under the fare are taken off
    assert "derived: 173 = 871 − 500 − 198 (the lines above)" in details


def test_a_figure_said_again_over_several_replies_goes_back_to_where_it_was_worked_out() -> None:
    earlier = (WORKED_OUT.format("$871"), "So $871 a passenger.", "Yes, $871 each.")
    result = _check(PLAN.format("$871", "$173"), *earlier)

    assert result.verdict == "pass", result.reason
    details = [e.detail for s in result.sentences for e in s.evidence]
    assert any(d.startswith("said before (reply a3): derived: 871 = ") for d in details)


def test_a_figure_worked_out_above_is_a_term_of_a_sum_below() -> None:
    plan = PLAN.format("$871", "$173") + "\n\nCard and certificate: $173 + $500 = $673."
    result = _check(plan, WORKED_OUT.format("$871"))

    assert result.verdict == "pass", result.reason
    (total,) = [s for s in result.sentences if "$673" in s.text]
    # the $173 term is the one the line above worked out from the $871 said before
    assert any(e.detail.startswith("derived: 173 = 871 − ") for e in total.evidence)


def test_when_the_figure_changed_since_the_earlier_reply_then_it_is_blocked() -> None:
    result = _check(PLAN.format("$881", "$183"), WORKED_OUT.format("$871"))

    assert _action(result, "Flight cost") == "block"
    assert _action(result, "Mastercard") == "block"


def test_when_the_earlier_reply_got_the_figure_wrong_then_saying_it_again_is_blocked() -> None:
    # $881 was no sum of the fares there either: the earlier reply backs nothing
    result = _check(PLAN.format("$881", "$183"), WORKED_OUT.format("$881"))

    assert _action(result, "Flight cost") == "block"


def test_when_no_earlier_reply_states_the_figure_then_it_is_unsupported() -> None:
    result = _check(PLAN.format("$871", "$173"))

    assert _action(result, "Flight cost") == "block"
    assert "no receipt holds $871" in " ".join(result.sentences[1].reasons)


def test_a_value_an_earlier_reply_read_off_another_record_is_not_carried() -> None:
    # the earlier reply backs $364 with HAT023's fare; HAT100's business fare is $259
    result = _check("HAT100 costs $364 in business.", WORKED_OUT.format("$871"))

    assert result.verdict == "block"
    assert not any("said before" in e.detail for s in result.sentences for e in s.evidence)


def test_the_agents_earlier_words_are_kept_apart_from_the_evidence() -> None:
    receipts = _conversation(WORKED_OUT.format("$871"))
    replies = [r for r in receipts if r.kind == "reply"]
    assert [(r.id, r.effective_trust) for r in replies] == [("a1", "untrusted")]
    index = ReceiptIndex(receipts, now=NOW)
    # never indexed: no lookup finds the reply's words, and the order is kept for rechecks
    assert all(e.receipt.kind != "reply" for e in index.entries)
    assert [r.id for r in index.given()] == [r.id for r in receipts]
    assert [r.id for r in index.given(before_reply=0)] == [r.id for r in receipts[:4]]
    # on its own, a reply the agent gave is no evidence: "$871" in it backs nothing
    alone = GATE.validate("The fare is $871.", receipts=[*replies], now=NOW)
    assert alone.verdict != "pass"


@pytest.mark.parametrize("as_index", [False, True])
def test_a_trust_floor_drops_no_earlier_reply_and_counts_none_as_ignored(as_index: bool) -> None:
    # the replies are untrusted, but they are no evidence: "evidence.minTrust" keeps them
    strict = Gate(policy=ClaimPolicy.model_validate({"evidence": {"minTrust": "local"}}))
    receipts: list[Receipt] | ReceiptIndex = _conversation(WORKED_OUT.format("$871"))
    if as_index:
        receipts = ReceiptIndex(receipts, now=NOW)  # type: ignore[arg-type]
    result = strict.validate(PLAN.format("$871", "$173"), receipts=receipts, now=NOW)
    assert result.verdict == "pass", result.reason
    assert not any("evidence.minTrust" in n for n in result.notes)


def test_a_product_restated_below_keeps_the_receipt_of_its_amount() -> None:
    # "× 3" is a count: the fare's receipt backs the product, and so its restatement
    result = _check("HAT023 for three: $364 × 3 = $1,092.\n\n**Total: $1,092**")

    assert result.verdict == "pass", result.reason
    assert [s.tag for s in result.sentences] == ["T1", "T1"]
    assert result.sentences[1].evidence[0].id == "c1"  # the search that holds the fare


@pytest.mark.parametrize(("rest", "verdict"), [("$673", "pass"), ("$683", "block")])
def test_two_options_are_each_worked_out_from_the_one_total_above(rest: str, verdict: str) -> None:
    plan = (
        "Flight cost: $871\n\n**Option A:**\n- Certificate: -$500\n- **Mastercard: $371**\n\n"
        f"**Option B:**\n- Gift card: -$198\n- **Mastercard: {rest}**"
    )
    result = _check(plan, WORKED_OUT.format("$871"))
    assert result.verdict == verdict, result.reason
    if verdict == "pass":
        details = [e.detail for s in result.sentences for e in s.evidence]
        assert "derived: 673 = 871 − 198 (the lines above)" in details


@pytest.mark.parametrize(("total", "action"), [("$2,613", "pass"), ("$2,631", "block")])
def test_a_figure_carried_twice_keeps_the_receipt_behind_its_first_reply(
    total: str, action: str
) -> None:
    # reply 1 works out $871 from the fares; reply 2 multiplies the carried $871 by the
    # heads; reply 3 restates reply 2's result: the fares still back it, through both
    first = WORKED_OUT.format("$871")
    second = "For the 3 passengers: 3 passengers × $871 = $2,613."
    receipts = _conversation(first, second)
    result = GATE.validate(f"**Total cost:** {total}", receipts=receipts, now=NOW)
    sentence = result.sentences[0]
    assert sentence.action == action, sentence.reasons
    if action == "pass":
        assert sentence.tag == "T1"
        assert any("said before" in e.detail for e in sentence.evidence)
