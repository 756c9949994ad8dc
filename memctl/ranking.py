"""The recall score, candidate selection and per-type quotas.

  relevance = (w.dense·dense + w.lexical·lexical + w.topic·topic) / (w.dense + w.lexical + w.topic)
  score     = w.dense·dense + w.lexical·lexical + w.topic·topic
            + w.importance·importance + w.recency·recency + w.reinforcement·reinforcement
            + w.user_stated·[stated by the user]

dense is cosine rescaled to 0..1 between the model's floor and ceiling; lexical is the
share of the query's BM25-weighted terms a memory (with its source turns) matches; topic
is importance ** topic_importance_power when the query and the memory share a topic
(food, health, travel ...), so a food request lifts the allergy, not every food memory; recency halves every `half_life_days[type]`. A memory is returned
only when its relevance reaches `min_relevance`: importance and recency order relevant
memories, they never make an irrelevant one relevant.
"""

from __future__ import annotations

import math
from datetime import datetime

import numpy as np

from .config import RecallConfig
from .results import RecallHit, ScoreParts
from .schema import Memory


def candidate_indices(dense: np.ndarray, lexical: np.ndarray, topic: np.ndarray, importance: np.ndarray, k: int) -> list[int]:
    """The union of the k best by meaning, by words, and the k most important on the query's topics."""
    chosen: set[int] = set()
    chosen.update(int(i) for i in np.argsort(-dense, kind="stable")[:k])
    chosen.update(int(i) for i in np.argsort(-lexical, kind="stable")[:k] if lexical[i] > 0)
    on_topic = np.flatnonzero(topic > 0)
    if on_topic.size:
        chosen.update(int(i) for i in on_topic[np.argsort(-importance[on_topic], kind="stable")][:k])
    return sorted(chosen)


def recency(memory: Memory, now: datetime, half_lives: dict[str, float]) -> float:
    when = memory.updated_at or memory.created_at
    if when is None:
        return 0.0
    age_days = max(0.0, (now - when).total_seconds() / 86400.0)
    return math.pow(0.5, age_days / half_lives.get(memory.type, 365.0))


def score(memory: Memory, dense: float, lexical: float, topic: float, now: datetime, cfg: RecallConfig) -> ScoreParts:
    w = cfg.weights
    parts = ScoreParts(
        dense=float(dense),
        lexical=float(lexical),
        topic=float(topic) * float(memory.importance) ** cfg.topic_importance_power,
        importance=float(memory.importance),
        recency=recency(memory, now, cfg.half_life_days),
        reinforcement=1.0 - 1.0 / (1.0 + memory.reinforced_count),
        user_stated=1.0 if memory.source_type == "user_stated" else 0.0,
    )
    rel_weight = (w.dense + w.lexical + w.topic) or 1.0
    parts.relevance = (w.dense * parts.dense + w.lexical * parts.lexical + w.topic * parts.topic) / rel_weight
    parts.score = (
        w.dense * parts.dense + w.lexical * parts.lexical + w.topic * parts.topic
        + w.importance * parts.importance + w.recency * parts.recency
        + w.reinforcement * parts.reinforcement + w.user_stated * parts.user_stated
    )
    return parts


def select(hits: list[RecallHit], top_k: int, max_per_type: int, min_relevance: float) -> list[RecallHit]:
    """Best first; no type takes more than max_per_type slots while other types have candidates."""
    eligible = sorted(
        (h for h in hits if h.parts.relevance >= min_relevance),
        key=lambda h: (-h.parts.score, h.memory.id),
    )
    chosen: list[RecallHit] = []
    skipped: list[RecallHit] = []
    per_type: dict[str, int] = {}
    for h in eligible:
        if len(chosen) == top_k:
            break
        if per_type.get(h.memory.type, 0) >= max_per_type:
            skipped.append(h)
            continue
        per_type[h.memory.type] = per_type.get(h.memory.type, 0) + 1
        chosen.append(h)
    for h in skipped:
        if len(chosen) == top_k:
            break
        chosen.append(h)
    chosen.sort(key=lambda h: (-h.parts.score, h.memory.id))
    return chosen
