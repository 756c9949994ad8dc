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
        rng = random.Random(3)
        store.recall("warm up", "user00000", record=False)
        times = []
        for _ in range(samples):
            user = f"user{rng.randrange(users):05d}"
            t0 = time.perf_counter()
            store.recall(rng.choice(QUERIES), user, record=False)
            times.append(time.perf_counter() - t0)
        figures = {"p50_ms": percentile(times, 0.5) * 1000, "p95_ms": percentile(times, 0.95) * 1000}
    table(f"Warm recall, {n:,} memories over {users:,} users (store built in {build_s:.1f} s)",
          ["figure", "value"], [["recall p50 ms (incl. query embedding)", figures["p50_ms"]],
                                ["recall p95 ms", figures["p95_ms"]], ["queries timed", samples]])
    return figures


if __name__ == "__main__":
    run()
