"""audit and diff at scale: 100,000 memories over 1,000 users (10 % reworded copies),
built as batched ingests leave them. Times the full audit (every health figure,
including the secrets scan of every stored text), the same after compact, and a
`diff --since` listing what the compaction changed."""

from __future__ import annotations

import tempfile
import time
from datetime import datetime, timezone

import synthetic
from common import table


def run(n: int = 100_000, users: int = 1_000) -> dict[str, float]:
    from memctl import init_store
    from memctl.results import Point

    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp)
        synthetic.build(store, n, users, duplicates=0.1, chunk=5_000)
        rows = []
        start = time.perf_counter()
        before = store.audit()
        first = time.perf_counter() - start
        rows.append(["audit, before compact", f"{n:,}", first, before.figure("near_duplicate_pairs").value,
                     before.figure("secrets").value, ", ".join(f.name for f in before.failures) or "-"])
        start = time.perf_counter()
        one = store.audit("user00042")
        rows.append(["audit --user, before compact", one.counts["memories"], time.perf_counter() - start,
                     one.figure("near_duplicate_pairs").value, one.figure("secrets").value,
                     ", ".join(f.name for f in one.failures) or "-"])
        mark = datetime.now(timezone.utc)
        store.compact()
        start = time.perf_counter()
        after = store.audit()
        second = time.perf_counter() - start
        rows.append(["audit, after compact", after.counts["memories"], second, after.figure("near_duplicate_pairs").value,
                     after.figure("secrets").value, ", ".join(f.name for f in after.failures) or "-"])
        start = time.perf_counter()
        changes = store.diff(Point(time=mark))
        rows.append(["diff --since <before compact>", len(changes.changes), time.perf_counter() - start, "", "",
                     ", ".join(f"{v} {k}" for k, v in changes.counts().items())])
    table(f"audit and diff at {n:,} memories over {users:,} users", ["what", "memories / changes", "seconds",
          "duplicate pairs", "secrets", "failed figures / changes"], rows)
    return {"audit_seconds": first, "audit_after_compact_seconds": second}


if __name__ == "__main__":
    run()
