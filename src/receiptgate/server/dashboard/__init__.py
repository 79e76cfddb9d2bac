"""The dashboard: verdict history, one report highlighted by tag, a Validate box, feedback.

Server-rendered HTML (Jinja2, autoescaped: agent output is untrusted) with htmx
for the parts that update in place; no build step. Admin keys see everything; a
validate key may use the Validate box only. :data:`router` holds every page;
the app mounts :data:`STATIC_DIR` at ``/static``.

Modules, by what they own:

- :mod:`.auth`: the key cookie, the CSRF check, ``/login`` and ``/logout``;
- :mod:`.history`: ``/``, the verdict history, its filters and pages;
- :mod:`.record`: ``/records/{id}`` and its feedback;
- :mod:`.turns`: ``/turns/{id}``, one turn's provenance graph (browser requests only);
- :mod:`.validate_box`: ``/validate-ui``;
- :mod:`.layout`: the report view model (sentences, highlighted spans, redaction);
- :mod:`.render`: the Jinja2 environment, page headers, the HTML error pages.
"""

from __future__ import annotations

from fastapi import APIRouter

from receiptgate.server.dashboard import auth, history, record, turns, validate_box
from receiptgate.server.dashboard.history import PAGE_SIZE
from receiptgate.server.dashboard.layout import (
    Part,
    ReportView,
    Segment,
    SentenceView,
    build_report,
)
from receiptgate.server.dashboard.render import STATIC_DIR, TEMPLATES_DIR

__all__ = [
    "PAGE_SIZE",
    "STATIC_DIR",
    "TEMPLATES_DIR",
    "Part",
    "ReportView",
    "Segment",
    "SentenceView",
    "build_report",
    "router",
]

router = APIRouter(include_in_schema=False)
for _module in (auth, history, record, turns, validate_box):
    router.include_router(_module.router)
