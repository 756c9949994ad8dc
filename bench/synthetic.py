"""Synthetic stores for the scale benchmarks, written straight into the tables (extraction
is measured elsewhere): N memories over U users, each with the episode (turn) it came
from, realistic bilingual text and unit vectors; optionally a share of reworded copies
and extra episodes that no memory came from.

Vectors are random around topics and their subtopics, each at its own distance from its
centre, so that many pairs are close, as among real memories of one user, and an index
finds clusters to split by; only the planted copies are near-identical. Of a user's
same-type pairs: 3.6 % at cosine 0.5 or more, 0.17 % at 0.6, 0.02 % at 0.75 (real LoCoMo
memories with USE: 5.8 %, 1.8 %, 0.23 %). Enough for timing and for the code paths, not
for relevance."""

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
# Details that make each statement its own ("...with Lena at the harbour on Fridays").
_WITH_EN = ["Lena", "Marco", "Aiko", "Tom", "Priya", "Omar", "Sofia", "Ben", "Yuki", "Noah", "Mia", "Ravi", "Ines", "Jonas"]
_WHERE_EN = ["at the harbour", "in the old town", "near the office", "by the river", "at the gym", "in the park",
             "at the market", "on the terrace", "in the library", "at the studio", "downtown", "at the lake"]
_WHEN_EN = ["on Fridays", "after work", "in winter", "on weekends", "every spring", "late at night", "before breakfast",
            "on holidays", "twice a month", "in the summer", "on Sunday mornings", "during the week"]
_WITH_ZH = ["小李", "阿明", "王姐", "老周", "小雨", "阿峰", "佳佳", "大伟", "小林", "老陈", "晓晓", "阿杰", "小美", "老赵"]
_WHERE_ZH = ["在公司附近", "在老城区", "在江边", "在健身房", "在公园", "在菜市场", "在阳台", "在图书馆", "在工作室", "在市中心", "在湖边", "在小区里"]
_WHEN_ZH = ["每周五", "下班以后", "冬天的时候", "周末", "每年春天", "深夜", "早饭前", "放假时", "一个月两次", "夏天", "周日早上", "工作日"]


def _detail(rng: random.Random, zh: bool) -> str:
    if zh:
        return f"，和{rng.choice(_WITH_ZH)}{rng.choice(_WHERE_ZH)}，{rng.choice(_WHEN_ZH)}"
    return f" with {rng.choice(_WITH_EN)} {rng.choice(_WHERE_EN)} {rng.choice(_WHEN_EN)}"
SAID_ZH = ["今天和{x}一起吃了午饭，聊了很久", "周末打算去{x}看看", "最近在看一本关于{x}的书", "{x}真的太好玩了，下次还想去"]
SAID_EN = ["Had lunch with {x} today and we talked for ages", "Thinking about {x} this weekend",
           "Reading a book about {x} lately", "That {x} trip was so much fun, can't wait to go back"]
# Topics, each with subtopics: pairs within a topic are fairly close, within a subtopic
# closer (the pair density above), and an index finds many clusters to split by.
_TOPICS, _SUBTOPICS = 5, 120
_CENTRES = _TOPICS * _SUBTOPICS


def _centres(seed: int, dim: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    topics = rng.standard_normal((_TOPICS, dim)).astype(np.float32)
    offsets = rng.standard_normal((_TOPICS, _SUBTOPICS, dim)).astype(np.float32) * 0.7
    return (topics[:, None, :] + offsets).reshape(_CENTRES, dim)


def _unit(rng: np.random.Generator, centres: np.ndarray, n: int, dim: int) -> np.ndarray:
    spread = rng.uniform(0.6, 1.0, (n, 1)).astype(np.float32)
    v = centres[rng.integers(0, len(centres), n)] + rng.standard_normal((n, dim)).astype(np.float32) * spread
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def rows(n: int, users: int, dim: int, seed: int = 7, duplicates: float = 0.0, start: int = 0,
         user_name: str | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """n memories (and their episodes), round-robin over `users` users (or all of one user)."""
    rng = random.Random(seed + start)
    np_rng = np.random.default_rng(seed + start)
    centres = _centres(seed, dim)
    base = datetime(2026, 6, 1, tzinfo=timezone.utc)
    memories, episodes = [], []
    vectors = _unit(np_rng, centres, n, dim)
    for i in range(n):
        user = user_name or f"user{(start + i) % users:05d}"
        k = rng.randrange(len(ZH))
        zh = rng.random() < 0.5
        content = (ZH[k].format(x=rng.choice(THINGS_ZH)) if zh else EN[k].format(x=rng.choice(THINGS_EN))) + _detail(rng, zh)
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
        said = content.replace("用户", "我").replace("User", "I")
        episode = {"turn_key": key, "user_id": user, "session": f"s{(start + i) // 50}", "turn": f"t{start + i}",
                   "role": "user", "time": when, "content": said, "ingested_at": when, "context": None,
                   "vector": vectors[i], "outdated": False, "statement": True}
        memories.append({
            "id": mid, "chain_id": mid, "version": 1, "status": "active", "user_id": user, "type": TYPES[k],
            "content": content, "lang": "zh" if zh else "en", "topics": [], "slot": None,
            "importance": round(rng.uniform(0.2, 0.95), 3), "confidence": 0.9, "source_type": "user_stated",
            "sources": [{"session": episode["session"], "turn": episode["turn"], "time": when, "clause": said, "turn_key": key}],
            "created_at": when, "updated_at": when, "valid_from": when, "valid_to": None, "last_recalled_at": None,
            "recall_count": 0, "reinforced_count": 0, "cause": "ingest", "supersedes": None, "merged_from": [],
            "merged_into": None, "vector": vectors[i], "context_vector": vectors[i].astype(np.float16),
            "context_text": said,
        })
        episodes.append(episode)
    return memories, episodes


def chatter(n: int, users: int, dim: int, seed: int = 11, start: int = 0, user_name: str | None = None) -> list[dict[str, Any]]:
    """n episodes that no memory came from: the everyday turns of a long history."""
    rng = random.Random(seed + start)
    np_rng = np.random.default_rng(seed + start)
    centres = _centres(seed, dim)
    vectors = _unit(np_rng, centres, n, dim)
    base = datetime(2024, 1, 1, tzinfo=timezone.utc)
    out = []
    for i in range(n):
        zh = rng.random() < 0.5
        text = (rng.choice(SAID_ZH).format(x=rng.choice(THINGS_ZH)) if zh else rng.choice(SAID_EN).format(x=rng.choice(THINGS_EN)))
        when = base + timedelta(minutes=start + i)
        out.append({"turn_key": uuid.uuid4().hex, "user_id": user_name or f"user{(start + i) % users:05d}",
                    "session": f"c{(start + i) // 40}", "turn": f"c{start + i}", "role": "user", "time": when,
                    "content": f"{text} ({start + i})", "ingested_at": when, "context": None, "vector": vectors[i],
                    "outdated": False, "statement": rng.random() < 0.7})
    return out


def build(store: Any, n: int, users: int, duplicates: float = 0.0, chunk: int = 50_000, extra_episodes: int = 0,
          user_name: str | None = None) -> None:
    """Fill `store` with n memories and their episodes, plus `extra_episodes` turns no memory
    came from (written in chunks, like days of batched ingests), then count the users."""
    dim = int(store.meta["dim"])
    with store.lock.hold():
        for start in range(0, n, chunk):
            memories, episodes = rows(min(chunk, n - start), users, dim, duplicates=duplicates, start=start,
                                      user_name=user_name)
            store.db.append("memories", memories)
            store.db.append("episodes", episodes)
        for start in range(0, extra_episodes, chunk):
            store.db.append("episodes", chatter(min(chunk, extra_episodes - start), users, dim, start=start,
                                                user_name=user_name))
        for table, column in (("memories", "user_id"), ("episodes", "user_id"), ("episodes", "turn_key")):
            store.db.ensure_index(table, column)
        store.core.recount_users(None)
