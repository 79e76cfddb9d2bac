"""Availability claims against a product's variants (checks/records.check_availability).

A retail agent looked up a product whose variants carry an ``available`` flag. A sentence
describes the variants it means by the option values it names; "available" needs one of
them available, "not available" none (or no variant with that combination at all).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from tool_transcripts import tool_transcript

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
VACUUM = {
    "name": "Vacuum Cleaner",
    "product_id": "1762337868",
    "variants": {
        "7958300294": {
            "item_id": "7958300294",
            "options": {"type": "canister", "bagged/bagless": "bagless", "features": "pet hair"},
            "available": True,
            "price": 642.72,
        },
        "1304426904": {
            "item_id": "1304426904",
            "options": {"type": "canister", "bagged/bagless": "bagless", "features": "HEPA"},
            "available": False,
            "price": 565.79,
        },
        "4806644905": {
            "item_id": "4806644905",
            "options": {"type": "robotic", "bagged/bagless": "bagged", "features": "cordless"},
            "available": False,
            "price": 658.89,
        },
    },
}
LOOKUP = Receipt(id="c1", kind="tool", tool="get_product_details", content=json.dumps(VACUUM))


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # one of the two canister bagless variants is available
        ("The canister-based vacuum cleaner with a bagless option is available.", "pass"),
        # the only robotic one is not
        ("The robotic vacuum cleaner is available.", "block"),
        ("Unfortunately, the robotic vacuum cleaner is not available.", "pass"),
        # no variant is robotic and bagless: that combination is not available
        ("A robotic, bagless vacuum cleaner is not available.", "pass"),
    ],
)
def test_availability_follows_the_variants_the_sentence_describes(text: str, verdict: str) -> None:
    result = Gate().validate(text, receipts=[LOOKUP], now=NOW)
    assert result.verdict == verdict, result.reason


def test_a_lookup_that_found_nothing_backs_i_could_not_find_it() -> None:
    failed = Receipt(
        id="c2", kind="tool", tool="find_user_id_by_zip", content="Error: user not found", ok=False
    )
    result = Gate().validate(
        "I'm still unable to locate your account with the updated zip code.",
        receipts=[failed],
        now=NOW,
    )
    assert (result.verdict, result.sentences[0].tag) == ("pass", "T1")


SHIRTS = Receipt(
    id="c3",
    kind="tool",
    tool="get_product_details",
    content=json.dumps(
        {
            "name": "T-Shirt",
            "product_id": "9523456873",
            "variants": {
                "9612497925": {"item_id": "9612497925", "options": {"color": "blue"},
                               "available": False, "price": 50.88},
                "8124970213": {"item_id": "8124970213", "options": {"color": "red"},
                               "available": True, "price": 49.67},
            },
        }
    ),
)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("None of the T-shirts are available.", "block"),  # the red one is
        ("All the T-shirts are available.", "block"),  # the blue one is not
        ("None of the blue T-shirts are available.", "pass"),
        ("All the red T-shirts are available.", "pass"),
        ("The blue T-shirt is not available.", "pass"),
    ],
)
def test_a_quantified_availability_holds_for_every_variant_meant(text: str, verdict: str) -> None:
    result = Gate().validate(text, receipts=[SHIRTS], now=NOW)
    assert result.verdict == verdict, result.reason


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # no variant is robotic and bagless: there is no such vacuum
        ("There's no robotic bagless vacuum cleaner in our catalog.", "pass"),
        # a canister one with pet hair features exists, in stock
        ("There's no canister vacuum cleaner with pet hair features.", "block"),
        # the "no" of the first clause does not turn the second one around
        ("There's no robotic bagless vacuum cleaner, but other options are available.", "pass"),
    ],
)
def test_there_is_no_such_product_when_no_variant_holds_those_values(
    text: str, verdict: str
) -> None:
    result = Gate().validate(text, receipts=[LOOKUP], now=NOW)
    assert result.verdict == verdict, result.reason


def test_other_options_are_available_when_some_variant_of_the_product_is() -> None:
    sold_out = {
        **VACUUM,
        "variants": {k: {**v, "available": False} for k, v in VACUUM["variants"].items()},
    }
    none_left = Receipt(
        id="c1", kind="tool", tool="get_product_details", content=json.dumps(sold_out)
    )
    text = "That vacuum cleaner is not in stock, but other options are available."
    assert Gate().validate(text, receipts=[LOOKUP], now=NOW).verdict == "pass"
    assert Gate().validate(text, receipts=[none_left], now=NOW).verdict == "block"


def test_results_are_available_when_the_search_named_by_the_sentence_found_some() -> None:
    flight = {"flight_number": "HAT169", "origin": "JFK", "destination": "SEA", "price": 120}
    direct = ("search_direct_flight", {"origin": "JFK", "destination": "SEA"}, [flight])
    onestop = ("search_onestop_flight", {"origin": "SEA", "destination": "JFK"}, [])
    now = datetime(2024, 5, 15, tzinfo=UTC)

    def tags(text: str, *calls: tuple[str, dict[str, object], object]) -> str | None:
        result = Gate().validate(text, receipts=tool_transcript(calls), now=now)
        return result.sentences[0].tag

    assert tags("Direct flights are available from JFK.", direct) == "T1"
    # the one-stop search found nothing: it backs no one-stop flights
    assert tags("One-stop flights are available from SEA.", onestop) != "T1"


@pytest.mark.parametrize(
    ("count", "tag"), [("3", "T1"), ("4", "T5"), ("**3**", "T1"), ("**4**", "T5")]
)
def test_the_variants_of_a_product_keyed_by_their_ids_are_counted(count: str, tag: str) -> None:
    result = Gate().validate(
        f"The vacuum cleaner comes in {count} variants.", receipts=[LOOKUP], now=NOW
    )
    assert result.sentences[0].tag == tag, result.reason


@pytest.mark.parametrize(("count", "tag"), [("1 is", "T1"), ("2 are", "T5")])
def test_how_many_variants_are_available_is_counted_over_the_products_rows(
    count: str, tag: str
) -> None:
    text = f"The vacuum cleaner has 3 variants, of which {count} currently available."
    result = Gate().validate(text, receipts=[LOOKUP], now=NOW)
    assert result.sentences[0].tag == tag, result.reason


@pytest.mark.parametrize("name", ["Size 2", "Item 2", "Option 2"])
def test_a_number_that_names_a_variant_is_no_count_of_the_available_ones(name: str) -> None:
    # one T-shirt of two is available: "Size 2 is available" names a size, counts nothing
    result = Gate().validate(f"{name} is available.", receipts=[SHIRTS], now=NOW)
    assert not any("1 of 2 available" in r for r in result.sentences[0].reasons), result.reason
    counted = Gate().validate("2 of the T-shirts are available.", receipts=[SHIRTS], now=NOW)
    assert "1 of 2 available" in counted.reason


def test_a_quoted_term_no_result_holds_backs_its_absence() -> None:
    result = Gate().validate(
        'We don\'t have a "Google Home" option for the T-shirt.', receipts=[SHIRTS], now=NOW
    )
    assert result.sentences[0].tag == "T1", result.reason
    # the catalogue does hold "red": its absence is not backed by the quote
    held = Gate().validate('There\'s no "red" option for the T-shirt.', receipts=[SHIRTS], now=NOW)
    assert held.sentences[0].tag != "T1", held.reason


# ------------------------------------------------ a state a call returned by itself


def _statuses(*answers: tuple[str, str]) -> list[Receipt]:
    return tool_transcript(
        [
            ("get_flight_status", {"flight_number": flight, "date": "2026-03-20"}, state)
            for flight, state in answers
        ]
    )


@pytest.mark.parametrize(
    ("text", "answers", "verdict"),
    [
        ("HAT023 is available.", [("HAT023", "available")], "pass"),
        ("HAT023 is not available.", [("HAT023", "available")], "block"),
        ("HAT023 is available.", [("HAT023", "delayed")], "block"),
        (
            "All flights are still available.",
            [("HAT023", "available"), ("HAT204", "available")],
            "pass",
        ),
        (
            "All flights are still available.",
            [("HAT023", "available"), ("HAT204", "delayed")],
            "block",
        ),
        # "all" after the verb says the same
        (
            "The flights are all still available.",
            [("HAT023", "available"), ("HAT204", "available")],
            "pass",
        ),
        (
            "The flights are all available.",
            [("HAT023", "available"), ("HAT204", "delayed")],
            "block",
        ),
        # "both", and a word of which ones before the noun
        (
            "Good, both return flights are still available.",
            [("HAT023", "available"), ("HAT204", "available")],
            "pass",
        ),
        (
            "Both flights are available.",
            [("HAT023", "available"), ("HAT204", "delayed")],
            "block",
        ),
        # "all remaining flights" are not every flight asked about: no answer of theirs
        (
            "The two flights that already flew landed, and all remaining flights are available.",
            [("HAT271", "landed"), ("HAT268", "available"), ("HAT010", "available")],
            "flag",
        ),
        # "both" of the two the newest calls asked about, not an earlier leg's flight
        (
            "Good, both flights are still available.",
            [("HAT214", "landed"), ("HAT268", "available"), ("HAT010", "available")],
            "pass",
        ),
        (
            "Good, both flights are still available.",
            [("HAT214", "available"), ("HAT268", "available"), ("HAT010", "delayed")],
            "block",
        ),
        # a label of the options below, no state
        ("Here are all available economy options:", [("HAT023", "delayed")], "pass"),
        # another kind of thing than the calls asked about: no answer of theirs
        ("All the rooms are available.", [("HAT023", "available")], "flag"),
        # a flight the sentence names, but the availability is of something else
        (
            "I'll keep watching HAT039 and tell you when new information is available.",
            [("HAT039", "delayed")],
            "pass",
        ),
    ],
)
def test_a_state_a_status_call_returned_is_the_state_of_what_its_arguments_name(
    text: str, answers: list[tuple[str, str]], verdict: str
) -> None:
    result = Gate().validate(text, receipts=_statuses(*answers), now=NOW)
    assert result.verdict == verdict, result.reason


def _empty_searches(*days: str) -> list[Receipt]:
    # the return search of March 23 found a flight unless it is among the empty ones
    back = [] if "2026-03-23" in days else [{"flight_number": "HAT101", "date": "2026-03-23"}]
    calls = [
        ("search_direct_flight", {"origin": "SFO", "destination": "JFK", "date": day}, [])
        for day in days
    ]
    calls.append(
        (
            "search_direct_flight",
            {"origin": "JFK", "destination": "SFO", "date": "2026-03-23"},
            back,
        )
    )
    return tool_transcript(calls)


@pytest.mark.parametrize(
    ("days", "verdict"),
    [
        (("2026-03-19", "2026-03-23"), "pass"),
        # the search of the return day found a flight: the empty one of March 19 does not
        # back "no flights" on both days
        (("2026-03-19",), "flag"),
    ],
)
def test_no_flights_on_days_needs_a_search_of_each_day_that_found_nothing(
    days: tuple[str, ...], verdict: str
) -> None:
    text = "There are no direct flights from SFO on March 19 or March 23."
    assert Gate().validate(text, receipts=_empty_searches(*days), now=NOW).verdict == verdict


@pytest.mark.parametrize(
    ("item", "line", "action"),
    [
        ("7958300294", "Availability: In stock", "pass"),
        ("1304426904", "Availability: Out of stock", "pass"),
        ("1304426904", "Availability: In stock", "block"),
        ("7958300294", "Availability: not available", "block"),
    ],
)
def test_an_availability_line_under_an_item_is_that_items(
    item: str, line: str, action: str
) -> None:
    receipts = tool_transcript([("get_product_details", {"product_id": "1762337868"}, VACUUM)])
    text = f"Your new vacuum:\n- Item: {item}\n- {line}\n"
    result = Gate().validate(text, receipts=receipts, now=NOW)
    last = result.sentences[-1]
    assert last.action == action, (last.tag, last.reasons)


@pytest.mark.parametrize(
    ("item", "said", "action"),
    [
        ("1304426904", "It is currently out of stock.", "pass"),
        ("7958300294", "It is currently out of stock.", "block"),
        # another variant of the product is available: not the one the sentence named
        ("1304426904", "It is currently available.", "block"),
        ("7958300294", "It is still available.", "pass"),
    ],
)
def test_it_is_out_of_stock_is_said_of_the_item_the_sentence_before_named(
    item: str, said: str, action: str
) -> None:
    receipts = tool_transcript([("get_product_details", {"product_id": "1762337868"}, VACUUM)])
    text = f"I checked the vacuum you asked about (item_id {item}). {said}"
    last = Gate().validate(text, receipts=receipts, now=NOW).sentences[-1]
    assert last.action == action, (last.tag, last.reasons)
