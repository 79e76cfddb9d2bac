"""The receiptgate HTTP service (extra ``receiptgate[server]``).

``create_app()`` is the ASGI app factory; ``receiptgate serve`` runs it with
uvicorn. See docs/service.md.
"""

from receiptgate.server.app import create_app

__all__ = ["create_app"]
