"""An OpenAI Agents SDK agent gated by receiptgate, offline: a scripted `Model` (the SDK's model
interface) calls a real `@function_tool` (a test run that fails), then claims the tests pass.
The run hooks record the tool call as a receipt; the output guardrail trips on the lie and lets
the honest answer through.

Run from the repository root:

    .venv/bin/pip install -q '.[openai-agents]'
    .venv/bin/python examples/openai_agents/agent.py
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from agents import (
    Agent,
    Model,
    ModelResponse,
    OutputGuardrailTripwireTriggered,
    Runner,
    Usage,
    function_tool,
    set_tracing_disabled,
)
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from receiptgate import build_gate
from receiptgate.adapters.openai_agents import receiptgate_guardrails


@function_tool
def run_tests(path: str) -> str:
    """Run the test suite under `path` with pytest and return its summary."""
    return (
        "FAILED tests/test_billing.py::test_refund_rounding - assert 10.0 == 10.01\n"
        "FAILED tests/test_billing.py::test_invoice_total - assert 24.99 == 25.0\n"
        "=== 2 failed, 40 passed in 3.1s ==="
    )


class ScriptedModel(Model):
    """Stands in for a real model: one `run_tests` call, then the final answer."""

    def __init__(self, final_answer: str) -> None:
        self.turns: list[list[Any]] = [
            [
                ResponseFunctionToolCall(
                    id="fc_1",
                    call_id="c1",
                    type="function_call",
                    name="run_tests",
                    arguments='{"path": "tests/"}',
                )
            ],
            [
                ResponseOutputMessage(
                    id="msg_1",
                    type="message",
                    role="assistant",
                    status="completed",
                    content=[
                        ResponseOutputText(type="output_text", text=final_answer, annotations=[])
                    ],
                )
            ],
        ]

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


async def main() -> None:
    set_tracing_disabled(True)  # no trace export: nothing leaves the machine
    gate = build_gate()
    question = "Please run the test suite and tell me whether everything passes."

    for answer in ("I ran the tests and they all pass.", "I ran the tests and 2 of them failed."):
        rg = receiptgate_guardrails(gate)  # one per session: hooks + output guardrail
        agent = Agent(
            name="ci-bot",
            instructions="Run the tests and report the result.",
            model=ScriptedModel(answer),
            tools=[run_tests],
            output_guardrails=rg.output_guardrails,
        )
        print(f"agent says: {answer}")
        try:
            result = await Runner.run(agent, question, hooks=rg.hooks)
            print(f"  delivered: {result.final_output}")
        except OutputGuardrailTripwireTriggered as tripped:
            report = tripped.guardrail_result.output.output_info  # the ValidationResult dict
            print(f"  BLOCKED: {report['sentences'][0]['reasons'][0]}")
        print(
            "  receipts:", ", ".join(f"{r.kind}:{r.tool or ''}:{r.id}" for r in rg.hooks.receipts)
        )


if __name__ == "__main__":
    asyncio.run(main())
