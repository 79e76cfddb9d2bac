"""Numbers as the scanner reads them: value keys, spelled-out numbers ("twenty-five"),
singular units, European amounts ("1.234,56 EUR"), and ``normalise_number``
(claims/hardfacts)."""

from __future__ import annotations

import math

from receiptgate.claims.hardfacts._lexicon import (
    _EURO_AMOUNT,
    _MULT_EXP,
    _NORMALISE,
    _SPELLED_TENS,
    _SPELLED_UNITS,
    _SPELLED_WORD,
    _Cand,
)


def _fmt(x: float) -> str:
    """Format a number as a key: no trailing ``.0``, at most 6 decimals."""
    if x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    s = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def _key(num: str, exp: int, x: float) -> str:
    """The key of a matched numeral scaled by ``10**exp``, with the sign of ``x``.

    Up to 15 digits a float is exact, so ``_fmt`` is used. Longer numerals (IDs,
    account numbers) are formatted from their digits, so two that differ only
    past float precision never share a key.
    """
    plain = num.replace(",", "")
    whole, _, frac = plain.partition(".")
    digits = whole + frac
    if len(digits) <= 15:
        return _fmt(x)
    point = len(whole) + exp
    if point >= len(digits):
        ip, fp = digits + "0" * (point - len(digits)), ""
    elif point <= 0:
        ip, fp = "0", "0" * -point + digits
    else:
        ip, fp = digits[:point], digits[point:]
    fp = fp[:6].rstrip("0")
    out = (ip.lstrip("0") or "0") + ("." + fp if fp else "")
    return "-" + out if x < 0 and out != "0" else out


def _to_float(num: str, exp: int = 0) -> float | None:
    """Parse a matched numeral exactly: ``"2.4"`` with ``exp=6`` is 2400000.0."""
    whole, _, frac = num.replace(",", "").partition(".")
    # Scaling in the decimal string keeps "2.4 million" exact (no 2399999.9999).
    x = float(f"{whole}{frac}e{exp - len(frac)}")
    return x if math.isfinite(x) else None


def _singular(word: str) -> str:
    """Light singularisation: events->event, queries->query, processes->process."""
    n = len(word)
    if n > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if n > 3 and word[-1] == "s" and not word.endswith(("ss", "us", "is")):
        if word.endswith(("sses", "ches", "shes", "xes")):
            return word[:-2]
        return word[:-1]
    return word


def _prev_word(low: str, p: int, floor: int = 0) -> tuple[str, int]:
    """The word just before ``p`` (one or two spaces between), and its start.

    Returns ``("", p)`` when there is none or it starts before ``floor`` (the
    end of the previous fact, which must not be reused).
    """
    j = p - 1
    if j < 1 or low[j] != " ":
        return "", p
    if low[j - 1] == " ":
        j -= 1
    lo = j - 16 if j - 16 > floor else floor
    ws = low.rfind(" ", lo, j) + 1
    if ws == 0:
        if lo > 0:
            return "", p
        ws = lo
    if ws < floor:
        return "", p
    word = low[ws:j]
    if word.isalpha():
        return word, ws
    # "(usd 5", "**may 23" and "mar. 3": drop punctuation and emphasis glued to the
    # word's outer edges.
    inner = word.lstrip("([{\"'*_")
    return inner.rstrip(".,"), ws + len(word) - len(inner)


def _spelled_value(phrase: str) -> int | None:
    """Value of a spelled number phrase such as "twenty-five" or "three hundred"."""
    m = _SPELLED_WORD.match(phrase)
    if m is None:
        return None
    if m["u"] is not None:
        val = _SPELLED_UNITS[m["u"]]
    else:
        val = _SPELLED_TENS[m["tens"]] + (_SPELLED_UNITS[m["tu"]] if m["tu"] else 0)
    if m["sm"]:
        val *= 10 ** _MULT_EXP[m["sm"]]
    return val


def _spelled_before(low: str, p: int, floor: int = 0) -> tuple[int, int] | None:
    """A spelled number ending right before ``p`` (after one space): (start, value)."""
    w1, s1 = _prev_word(low, p, floor)
    if not w1:
        return None
    # Try the longest phrase first: "twenty five hundred", "twenty five", "five".
    w2, s2 = _prev_word(low, s1, floor)
    if w2:
        w3, s3 = _prev_word(low, s2, floor)
        if w3:
            v = _spelled_value(low[s3:p].rstrip())
            if v is not None:
                return s3, v
        v = _spelled_value(low[s2:p].rstrip())
        if v is not None:
            return s2, v
    v = _spelled_value(w1)
    return None if v is None else (s1, v)


def _bare(p: int, s: int, sign: int, num: str) -> tuple[_Cand | None, int]:
    """The number alone, with no unit."""
    x = _to_float(num)
    e = p + len(num)
    if x is None:
        return None, e
    if sign < 0:
        x = -x
    return (s, e, "number", _key(num, 0, x), x, None), e


def _with_european_money(seg: str, cands: list[_Cand]) -> list[_Cand]:
    """Replaces what the scan read in a European-format euro amount by one money fact."""
    spans: list[_Cand] = []
    for m in _EURO_AMOUNT.finditer(seg):
        raw = m.group(1).replace(".", "").replace(",", ".")
        x = float(raw)
        spans.append((m.start(), m.end(), "money", f"EUR {_fmt(x)}", x, "EUR"))
    if not spans:
        return cands
    kept = [c for c in cands if not any(c[0] < e and s < c[1] for s, e, *_ in spans)]
    return sorted(kept + spans, key=lambda c: c[0])


def normalise_number(raw: str) -> float | None:
    """Parse a written number: "2,400,000", "2.4M", "2.4 million", "thirty", "1.2k".

    Args:
        raw: The number as written, optionally signed.

    Returns:
        Its value, or None when ``raw`` is not a number.
    """
    low = raw.strip().lower()
    m = _NORMALISE.match(low)
    if m is not None:
        mult = m["mult"]
        x = _to_float(m["n"], _MULT_EXP[mult] if mult else 0)
        if x is None:
            return None
        return -x if m["sign"] in ("-", "−") else x
    spelled = _spelled_value(" ".join(low.split()))
    return None if spelled is None else float(spelled)
