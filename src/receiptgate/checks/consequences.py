"""What the operator's documents say follows a call: "After user confirmation, the order
status will be changed to 'return requested', and the user will receive an email
regarding how to return items" makes "An email with return steps has been sent to you"
true of a successful return call, though no tool sent an email.

A sending the reply claims is backed when a passage of the documents says the user will
receive what was sent (an email, a confirmation), the passage (or its heading) names the
act of a changing call that succeeded ("return" of ``return_delivered_order_items``), and
any address the sentence sends to is one the tool results hold. With no such call, or
after a look-up only, the claim stays without a receipt.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import changes_made
from receiptgate.checks.documents import library
from receiptgate.checks.finding import Finding
from receiptgate.checks.words import content_words
from receiptgate.evidence.index import ReceiptIndex

#: What a passage says the user is sent: "the user will receive an email regarding ...".
_WILL_RECEIVE = re.compile(
    r"\b(?:will|would)\s+(?:then\s+)?(?:receive|get|be\s+sent)\s+(?:an?\s+|the\s+)?"
    r"(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)",
    re.IGNORECASE,
)
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_EMAIL = content_words("email")


def documented_sending(index: ReceiptIndex, said: str) -> Finding | None:
    """The passage and the call that back a sending ``said`` claims ("An email with
    return steps has been sent to the email on file"); ``None`` when the documents say
    no such thing follows a call that succeeded."""
    words = content_words(said)
    addresses = _ADDRESS.findall(said)
    if addresses:
        words |= _EMAIL  # "has been sent to isa.j@example.com": an email
    if not words:
        return None
    for address in addresses:
        if not any(
            address.lower() in e.receipt.content.lower()
            for e in index.entries
            if e.receipt.kind == "tool"
        ):
            return None  # sent to an address no result holds
    changed = changes_made(index)
    if not changed:
        return None
    lib, docs = library(index)
    for k, passage in lib.items:
        for m in _WILL_RECEIVE.finditer(passage.text):
            thing = content_words(m.group("thing"))
            if not thing or not thing & words:
                continue
            where = content_words(f"{passage.heading} {passage.text}")
            for e in reversed(changed):
                act = content_words((e.receipt.tool or "").split("_")[0])
                if act and act <= where:
                    rid = e.receipt.id
                    detail = f"{rid}: {e.receipt.tool} call; {docs[k].id}: {passage.text[:110]!r}"
                    return Finding("supported", rid, "tool", detail)
    return None
