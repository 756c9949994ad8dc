"""LoCoMo: ingest speed, and evidence recall R@5 of `recall` (the top 5 items of the one
ranked list, memories and episodes) against a raw-turn BM25 baseline scored in the same
run (absolute figures drift between machines; the ratio is what the issues ask for).

The evidence an item covers: a memory's source turns, an episode's own turn. Also
printed: memories per 100 user turns and the share of each memory type, since a recall
figure that rises by storing more memories is a warning, not a win.

`python bench/bench_locomo.py [N] [--dev|--test] [-v]`: the first N conversations, or the
development half (conversations 0, 2, 4, 6, 8) or the held-out half (1, 3, 5, 7, 9).
"""

from __future__ import annotations

import tempfile
import time
from typing import Any

import locomo
from common import table


def run(model: str | None = None, limit: int | None = None, verbose: bool = False, half: str | None = None,
        episodes: bool = True) -> dict[str, Any]:
    from memctl import init_store
    from memctl.config import Config

    samples = locomo.load()[:limit] if limit else locomo.load()
    if half is not None:
        samples = samples[0 if half == "dev" else 1::2]
    with tempfile.TemporaryDirectory() as tmp:
        config = Config()
        config.episodes.enabled = episodes
        store = init_store(tmp, model=model, config=config)
        store.core.embedder.embed(["warm up"])
        convs = [c for s in samples for sp in locomo.speakers(s) for c in locomo.conversations_for(s, sp)]
        messages = sum(len(c.turns) for c in convs)
        user_turns = sum(1 for c in convs for t in c.turns if t.role == "user")
        start = time.perf_counter()
        report = store.ingest(conversations=convs)
        seconds = time.perf_counter() - start
        memories = store.db.count("memories", "status = 'active'")
        by_type = store.db.to_table("memories", columns=["type"], filter="status = 'active'").column("type").to_pylist()
        observed = _observations(store, samples)
        kinds_top5: dict[str, int] = {}

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
                turns = []
                for h in hits[:5]:
                    kinds_top5[h.kind] = kinds_top5.get(h.kind, 0) + 1
                    turns += [src.turn for src in h.memory.sources] if h.memory is not None else [h.episode.turn]
                r = locomo.recall_at(q["evidence"], turns)
                b = locomo.recall_at(q["evidence"], bm25.top(q["question"], 5))
                ours.append(r)
                base.append(b)
                per_cat.setdefault(q["category"], []).append((r, b))
                if verbose and r < b:
                    print("MISS", q["question"], sorted(q["evidence"]), [h.content[:60] for h in hits[:5]])
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
            ["episodes on", episodes],
            ["active memories", memories],
            ["active memories per 100 user turns", 100 * memories / user_turns],
            ["share of catch-all `context` memories", by_type.count("context") / max(1, memories)],
            ["items in top 5: memories / episodes", f"{kinds_top5.get('memory', 0)} / {kinds_top5.get('episode', 0)}"],
            ["active memories from a turn with an observation", observed["precision"]],
            ["turns with an observation that gave a memory", observed["recall"]],
            ["dropped clauses", sum(report.dropped.values())],
            ["recall R@5 (memctl)", r5],
            ["recall R@5 (raw-turn BM25 baseline)", b5],
            ["ratio", r5 / b5],
            ["recall p50 ms (per question)", sorted(latencies)[len(latencies) // 2] * 1000],
        ],
    )
    table("R@5 by LoCoMo category", ["category", "questions", "memctl", "BM25"],
          [[c, len(v), sum(x for x, _ in v) / len(v), sum(y for _, y in v) / len(v)] for c, v in sorted(per_cat.items())])
    return {"r5": r5, "baseline": b5, "observed_precision": observed["precision"], "observed_recall": observed["recall"], "ratio": r5 / b5, "messages_per_s": messages / seconds,
            "user_turns_per_s": user_turns / seconds, "memories_per_100_turns": 100 * memories / user_turns}


def _observations(store: Any, samples: list[dict[str, Any]]) -> dict[str, float]:
    """How the active memories line up with the dataset's observations (the facts the
    annotators noted per turn): the share of memories with a source turn that carries an
    observation, and the share of observation turns that gave a memory."""
    from_observed = total = 0
    covered = needed = 0
    for s in samples:
        for speaker in locomo.speakers(s):
            observed = locomo.observed_turns(s, speaker)
            turns_with_memory = set()
            for m in store.memories(locomo.user_id(s, speaker)):
                turns = {src.turn for src in m.sources}
                turns_with_memory |= turns
                total += 1
                from_observed += bool(turns & observed)
            needed += len(observed)
            covered += len(observed & turns_with_memory)
    return {"precision": from_observed / max(total, 1), "recall": covered / max(needed, 1)}


if __name__ == "__main__":
    import sys

    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    run(limit=int(numbers[0]) if numbers else None, verbose="-v" in sys.argv,
        half="dev" if "--dev" in sys.argv else "test" if "--test" in sys.argv else None,
        episodes="--no-episodes" not in sys.argv)
