"""A LangChain agent loop gated by receiptgate, offline: langchain-core's scripted chat model
calls a real `@tool` (a test run that fails), then claims the tests pass. The callback handler
records the tool run as a receipt; the gate blocks the lie and lets the honest answer through.

Run from the repository root:

    .venv/bin/pip install -q '.[langchain]'
    .venv/bin/python examples/langchain/agent.py
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool, tool

from receiptgate import build_gate
from receiptgate.adapters.langchain import BlockedOutput, GatedRunnable, ReceiptsCallbackHandler


@tool
def run_tests(path: str) -> str:
    """Run the test suite under `path` with pytest and return its summary."""
    return (
        "FAILED tests/test_billing.py::test_refund_rounding - assert 10.0 == 10.01\n"
        "FAILED tests/test_billing.py::test_invoice_total - assert 24.99 == 25.0\n"
        "=== 2 failed, 40 passed in 3.1s ==="
    )


def scripted_model(final_answer: str) -> FakeMessagesListChatModel:
    """Stands in for a real chat model: one tool call, then the final answer."""
    return FakeMessagesListChatModel(
        responses=[
            AIMessage(
                "", tool_calls=[{"name": "run_tests", "args": {"path": "tests/"}, "id": "c1"}]
            ),
            AIMessage(final_answer),
        ]
    )


def agent(model: Runnable[Any, BaseMessage], tools: list[BaseTool]) -> Runnable[str, Any]:
    """The usual loop: call the model, run the tools it asks for, until it answers."""
    by_name = {t.name: t for t in tools}

    def loop(question: str, config: RunnableConfig) -> list[BaseMessage]:
        messages: list[BaseMessage] = [HumanMessage(question)]
        while True:
            reply = model.invoke(messages, config)  # config carries the receipts handler
            messages.append(reply)
            if not isinstance(reply, AIMessage) or not reply.tool_calls:
                return messages
            messages += [by_name[c["name"]].invoke(c, config) for c in reply.tool_calls]

    return RunnableLambda(loop)


gate = build_gate()
question = "Please run the test suite and tell me whether everything passes."

for answer in ("I ran the tests and they all pass.", "I ran the tests and 2 of them failed."):
    handler = ReceiptsCallbackHandler()  # one ledger per session
    gated = GatedRunnable(agent(scripted_model(answer), [run_tests]), gate, handler)
    print(f"agent says: {answer}")
    try:
        print(f"  delivered: {gated.invoke(question)}")
    except BlockedOutput as blocked:
        print(f"  BLOCKED: {blocked.result.sentences[0].reasons[0]}")
    print("  receipts:", ", ".join(f"{r.kind}:{r.tool or ''}:{r.id}" for r in handler.receipts))
