"""Warm recall latency with 100,000 memories over 1,000 users (query embedding included)."""

from __future__ import annotations

import random
import tempfile
import time

import synthetic
from common import percentile, table

QUERIES = ["推荐一家餐厅", "what should I cook tonight", "周末去哪里玩", "help me plan a trip", "我该学什么语言",
           "which database should we use", "下午茶吃什么", "any allergies I should know about"]


def run(n: int = 100_000, users: int = 1_000, samples: int = 300) -> dict[str, float]:
    from memctl import init_store

    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp)
        start = time.perf_counter()
        synthetic.build(store, n, users)
        build_s = time.perf_counter() - start
        fresh = _time(store, users, samples)
        store.compact()
        compacted = _time(store, users, samples)
    table(f"Warm recall, {n:,} memories over {users:,} users, {samples} queries (store built in {build_s:.1f} s)",
          ["store state", "p50 ms (incl. query embedding)", "p95 ms"],
          [["as written (2 batches of 50,000 rows, users interleaved)", fresh[0], fresh[1]],
           ["after memctl compact (rows clustered by user)", compacted[0], compacted[1]]])
    return {"fresh_p50_ms": fresh[0], "p50_ms": compacted[0], "p95_ms": compacted[1]}


def _time(store, users: int, samples: int) -> tuple[float, float]:
    rng = random.Random(3)
    store.recall("warm up", "user00000", record=False)
    times = []
    for _ in range(samples):
        user = f"user{rng.randrange(users):05d}"
        t0 = time.perf_counter()
        store.recall(rng.choice(QUERIES), user, record=False)
        times.append(time.perf_counter() - t0)
    return percentile(times, 0.5) * 1000, percentile(times, 0.95) * 1000


if __name__ == "__main__":
    run()
