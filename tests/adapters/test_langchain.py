"""The LangChain adapter in a real agent loop: langchain-core's scripted chat model, a real
``@tool``, the callback handler building the ledger, and the gated final answer."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool, tool

from receiptgate import Receipt, build_gate
from receiptgate.adapters.langchain import (
    BlockedOutput,
    GatedRunnable,
    ReceiptsCallbackHandler,
    final_text,
    gate_output,
)

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)
QUESTION = "Please run the test suite and tell me whether everything passes."


@tool
def run_tests(path: str) -> str:
    """Run the test suite under `path` with pytest and return its summary."""
    return (
        "FAILED tests/test_billing.py::test_refund_rounding - assert 10.0 == 10.01\n"
        "FAILED tests/test_billing.py::test_invoice_total - assert 24.99 == 25.0\n"
        "=== 2 failed, 40 passed in 3.1s ==="
    )


@tool
def flaky_tool(path: str) -> str:
    """A tool that crashes."""
    raise RuntimeError("connection refused")


def scripted_model(final: str, tool_name: str = "run_tests") -> FakeMessagesListChatModel:
    """langchain-core's scripted chat model: first a tool call, then the final answer."""
    return FakeMessagesListChatModel(
        responses=[
            AIMessage(
                content="",
                tool_calls=[{"name": tool_name, "args": {"path": "tests/"}, "id": "call_1"}],
            ),
            AIMessage(content=final),
        ]
    )


def agent_loop(model: Runnable[Any, BaseMessage], tools: list[BaseTool]) -> Runnable[Any, Any]:
    """A minimal ReAct loop: model -> tool calls -> ToolMessages -> model, until no tool call."""
    by_name = {t.name: t for t in tools}

    def loop(question: str, config: RunnableConfig) -> list[BaseMessage]:
        messages: list[BaseMessage] = [HumanMessage(question)]
        for _ in range(5):
            reply = model.invoke(messages, config)
            messages.append(reply)
            calls = reply.tool_calls if isinstance(reply, AIMessage) else []
            if not calls:
                return messages
            for call in calls:
                try:
                    result = by_name[call["name"]].invoke(call, config)
                except Exception as exc:
                    result = ToolMessage(str(exc), tool_call_id=call["id"], status="error")
                messages.append(result)
        raise AssertionError("the scripted model never answered")

    return RunnableLambda(loop, name="agent")


def fresh(final: str, tool_name: str = "run_tests") -> tuple[Runnable[Any, Any], Any]:
    gate = build_gate()
    agent = agent_loop(scripted_model(final, tool_name), [run_tests, flaky_tool])
    return agent, gate


def test_lying_answer_is_blocked_by_the_tool_receipt() -> None:
    agent, gate = fresh("I ran the tests and they all pass.")
    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    gated = GatedRunnable(agent, gate, handler, now=NOW)

    with pytest.raises(BlockedOutput) as info:
        gated.invoke(QUESTION)

    result = info.value.result
    assert result.verdict == "block"
    assert result.sentences[0].tag == "T5"
    assert any(
        e.id == "call_1" and e.relation == "contradicts" for e in result.sentences[0].evidence
    )
    assert gated.last_result is result
    assert "contradicted" in str(info.value)

    # The ledger: the human question and the tool run, with its name, inputs and output.
    kinds = [(r.kind, r.id) for r in handler.receipts]
    assert kinds == [("user", kinds[0][1]), ("tool", "call_1")]
    assert handler.receipts[0].content == QUESTION
    tool_receipt = handler.receipts[1]
    assert tool_receipt.tool == "run_tests"
    assert tool_receipt.args == {"path": "tests/"}
    assert tool_receipt.ok is True
    assert "2 failed, 40 passed" in tool_receipt.content
    assert tool_receipt.created_at == NOW
    assert tool_receipt.meta["run_id"]
    assert len(handler.index) == 2


POLICY = "Refunds to a gift card are immediate; other refunds take 5 to 7 business days."


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Your refund will reach your card in 5 to 7 business days.", "pass"),
        ("Your refund will reach your card within 10 business days.", "block"),
    ],
)
def test_the_system_prompt_is_a_document_the_answer_is_checked_against(
    answer: str, verdict: str
) -> None:
    model = FakeMessagesListChatModel(responses=[AIMessage(content=answer)])
    gate = build_gate()

    def loop(question: str, config: RunnableConfig) -> list[BaseMessage]:
        messages: list[BaseMessage] = [SystemMessage(POLICY), HumanMessage(question)]
        return [*messages, model.invoke(messages, config)]

    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    gated = GatedRunnable(RunnableLambda(loop), gate, handler, now=NOW, on_block="replace")
    gated.invoke("When will I get my money back?")
    first = handler.receipts[0]
    assert (first.id, first.kind, first.trust) == ("sys1", "rag", "system")
    assert gated.last_result is not None and gated.last_result.verdict == verdict


def test_honest_answer_passes() -> None:
    answer = "I ran the tests and 2 of them failed."
    agent, gate = fresh(answer)
    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    gated = GatedRunnable(agent, gate, handler, now=NOW)
    assert gated.invoke(QUESTION) == answer
    assert gated.last_result is not None
    assert gated.last_result.verdict == "pass"


def test_replace_delivers_the_block_notice_instead_of_raising() -> None:
    agent, gate = fresh("I ran the tests and they all pass.")
    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    gated = GatedRunnable(agent, gate, handler, on_block="replace", now=NOW)
    delivered = gated.invoke(QUESTION)
    assert "they all pass" not in delivered
    assert gated.last_result is not None
    assert delivered == gated.last_result.delivered_text


def test_without_receipts_the_same_claim_is_not_supported() -> None:
    # Control: the block above comes from the ledger, not from the sentence alone.
    gate = build_gate()
    result = gate.validate("I ran the tests and they all pass.", now=NOW)
    assert result.verdict != "pass"
    assert not any(e.id == "call_1" for s in result.sentences for e in s.evidence)


def test_gate_output_pipe_and_user_supplied_callbacks() -> None:
    agent, gate = fresh("I ran the tests and they all pass.")
    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    chain = agent | gate_output(gate, handler, now=NOW)
    with pytest.raises(BlockedOutput):
        chain.invoke(QUESTION, {"callbacks": [handler]})
    assert [r.kind for r in handler.receipts] == ["user", "tool"]


def test_tool_error_is_a_failed_receipt() -> None:
    agent, gate = fresh("I ran the tests and they all pass.", tool_name="flaky_tool")
    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    gated = GatedRunnable(agent, gate, handler, on_block="replace", now=NOW)
    gated.invoke(QUESTION)
    failed = [r for r in handler.receipts if r.kind == "tool"]
    assert len(failed) == 1
    assert failed[0].ok is False
    assert failed[0].tool == "flaky_tool"
    assert "connection refused" in failed[0].content
    assert gated.last_result is not None
    assert gated.last_result.verdict != "pass"


def test_async_invoke() -> None:
    agent, gate = fresh("I ran the tests and they all pass.")
    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    gated = GatedRunnable(agent, gate, handler, now=NOW)
    with pytest.raises(BlockedOutput):
        asyncio.run(gated.ainvoke(QUESTION))
    assert [r.kind for r in handler.receipts] == ["user", "tool"]


def test_handler_helpers() -> None:
    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    first = handler.add(Receipt(id="crm-1", kind="db", content="account=Acme arr_usd=1200000"))
    second = handler.add(Receipt(id="crm-1", kind="db", content="account=Beta renews in May"))
    assert (first.id, second.id) == ("crm-1", "crm-1#2")
    assert handler.add_user_input("hello") is not None
    assert handler.add_user_input("hello") is None  # once
    assert len(handler.index) == 3
    assert build_gate().validate("Acme ARR is $1.2M.", receipts=handler.index, now=NOW).verdict == (
        "pass"
    )
    with pytest.raises(ValueError, match="on_block"):
        GatedRunnable(RunnableLambda(lambda x: x), build_gate(), handler, on_block="drop")  # type: ignore[arg-type]


def test_final_text_shapes() -> None:
    assert final_text("hi") == "hi"
    assert final_text(AIMessage(content=[{"type": "text", "text": "a"}, "b"])) == "ab"
    assert final_text({"messages": [HumanMessage("q"), AIMessage("done")]}) == "done"
    assert final_text({"output": "x"}) == "x"
    with pytest.raises(TypeError):
        final_text(42)


# ------------------------------------------------- an answer from an earlier turn, said again

FARES_OUT = [{"flight_number": "HAT023", "prices": {"business": 364}}]
FARES_BACK = [
    [
        {"flight_number": "HAT204", "prices": {"business": 248}},
        {"flight_number": "HAT100", "prices": {"business": 259}},
    ]
]
WALLET = {"payment_methods": {"certificate_1": {"source": "certificate", "amount": 500}}}
WORKED_OUT = (
    "The cheapest business itinerary:\n- HAT023: $364\n- HAT204 + HAT100: $507\n\n"
    "**Total per passenger: $871**"
)


@tool
def search_flights(direction: str) -> str:
    """Search the flights of one direction of the trip."""
    return json.dumps(FARES_OUT if direction == "out" else FARES_BACK)


@tool
def get_wallet(user: str) -> str:
    """The user's payment methods."""
    return json.dumps(WALLET)


@pytest.mark.parametrize(("fare", "verdict"), [("$871", "pass"), ("$881", "block")])
def test_a_figure_an_earlier_answer_worked_out_may_be_said_again(fare: str, verdict: str) -> None:
    calls = [
        {"name": "search_flights", "args": {"direction": "out"}, "id": "c1"},
        {"name": "search_flights", "args": {"direction": "back"}, "id": "c2"},
        {"name": "get_wallet", "args": {"user": "mo"}, "id": "c3"},
    ]
    plan = f"Payment plan:\n- Flight cost: {fare}\n- Certificate: -$500\n- **Card: $371**"
    model = FakeMessagesListChatModel(
        responses=[
            AIMessage(content="", tool_calls=calls),
            AIMessage(content=WORKED_OUT, id="answer-1"),
            AIMessage(content=plan),
        ]
    )
    by_name = {t.name: t for t in (search_flights, get_wallet)}

    def conversation(question: str, config: RunnableConfig) -> list[BaseMessage]:
        messages: list[BaseMessage] = [HumanMessage(question)]
        for follow_up in ("Use my certificate, the rest on my card.", None):
            while True:
                reply = model.invoke(messages, config)
                messages.append(reply)
                if not isinstance(reply, AIMessage) or not reply.tool_calls:
                    break
                messages.extend(by_name[c["name"]].invoke(c, config) for c in reply.tool_calls)
            if follow_up is not None:
                messages.append(HumanMessage(follow_up))
        return messages

    handler = ReceiptsCallbackHandler(clock=lambda: NOW)
    gate = build_gate()
    gated = GatedRunnable(RunnableLambda(conversation), gate, handler, now=NOW, on_block="replace")
    gated.invoke("The cheapest business round trip, please.")

    # the first answer is in the ledger as the agent's words, not as evidence
    replies = [r for r in handler.receipts if r.kind == "reply"]
    assert [(r.id, r.content) for r in replies] == [("answer-1", WORKED_OUT)]
    assert len(handler.index) == 5  # the user's two messages and three tool runs
    result = gated.last_result
    assert result is not None and result.verdict == verdict, result.reason
    if verdict == "pass":
        evidence = [e.detail for s in result.sentences for e in s.evidence]
        assert any(d.startswith("said before (reply answer-1): derived: 871 = ") for d in evidence)
