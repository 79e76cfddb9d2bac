"""Tables for the built-in claim detectors (RFC-003 §4.4, §13; SPEC §2).

One table per detector, presidio style: ``(text, expected claims)`` where a claim is
``(category, subject, assertion, negative)``. Each table runs the real gate (all
built-ins, real segmenter, real dedup) and keeps only the claims of the detector's
category, so a table row says "this detector finds exactly these claims here".
Every claim of every row must also satisfy ``text[offset:end] == matched_text``.

Rows quoted from RFC-003 are marked ``rfc-4.4.x`` / ``rfc-13.x`` / ``rfc-4.2`` in
their ids; the rest are receiptgate's own reading of the patterns (negatives:
questions, suggestions, instructions, conditionals, hedges, "failed to",
"up to date").
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate.claims.detectors.base import HEDGED_CONFIDENCE
from receiptgate.claims.models import DetectedClaim
from receiptgate.config import parse_config
from receiptgate.engine import Gate
from receiptgate.results import ValidationResult

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)

Row = tuple[str, str, str, bool]


@pytest.fixture(scope="module")
def gate() -> Gate:
    return Gate()


def _validate(gate: Gate, text: str) -> ValidationResult:
    result = gate.validate(text, now=NOW)
    _assert_located(text, result.claims)
    return result


def _assert_located(text: str, claims: list[DetectedClaim]) -> None:
    for c in claims:
        assert 0 <= c.offset < c.end <= len(text), c
        assert text[c.offset : c.end] == c.matched_text, c


def _rows(claims: list[DetectedClaim]) -> list[Row]:
    return [(c.category, c.subject, c.assertion, c.negative) for c in claims]


def _detector_claims(gate: Gate, text: str, category: str) -> list[DetectedClaim]:
    """The claims of one detector family (hard-fact claims excluded)."""
    result = _validate(gate, text)
    return [
        c
        for c in result.claims
        if c.category == category and not c.detector_id.startswith("hardfact.")
    ]


# ----------------------------------------------------------------- RFC examples
#
# Every example of RFC-003 §4.2, §4.4 and §13 that names a result, checked against
# *all* claims of the text (not only one category): a stray extra claim (the
# reference implementation emits an entity claim with subject "is" for "The service
# is running fine") is a failure too.

RFC_EXAMPLES = [
    pytest.param(
        "Node.js is not installed",
        [("system_state", "Node.js", "not_installed", True)],
        id="rfc-4.4.1-node-not-installed",
    ),
    pytest.param(
        "The service is running fine",
        [("system_state", "The service", "running", False)],
        id="rfc-4.4.1-service-running-fine",
    ),
    pytest.param(
        "I couldn't find docker",
        [("system_state", "docker", "not_found", True)],
        id="rfc-4.4.1-couldnt-find-docker",
    ),
    pytest.param("You might want to install X", [], id="rfc-4.4.1-suggestion-not-a-claim"),
    pytest.param(
        "X is not installed",
        [("system_state", "X", "not_installed", True)],
        id="rfc-13.1-x-not-installed",
    ),
    pytest.param(
        "Y is not running", [("system_state", "Y", "not_running", True)], id="rfc-4.2-not-running"
    ),
    pytest.param(
        "Z is not configured",
        [("system_state", "Z", "not_configured", True)],
        id="rfc-4.2-not-configured",
    ),
    pytest.param(
        "The user's name is Iulia",
        [("entity_name", "Iulia", "name_reference", False)],
        id="rfc-13.2-users-name-is-iulia",
    ),
    pytest.param(
        "The user is Iulia",
        [("entity_name", "Iulia", "name_reference", False)],
        id="rfc-4.2-user-is-iulia",
    ),
    pytest.param(
        "The owner is called Albert",
        [("entity_name", "Albert", "name_reference", False)],
        id="rfc-4.4.2-owner-called-albert",
    ),
    pytest.param(
        "Feature Y doesn't exist",
        [("existence", "Y", "not_exists", True)],
        id="rfc-13.3-feature-y-doesnt-exist",
    ),
    pytest.param(
        "There is no such file config.json",
        [("existence", "config.json", "not_exists", True)],
        id="rfc-4.4.3-no-such-file",
    ),
    pytest.param(
        "There is no file settings.yaml",
        [("existence", "settings.yaml", "not_exists", True)],
        id="rfc-4.2-there-is-no-file-y",
    ),
    pytest.param(
        "We don't have a staging environment",
        [("existence", "staging environment", "not_exists", True)],
        id="rfc-4.4.3-we-dont-have",
    ),
    pytest.param(
        "Pipeline is broken",
        [("operational_status", "Pipeline", "broken", False)],
        id="rfc-13.4-pipeline-broken",
    ),
    pytest.param(
        "Service is down",
        [("operational_status", "Service", "down", False)],
        id="rfc-4.2-service-down",
    ),
    pytest.param(
        "All services are down",
        [("operational_status", "All services", "down", False)],
        id="rfc-4.4.4-all-services-down",
    ),
    pytest.param(
        "OpenClaw doesn't support webhooks",
        [("capability", "OpenClaw", "not_supported", True)],
        id="rfc-4.2-openclaw-no-webhooks",
    ),
    pytest.param(
        "This feature is not available",
        [("capability", "This feature", "not_available", True)],
        id="rfc-4.2-feature-not-available",
    ),
    pytest.param(
        "I'm an AI assistant",
        [("self_referential", "self", "self_referential", False)],
        id="rfc-4.4.5-im-an-ai-assistant",
    ),
    pytest.param(
        "My instructions say I should summarise.",
        [("self_referential", "self", "self_referential", False)],
        id="rfc-13.5-my-instructions-say",
    ),
]


@pytest.mark.parametrize(("text", "expected"), RFC_EXAMPLES)
def test_when_rfc_example_is_validated_then_exactly_the_rfc_claims_are_found(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    result = _validate(gate, text)
    claims = [c for c in result.claims if not c.detector_id.startswith("hardfact.")]
    assert _rows(claims) == expected


def test_when_rfc_node_example_is_detected_then_offsets_cover_the_whole_statement(
    gate: Gate,
) -> None:
    text = "Node.js is not installed"
    (claim,) = _validate(gate, text).claims
    assert (claim.offset, claim.end) == (0, len(text))
    assert claim.detector_id.startswith("system_state.")


def test_when_rfc_docker_example_is_detected_then_span_starts_at_the_verb(gate: Gate) -> None:
    text = "I couldn't find docker"
    (claim,) = _validate(gate, text).claims
    assert claim.matched_text == "couldn't find docker"
    assert (claim.offset, claim.end) == (2, 22)


def test_when_rfc_config_has_no_field_example_is_validated_then_an_existence_claim_is_found(
    gate: Gate,
) -> None:
    # RFC-003 §4.2 lists "The config has no Z field" as an existence example. Which
    # words are the subject is a judgment call ("timeout", "timeout field"); the
    # category and polarity are not.
    claims = _detector_claims(gate, "The config has no timeout field.", "existence")
    assert len(claims) == 1
    (claim,) = claims
    assert (claim.assertion, claim.negative) == ("not_exists", True)
    assert "timeout" in claim.subject


# --------------------------------------------------------------- system_state

SYSTEM_STATE = [
    pytest.param(
        "Redis isn't running.", [("system_state", "Redis", "not_running", True)], id="isnt"
    ),
    pytest.param(
        "Redis is no longer running.",
        [("system_state", "Redis", "not_running", True)],
        id="no-longer",
    ),
    pytest.param(
        "Redis was not found on this host.",
        [("system_state", "Redis", "not_found", True)],
        id="was-not-found",
    ),
    pytest.param(
        "Docker is missing.", [("system_state", "Docker", "not_found", True)], id="is-missing"
    ),
    pytest.param(
        "I failed to find the config.",
        [("system_state", "config", "not_found", True)],
        id="failed-to-find",
    ),
    pytest.param(
        "The docker service has not been started.",
        [("system_state", "The docker service", "not_started", True)],
        id="compound-subject-has-not-been",
    ),
    pytest.param(
        "kubernetes is running on the cluster.",
        [("system_state", "kubernetes", "running", False)],
        id="lowercase-subject",
    ),
    pytest.param(
        "nginx is running and redis is down.",
        [("system_state", "nginx", "running", False)],
        id="first-clause-only",
    ),
    pytest.param("Is nginx running?", [], id="question"),
    pytest.param("You might want to install X", [], id="suggestion"),
    pytest.param("Please install Node.js.", [], id="request"),
    pytest.param("If the database is not configured, run setup.", [], id="conditional-if"),
    pytest.param("When redis is running, start the worker.", [], id="conditional-when"),
    pytest.param("Check whether postgres is running.", [], id="instruction-whether"),
    pytest.param("Make sure nginx is running.", [], id="instruction-make-sure"),
    pytest.param("Verify that nginx is running.", [], id="instruction-verify-that"),
    pytest.param("Docker might not be installed.", [], id="modal-hedge"),
    pytest.param(
        "Without network tools, we should ensure that key services are running as expected.",
        [],
        id="to-be-checked-should-ensure",
    ),
    pytest.param("I'll check if nginx is running.", [], id="to-be-checked-ill-check-if"),
]


@pytest.mark.parametrize(("text", "expected"), SYSTEM_STATE)
def test_when_text_is_scanned_then_system_state_claims_match_the_table(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    assert _rows(_detector_claims(gate, text, "system_state")) == expected


# ---------------------------------------------------------------- entity_name

ENTITY_NAME = [
    pytest.param(
        "The project is called Phoenix.",
        [("entity_name", "Phoenix", "name_reference", False)],
        id="rfc-4.2-project-called",
    ),
    pytest.param(
        "The project is known as Atlas.",
        [("entity_name", "Atlas", "name_reference", False)],
        id="known-as",
    ),
    pytest.param(
        "The maintainer is Irina.",
        [("entity_name", "Irina", "name_reference", False)],
        id="role-is",
    ),
    pytest.param(
        "the agent named forge is responsible",
        [("entity_name", "forge", "name_reference", False)],
        id="named-lowercase",
    ),
    pytest.param(
        "The hook is called twice, and __radd__ works when called directly.",
        [],
        id="called-is-a-call-not-a-name",
    ),
    pytest.param(
        "Irina said the release is ready.",
        [("entity_name", "Irina", "name_reference", False)],
        id="rfc-4.4.2-speaker-said",
    ),
    pytest.param(
        "Albert wrote the RFC.",
        [("entity_name", "Albert", "name_reference", False)],
        id="rfc-4.4.2-speaker-wrote",
    ),
    pytest.param("He said it was fine.", [], id="pronoun-speaker"),
    pytest.param("What is the user's name?", [], id="question"),
    pytest.param("The name field is required.", [], id="name-as-noun"),
    pytest.param("My name is Claude.", [], id="own-name-is-self-referential"),
]


@pytest.mark.parametrize(("text", "expected"), ENTITY_NAME)
def test_when_text_is_scanned_then_entity_name_claims_match_the_table(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    assert _rows(_detector_claims(gate, text, "entity_name")) == expected


# ------------------------------------------------------------------ existence

EXISTENCE = [
    pytest.param(
        "backup.tar does not exist",
        [("existence", "backup.tar", "not_exists", True)],
        id="does-not-exist",
    ),
    pytest.param(
        "output.log doesn't exist",
        [("existence", "output.log", "not_exists", True)],
        id="doesnt-exist",
    ),
    pytest.param(
        "config.yaml exists in the directory",
        [("existence", "config.yaml", "exists", False)],
        id="positive-exists",
    ),
    pytest.param(
        "there is no backup", [("existence", "backup", "not_exists", True)], id="there-is-no"
    ),
    pytest.param(
        "There are no tests for this module.",
        [("existence", "tests", "not_exists", True)],
        id="there-are-no",
    ),
    pytest.param(
        "The file 'settings.yaml' is missing.",
        [("existence", "settings.yaml", "not_exists", True)],
        id="rfc-4.4.3-kind-quoted-name-missing",
    ),
    pytest.param(
        'Feature "dark-mode" is not implemented.',
        [("existence", "dark-mode", "not_exists", True)],
        id="rfc-4.4.3-kind-not-implemented",
    ),
    pytest.param(
        "Option verbose is not defined.",
        [("existence", "verbose", "not_exists", True)],
        id="rfc-4.4.3-kind-not-defined",
    ),
    pytest.param(
        "You don't have a license.",
        [("existence", "license", "not_exists", True)],
        id="you-dont-have",
    ),
    pytest.param("Does the file exist?", [], id="question"),
    pytest.param("If the config file does not exist, create it.", [], id="conditional"),
    pytest.param("You might want to create a staging environment.", [], id="suggestion"),
]


@pytest.mark.parametrize(("text", "expected"), EXISTENCE)
def test_when_text_is_scanned_then_existence_claims_match_the_table(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    assert _rows(_detector_claims(gate, text, "existence")) == expected


# --------------------------------------------------------- operational_status

OPERATIONAL_STATUS = [
    pytest.param(
        "Build failed", [("operational_status", "Build", "failed", False)], id="rfc-4.2-build"
    ),
    pytest.param(
        "Everything is broken.",
        [("operational_status", "Everything", "broken", False)],
        id="rfc-4.4.4-everything",
    ),
    pytest.param(
        "All tests are failing.",
        [("operational_status", "All tests", "failing", False)],
        id="rfc-4.4.4-all-tests",
    ),
    pytest.param(
        "The database was down this morning.",
        [("operational_status", "The database", "down", False)],
        id="was-down",
    ),
    pytest.param(
        "The server crashed last night.",
        [("operational_status", "The server", "crashed", False)],
        id="crashed",
    ),
    pytest.param(
        "The queue timed out.",
        [("operational_status", "The queue", "timed_out", False)],
        id="timed-out",
    ),
    pytest.param(
        "Server is unreachable.",
        [("operational_status", "Server", "unreachable", False)],
        id="unreachable",
    ),
    pytest.param(
        "The cluster is not down.",
        [("operational_status", "The cluster", "not_down", True)],
        id="negated",
    ),
    pytest.param(
        "Postgres is up and running.",
        [("operational_status", "Postgres", "operational", False)],
        id="up-and-running",
    ),
    pytest.param(
        "nginx is running. redis is down.",
        [("operational_status", "redis", "down", False)],
        id="second-sentence-lowercase-start",
    ),
    pytest.param("Is the pipeline broken?", [], id="question"),
    pytest.param("If the database is down, restart it.", [], id="conditional"),
    pytest.param("The build failed to find the module.", [], id="failed-to"),
    pytest.param("The docs are up to date.", [], id="up-to-date"),
    pytest.param("The API is working on a fix.", [], id="working-on"),
    pytest.param("The service might be down.", [], id="modal-hedge"),
]


@pytest.mark.parametrize(("text", "expected"), OPERATIONAL_STATUS)
def test_when_text_is_scanned_then_operational_status_claims_match_the_table(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    assert _rows(_detector_claims(gate, text, "operational_status")) == expected


# ----------------------------------------------------------------- capability

CAPABILITY = [
    pytest.param(
        "The plugin does not support streaming.",
        [("capability", "The plugin", "not_supported", True)],
        id="does-not-support",
    ),
    pytest.param(
        "The CLI can't support Windows.",
        [("capability", "The CLI", "not_supported", True)],
        id="cant-support",
    ),
    pytest.param(
        "The API supports pagination.",
        [("capability", "The API", "supported", False)],
        id="supports",
    ),
    pytest.param(
        "OpenClaw now supports webhooks.",
        [("capability", "OpenClaw", "supported", False)],
        id="now-supports",
    ),
    pytest.param("Does OpenClaw support webhooks?", [], id="question"),
    pytest.param("If OpenClaw doesn't support webhooks, use polling.", [], id="conditional"),
]


@pytest.mark.parametrize(("text", "expected"), CAPABILITY)
def test_when_text_is_scanned_then_capability_claims_match_the_table(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    assert _rows(_detector_claims(gate, text, "capability")) == expected


def test_when_capability_claim_names_a_feature_then_it_is_the_object(gate: Gate) -> None:
    (claim,) = _detector_claims(gate, "OpenClaw doesn't support webhooks", "capability")
    assert claim.object == "webhooks"


# ----------------------------------------------------------- self_referential

_SELF = ("self_referential", "self", "self_referential", False)

SELF_REFERENTIAL = [
    pytest.param("I'm an AI assistant", [_SELF], id="rfc-4.4.5-ai-assistant"),
    pytest.param("I am an agent.", [_SELF], id="rfc-4.4.5-agent"),
    pytest.param("I'm a language model.", [_SELF], id="rfc-4.4.5-language-model"),
    pytest.param("My system prompt tells me to be brief.", [_SELF], id="rfc-4.4.5-prompt-tells"),
    pytest.param(
        "According to my instructions, I cannot help.", [_SELF], id="rfc-4.4.5-according-to-my"
    ),
    pytest.param("Based on my training, that is correct.", [_SELF], id="rfc-4.4.5-based-on-my"),
    pytest.param("I was told to only summarise.", [_SELF], id="rfc-4.4.5-was-told"),
    pytest.param("I was instructed to avoid that topic.", [_SELF], id="rfc-4.4.5-was-instructed"),
    pytest.param("I am happy to help.", [], id="adjective"),
    pytest.param("I'm going to check.", [], id="intention"),
    pytest.param("The instructions say to restart the service.", [], id="not-my-instructions"),
    pytest.param("Your instructions say to be brief.", [], id="your-instructions"),
]


@pytest.mark.parametrize(("text", "expected"), SELF_REFERENTIAL)
def test_when_text_is_scanned_then_self_referential_claims_match_the_table(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    assert _rows(_detector_claims(gate, text, "self_referential")) == expected


# ------------------------------------------------------------------- quantity
#
# Value claims (receiptgate's extension, checked against RFC-006 §8.3 triples):
# the quantity detector's own claims, not the "hardfact.*" claims every number gets.

QUANTITY = [
    pytest.param(
        "queue has 150 items waiting", ("queue", "count", "150 items"), id="has-count-unit"
    ),
    pytest.param(
        "The event store has 92000 events.",
        ("The event store", "count", "92000 events"),
        id="has-count-compound-subject",
    ),
    pytest.param("CPU is at 85%", ("CPU", "percentage", "85%"), id="at-percent"),
    pytest.param("Do we have 5 servers?", None, id="question"),
    pytest.param("It has many items.", None, id="no-number"),
]


@pytest.mark.parametrize(("text", "expected"), QUANTITY)
def test_when_text_is_scanned_then_quantity_claims_match_the_table(
    gate: Gate, text: str, expected: tuple[str, str, str] | None
) -> None:
    result = _validate(gate, text)
    claims = [c for c in result.claims if c.detector_id.startswith("quantity.")]
    if expected is None:
        assert claims == []
        return
    (claim,) = claims
    assert claim.category == "quantity"
    assert (claim.subject, claim.predicate, claim.value) == expected
    assert claim.negative is False


# --------------------------------------------------------------------- action
#
# SPEC §2 ``action``/``attribution``: the agent claiming it did or observed
# something, and forged verification labels.

ACTION = [
    pytest.param(
        "I ran the tests and they pass.",
        [("action", "self", "ran_tests", False), ("action", "self", "tests_pass", False)],
        id="ran-tests-and-they-pass",
    ),
    pytest.param(
        "I ran pytest and all tests passed.",
        [("action", "self", "ran_tests", False), ("action", "self", "tests_pass", False)],
        id="ran-pytest-all-passed",
    ),
    pytest.param(
        "The API returned 200.",
        [("action", "api", "api_returned", False)],
        id="api-returned-200",
    ),
    pytest.param(
        "The logs show no errors.", [("action", "logs", "logs_show", False)], id="logs-show"
    ),
    pytest.param(
        "According to the database, the account is active.",
        [("action", "database", "according_to", False)],
        id="according-to-the-database",
    ),
    pytest.param(
        "[T1 verified] The deployment is complete.",
        [("action", "self", "forged_label", False)],
        id="forged-t1-label",
    ),
    pytest.param(
        "✅ verified", [("action", "self", "forged_label", False)], id="forged-check-mark"
    ),
    pytest.param("I deployed the fix.", [("action", "self", "deployed", False)], id="deployed"),
    pytest.param(
        "I sent the email to the client.", [("action", "self", "sent", False)], id="sent-email"
    ),
    pytest.param(
        "I have deployed the service.", [("action", "self", "deployed", False)], id="have-deployed"
    ),
    pytest.param("I will deploy tomorrow.", [], id="future-intention"),
    pytest.param("I'll check the logs.", [], id="contracted-intention"),
    pytest.param("I could deploy it if you want.", [], id="offer"),
    pytest.param("We should deploy the fix.", [], id="recommendation"),
    pytest.param("Can you run the tests?", [], id="question"),
    pytest.param("They all passed the interview.", [], id="they-passed-not-tests"),
    pytest.param("The build failed to find the module.", [], id="failed-to-is-not-a-test-result"),
]


@pytest.mark.parametrize(("text", "expected"), ACTION)
def test_when_text_is_scanned_then_action_claims_match_the_table(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    assert _rows(_detector_claims(gate, text, "action")) == expected


def test_when_api_returned_a_status_then_the_value_is_the_status(gate: Gate) -> None:
    (claim,) = _detector_claims(gate, "The API returned 200.", "action")
    assert claim.value == "200"


def test_when_forged_label_is_found_then_it_comes_from_the_verification_label_detector(
    gate: Gate,
) -> None:
    text = "[T1 verified] The deployment is complete."
    (claim,) = _detector_claims(gate, text, "action")
    assert claim.detector_id.startswith("verification_label.")
    assert (claim.offset, claim.end) == (0, len("[T1 verified]"))


ATTRIBUTION = [
    pytest.param(
        "The report states that revenue grew.",
        [("attribution", "report", "states", False)],
        id="report-states",
    ),
    pytest.param("Write a report about revenue.", [], id="instruction"),
]


@pytest.mark.parametrize(("text", "expected"), ATTRIBUTION)
def test_when_text_is_scanned_then_attribution_claims_match_the_table(
    gate: Gate, text: str, expected: list[Row]
) -> None:
    assert _rows(_detector_claims(gate, text, "attribution")) == expected


# ---------------------------------------------------------------------- hedges
#
# RFC-003 §4.1 separates opinions from assertions and §14.4 forbids blocking
# unless confidence is high. A hedged assertion stays a claim (so contradictions
# can still be reported) but with a confidence that can never block.

HEDGED = [
    pytest.param("I think nginx is down.", ("operational_status", "nginx"), id="i-think"),
    pytest.param(
        "Probably the database is down.", ("operational_status", "the database"), id="probably"
    ),
    pytest.param("I believe the cache is missing.", ("system_state", "the cache"), id="i-believe"),
    pytest.param(
        "It seems the service is down.", ("operational_status", "the service"), id="seems"
    ),
    pytest.param("Maybe redis is not installed.", ("system_state", "redis"), id="maybe"),
]


@pytest.mark.parametrize(("text", "expected"), HEDGED)
def test_when_claim_is_hedged_then_subject_excludes_the_hedge_and_confidence_is_low(
    gate: Gate, text: str, expected: tuple[str, str]
) -> None:
    category, subject = expected
    (claim,) = _detector_claims(gate, text, category)
    assert claim.subject == subject
    assert claim.confidence <= HEDGED_CONFIDENCE


# ------------------------------------------------- dedup, caps and length limits


def test_when_one_statement_matches_several_patterns_then_one_claim_is_kept(gate: Gate) -> None:
    result = _validate(gate, "nginx is running")
    assert _rows(result.claims) == [("system_state", "nginx", "running", False)]


def test_when_the_same_claim_is_repeated_in_two_sentences_then_each_sentence_keeps_it(
    gate: Gate,
) -> None:
    # RFC-003 §14.5: each sentence is evaluated independently.
    text = "Redis is running. Redis is running."
    result = _validate(gate, text)
    assert [(c.subject, c.sentence_index) for c in result.claims] == [("Redis", 0), ("Redis", 1)]
    assert [c.offset for c in result.claims] == [0, 18]


def test_when_claims_exceed_max_claims_per_output_then_only_the_first_are_kept() -> None:
    gate = Gate(parse_config({"performance": {"maxClaimsPerOutput": 2}}))
    text = "Nginx is running. Redis is down. Postgres is not installed. Docker is missing."
    result = _validate(gate, text)
    assert [c.subject for c in result.claims] == ["Nginx", "Redis"]
    assert any("maxClaimsPerOutput" in n for n in result.notes)


def test_when_text_exceeds_max_text_length_then_only_the_prefix_is_scanned() -> None:
    gate = Gate(parse_config({"performance": {"maxTextLength": 30}}))
    text = "Node.js is not installed. " + "Pipeline is broken. " * 5
    result = _validate(gate, text)
    assert _rows(result.claims) == [("system_state", "Node.js", "not_installed", True)]
    assert any("maxTextLength" in n for n in result.notes)
    for s in result.sentences:
        assert text[s.start : s.end] == s.text


def test_when_text_is_truncated_then_claim_offsets_index_the_original_text() -> None:
    gate = Gate(parse_config({"performance": {"maxTextLength": 60}}))
    text = "Hello there. Feature Y doesn't exist. " + "x" * 200 + " Pipeline is broken."
    result = _validate(gate, text)
    (claim,) = result.claims
    assert claim.offset == text.index("Feature Y")
    assert text[claim.offset : claim.end] == "Feature Y doesn't exist"


@pytest.mark.parametrize(
    ("text", "skipped"),
    [
        pytest.param("nginx up", True, id="8-chars-skipped"),
        pytest.param("  up.     ", True, id="whitespace-does-not-count"),
        pytest.param("Redis down", False, id="10-chars-validated"),
        pytest.param("X is down!", False, id="10-chars-with-claim"),
    ],
)
def test_when_text_is_shorter_than_min_text_length_then_detection_is_skipped(
    gate: Gate, text: str, skipped: bool
) -> None:
    result = _validate(gate, text)
    assert (result.skipped is not None) is skipped
    if skipped:
        assert result.claims == []
        assert result.verdict == "pass"


def test_when_short_text_has_a_claim_and_min_length_is_zero_then_it_is_detected() -> None:
    gate = Gate(parse_config({"minTextLength": 0}))
    result = _validate(gate, "X is down")
    assert _rows(result.claims) == [("operational_status", "X", "down", False)]


def test_when_a_builtin_detector_is_switched_off_then_its_claims_disappear() -> None:
    gate = Gate(parse_config({"builtinDetectors": {"systemState": False}}))
    text = "Node.js is not installed. Pipeline is broken."
    result = _validate(gate, text)
    assert [c.category for c in result.claims] == ["operational_status"]


def test_when_text_has_no_claims_then_there_are_no_claims_and_the_verdict_is_pass(
    gate: Gate,
) -> None:
    result = _validate(gate, "Hello, how are you today?")
    assert result.claims == []
    assert result.verdict == "pass"
