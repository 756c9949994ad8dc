"""Synthetic stores for the scale benchmarks: N memories over U users, written straight
into the tables (extraction is measured elsewhere), each with a source turn, realistic
bilingual text and unit vectors. Optionally a share of paraphrased near-duplicates."""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np

ZH = ["用户不吃{x}", "用户喜欢{x}", "用户每天早上{x}", "用户对{x}过敏", "用户住在{x}", "用户打算明年学{x}", "用户的团队用{x}", "用户上周去了{x}"]
EN = ["User doesn't eat {x}", "User loves {x}", "User goes {x} every morning", "User is allergic to {x}",
      "User lives in {x}", "User wants to learn {x}", "User's team uses {x}", "User visited {x} last week"]
THINGS_ZH = ["海鲜", "花生", "跑步", "游泳", "杭州", "上海", "日语", "吉他", "Go", "Kafka", "三亚", "咖啡", "红酒", "滑雪", "芒果", "摄影"]
THINGS_EN = ["seafood", "peanuts", "running", "swimming", "Berlin", "Lisbon", "Japanese", "guitar", "Rust", "Postgres",
             "Tokyo", "coffee", "wine", "skiing", "mangoes", "photography"]
TYPES = ["preference", "preference", "behavior", "profile", "profile", "goal", "knowledge", "event"]


def rows(n: int, users: int, dim: int, seed: int = 7, duplicates: float = 0.0, start: int = 0) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(seed + start)
    np_rng = np.random.default_rng(seed + start)
    base = datetime(2026, 6, 1, tzinfo=timezone.utc)
    memories, turns = [], []
    vectors = np_rng.standard_normal((n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for i in range(n):
        user = f"user{(start + i) % users:05d}"
        k = rng.randrange(len(ZH))
        zh = rng.random() < 0.5
        content = (ZH[k].format(x=rng.choice(THINGS_ZH)) if zh else EN[k].format(x=rng.choice(THINGS_EN)))
        if duplicates and memories and rng.random() < duplicates:
            # A reworded copy of one of this user's earlier memories, with a near-identical vector.
            j = i - users * rng.randrange(1, 4) if i >= users * 3 else i - 1
            j = max(0, min(j, len(memories) - 1))
            content = memories[j]["content"] + ("，真的" if zh else ", really")
            user = memories[j]["user_id"]
            k = TYPES.index(memories[j]["type"]) if memories[j]["type"] in TYPES else k
            v = vectors[j] + np_rng.standard_normal(dim).astype(np.float32) * 0.05
            vectors[i] = v / np.linalg.norm(v)
        when = base + timedelta(minutes=start + i)
        mid = uuid.uuid4().hex[:16]
        key = uuid.uuid4().hex
        turn = {"turn_key": key, "user_id": user, "session": f"s{(start + i) // 50}", "turn": f"t{start + i}", "role": "user",
                "time": when, "content": content.replace("用户", "我").replace("User", "I"), "ingested_at": when, "context": None}
        memories.append({
            "id": mid, "chain_id": mid, "version": 1, "status": "active", "user_id": user, "type": TYPES[k],
            "content": content, "lang": "zh" if zh else "en", "topics": [], "slot": None,
            "importance": round(rng.uniform(0.2, 0.95), 3), "confidence": 0.9, "source_type": "user_stated",
            "sources": [{"session": turn["session"], "turn": turn["turn"], "time": when, "clause": turn["content"], "turn_key": key}],
            "created_at": when, "updated_at": when, "valid_from": when, "valid_to": None, "last_recalled_at": None,
            "recall_count": 0, "reinforced_count": 0, "cause": "ingest", "supersedes": None, "merged_from": [],
            "merged_into": None, "vector": vectors[i], "context_vector": vectors[i].astype(np.float16),
            "context_text": turn["content"],
        })
        turns.append(turn)
    return memories, turns


def build(store: Any, n: int, users: int, duplicates: float = 0.0, chunk: int = 50_000) -> None:
    """Fill `store` with n memories (written in chunks, like a day of batched ingests)."""
    dim = int(store.meta["dim"])
    with store.lock.hold():
        for start in range(0, n, chunk):
            memories, turns = rows(min(chunk, n - start), users, dim, duplicates=duplicates, start=start)
            store.db.append("memories", memories)
            store.db.append("turns", turns)
        store.db.ensure_index("memories", "user_id")
        store.db.ensure_index("turns", "user_id")
        store.db.ensure_index("turns", "turn_key")
