"""Prints the receipts receiptgate reads from each file given on the command line."""

import sys
from pathlib import Path

from receiptgate.evidence.receipts import detect_format, load_receipts

for path in sys.argv[1:]:
    print(f"{path}: {detect_format(Path(path).read_text(encoding='utf-8-sig'))}")
    for r in load_receipts(path):
        when = r.created_at.isoformat() if r.created_at else None
        content = r.content if len(r.content) <= 50 else r.content[:49] + "…"
        print(
            f"  {r.id:<7} {r.kind:<5} tool={r.tool} ok={r.ok} trust={r.effective_trust}"
            f" at={when} args={r.args} meta={r.meta}"
        )
        print(f"          content={content!r}")
