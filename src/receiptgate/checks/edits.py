"""Whether an edit changed anything: "The typo has been corrected" after an edit that
wrote the very text the file already held is no fix.

An edit is known to have changed nothing when its own arguments replace a text with the
same text (``str_replace`` with ``old_str`` equal to ``new_str``), or when the file it
prints afterwards (SWE-agent's ``[File: bad.txt (1 lines total)]`` window, a ``cat -n``
listing) reads line for line as the same file printed by an earlier call. Anything
else, including an edit that prints nothing, counts as a change: this never turns a
claim down for want of a listing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.evidence.index import ReceiptEntry

#: The head of a file window: "[File: /workspace/bad.txt (4 lines total)]", or
#: "Here's the result of running `cat -n` on src/app.py:".
_WINDOW = re.compile(
    r"^(?:>\s*)*\[File:\s*(?P<a>\S+)\s+\((?P<n>\d+)\s+lines?\s+total\)\]\s*$"
    r"|^Here's the result of running `cat -n` on (?P<b>\S+?):?\s*$",
    re.MULTILINE,
)
#: A numbered line of a window: "1:This is a typo." or "     1\tThis is a typo."
_NUMBERED = re.compile(r"^\s*(\d+)(?::|\t)(.*)$")


def listing(content: str) -> tuple[str, tuple[str, ...]] | None:
    """The file a call's output prints and its numbered lines, with the total when the
    window gives one; ``None`` when it prints no file window."""
    m = _WINDOW.search(content)
    if m is None:
        return None
    path = (m.group("a") or m.group("b") or "").rsplit("/", 1)[-1]
    lines: list[str] = [f"total {m.group('n')}"] if m.group("n") else []
    for line in content[m.end() :].lstrip("\n").split("\n"):
        numbered = _NUMBERED.match(line)
        if numbered is None:
            break
        lines.append(f"{numbered.group(1)}:{numbered.group(2).rstrip()}")
    return (path, tuple(lines)) if len(lines) > (1 if m.group("n") else 0) else None


def unchanged(e: ReceiptEntry, before: Sequence[ReceiptEntry]) -> bool:
    """Whether edit ``e`` is shown to have changed nothing (see the module doc);
    ``before``: the calls made before it, oldest first."""
    args = e.receipt.args or {}
    old, new = args.get("old_str"), args.get("new_str")
    if isinstance(old, str) and isinstance(new, str):
        return old == new
    after = listing(e.receipt.content)
    if after is None:
        return False
    for earlier in reversed(before):
        shown = listing(earlier.receipt.content)
        if shown is not None and shown[0] == after[0]:
            return shown == after
    return False
