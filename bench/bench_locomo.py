"""LoCoMo: ingest speed, and evidence recall R@5 of `recall` against a raw-turn BM25
baseline scored in the same run (absolute figures drift between machines; the ratio
is what the issues ask for)."""

from __future__ import annotations

import tempfile
import time
from typing import Any

import locomo
from common import table


def run(model: str | None = None, limit: int | None = None, verbose: bool = False) -> dict[str, Any]:
    from memctl import init_store

    samples = locomo.load()[:limit] if limit else locomo.load()
    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp, model=model)
        store.core.embedder.embed(["warm up"])
        convs = [c for s in samples for sp in locomo.speakers(s) for c in locomo.conversations_for(s, sp)]
        messages = sum(len(c.turns) for c in convs)
        user_turns = sum(1 for c in convs for t in c.turns if t.role == "user")
        start = time.perf_counter()
        report = store.ingest(conversations=convs)
        seconds = time.perf_counter() - start
        memories = store.db.count("memories", "status = 'active'")

        ours, base, per_cat, latencies = [], [], {}, []
        for s in samples:
            bm25 = locomo.RawTurnBM25(s)
            for q in locomo.questions(s):
                t0 = time.perf_counter()
                hits = []
                for speaker in locomo.about(s, q["question"]):
                    hits += store.recall(q["question"], locomo.user_id(s, speaker), top_k=5, record=False).hits
                latencies.append(time.perf_counter() - t0)
                hits.sort(key=lambda h: -h.score)
                turns = [src.turn for h in hits[:5] for src in h.memory.sources]
                r = locomo.recall_at(q["evidence"], turns)
                b = locomo.recall_at(q["evidence"], bm25.top(q["question"], 5))
                ours.append(r)
                base.append(b)
                per_cat.setdefault(q["category"], []).append((r, b))
                if verbose and r < b:
                    print("MISS", q["question"], sorted(q["evidence"]), [h.memory.content[:60] for h in hits[:5]])
    r5, b5 = sum(ours) / len(ours), sum(base) / len(base)
    table(
        f"LoCoMo ({len(samples)} conversations, {len(ours)} questions, model {store.meta['model']})",
        ["figure", "value"],
        [
            ["messages ingested (both speakers' views)", messages],
            ["user turns ingested", user_turns],
            ["ingest seconds", seconds],
            ["messages / s", messages / seconds],
            ["user turns / s", user_turns / seconds],
            ["active memories", memories],
            ["dropped clauses", sum(report.dropped.values())],
            ["recall R@5 (memctl)", r5],
            ["recall R@5 (raw-turn BM25 baseline)", b5],
            ["ratio", r5 / b5],
            ["recall p50 ms (per question)", sorted(latencies)[len(latencies) // 2] * 1000],
        ],
    )
    table("R@5 by LoCoMo category", ["category", "questions", "memctl", "BM25"],
          [[c, len(v), sum(x for x, _ in v) / len(v), sum(y for _, y in v) / len(v)] for c, v in sorted(per_cat.items())])
    return {"r5": r5, "baseline": b5, "ratio": r5 / b5, "messages_per_s": messages / seconds, "user_turns_per_s": user_turns / seconds}


if __name__ == "__main__":
    import sys

    run(limit=int(sys.argv[1]) if len(sys.argv) > 1 else None, verbose="-v" in sys.argv)
