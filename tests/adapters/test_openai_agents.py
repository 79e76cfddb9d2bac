"""The OpenAI Agents SDK adapter in a real agent loop: ``agents.Runner.run`` with a scripted
``Model`` (the SDK's model extension point), a real ``@function_tool``, the run hooks building
the ledger, and the output guardrail gating the final answer. No network: tracing is off and
the model never calls out."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import (
    Agent,
    Model,
    OutputGuardrailTripwireTriggered,
    Runner,
    function_tool,
    set_tracing_disabled,
)
from pydantic import BaseModel

from receiptgate import Receipt, build_gate
from receiptgate.adapters.openai_agents import (
    DEFAULT_TOOL_ERROR,
    ReceiptgateGuardrails,
    ReceiptsHooks,
    output_text,
    receiptgate_guardrails,
    receiptgate_output_guardrail,
)
from receiptgate.evidence.index import ReceiptIndex
from scripted_agents import ScriptedModel, message, tool_call

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)
QUESTION = "Please run the test suite and tell me whether everything passes."
LIE = "I ran the tests and they all pass."
HONEST = "I ran the tests and 2 of them failed."


@pytest.fixture(autouse=True, scope="module")
def _no_tracing() -> Iterator[None]:
    set_tracing_disabled(True)
    yield


@function_tool
def run_tests(path: str) -> str:
    """Run the test suite under `path` with pytest and return its summary."""
    return (
        "FAILED tests/test_billing.py::test_refund_rounding - assert 10.0 == 10.01\n"
        "FAILED tests/test_billing.py::test_invoice_total - assert 24.99 == 25.0\n"
        "=== 2 failed, 40 passed in 3.1s ==="
    )


@function_tool
def flaky_tool(path: str) -> str:
    """A tool that crashes."""
    raise RuntimeError("connection refused")


def scripted(final: str, tool_name: str = "run_tests") -> ScriptedModel:
    """First a tool call, then the final answer."""
    return ScriptedModel([[tool_call(tool_name, {"path": "tests/"}, "call_1")], [message(final)]])


def make_agent(model: Model, rg: ReceiptgateGuardrails, tools: list[Any] | None = None) -> Agent:
    return Agent(
        name="ci-bot",
        instructions="Run the tests and report.",
        model=model,
        tools=tools if tools is not None else [run_tests],
        output_guardrails=rg.output_guardrails,
    )


def run(agent: Agent, rg: ReceiptgateGuardrails, question: str = QUESTION) -> Any:
    return asyncio.run(Runner.run(agent, question, hooks=rg.hooks))


@pytest.fixture(scope="module")
def gate() -> Any:
    return build_gate()


def test_lie_trips_the_output_guardrail(gate: Any) -> None:
    rg = receiptgate_guardrails(gate, now=NOW)
    with pytest.raises(OutputGuardrailTripwireTriggered) as info:
        run(make_agent(scripted(LIE), rg), rg)
    guard = info.value.guardrail_result
    assert guard.guardrail.get_name() == "receiptgate"
    report = guard.output.output_info
    assert report["verdict"] == "block"
    assert report["hook"] == "openai-agents"
    (violation,) = report["violations"]
    assert violation["receipt_id"] == "call_1"
    assert violation["matched_text"] == "they all pass"
    assert "contradicted" in report["sentences"][0]["reasons"][0]
    assert rg.last_result is not None and rg.last_result.verdict == "block"
    json.dumps(report)  # plain data


def test_honest_answer_passes(gate: Any) -> None:
    rg = receiptgate_guardrails(gate, now=NOW)
    result = run(make_agent(scripted(HONEST), rg), rg)
    assert result.final_output == HONEST
    (guard,) = result.output_guardrail_results
    assert guard.output.tripwire_triggered is False
    assert guard.output.output_info["verdict"] == "pass"
    assert rg.last_result is not None and rg.last_result.verdict == "pass"


def test_receipts_come_from_the_runs_tool_calls(gate: Any) -> None:
    rg = receiptgate_guardrails(gate, now=NOW)
    run(make_agent(scripted(HONEST), rg), rg)
    doc, user, tool = rg.hooks.receipts
    # the agent's instructions are a document receipt: the rules a reply may restate
    assert (doc.id, doc.kind, doc.source, doc.trust) == ("sys1", "rag", "system", "system")
    assert doc.content == "Run the tests and report."
    assert (user.kind, user.content) == ("user", QUESTION)
    assert tool.kind == "tool"
    assert (tool.id, tool.call_id, tool.tool) == ("call_1", "call_1", "run_tests")
    assert tool.args == {"path": "tests/"}
    assert "2 failed, 40 passed" in tool.content
    assert tool.ok is True
    assert tool.source == "openai-agents"
    assert tool.meta == {"agent": "ci-bot"}
    assert len(rg.index) == 3


def test_without_a_tool_call_the_claim_has_no_receipt(gate: Any) -> None:
    rg = receiptgate_guardrails(gate, now=NOW)
    model = ScriptedModel([[message(LIE)]])
    with pytest.raises(OutputGuardrailTripwireTriggered) as info:
        run(make_agent(model, rg), rg)
    assert info.value.guardrail_result.output.output_info["verdict"] == "block"
    assert [r.kind for r in rg.hooks.receipts] == ["rag", "user"]


def test_failed_tool_is_recorded_not_ok(gate: Any) -> None:
    rg = receiptgate_guardrails(gate, now=NOW)
    model = scripted("The tool failed with an error.", tool_name="flaky_tool")
    run(make_agent(model, rg, [flaky_tool]), rg)
    tool = rg.hooks.receipts[-1]
    assert (tool.tool, tool.ok, tool.content) == ("flaky_tool", False, DEFAULT_TOOL_ERROR)


def test_ledger_spans_the_session(gate: Any) -> None:
    """One hooks object per session: a later run's answer is checked against earlier receipts."""
    rg = receiptgate_guardrails(gate, now=NOW)
    run(make_agent(scripted(HONEST), rg), rg)
    with pytest.raises(OutputGuardrailTripwireTriggered):
        run(make_agent(ScriptedModel([[message(LIE)]]), rg), rg, "And now?")
    # the same instructions on the second run are not recorded again
    assert [r.kind for r in rg.hooks.receipts] == ["rag", "user", "tool", "user"]


def test_trip_on_flag(gate: Any) -> None:
    unverified = "I ran the tests and 2 of them failed. Nginx is running."
    rg = receiptgate_guardrails(gate, now=NOW)
    run(make_agent(scripted(unverified), rg), rg)
    assert rg.last_result is not None and rg.last_result.verdict == "flag"
    strict = receiptgate_guardrails(gate, now=NOW, trip_on="flag")
    with pytest.raises(OutputGuardrailTripwireTriggered):
        run(make_agent(scripted(unverified), strict), strict)
    with pytest.raises(ValueError, match="trip_on"):
        receiptgate_guardrails(gate, trip_on="warn")  # type: ignore[arg-type]


def test_standalone_guardrail_with_own_receipts(gate: Any) -> None:
    """A shared ledger and evidence of one's own (a DB row) next to the tool receipts."""
    index = ReceiptIndex(now=NOW)
    hooks = ReceiptsHooks(index=index, clock=lambda: NOW)
    hooks.add(Receipt(id="crm-1", kind="db", content="account=Acme arr_usd=1200000"))
    again = hooks.add(Receipt(id="crm-1", kind="db", content="account=Acme region=eu"))
    assert again.id == "crm-1#2"
    guardrail = receiptgate_output_guardrail(gate, hooks, now=NOW, name="claims")
    agent = Agent(
        name="ci-bot",
        model=scripted(HONEST + " Acme ARR is $1.2M."),
        tools=[run_tests],
        output_guardrails=[guardrail],
    )
    result = asyncio.run(Runner.run(agent, QUESTION, hooks=hooks))
    (guard,) = result.output_guardrail_results
    assert guard.guardrail.get_name() == "claims"
    assert guard.output.output_info["verdict"] == "pass"
    assert len(index) == 4  # two db rows, the user message, the tool call
    assert all(r.created_at == NOW for r in hooks.receipts if r.kind != "db")


def test_agent_id_from_agent(gate: Any) -> None:
    rg = receiptgate_guardrails(gate, now=NOW, agent_id_from_agent=True, channel="slack")
    run(make_agent(scripted(HONEST), rg), rg)
    assert rg.last_result is not None
    assert (rg.last_result.agent_id, rg.last_result.channel) == ("ci-bot", "slack")


def test_output_text() -> None:
    class Report(BaseModel):
        passed: int

    assert output_text("x") == "x"
    assert output_text(Report(passed=40)) == '{"passed":40}'
    assert output_text({"a": [1]}) == '{"a": [1]}'


# ------------------------------------------------- an answer from an earlier turn, said again

WORKED_OUT = (
    "The cheapest business itinerary:\n- HAT023: $364\n- HAT204 + HAT100: $507\n\n"
    "**Total per passenger: $871**"
)


@function_tool
def search_flights(direction: str) -> str:
    """Search the flights of one direction of the trip."""
    if direction == "out":
        return json.dumps([{"flight_number": "HAT023", "prices": {"business": 364}}])
    return json.dumps(
        [
            [
                {"flight_number": "HAT204", "prices": {"business": 248}},
                {"flight_number": "HAT100", "prices": {"business": 259}},
            ]
        ]
    )


@function_tool
def get_wallet(user: str) -> str:
    """The user's payment methods."""
    return json.dumps(
        {"payment_methods": {"certificate_1": {"source": "certificate", "amount": 500}}}
    )


@pytest.mark.parametrize(("fare", "verdict"), [("$871", "pass"), ("$881", "block")])
def test_a_figure_an_earlier_answer_worked_out_may_be_said_again(
    gate: Any, fare: str, verdict: str
) -> None:
    rg = receiptgate_guardrails(gate, now=NOW)
    first = ScriptedModel(
        [
            [
                tool_call("search_flights", {"direction": "out"}, "c1"),
                tool_call("search_flights", {"direction": "back"}, "c2"),
                tool_call("get_wallet", {"user": "mo"}, "c3"),
            ],
            [message(WORKED_OUT)],
        ]
    )
    tools: list[Any] = [search_flights, get_wallet]
    earlier = asyncio.run(
        Runner.run(make_agent(first, rg, tools), "Cheapest business trip?", hooks=rg.hooks)
    )
    plan = f"Payment plan:\n- Flight cost: {fare}\n- Certificate: -$500\n- **Card: $371**"
    follow_up = [*earlier.to_input_list(), {"role": "user", "content": "Certificate first."}]
    second = make_agent(ScriptedModel([[message(plan)]]), rg, tools)
    if verdict == "pass":
        asyncio.run(Runner.run(second, follow_up, hooks=rg.hooks))
    else:
        with pytest.raises(OutputGuardrailTripwireTriggered):
            asyncio.run(Runner.run(second, follow_up, hooks=rg.hooks))
    # the first answer is in the ledger as the agent's words, not as evidence
    replies = [r for r in rg.hooks.receipts if r.kind == "reply"]
    assert [(r.id, r.content) for r in replies] == [("msg_1", WORKED_OUT)]
    assert rg.last_result is not None and rg.last_result.verdict == verdict
    if verdict == "pass":
        evidence = [e.detail for s in rg.last_result.sentences for e in s.evidence]
        assert any(d.startswith("said before (reply msg_1): derived: 871 = ") for d in evidence)
