"""Print the time ``segment`` takes on ~2,000-character texts.

Run: ``.venv/bin/python benchmarks/segment_speed.py``
"""

from __future__ import annotations

import timeit

from receiptgate.text.segment import segment

# Dense on purpose: short sentences full of abbreviations, numbers and paths,
# so nearly every period is a candidate boundary that needs checking.
_DENSE_PROSE = (
    "I checked the deployment at 3:15 p.m. and the API at api.example.com is "
    "healthy. Dr. Smith confirmed that v1.2.3-rc.1 fixed the leak, e.g. in "
    "./src/main.py where config.yaml was read twice. Revenue rose to $2.4M "
    "(up 3.14% vs. last quarter)! Did the U.S. team sign off? Yes, they did... "
    "mostly. See https://example.com/docs/a.b?x=1. The next step is to "
    "rerun `make test.all` on node.js 20.\n"
)
_DENSE_MARKDOWN = (
    "## Status\n\n"
    "- The service is running on port 8080. Latency is 42 ms.\n"
    "- Memory use is stable.\n\n"
    "| metric | value |\n|---|---|\n| p99 | 120 ms |\n\n"
)
# A plainer agent reply, closer to the average message.
_TYPICAL_REPLY = (
    "I've deployed the fix to staging, and the build passed all 312 tests in a "
    "little over four minutes. The failing test was caused by a missing lock in "
    "the worker pool, which let two jobs write the same cache entry at once. "
    "After adding the lock, I reran the suite three times without a failure.\n\n"
    "- The production rollout is scheduled for tomorrow morning.\n"
    "- I updated the runbook with the new rollback steps.\n\n"
    "Let me know if you want me to open the pull request now. I can also add a "
    "regression test that reproduces the race with two concurrent writers.\n\n"
)


def build_text(unit: str, head: str = "", target: int = 2000) -> str:
    """Repeat ``unit`` after ``head`` and cut the result to ``target`` characters."""
    text = head
    while len(text) < target:
        text += unit + "\n"
    return text[:target]


def time_segment(text: str, number: int = 2000) -> float:
    """Return the best mean time of ``segment(text)`` in microseconds."""
    best = min(timeit.repeat(lambda: segment(text), number=number, repeat=5))
    return best / number * 1e6


def main() -> None:
    """Time ``segment`` on a dense and on a typical text and print µs per call."""
    for label, text in (
        ("dense mixed", build_text(_DENSE_PROSE, _DENSE_MARKDOWN)),
        ("typical reply", build_text(_TYPICAL_REPLY)),
    ):
        count = len(segment(text))
        print(
            f"{label}: {len(text)} chars, {count} sentences: {time_segment(text):.1f} µs per call"
        )


if __name__ == "__main__":
    main()
