"""Identifier tokens: URLs, e-mail addresses, hosts, paths, commit hashes, tickets and
versions, told apart by their shape (claims/hardfacts)."""

from __future__ import annotations

import re

from receiptgate.claims.hardfacts._lexicon import (
    _DOTFILE,
    _EMAIL,
    _FILE_EXTS,
    _HAS_ALPHA,
    _HAS_DIGIT,
    _HOST,
    _HOSTPORT,
    _NAMEY,
    _PATH_EXT,
    _PATH_LINE,
    _QUARTER_YEAR,
    _SEPS,
    _SHA,
    _TICKET,
    _TOKCH,
    _TOKEN_FWD,
    _TRAILING,
    _URL_FWD,
    _URL_SCHEMES,
    _VER_V,
    _YEAR_TOKEN,
    _Cand,
)
from receiptgate.claims.hardfacts._numbers import _singular

#: An amount in pence (or cents): "26.35p", "60p", "99c".
_PENCE = re.compile(r"\d+(?:\.\d+)?[pc]")


#: A decimal glued to a unit of size or a factor: "2.4MB", "1.5GiB", "1.5x".
_SIZED = re.compile(r"\d+\.\d+(?:[kmgt]i?b|x)")


def _tok_end(low: str, p: int) -> int:
    m = _TOKEN_FWD.match(low, p)
    return p if m is None else m.end()


def _classify_token(tok: str, orig: str) -> str | None:
    """Identifier type of a lowercase token, or None when it is not one."""
    if "://" in tok or tok.startswith("www."):
        return "url"
    if "@" in tok and _EMAIL.fullmatch(tok):
        return "email"
    if _HAS_ALPHA(tok) is None or _PENCE.fullmatch(tok):
        return None  # "26.35p": an amount in pence, read as a number with its unit
    has_digit = _HAS_DIGIT(tok) is not None
    if has_digit and _SHA.fullmatch(tok):
        return "sha"
    if "/" in tok or "\\" in tok:
        if _PATH_EXT.search(tok):
            return "path"
        head = re.split(r"[/\\]", tok, maxsplit=1)[0]
        return "url" if _HOST.fullmatch(head) or _HOSTPORT.fullmatch(head) else None
    if ":" in tok:
        return "host" if _HOSTPORT.fullmatch(tok) else None
    if tok[0] == ".":
        # A dotfile: ".env", ".gitignore".
        return "file" if len(tok) > 2 and _DOTFILE.fullmatch(tok) else None
    if "." in tok and _NAMEY.fullmatch(tok):
        labels = tok.split(".")
        last = labels[-1]
        # "e.g", "u.s.a": abbreviations, not names.
        if not all(len(x) == 1 for x in labels):
            if last in _FILE_EXTS:
                return "file"
            # "Mr.Smith", "done.Next": a capitalised word after the dot is prose.
            if (
                last.isalpha()
                and (len(last) >= 2 or len(labels[-2]) >= 2)
                and not orig[len(orig) - len(last)].isupper()
            ):
                return "host"
    if has_digit and _SIZED.fullmatch(tok):
        return None  # "2.4MB", "1.5GB", "1.5x": a decimal with its unit, read as a number
    if has_digit and ("-" in tok or "." in tok) and _NAMEY.fullmatch(tok):
        if _TICKET.fullmatch(tok) and orig.split("-", 1)[0].isupper():
            return "ticket"
        return "name"
    return None


def _token(seg: str, low: str, p: int, floor: int) -> tuple[_Cand | None, int] | None:
    """Handle a trigger inside an identifier-like token.

    Returns None when ``p`` does not sit inside a token (the caller reads a
    number there), else (candidate or None, resume offset).
    """
    s = p
    lim = max(floor, p - 256)
    while s > lim and low[s - 1] in _TOKCH:
        s -= 1
    if s == lim and s > floor:
        # Longer than any identifier we care about: skip the whole run.
        return None, max(_tok_end(low, p), p + 1)
    if s == floor and s > 0 and low[s - 1].isalnum():
        # Glued to the previous fact ("10-20", "1/2"): separators start nothing.
        while s < p and low[s] in _SEPS:
            s += 1
    else:
        while s < p and low[s] in _SEPS and low[s] not in "./~\\":
            s += 1
    if s == p and low[p] != ".":
        return None
    if "://" in low[s : p + 3] or low.startswith(_URL_SCHEMES, s):
        i = low.find("://", s)
        k = i
        while k > s and low[k - 1].isalpha():
            k -= 1
        s = k
        m = _URL_FWD.match(low, s)
        e = s if m is None else m.end()
        while e > s and low[e - 1] in ".,;:!?'\"":
            e -= 1
        if e > s and low[e - 1] == ")" and low.count("(", s, e) < low.count(")", s, e):
            e -= 1
        return (s, e, "identifier", low[s:e].rstrip("/"), None, "url"), max(e, p + 1)
    end_all = _tok_end(low, p)
    e = end_all
    while e > s and low[e - 1] in _TRAILING:
        e -= 1
    tok = low[s:e]
    if not tok:
        return None, max(end_all, p + 1)
    if tok[0] == "v" and len(tok) > 1 and _VER_V.fullmatch(tok):
        return (s, e, "version", tok[1:], None, None), end_all
    if len(tok) == 2 and tok[0] == "q" and tok[1] in "1234":
        m = _QUARTER_YEAR.match(low, e)
        if m is None:
            return None, end_all
        return (s, m.end(), "date", f"{m['y']}-Q{tok[1]}", None, "quarter"), m.end()
    ym = _YEAR_TOKEN.fullmatch(tok)
    if ym is not None:
        return (s + ym.start("y"), e, "date", ym["y"], None, "year"), end_all
    kind = _classify_token(tok, seg[s:e])
    if kind is None:
        pl = _PATH_LINE.search(tok)
        if pl is not None:
            # "src/app/main.py:42": the file is the identifier, the line is dropped.
            e = s + pl.start()
            tok = tok[: pl.start()]
            kind = _classify_token(tok, seg[s:e])
    if kind is None:
        return None, max(end_all, p + 1)
    return (s, e, "identifier", tok, None, kind), end_all


def _glued(
    seg: str, low: str, p: int, s: int, x: float, vs: str, unit: str, ue: int,
    mult: str | None = None,
) -> tuple[_Cand | None, int]:  # fmt: skip
    """Letters glued to a number: an identifier ("2a3f9c1e") or a unit ("16gb")."""
    if mult is None:
        tok = _token_from(seg, low, p)
        if tok is not None:
            return tok
    if unit == "xx" and x < 10:
        return None, ue  # "5xx", "4xx": a class of HTTP statuses, no count
    if len(unit) <= 5 and (ue == len(low) or not low[ue].isalnum()):
        unit = _singular(unit)
        return (s, ue, "count", f"{vs} {unit}", x, unit), ue
    # Digits inside a longer token that is no identifier ("1e6x", "5xx2"): skip it.
    return None, max(_tok_end(low, p), ue)


def _token_from(seg: str, low: str, p: int) -> tuple[_Cand | None, int] | None:
    """A digit-led token glued to letters ("2a3f9c1e"): an identifier or None."""
    end_all = _tok_end(low, p)
    e = end_all
    while e > p and low[e - 1] in _TRAILING:
        e -= 1
    tok = low[p:e]
    kind = _classify_token(tok, seg[p:e])
    if kind is None:
        return None
    return (p, e, "identifier", tok, None, kind), end_all
