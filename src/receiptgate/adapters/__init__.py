"""Adapters that put the gate inside agent frameworks and protocols.

Each adapter is a module with its own optional dependency, imported only when used:

- ``receiptgate.adapters.mcp_server``: an MCP server (``pip install 'receiptgate[mcp]'``)
  exposing ``validate`` and ``check_claim`` tools; ``python -m receiptgate.adapters.mcp_server``.
- ``receiptgate.adapters.langchain``: a LangChain callback handler that builds the receipts
  ledger from tool runs, and a runnable that gates the final answer
  (``pip install 'receiptgate[langchain]'``).

See docs/adapters.md.
"""
