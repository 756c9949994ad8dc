"""The bundled samples: ingest speed, warm recall latency, and the wall time of a cold
`memctl recall` in a new process (what a shell script or an agent hook pays)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from common import ROOT, median, percentile, table

QUERIES = [
    ("帮我推荐三亚的餐厅", "xiaolin"), ("下午茶吃什么", "xiaolin"), ("plan a day trip with my daughter", "xiaolin"),
    ("How should I structure my first Rust service?", "sam"), ("review this Go handler", "sam"),
    ("帮我安排这周的日程", "kai"), ("suggest a lunch place for the team", "kai"),
]


def cold_cli(store_dir: str, runs: int = 7) -> list[float]:
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    times = []
    for n in range(runs):
        query, user = QUERIES[n % len(QUERIES)]
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "memctl", "recall", query, "--user", user, "--json", "--store", store_dir],
                       check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return times


def run(model: str | None = None) -> dict[str, float]:
    from memctl import init_store

    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp, model=model)
        store.core.embedder.embed(["warm up"])
        start = time.perf_counter()
        report = store.ingest([str(ROOT / "sample_conversations")])
        ingest_s = time.perf_counter() - start
        warm = []
        for _ in range(20):
            for query, user in QUERIES:
                t0 = time.perf_counter()
                store.recall(query, user, record=False)
                warm.append(time.perf_counter() - t0)
        cold = cold_cli(str(store.dir))
    figures = {
        "turns": report.turns, "ingest_s": ingest_s, "turns_per_s": report.turns / ingest_s,
        "warm_p50_ms": percentile(warm, 0.5) * 1000, "warm_p95_ms": percentile(warm, 0.95) * 1000,
        "cold_cli_median_s": median(cold), "cold_cli_max_s": max(cold),
    }
    table(f"sample_conversations (model {store.meta['model']})", ["figure", "value"], [
        ["user turns ingested", report.turns],
        ["ingest seconds (one call, store writes included)", ingest_s],
        ["user turns / s", figures["turns_per_s"]],
        ["recall warm p50 ms", figures["warm_p50_ms"]],
        ["recall warm p95 ms", figures["warm_p95_ms"]],
        ["memctl recall, new process, median s (7 runs)", figures["cold_cli_median_s"]],
        ["memctl recall, new process, max s", figures["cold_cli_max_s"]],
    ])
    return figures


if __name__ == "__main__":
    run()
