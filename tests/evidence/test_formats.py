"""Receipt content formats: each built-in format reads realistic tool output into a data tree.

The assertions are on what a check can reach (a field's value under its key, one row per
record) and on the format's name; malformed input never raises and falls back to text.
"""

from __future__ import annotations

import json
import string
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from receiptgate import Gate, Receipt
from receiptgate.evidence.formats import Format, FormatRegistry, builtin_formats, parse_content

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)


KUBECTL_PODS = """\
NAME                     READY   STATUS             RESTARTS      AGE
api-7d9f8c6b5-2xkqp      1/1     Running            2 (3h ago)    2d
worker-5c7b9d4f8-lx2vn   0/1     CrashLoopBackOff   9 (10m ago)   1d
"""
KUBECTL_WIDE = """\
NAME                  READY   STATUS    AGE   IP         NODE     NOMINATED NODE   READINESS GATES
api-7d9f8c6b5-2xkqp   1/1     Running   2d    10.1.2.3   node-1   <none>           <none>
"""
KUBECTL_SVC = """\
NAME         TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)        AGE
kubernetes   ClusterIP   10.96.0.1     <none>        443/TCP        30d
api          NodePort    10.96.14.22   <none>        80:30080/TCP   2d
"""
DOCKER_HEADER = (
    "CONTAINER ID   IMAGE        COMMAND                  CREATED       STATUS       "
    "            PORTS                  NAMES\n"
    '4c01db0b339c   nginx:1.25   "/docker-entrypoint.…"   2 hours ago   Up 2 hours   '
    "            0.0.0.0:8080->80/tcp   web\n"
)
DOCKER_PS = DOCKER_HEADER + (
    'd7886598dbe2   redis:7      "docker-entrypoint.s…"   3 days ago    Up 3 days    '
    "            6379/tcp               cache\n"
)
DOCKER_PS_STOPPED = DOCKER_HEADER + (
    'd7886598dbe2   redis:7      "docker-entrypoint.s…"   3 days ago    Exited (0) 5 hours ago'
    "                                 cache\n"
)
PS_EF = """\
UID          PID    PPID  C STIME TTY          TIME CMD
root           1       0  0 Mar10 ?        00:00:04 /sbin/init splash
postgres    1234       1  2 09:12 ?        00:01:02 postgres: checkpointer
"""
PS_AUX = """\
USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
root         1  0.0  0.1 169416 13188 ?        Ss   Mar10   0:04 /sbin/init splash
postgres  1234  2.5  3.1 215000 64000 ?        Ss   09:12   1:02 postgres: checkpointer process
"""
LOGFMT = 'ts=2026-03-06T17:45:10Z level=info msg="deploy finished" version=2.3.1 duration_ms=8421'
LOGFMT_LINES = (
    "2026-03-06T17:45:10Z deploy service=api version=2.3.1 status=ok\n"
    "2026-03-06T17:46:02Z deploy service=worker version=1.9.0 status=failed\n"
)
DESCRIBE = (
    "Name:         api-7d9f8c6b5-2xkqp\n"
    "Namespace:    prod\n"
    "Start Time:   Mon, 10 Mar 2026 09:12:00 +0000\n"
    "Status:       Running\n"
)
MARKDOWN = (
    "Here are your orders:\n\n"
    "| order_id | price | status |\n"
    "| :--- | ---: | :---: |\n"
    "| W1 | 153.00 | pending |\n"
    "| W2 | 89.50 | shipped |\n\n"
    "Anything else?"
)
CSV_NESTED = (
    "order_id,customer.name,items.0.name,items.0.price,items.1.name,items.1.price\r\n"
    'W1,Mia Li,"Lamp, large",19.99,Desk,120.00\r\n'
    "W2,Ola Nordmann,Chair,45.50,,\r\n"
)
#: Gemini CLI's report of a shell command: the output on the lines under "Stdout:".
SHELL_REPORT = (
    "Command: pytest -q\nDirectory: (root)\nStdout: ....\n4 passed in 0.12s\n"
    "Stderr: (empty)\nError: (none)\nExit Code: 0\nSignal: (none)"
)
YAML_DOC = (
    "# deployment\nservice: api\nreplicas: 3\nimage:\n  name: api\n  tag: 2.3.1\n"
    "ports:\n  - 80\n  - 443\nenabled: no\nstart_est: 06:00:00\n"
)


def _at(tree: Any, path: tuple[str | int, ...]) -> Any:
    """The value at ``path`` (row numbers and keys), ``None`` when there is none."""
    for step in path:
        if isinstance(tree, list) and isinstance(step, int) and step < len(tree):
            tree = tree[step]
        elif isinstance(tree, dict):
            tree = tree.get(step)
        else:
            return None
    return tree


# (content, format, path, value): each format's realistic sample and a field it must reach.
REACHABLE: list[tuple[str, str, tuple[str | int, ...], Any]] = [
    (KUBECTL_PODS, "cli_table", (1, "NAME"), "worker-5c7b9d4f8-lx2vn"),
    (KUBECTL_PODS, "cli_table", (1, "STATUS"), "CrashLoopBackOff"),
    (KUBECTL_PODS, "cli_table", (1, "RESTARTS"), "9 (10m ago)"),
    (KUBECTL_PODS, "cli_table", (0, "READY"), "1/1"),
    (KUBECTL_WIDE, "cli_table", (0, "NOMINATED NODE"), "<none>"),
    (KUBECTL_WIDE, "cli_table", (0, "IP"), "10.1.2.3"),
    (KUBECTL_SVC, "cli_table", (1, "PORT(S)"), "80:30080/TCP"),
    (KUBECTL_SVC, "cli_table", (1, "CLUSTER-IP"), "10.96.14.22"),
    (DOCKER_PS, "cli_table", (0, "CONTAINER ID"), "4c01db0b339c"),
    (DOCKER_PS, "cli_table", (0, "STATUS"), "Up 2 hours"),
    (DOCKER_PS, "cli_table", (1, "NAMES"), "cache"),
    (PS_EF, "cli_table", (1, "PID"), "1234"),
    (PS_EF, "cli_table", (0, "CMD"), "/sbin/init splash"),
    (LOGFMT, "key_value", ("msg",), "deploy finished"),
    (LOGFMT, "key_value", ("duration_ms",), "8421"),
    (LOGFMT, "key_value", ("ts",), "2026-03-06T17:45:10Z"),
    (LOGFMT_LINES, "key_value", (1, "status"), "failed"),
    (LOGFMT_LINES, "key_value", (0, "service"), "api"),
    ("revenue_usd=2300000", "key_value", ("revenue_usd",), "2300000"),
    ("POOL_SIZE = 20\nTIMEOUT_MS = 30000\n", "key_value", ("TIMEOUT_MS",), "30000"),
    (SHELL_REPORT, "key_value", ("Stdout",), "....\n4 passed in 0.12s"),
    (SHELL_REPORT, "key_value", ("Exit Code",), "0"),
    (DESCRIBE, "yaml", ("Start Time",), "Mon, 10 Mar 2026 09:12:00 +0000"),
    (DESCRIBE, "yaml", ("Status",), "Running"),
    (MARKDOWN, "markdown_table", (1, "price"), "89.50"),
    (MARKDOWN, "markdown_table", (0, "status"), "pending"),
    (CSV_NESTED, "csv", (0, "customer", "name"), "Mia Li"),
    (CSV_NESTED, "csv", (0, "items", 0, "name"), "Lamp, large"),
    (CSV_NESTED, "csv", (0, "items", 1, "price"), "120.00"),
    (CSV_NESTED, "csv", (1, "items"), [{"name": "Chair", "price": "45.50"}]),  # empty cells
    ("sku,variants.6259501109.price\nA1,10\n", "csv", (0, "variants", "6259501109", "price"), "10"),
    ('id,meta\n1,"{""price"": 153}"\n', "csv", (0, "meta", "price"), 153),  # JSON in a cell
    ("host\tcpu_pct\nweb-01\t41.5\ndb-01\t88\n", "csv", (1, "cpu_pct"), "88"),
    (YAML_DOC, "yaml", ("image", "tag"), "2.3.1"),
    (YAML_DOC, "yaml", ("ports",), ["80", "443"]),
    # Scalars stay as printed: YAML 1.1 would give False, 21600 and 3.
    (YAML_DOC, "yaml", ("enabled",), "no"),
    (YAML_DOC, "yaml", ("start_est",), "06:00:00"),
    (YAML_DOC, "yaml", ("replicas",), "3"),
    ("- id: 1\n  status: open\n- id: 2\n  status: closed\n", "yaml", (1, "status"), "closed"),
    ('{"status": 200, "body": "{\\"price\\": 153}"}', "json", ("body", "price"), 153),
    ('[{"id": 1, "price": 10}, {"id": 2, "price": 20}]', "json", (1, "price"), 20),
    ('{"id": 1, "price": 10}\r\n\r\n{"id": 2, "price": 20}\r\n', "jsonl", (1, "price"), 20),
]


@pytest.mark.parametrize(("content", "fmt", "path", "value"), REACHABLE)
def test_each_format_reaches_its_fields(
    content: str, fmt: str, path: tuple[str | int, ...], value: Any
) -> None:
    parsed = parse_content(content)
    assert parsed.format == fmt
    assert _at(parsed.tree, path) == value


def test_tables_give_one_record_per_row() -> None:
    for content in (KUBECTL_PODS, DOCKER_PS, PS_EF, MARKDOWN, CSV_NESTED, LOGFMT_LINES):
        tree = parse_content(content).tree
        assert isinstance(tree, list) and len(tree) == 2, content


# Known misreadings: (content, path, expected value).
MISREAD = [
    pytest.param(
        DOCKER_PS_STOPPED,
        (1, "CONTAINER ID"),
        "d7886598dbe2",
        id="docker-ps-empty-ports-cell",
    ),
    pytest.param(
        PS_AUX,
        (1, "%CPU"),
        "2.5",
        id="ps-aux",
    ),
    pytest.param(
        "name: api\nstatus: up\nname: worker\nstatus: down\n",
        (0, "name"),
        "api",
        id="key-value-repeated-keys",
    ),
    pytest.param(
        "order_id: #W4923227\nstatus: pending\n",
        ("order_id",),
        "#W4923227",
        id="key-value-hash-value",
    ),
    pytest.param(
        json.dumps(json.dumps({"price": 153})),
        ("price",),
        153,
        id="double-encoded-json",
    ),
    pytest.param(
        '\ufeff{"price": 153}',
        ("price",),
        153,
        id="json-after-bom",
    ),
    pytest.param(
        "api\t0.0.0.0:8080->8080/tcp\npostgres\t0.0.0.0:5432->5432/tcp\n",
        (1, "name"),
        "postgres",
        id="tsv-without-header-named-by-first-column",
    ),
    pytest.param(
        "old index: mean=120ms p95=180ms\nnew index: mean=65ms p95=90ms\n",
        ("new index", "mean"),
        "65ms",
        id="logfmt-inside-a-value",
    ),
]


@pytest.mark.parametrize(("content", "path", "value"), MISREAD)
def test_fields_of_known_misreadings(content: str, path: tuple[str | int, ...], value: Any) -> None:
    tree = parse_content(content).tree
    assert not isinstance(tree, str), "parsed as text"
    assert _at(tree, path) == value


def test_prose_stays_text() -> None:
    text = "The deploy finished at 17:45 and took 8 seconds. Everything is fine."
    parsed = parse_content(text)
    assert (parsed.format, parsed.tree) == ("text", text)


def test_a_markdown_changelog_stays_text_so_its_versions_are_kept() -> None:
    # Read as YAML, "## 1.8.5 (2026-02-27)" would be a comment and the versions lost.
    text = "## 1.8.5 (2026-02-27)\n- Fix: memory leak in exporter\n\n## 1.8.4\n- Fix: race\n"
    assert parse_content(text).format == "text"
    receipt = Receipt(id="c1", kind="tool", tool="read_file", content=text)
    result = Gate().validate("The exporter leak was fixed in 1.8.5.", now=NOW, receipts=[receipt])
    assert result.verdict == "pass", result.reason


def test_two_lines_of_prose_with_commas_stay_text() -> None:
    text = (
        "Deployed api v2.3.1 to prod, 12 replicas ready, rollout took 94 seconds.\n"
        "Health checks passed, p95 latency 210 ms, error rate 0.2%."
    )
    assert parse_content(text).format == "text"


@pytest.mark.parametrize(
    "text",
    [
        "a,b,c\n1,2,3\n4,5\n",  # ragged CSV
        "name\tprice\nlamp\t19.99\textra\n",  # ragged TSV
        "just a scalar",  # YAML that is one scalar
        "hello world\nsecond line",
        "- a\n- b\n",  # YAML list of scalars: no record
        '{"price": 153, "status": "shipped"} trailing garbage',
        '{"a": 1}\n{"b": 2} x',
        '{"price": 153, "items": [',
        "153",
        "[1, 2, 3]",
        "| a | b |\n|---|---|\n",  # a table with no rows
        "NAME READY\n",  # a header with no rows
        "   \n\t  ",
    ],
)
def test_malformed_or_structureless_input_falls_back_to_the_text(text: str) -> None:
    parsed = parse_content(text)
    assert (parsed.format, parsed.tree) == ("text", text)


@pytest.mark.parametrize(
    "content",
    [
        '{"order_id": "W4923227", "price": 153, "status": "shipped"} trailing garbage',
        "order_id,price,status\nW4923227,153.00,shipped\nW1111111,89.50\n",
    ],
)
def test_malformed_results_still_back_and_refute_figures_as_prose(content: str) -> None:
    receipt = Receipt(id="c1", kind="tool", tool="get_order", content=content)
    gate = Gate()
    right = gate.validate("Order W4923227 costs $153.", now=NOW, receipts=[receipt])
    wrong = gate.validate("Order W4923227 costs $135.", now=NOW, receipts=[receipt])
    assert (right.verdict, wrong.verdict) == ("pass", "block")


def test_registry_takes_plugin_formats_in_order_and_refuses_duplicate_names() -> None:
    class Semicolons(Format):
        name = "semicolons"

        def parse(self, text: str) -> Any | None:
            if ";" not in text:
                return None
            return dict(part.split("=", 1) for part in text.split(";") if "=" in part)

    registry = FormatRegistry([Semicolons(), *builtin_formats()])
    parsed = parse_content("price=153;currency=EUR", registry)
    assert (parsed.format, parsed.tree) == ("semicolons", {"price": "153", "currency": "EUR"})
    assert parse_content('{"price": 153}', registry).format == "json"
    with pytest.raises(ValueError, match="unique name"):
        registry.register(Semicolons())


# ------------------------------------------------------------------ properties

_CELL = st.text(string.ascii_letters + string.digits + " -", min_size=1, max_size=12).filter(
    lambda s: s.strip() == s and any(c.isalpha() for c in s)
)
_HEADER = st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_without_raising(text: str) -> None:
    parsed = parse_content(text)
    assert parsed.format in {f.name for f in builtin_formats()} | {"text"}
    if parsed.format == "text":
        assert parsed.tree == text


@settings(max_examples=60, deadline=None)
@given(
    st.lists(_HEADER, min_size=2, max_size=5, unique=True).flatmap(
        lambda headers: st.lists(
            st.fixed_dictionaries({h: _CELL for h in headers}), min_size=1, max_size=5
        )
    ),
    st.sampled_from([",", "\t"]),
)
def test_csv_and_json_renderings_of_the_same_rows_give_the_same_tree(
    rows: list[dict[str, str]], sep: str
) -> None:
    headers = list(rows[0])
    csv_text = "\n".join([sep.join(headers), *(sep.join(r[h] for h in headers) for r in rows)])
    assert parse_content(csv_text).tree == rows
    assert parse_content(json.dumps(rows, indent=2)).tree == rows


@pytest.mark.parametrize(
    "text",
    [
        # a system prompt's rules in a list, each under a label
        "- Travel insurance: the agent should ask if the user wants to buy the travel "
        "insurance, which is 30 dollars per passenger.\n"
        "- Refunds: the refund will go to the original payment methods in 5 to 7 "
        "business days.\n",
        "Note: the refund goes back to the card that paid for the order in full.\n"
        "Returns: items can be returned within 30 days of delivery if unopened.\n",
    ],
)
def test_rules_under_labels_stay_a_document(text: str) -> None:
    assert parse_content(text).format == "text"


def test_short_values_under_labels_are_still_fields() -> None:
    text = "- name: api\n  status: running\n- name: worker\n  status: stopped\n"
    assert parse_content(text).format == "yaml"


def test_a_relative_date_in_a_table_counts_from_the_receipts_time_not_the_clock() -> None:
    # docker ps read on 2026-03-11: "5 days ago" is March 6, whatever day the gate runs
    ps = Receipt(
        id="dk-3",
        kind="tool",
        tool="exec",
        args={"cmd": "docker ps"},
        content=(
            "CONTAINER ID   IMAGE              CREATED      STATUS      NAMES\n"
            "8c1d2e3f4a5b   metabase:v0.49.3   5 days ago   Up 5 days   metabase"
        ),
        created_at=datetime(2026, 3, 11, 9, 40, tzinfo=UTC),
    )
    now = datetime(2026, 3, 11, 10, tzinfo=UTC)
    gate = Gate()
    right = gate.validate(
        "The metabase container was created on March 6, 2026.", receipts=[ps], now=now
    )
    assert right.verdict == "pass", right.sentences[0].reasons
    wrong = gate.validate(
        "The metabase container was created on March 2, 2026.", receipts=[ps], now=now
    )
    assert wrong.verdict == "block"
