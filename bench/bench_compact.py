"""compact at scale, two shapes of store, each with 10 % reworded copies and built from
many small batches as days of ingests leave them:

  many users   50,000 / 100,000 / 200,000 memories, 100 per user
  one user     25,000 / 50,000 / 100,000 / 200,000 memories of a single user (an agent's
               years with one person): the merge planner must stay linear inside a user

Reports time, time per memory against the smallest size, merges, a second run's changes
(0: nothing left to do), files and size before and after, and warm recall latency after.

`python bench/bench_compact.py [one|many]` runs one shape."""

from __future__ import annotations

import random
import tempfile
import time

import synthetic
from bench_scale import QUERIES
from common import percentile, table


def _disk(path: str) -> tuple[int, float]:
    from memctl.db import disk_usage

    files, size = disk_usage(path)
    return files, size / 1e6


def one(n: int, per_user: int = 100, batch: int = 5_000, single: bool = False) -> dict[str, float]:
    from memctl import init_store

    users = 1 if single else n // per_user
    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp)
        synthetic.build(store, n, users, duplicates=0.1, chunk=batch, user_name="me" if single else None)
        files_before, mb_before = _disk(str(store.dir))
        start = time.perf_counter()
        report = store.compact()
        seconds = time.perf_counter() - start
        files_after, mb_after = _disk(str(store.dir))
        second = store.compact()
        rng = random.Random(5)
        store.recall("warm up", "user00000", record=False)
        times = []
        for _ in range(200):
            t0 = time.perf_counter()
            store.recall(rng.choice(QUERIES), "me" if single else f"user{rng.randrange(users):05d}", record=False)
            times.append(time.perf_counter() - t0)
    return {"n": n, "seconds": seconds, "merged": sum(len(m.members) for m in report.merges), "clusters": len(report.merges),
            "second_changes": second.changes, "files_before": files_before, "files_after": files_after,
            "mb_before": mb_before, "mb_after": mb_after, "recall_p50_ms": percentile(times, 0.5) * 1000}


def run(shapes: tuple[str, ...] = ("many", "one")) -> list[dict[str, float]]:
    results = []
    if "many" in shapes:
        results += _report("compact at scale (100 memories per user, 10 % reworded copies, written in 5,000-row batches)",
                           [one(n) for n in (50_000, 100_000, 200_000)])
    if "one" in shapes:
        results += _report("compact of one user (10 % reworded copies, written in 5,000-row batches)",
                           [one(n, single=True) for n in (25_000, 50_000, 100_000, 200_000)])
    return results


def _report(title: str, results: list[dict[str, float]]) -> list[dict[str, float]]:
    base = results[0]
    table(title,
          ["memories", "seconds", "s per 1k (vs smallest)", "merged", "2nd run changes", "files before->after",
           "MB before->after", "recall p50 ms after"],
          [[f"{r['n']:,}", r["seconds"], f"{r['seconds'] / r['n'] * 1000:.3f} ({r['seconds'] / r['n'] / (base['seconds'] / base['n']):.2f}x)",
            f"{r['merged']} in {r['clusters']}", r["second_changes"], f"{r['files_before']} -> {r['files_after']}",
            f"{r['mb_before']:.0f} -> {r['mb_after']:.0f}", r["recall_p50_ms"]] for r in results])
    return results


if __name__ == "__main__":
    import sys

    run(tuple(sys.argv[1:]) or ("many", "one"))
