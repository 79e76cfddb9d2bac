"""The turn page ``/turns/{id}`` over plain HTTP: summary, nodes, colours, escaping, access."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import ADMIN_KEY, VALIDATE_KEY, LiveServer, start_server

from receiptgate.provenance import TurnGraph
from receiptgate.server.dashboard.turns import build_turn_view
from receiptgate.server.deps import KEY_COOKIE
from receiptgate.store import open_store

PAGE = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
EVIL = '<script>alert("x")</script>'


def evil_turn() -> TurnGraph:
    g = TurnGraph("turn-<b>1</b>", session_key="s-<i>", agent_id="agent-a")
    system = g.add_node("system", "You are careful.", source="SOUL.md")
    user = g.add_node("user_message", "Summarise the post")
    g.begin_iteration()
    call = g.add_node("tool_call", {"url": "https://e.com"}, tool="web_fetch", inputs=[user.id])
    page = g.add_tool_result(
        "web_fetch", f"{EVIL} api_key=hunter2hunter2", call=call.id, source="https://e.com/<x>"
    )
    g.block_tool("exec", f"no exec when tainted {EVIL}", inputs=[page.id])
    g.add_node("llm_output", "The post says …", inputs=[system.id, page.id])
    return g


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data_dir: Path = tmp_path_factory.mktemp("turn-pages")
    live = start_server(data_dir)
    with open_store(None, data_dir=data_dir) as store:
        store.save_turn(evil_turn())
    yield live
    live.stop()


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, follow_redirects=False, timeout=30) as client:
        yield client


def page_of(http: httpx.Client, turn_id: str, key: str = ADMIN_KEY) -> httpx.Response:
    return http.get(f"/turns/{turn_id}", headers={**PAGE, "Cookie": f"{KEY_COOKIE}={key}"})


TURN = "turn-%3Cb%3E1%3C%2Fb%3E"


def rows(text: str) -> list[str]:
    return re.findall(r'<tr data-node="[^"]*".*?</tr>', text, re.S)


def test_the_turn_page_shows_the_summary_and_the_nodes_in_order(http: httpx.Client) -> None:
    r = page_of(http, TURN)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    summary = r.text[r.text.index('id="turn-summary"') : r.text.index('id="nodes"')]
    assert 'data-max-taint="untrusted"' in summary
    assert "<code>exec</code>" in summary  # blocked tools
    assert "https://e.com/&lt;x&gt;" in summary  # taint source
    body = rows(r.text)
    ids = [re.search(r'data-node="([^"]*)"', row).group(1) for row in body]  # type: ignore[union-attr]
    assert ids == [
        "n1.system",
        "n2.user_message",
        "n3.tool_call",
        "n4.tool_result",
        "n5.policy_decision",
        "n6.llm_output",
    ]
    system, _, _, result, decision, output = body
    assert 'data-trust="system"' in system and "v-pass" in system and "tainted" not in system
    assert 'data-trust="untrusted"' in result and "v-block" in result and " tainted" in result
    assert "v-block" in output and "<code>n1.system</code>" in output  # inputs
    assert "<code>n4.tool_result</code>" in output
    digest = evil_turn().node("n4.tool_result").content_hash
    assert digest and f">{digest[:12]}</code>" in result
    assert "blocked" in decision and "no exec when tainted" in decision
    assert "policy-decisions" in r.text


def test_everything_from_the_graph_is_escaped(http: httpx.Client) -> None:
    r = page_of(http, TURN)
    assert EVIL not in r.text and "<b>1</b>" not in r.text and "<i>" not in r.text
    assert html.escape(EVIL, quote=False) in r.text or "&lt;script&gt;" in r.text
    assert "hunter2" not in r.text and "api_key=[REDACTED]" in r.text


def test_access_and_unknown_turns(http: httpx.Client, server: LiveServer) -> None:
    r = http.get(f"/turns/{TURN}", headers=PAGE)
    assert r.status_code == 303
    assert r.headers["location"].startswith("/login?next=%2Fturns%2Fturn-")
    r = page_of(http, TURN, key=VALIDATE_KEY)
    assert r.status_code == 403 and "Admin key needed" in r.text
    r = page_of(http, "nope")
    assert r.status_code == 404 and "text/html" in r.headers["content-type"]
    assert "Turn not found" in r.text
    # Without Accept: text/html (or with a bearer key) the same path is the JSON API.
    r = http.get(f"/turns/{TURN}", headers={"Cookie": f"{KEY_COOKIE}={ADMIN_KEY}"})
    assert r.status_code == 200 and r.json()["turnId"] == "turn-<b>1</b>"
    r = http.get(f"/turns/{TURN}", headers={**PAGE, "Authorization": f"Bearer {ADMIN_KEY}"})
    assert r.headers["content-type"].startswith("application/json")


def test_a_stored_graph_that_does_not_validate_is_still_shown() -> None:
    data = evil_turn().to_dict()
    data["nodes"][0]["trust"] = "bogus"
    view = build_turn_view(data)
    assert view.problem and "nodes[0].trust" in view.problem
    assert [n.id for n in view.nodes][:2] == ["n1.system", "n2.user_message"]
    assert view.nodes[5].inputs == ["n1.system", "n4.tool_result"]
    assert view.max_taint == "untrusted" and view.tainted


def test_the_turns_page_lists_turns_with_their_removed_tools(http: httpx.Client) -> None:
    cookie = {**PAGE, "Cookie": f"{KEY_COOKIE}={ADMIN_KEY}"}
    r = http.get("/turns", headers=cookie)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    [row] = re.findall(r'<tr data-turn="[^"]*".*?</tr>', r.text, re.S)
    link = re.search(r'<a href="([^"]*)"', row).group(1)  # type: ignore[union-attr]
    assert link == "/turns/turn-%3Cb%3E1%3C/b%3E"  # percent-encoded in the link ...
    assert "Turn <code>turn-&lt;b&gt;1&lt;/b&gt;</code>" in http.get(link, headers=cookie).text
    assert "turn-&lt;b&gt;1&lt;/b&gt;" in row and "<b>1</b>" not in r.text  # ... escaped as text
    assert "<code>exec</code>" in row and ">untrusted<" in row and 'class="tainted"' in row
    assert 'href="/turns">Turns</a>' in r.text  # in the navigation of every page
    r = http.get("/turns", params={"session_id": "no-such-session"}, headers=cookie)
    assert "data-turn=" not in r.text and "No turn saved for this session" in r.text
    r = http.get("/turns", headers={**PAGE, "Cookie": f"{KEY_COOKIE}={VALIDATE_KEY}"})
    assert r.status_code == 403
    r = http.get("/turns", headers={"Cookie": f"{KEY_COOKIE}={ADMIN_KEY}"})  # not a page: JSON
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["turns"][0]["turn_id"] == "turn-<b>1</b>"
