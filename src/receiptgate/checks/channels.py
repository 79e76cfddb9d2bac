"""The channel a message went by: "I've sent the confirmation by text message" after a
call that sent an e-mail. A sentence that names one channel (e-mail, text message or SMS,
push notification, WhatsApp, a phone call, a letter) of a call whose arguments or result
name another, and not the one said, is contradicted by it."""

from __future__ import annotations

import re

from receiptgate.evidence.index import ReceiptEntry

#: Channels, each with the words that name it in a sentence and in a call.
_CHANNELS: dict[str, re.Pattern[str]] = {
    "e-mail": re.compile(r"\be-?mail(?:ed|s)?\b|\binbox\b", re.IGNORECASE),
    "text message": re.compile(r"\bsms\b|\btext(?:ed)?(?:\s+message)?\b|\btexts\b", re.IGNORECASE),
    "push notification": re.compile(r"\bpush\b|\bin-app\b", re.IGNORECASE),
    "WhatsApp": re.compile(r"\bwhats\s?app\b", re.IGNORECASE),
    "phone call": re.compile(r"\b(?:phone|voice)\s+call\b|\bcalled\s+you\b", re.IGNORECASE),
    "letter": re.compile(r"\b(?:letter|post(?:al)?\s+mail|by\s+post)\b", re.IGNORECASE),
}
#: Fields of a call that say its channel.
_CHANNEL_KEYS = ("channel", "method", "via", "medium", "delivery_method")


def _named(text: str) -> set[str]:
    return {name for name, words in _CHANNELS.items() if words.search(text)}


def other_channel(e: ReceiptEntry, said: str) -> str | None:
    """The channel a sending call used, when the sentence names only another one; ``None``
    when the sentence names none, the call names none, or they share one."""
    claimed = _named(said)
    if len(claimed) != 1:
        return None
    used: set[str] = set()
    fields = dict(e.receipt.args or {})
    for rec in e.records:
        fields.update({leaf.key: leaf.value.shown for leaf in rec.leaves})
    for key in _CHANNEL_KEYS:
        value = fields.get(key)
        if isinstance(value, str):
            used |= _named(value)
    used |= _named((e.receipt.tool or "").replace("_", " "))
    if not used or claimed & used:
        return None
    return f"the call sent it by {', '.join(sorted(used))}, not {next(iter(claimed))}"
