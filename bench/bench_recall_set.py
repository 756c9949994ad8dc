"""The bilingual recall set (tests/data/recall_eval.json): hit@5 by query kind.

Each user's statements are ingested as one conversation (turn id = statement id); a
query hits when one of the top 5 items comes from an expected statement (a memory from
it, or its episode). The memories-only column recalls memories alone. Kinds: zh-zh,
en-en, zh-en, en-zh (cross-language), para-zh, para-en (paraphrases sharing no words).
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from datetime import datetime, timezone
from typing import Any

from common import ROOT, table

DATA = ROOT / "tests" / "data" / "recall_eval.json"


def load() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def conversations(data: dict[str, Any]) -> list[Any]:
    from memctl.conversations import Conversation, Turn

    when = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)
    out = []
    for user, spec in data["users"].items():
        turns = []
        for st in spec["statements"]:
            turns.append(Turn(st["id"], "user", st["text"], when))
            turns.append(Turn(st["id"] + "-a", "assistant", "好的，记住了。" if any("\u4e00" <= c <= "\u9fff" for c in st["text"]) else "Got it.", when))
        out.append(Conversation(user, f"{user}-profile", when, turns, origin="recall_eval"))
    return out


def evaluate(store: Any, data: dict[str, Any], k: int = 5, kinds: list[str] | None = None) -> dict[str, list[bool]]:
    hits: dict[str, list[bool]] = defaultdict(list)
    for q in data["queries"]:
        result = store.recall(q["query"], q["user"], top_k=k, record=False, kinds=kinds)
        turns = {s["turn"] for h in result.hits for s in h.to_dict()["sources"]}
        hits[q["kind"]].append(bool(turns & set(q["expected"])))
    return hits


def coverage(store: Any, data: dict[str, Any]) -> float:
    """Share of statements that became (part of) a memory."""
    turns = {s.turn for m in store.memories() for s in m.sources}
    ids = [st["id"] for spec in data["users"].values() for st in spec["statements"]]
    return sum(i in turns for i in ids) / len(ids)


def run(model: str | None = None, show: bool = True) -> dict[str, float]:
    from memctl import init_store

    data = load()
    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp, model=model)
        store.ingest(conversations=conversations(data))
        hits = evaluate(store, data)
        memory_hits = evaluate(store, data, kinds=["memory"])
        cov = coverage(store, data)
        name = store.meta["model"]
    figures = {kind: sum(v) / len(v) for kind, v in sorted(hits.items())}
    allq = [x for v in hits.values() for x in v]
    figures["all"] = sum(allq) / len(allq)
    memory_all = [x for v in memory_hits.values() for x in v]
    figures["memories_only"] = sum(memory_all) / len(memory_all)
    figures["coverage"] = cov
    if show:
        rows = [[kind, len(hits[kind]), figures[kind], sum(memory_hits[kind]) / len(memory_hits[kind])] for kind in sorted(hits)]
        rows.append(["all", len(allq), figures["all"], figures["memories_only"]])
        table(f"Bilingual recall set, hit@5 (model {name}; statements kept as memories: {cov:.3f})",
              ["kind", "queries", "hit@5 (one list)", "hit@5 (memories only)"], rows)
    return figures


if __name__ == "__main__":
    import sys

    run(sys.argv[1] if len(sys.argv) > 1 else None)
