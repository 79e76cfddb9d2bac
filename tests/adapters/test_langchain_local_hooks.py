"""The LangChain service mode in process: the tainted turn of the service test, sent to a
``LocalHooks`` with a SQLite store instead of a running ``receiptgate serve``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("langchain_core")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from test_adapter_langchain_service import tainted_agent

from receiptgate import build_gate
from receiptgate.adapters.langchain_service import (
    ServiceBlockedOutput,
    ServiceCallbackHandler,
    ServiceGatedRunnable,
)
from receiptgate.hooks.local import LocalHooks
from receiptgate.store import AuditFilter, open_store
from scripted_langchain import CLAIM, EXECUTED


def test_the_tainted_turn_through_local_hooks(tmp_path: Path) -> None:
    EXECUTED.clear()
    with open_store(f"sqlite:///{tmp_path / 'rg.db'}") as store:
        hooks = LocalHooks(build_gate(), store=store)
        handler = ServiceCallbackHandler(hooks, session_id="lc-local", agent_id="ops")
        gated = ServiceGatedRunnable(tainted_agent(), handler)

        with pytest.raises(ServiceBlockedOutput) as info:
            gated.invoke("Summarise the release notes at https://example.com/release")

        assert EXECUTED == []  # the exec call was blocked before the tool ran
        run_id = gated.last_run_id
        assert run_id is not None
        assert [b["tool"] for b in handler.blocked_calls] == ["exec"]
        assert handler.blocked_calls[0]["reason"].startswith("provenance:")
        assert "exec" in handler.removed_tools[run_id]
        assert info.value.text == CLAIM and info.value.report is not None
        assert info.value.report["verdict"] == "block"  # the invented claim
        assert handler.errors == []

        [turn] = store.list_turns("lc-local")
        assert turn["turn_id"] == run_id and turn["max_taint"] == "untrusted"
        assert "exec" in turn["blocked_tools"]
        [record] = store.query(AuditFilter(turn_id=run_id))
        assert record.session_id == "lc-local" and record.trigger_hook == "message_sending"
        assert record.verdict == "block"
