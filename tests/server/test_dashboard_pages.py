"""The dashboard over plain HTTP: login, CSRF checks, scopes, errors, escaping, feedback.

Runs against a real ``receiptgate serve`` (one for the module); the browser tests
are in test_dashboard.py. The last tests check the view model that lays
sentences over the text, without a server.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import LiveServer, start_server

from receiptgate.server import dashboard
from receiptgate.server.dashboard import PAGE_SIZE, build_report
from receiptgate.server.dashboard.render import env as templates_env
from receiptgate.server.deps import KEY_COOKIE

ROOT = Path(__file__).resolve().parents[2]
ANSWER = ROOT / "examples" / "quickstart" / "answer.txt"
FACTS = ROOT / "examples" / "quickstart" / "facts.yaml"
CRM = ROOT / "examples" / "quickstart" / "crm.jsonl"
HTMX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = start_server(tmp_path_factory.mktemp("pages"), args=("--facts", str(FACTS)))
    yield live
    live.stop()


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, follow_redirects=False, timeout=30) as client:
        yield client


def as_key(key: str, **extra: str) -> dict[str, str]:
    return {"Cookie": f"{KEY_COOKIE}={key}", **extra}


def validate_ui(
    http: httpx.Client, key: str, headers: dict[str, str] | None = None, **form: str
) -> httpx.Response:
    return http.post("/validate-ui", data=form, headers=as_key(key, **(headers or HTMX)))


def record_id_of(response: httpx.Response) -> str:
    found = re.search(r'data-result="([0-9a-f]+)"', response.text)
    assert found, response.text
    return found.group(1)


# --------------------------------------------------------------------------- login


def test_when_no_cookie_then_pages_redirect_to_login(http: httpx.Client) -> None:
    r = http.get("/")
    assert (r.status_code, r.headers["location"]) == (303, "/login")
    r = http.get("/records/abc", params={"x": "1"})
    assert r.headers["location"] == "/login?next=%2Frecords%2Fabc%3Fx%3D1"
    r = http.get("/", headers=HTMX)  # htmx follows HX-Redirect, not a 303
    assert (r.status_code, r.headers["hx-redirect"]) == (401, "/login")
    r = http.get("/", headers=as_key("rg_revoked_or_unknown_key_000000"))
    assert r.headers["location"] == "/login"


def test_login_page_has_a_labelled_password_field(http: httpx.Client) -> None:
    r = http.get("/login")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<label for="key">API key</label>' in r.text
    assert '<input id="key" name="key" type="password"' in r.text


def test_when_key_is_wrong_then_login_answers_401_with_the_error(
    http: httpx.Client, server: LiveServer
) -> None:
    r = http.post("/login", data={"key": "rg_wrong_key_0000000000000000000"}, headers=HTMX)
    assert r.status_code == 401
    assert "That key is unknown or revoked." in r.text
    assert "set-cookie" not in r.headers
    r = http.post("/login", data={"key": "  "}, headers=HTMX)
    assert r.status_code == 401 and "Paste an API key." in r.text


def test_login_sets_an_httponly_samesite_strict_cookie(
    http: httpx.Client, server: LiveServer
) -> None:
    r = http.post(
        "/login",
        data={"key": server.admin_key, "next": "/records/abc"},
        headers={"Origin": server.url},
    )
    assert (r.status_code, r.headers["location"]) == (303, "/records/abc")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{KEY_COOKIE}={server.admin_key};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    for evil in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        r = http.post("/login", data={"key": server.admin_key, "next": evil}, headers=HTMX)
        assert r.headers["location"] == "/", evil


def test_logout_clears_the_cookie(http: httpx.Client, server: LiveServer) -> None:
    r = http.post("/logout", headers=as_key(server.admin_key, Origin=server.url))
    assert (r.status_code, r.headers["location"]) == (303, "/login")
    assert re.match(rf'{KEY_COOKIE}=""; .*Max-Age=0', r.headers["set-cookie"])


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/login", {"key": "x"}),
        ("/logout", {}),
        ("/validate-ui", {"text": "Node.js is not installed."}),
        ("/records/abc/feedback", {"choice": "agree"}),
    ],
)
@pytest.mark.parametrize(
    "headers",
    [{}, {"Origin": "https://evil.example"}, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}],
)
def test_when_post_is_not_from_the_dashboard_then_it_is_refused(
    http: httpx.Client,
    server: LiveServer,
    path: str,
    form: dict[str, str],
    headers: dict[str, str],
) -> None:
    r = http.post(path, data=form, headers=as_key(server.admin_key, **headers))
    assert r.status_code == 403
    assert "cross-site request refused" in r.text
    assert "set-cookie" not in r.headers


# --------------------------------------------------------------------------- Validate box


def test_validate_box_answers_the_report_and_records_it(
    http: httpx.Client, server: LiveServer
) -> None:
    r = validate_ui(
        http,
        server.admin_key,
        text=ANSWER.read_text(),
        receipts=CRM.read_text(),
        agent_id="pages-bot",
        trust="40",
        channel="slack",
        now="2026-03-11T10:00:00Z",
    )
    assert r.status_code == 200
    assert r.headers["hx-trigger"] == "receiptgate:recorded"
    assert "<html" not in r.text  # a fragment for htmx
    assert re.findall(r'data-tag="(T\d)"', r.text) == ["T5", "T5", "T5", "T2"]
    assert 'data-tag="T2"' in r.text
    assert "contradicts crm-1 contract_value_usd = 2400000" in r.text
    rid = record_id_of(r)
    assert f'href="/records/{rid}"' in r.text
    status, _, record = server.request("GET", f"/audit/{rid}")
    assert status == 200
    assert (record["agent_id"], record["channel"], record["verdict"]) == (
        "pages-bot",
        "slack",
        "block",
    )
    assert record["trust"]["score"] == 40 and record["key_name"] == "env:0"


def test_validate_box_uses_the_receipts_of_a_session(
    http: httpx.Client, server: LiveServer
) -> None:
    session = f"s-{uuid.uuid4().hex[:8]}"
    status, _, _ = server.request(
        "POST",
        f"/sessions/{session}/receipts",
        raw=CRM.read_bytes(),
        headers={"Content-Type": "application/x-ndjson"},
        key="validate",
    )
    assert status == 200
    text = "The Acme contract is worth $2.6 million a year."
    r = validate_ui(http, server.admin_key, text=text, session_id=session)
    assert r.status_code == 200
    assert "contradicts crm-1 contract_value_usd = 2400000" in r.text
    status, _, record = server.request("GET", f"/audit/{record_id_of(r)}")
    assert record["session_id"] == session


def test_validate_box_without_htmx_renders_the_whole_page(
    http: httpx.Client, server: LiveServer
) -> None:
    r = validate_ui(
        http, server.admin_key, {"Origin": server.url}, text="Node.js is not installed."
    )
    assert r.status_code == 200
    assert r.text.startswith("<!doctype html>")
    assert 'id="validate-result"' in r.text and "data-result=" in r.text
    assert 'id="history"' in r.text


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"text": "  "}, "text: paste the agent output to validate"),
        ({"trust": "120"}, "trust: must be from 0 to 100 (got 120)"),
        ({"trust": "high"}, "trust: must be a whole number from 0 to 100 (got &#39;high&#39;)"),
        ({"now": "yesterday"}, "reference time: not a date and time (got &#39;yesterday&#39;"),
        ({"receipts": '{"kind": "tool", "content": "ok"}\n{"kind": oops}\n'}, "receipts:2"),
        ({"receipts": '{"kind": "fax", "content": "x"}'}, "receipts:1"),
        ({"receipts": '{"messages": 3}'}, "receipts: messages"),
    ],
)
def test_when_validate_box_input_is_bad_then_the_error_is_shown(
    http: httpx.Client, server: LiveServer, form: dict[str, str], message: str
) -> None:
    r = validate_ui(http, server.admin_key, **{"text": "Node.js is not installed.", **form})
    assert r.status_code == 422
    assert '<p class="error" role="alert">' in r.text
    assert message in r.text
    assert "Traceback" not in r.text and "data-result" not in r.text


def test_validate_box_counts_against_the_rate_limit(tmp_path: Path) -> None:
    live = start_server(tmp_path / "limited", env={"RECEIPTGATE_RATE_LIMIT": "1/minute"})
    try:
        with httpx.Client(base_url=live.url, timeout=30) as http:
            assert validate_ui(http, live.validate_key, text="Hello.").status_code == 200
            r = validate_ui(http, live.validate_key, text="Hello.")
        assert r.status_code == 429
        assert "rate limit of 1/minute validations reached" in r.text
    finally:
        live.stop()


def test_when_text_is_stored_then_the_record_page_highlights_the_real_text(
    tmp_path: Path,
) -> None:
    live = start_server(tmp_path / "full", args=("--facts", str(FACTS), "--store-text"))
    try:
        with httpx.Client(base_url=live.url, timeout=30) as http:
            text = ANSWER.read_text()
            rid = record_id_of(validate_ui(http, live.admin_key, text=text))
            page = http.get(f"/records/{rid}", headers=as_key(live.admin_key)).text
    finally:
        live.stop()
    assert "The full text was not stored" not in page
    assert '<div class="textblock">' in page
    assert (
        '<span class="tagbadge" aria-label="tag T5">T5</span><mark class="claim">'
        "Node.js is not installed</mark> on the build host, so "
        '<mark class="claim">the pipeline is broken</mark>.</span>\n'
        '<span class="sent tag-T5"'
    ) in page


# --------------------------------------------------------------------------- escaping


def test_agent_output_and_ids_are_escaped_everywhere(
    http: httpx.Client, server: LiveServer
) -> None:
    hostile = "<script>alert(1)</script>"
    r = validate_ui(
        http,
        server.admin_key,
        text=f"{hostile} Node.js is not installed.",
        agent_id=f'"><img src=x onerror=alert(2)>{hostile}',
    )
    assert r.status_code == 200
    assert "<script>" not in r.text and "<img" not in r.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; " in r.text
    rid = record_id_of(r)
    history = http.get(
        "/",
        params={"agent_id": f'"><img src=x onerror=alert(2)>{hostile}'},
        headers=as_key(server.admin_key),
    )
    record = http.get(f"/records/{rid}", headers=as_key(server.admin_key))
    for page in (history.text, record.text):
        assert "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;&lt;script&gt;" in page
        assert "<img" not in page and "<script>alert" not in page
    assert f'data-record="{rid}"' in history.text


def test_pages_send_a_strict_content_security_policy(
    http: httpx.Client, server: LiveServer
) -> None:
    for r in (http.get("/login"), http.get("/", headers=as_key(server.admin_key))):
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["cache-control"] == "no-store"
        assert "<script>" not in r.text  # no inline script: all of it is in /static


# --------------------------------------------------------------------------- history


def test_history_filters_answer_a_fragment_and_push_a_clean_url(
    http: httpx.Client, server: LiveServer
) -> None:
    agent = f"hist-{uuid.uuid4().hex[:8]}"
    ids = []
    for i in range(PAGE_SIZE + 1):
        text = "Node.js is not installed." if i % 2 else "Hello there."
        status, _, body = server.request("POST", "/validate", {"text": text, "agent_id": agent})
        assert status == 200
        ids.append(body["id"])
    headers = as_key(server.admin_key, **HTMX, **{"HX-Target": "history", "HX-Trigger": "filters"})
    r = http.get(
        "/",
        params={"agent_id": agent, "verdict": "", "category": "", "since": "", "until": ""},
        headers=headers,
    )
    assert r.status_code == 200
    assert r.text.startswith('<div id="history">') and "<html" not in r.text
    assert r.headers["hx-push-url"] == f"/?agent_id={agent}"
    rows = re.findall(r'<tr data-record="([0-9a-f]+)">', r.text)
    assert rows == ids[::-1][:PAGE_SIZE]  # newest first
    assert f"{PAGE_SIZE + 1} records; showing 1–{PAGE_SIZE}" in r.text
    older = f'href="/?agent_id={agent}&amp;offset={PAGE_SIZE}"'
    assert older in r.text and "Newer" not in r.text
    r = http.get("/", params={"agent_id": agent, "offset": str(PAGE_SIZE)}, headers=headers)
    assert re.findall(r'<tr data-record="([0-9a-f]+)">', r.text) == [ids[0]]
    assert "← Newer" in r.text and "Older" not in r.text

    r = http.get("/", params={"agent_id": agent, "verdict": "block"}, headers=headers)
    assert len(re.findall(r"<tr data-record=", r.text)) == (PAGE_SIZE + 1) // 2
    r = http.get("/", params={"agent_id": agent, "category": "system_state"}, headers=headers)
    assert len(re.findall(r"<tr data-record=", r.text)) == (PAGE_SIZE + 1) // 2
    r = http.get("/", params={"agent_id": agent, "since": "2999-01-01T00:00"}, headers=headers)
    assert "No audit records match." in r.text


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"since": "last week"}, "since: not a date and time (got &#39;last week&#39;"),
        ({"verdict": "maybe"}, "verdict: must be one of pass, flag, block, error_fallback"),
        (
            {"since": "2026-03-02T00:00", "until": "2026-03-01T00:00"},
            "until: must be later than since",
        ),
    ],
)
def test_when_a_filter_is_bad_then_the_history_says_so(
    http: httpx.Client, server: LiveServer, params: dict[str, str], message: str
) -> None:
    r = http.get("/", params=params, headers=as_key(server.admin_key))
    assert r.status_code == 200
    assert message in r.text


# --------------------------------------------------------------------------- scopes


def test_validate_scope_key_gets_the_validate_box_and_clear_refusals(
    http: httpx.Client, server: LiveServer
) -> None:
    key = server.validate_key
    r = http.get("/", headers=as_key(key))
    assert r.status_code == 200
    assert 'id="validate"' in r.text and 'id="history"' not in r.text
    assert "need an admin key" in r.text
    r = validate_ui(http, key, text="Node.js is not installed.")
    assert r.status_code == 200 and "Open audit record" not in r.text
    rid = record_id_of(r)
    for resp in (
        http.get(f"/records/{rid}", headers=as_key(key)),
        http.get("/", headers=as_key(key, **HTMX, **{"HX-Target": "history"})),
        http.post(
            f"/records/{rid}/feedback", data={"choice": "agree"}, headers=as_key(key, **HTMX)
        ),
    ):
        assert resp.status_code == 403
        assert "Admin key needed" in resp.text and "scope &#39;validate&#39;" in resp.text


# --------------------------------------------------------------------------- record and feedback


def test_feedback_is_recorded_and_shown_in_place(http: httpx.Client, server: LiveServer) -> None:
    rid = record_id_of(validate_ui(http, server.admin_key, text="Node.js is not installed."))
    url = f"/records/{rid}/feedback"
    r = http.post(
        url,
        data={"choice": "override_pass", "note": "node 22 <was> removed"},
        headers=as_key(server.admin_key, **HTMX),
    )
    assert r.status_code == 200
    assert r.text.startswith('<div id="feedback"')
    assert "override" in r.text and '<span class="verdict v-pass">pass</span>' in r.text
    assert "node 22 &lt;was&gt; removed" in r.text
    r = http.post(
        url, data={"choice": "disagree"}, headers=as_key(server.admin_key, Origin=server.url)
    )
    assert (r.status_code, r.headers["location"]) == (303, f"/records/{rid}")
    r = http.post(url, data={"choice": "shrug"}, headers=as_key(server.admin_key, **HTMX))
    assert r.status_code == 422 and "Choose Agree, Disagree or an override." in r.text
    r = http.post(
        url, data={"choice": "agree", "note": "x" * 2001}, headers=as_key(server.admin_key, **HTMX)
    )
    assert r.status_code == 422 and "note: at most 2000 characters" in r.text

    status, _, record = server.request("GET", f"/audit/{rid}")
    assert status == 200
    got = [(f["kind"], f["verdict"], f["note"], f["by"]) for f in record["feedback"]]
    assert got == [
        ("override", "pass", "node 22 <was> removed", "env:0"),
        ("disagree", None, None, "env:0"),
    ]
    page = http.get(f"/records/{rid}", headers=as_key(server.admin_key)).text
    assert page.count('<li class="fb fb-') == 2


def test_unknown_record_is_a_404_page(http: httpx.Client, server: LiveServer) -> None:
    r = http.get("/records/nope", headers=as_key(server.admin_key))
    assert r.status_code == 404 and "There is no audit record &#39;nope&#39;." in r.text
    r = http.post(
        "/records/nope/feedback", data={"choice": "agree"}, headers=as_key(server.admin_key, **HTMX)
    )
    assert r.status_code == 404


# --------------------------------------------------------------------------- package data


def test_static_files_are_served(http: httpx.Client) -> None:
    r = http.get("/static/htmx.min.js")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert r.text.startswith("/*! htmx 2.0.11 |") and "(0BSD)" in r.text.splitlines()[0]
    assert http.get("/static/dashboard.css").status_code == 200
    assert http.get("/static/dashboard.js").status_code == 200
    assert http.get("/static/htmx.LICENSE.txt").text.startswith("Zero-Clause BSD")


def test_templates_and_static_files_ship_inside_the_package() -> None:
    package = Path(dashboard.__file__).resolve().parents[1]
    assert package / "templates" == dashboard.TEMPLATES_DIR
    assert package / "static" == dashboard.STATIC_DIR
    names = templates_env.list_templates()
    assert {"index.html", "record.html", "login.html"} <= set(names)
    for name in names:
        templates_env.get_template(name)  # every template parses
    assert {"htmx.min.js", "dashboard.css", "dashboard.js"} <= {
        p.name for p in dashboard.STATIC_DIR.iterdir()
    }


# --------------------------------------------------------------------------- the view model


def sentence(
    index: int, start: int, end: int, claims: list[Any], tag: str = "T5"
) -> dict[str, Any]:
    return {
        "index": index,
        "start": start,
        "end": end,
        "tag": tag,
        "action": "block",
        "claims": claims,
        "evidence": [{"kind": "fact", "id": "f1", "relation": "contradicts", "detail": "no"}],
    }


def shown(parts: list[dashboard.Part]) -> str:
    return "".join(f"[{p.text}]" if p.kind == "claim" else p.text for p in parts)


def test_report_lays_sentences_and_claims_over_the_full_text() -> None:
    text = "Hi.  The pipeline is broken and Node.js is gone.\nBye."
    claims = [
        {"matched_text": "The pipeline is broken", "offset": 5, "end": 27},
        {"matched_text": "pipeline", "offset": 9, "end": 17},  # inside the first: merged
        {"matched_text": "Node.js is gone", "offset": 32, "end": 47},
    ]
    report = build_report("k", [sentence(0, 5, 48, [0, 1, 2])], claims, text)
    assert not report.redacted
    assert [s.text for s in report.segments if s.sentence is None] == ["Hi.  ", "\nBye."]
    (view,) = report.sentences
    assert shown(view.parts) == "[The pipeline is broken] and [Node.js is gone]."
    assert view.title.splitlines() == ["T5 · block", "✗ contradicts fact:f1 — no"]


def test_report_of_a_redacted_record_shows_spans_and_gaps() -> None:
    # An audit record: sentence claims are strings, their offsets are in claims[].
    claims = [
        {"matched_text": "$2.6 million", "offset": 27, "end": 39, "sentence_index": 0},
        {"matched_text": "last Friday", "offset": 62, "end": 73, "sentence_index": 0},
    ]
    sentences = [
        sentence(0, 0, 74, ["$2.6 million", "last Friday"]),
        sentence(1, 75, 90, [], tag="T2"),
        {"index": 2, "start": 91, "end": 95, "tag": None, "action": "pass", "claims": []},
    ]
    report = build_report("k", sentences, claims, None)
    assert report.redacted
    first, second, third = report.sentences
    assert shown(first.parts) == "…[$2.6 million]…[last Friday]…"
    assert shown(second.parts) == "…"
    assert third.tag is None and third.title == "no factual claim"
    # Spans known only by text still show, between gaps.
    loose = build_report("k", [sentence(0, 0, 10, ["it failed"])], [], None)
    assert shown(loose.sentences[0].parts) == "…[it failed]…"


def test_report_lists_violations_in_both_shapes() -> None:
    result_shape = {"matched_text": "x", "reason": "r", "severity": "high", "action": "block"}
    audit_shape = {"matchedText": "y", "reason": "s", "severity": "high", "receiptId": "crm-1"}
    report = build_report("k", [], [], "", [result_shape, audit_shape])
    assert [(v["text"], v["action"], v["ref"]) for v in report.violations] == [
        ("x", "block", ""),
        ("y", "", "receipt crm-1"),
    ]
