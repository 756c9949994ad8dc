"""Warm recall latency at scale (query embedding included), two shapes of store:

  one user     100,000 memories and 1,000,000 episodes of a single user (an agent's years
               with one person): served by the tables' vector and full-text indexes
  many users   1,000,000 memories (and the 1,000,000 episodes they came from) over 10,000
               users: each user read exactly, from rows clustered by user

Each store is written in batches, then compacted (which builds the indexes or clusters
the rows), then timed over 300 queries. `python bench/bench_scale.py [one|many]`."""

from __future__ import annotations

import random
import tempfile
import time

import synthetic
from common import percentile, table

QUERIES = ["推荐一家餐厅", "what should I cook tonight", "周末去哪里玩", "help me plan a trip", "我该学什么语言",
           "which database should we use", "下午茶吃什么", "any allergies I should know about"]


def one_user(memories: int = 100_000, episodes: int = 1_000_000, samples: int = 300) -> dict[str, float]:
    return _shape("one user", memories, 1, episodes - memories, samples, user_name="me")


def many_users(memories: int = 1_000_000, users: int = 10_000, samples: int = 300) -> dict[str, float]:
    return _shape("many users", memories, users, 0, samples)


def _shape(label: str, memories: int, users: int, extra: int, samples: int, user_name: str | None = None) -> dict[str, float]:
    from memctl import init_store

    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp)
        start = time.perf_counter()
        synthetic.build(store, memories, users, chunk=50_000, extra_episodes=extra, user_name=user_name)
        built = time.perf_counter() - start
        start = time.perf_counter()
        store.compact()
        compacted = time.perf_counter() - start
        rng = random.Random(3)
        pick = (lambda: user_name) if user_name else (lambda: f"user{rng.randrange(users):05d}")
        store.recall("warm up", pick(), record=False)
        times = []
        for _ in range(samples):
            user = pick()
            t0 = time.perf_counter()
            store.recall(rng.choice(QUERIES), user, record=False)
            times.append(time.perf_counter() - t0)
        episodes = store.db.count("episodes")
    return {"shape": label, "memories": memories, "episodes": episodes, "users": users, "build_s": built,
            "compact_s": compacted, "p50_ms": percentile(times, 0.5) * 1000, "p95_ms": percentile(times, 0.95) * 1000}


def run(shapes: tuple[str, ...] = ("one", "many")) -> list[dict[str, float]]:
    results = []
    if "one" in shapes:
        results.append(one_user())
    if "many" in shapes:
        results.append(many_users())
    table("Warm recall at scale (query embedding included, 300 queries)",
          ["store", "memories", "episodes", "users", "written s", "first compact s", "p50 ms", "p95 ms"],
          [[r["shape"], f"{r['memories']:,}", f"{r['episodes']:,}", f"{r['users']:,}", r["build_s"], r["compact_s"],
            r["p50_ms"], r["p95_ms"]] for r in results])
    return results


if __name__ == "__main__":
    import sys

    run(tuple(sys.argv[1:]) or ("one", "many"))
