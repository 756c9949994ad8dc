"""forget at scale: 10,000 memories of one user among 100,000, rows and text gone
(deletions rewritten out of the data files, older versions removed)."""

from __future__ import annotations

import tempfile
import time

import synthetic
from common import table


def run(total: int = 100_000, target: int = 10_000) -> dict[str, float]:
    from memctl import init_store

    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp)
        # One heavy user (every 10th memory) among 9,000 others: user00000 gets `target` rows.
        synthetic.build(store, total, users=total // target)
        heavy = "user00000"
        count = store.db.count("memories", f"user_id = '{heavy}'")
        start = time.perf_counter()
        report = store.forget(user=heavy)
        seconds = time.perf_counter() - start
        left = store.db.count("memories", f"user_id = '{heavy}'")
        others = store.db.count("memories")
        versions = len(store.db.open("memories").versions())
    table(f"forget --user: {count:,} memories of one user among {total:,}", ["figure", "value"], [
        ["seconds (select, delete, trim turns, rewrite files, drop old versions)", seconds],
        ["memories forgotten", len(report.memories)],
        ["rows of that user left", left],
        ["other rows left", others],
        ["memories table versions kept", versions],
        ["source turns cleared", report.stats.turns_cleared],
    ])
    return {"seconds": seconds}


if __name__ == "__main__":
    run()
