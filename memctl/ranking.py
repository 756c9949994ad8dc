"""The recall score, candidate selection and quotas, for memories and episodes alike.

  relevance = (w.dense·dense + w.lexical·lexical + w.topic·topic) / (w.dense + w.lexical + w.topic)
  memory    = w.dense·dense + w.lexical·lexical + w.topic·topic
            + w.importance·importance + w.recency·recency + w.reinforcement·reinforcement
            + w.user_stated·[stated by the user] + w.period·period
              (× other_subject_weight when the query asks about the user and the memory is about
               someone else in their life whom the query does not name)
  episode   = episode_weight · (1 - (1 - asking_weight) · asked) · (w.dense·dense + w.lexical·lexical
            + w.recency·recency + w.user_stated + w.period·period),
              and at least neighbour_weight · the score of the user's turn right before or
              after it in the same session, with a question between them (recall.py)

dense is cosine rescaled to 0..1 between the model's floor and ceiling; lexical is the
share of the query's BM25-weighted terms a text (with its source turn) matches; topic
is importance ** topic_importance_power when the query and the memory share a topic
(food, health, travel ...), so a food request lifts the allergy, not every food memory;
recency halves every `half_life_days[type]`; asked is 1 for a turn that only asked,
requested or chatted, else the share of its text that is questions; period is 1 when
the item was said (a memory: or became true) within a period the query names ("in May
2023", "last week"). An item is
returned only when its relevance reaches `min_relevance`: importance, recency and period
order relevant items, they never make an irrelevant one relevant. An episode is a turn as it was said: it scores a
share (`episode_weight`) of what a curated memory with the same relevance scores.
"""

from __future__ import annotations

import math
import re
from datetime import datetime

import numpy as np

from .config import EPISODE_TYPE, RecallConfig
from .results import RecallHit, ScoreParts
from .schema import Episode, Memory


def candidate_indices(dense: np.ndarray, lexical: np.ndarray, topic: np.ndarray, importance: np.ndarray, k: int) -> list[int]:
    """The union of the k best by meaning, by words, and the k most important on the query's topics."""
    chosen: set[int] = set()
    chosen.update(int(i) for i in np.argsort(-dense, kind="stable")[:k])
    chosen.update(int(i) for i in np.argsort(-lexical, kind="stable")[:k] if lexical[i] > 0)
    on_topic = np.flatnonzero(topic > 0)
    if on_topic.size:
        chosen.update(int(i) for i in on_topic[np.argsort(-importance[on_topic], kind="stable")][:k])
    return sorted(chosen)


def decay(when: datetime | None, now: datetime, half_life_days: float) -> float:
    if when is None:
        return 0.0
    age_days = max(0.0, (now - when).total_seconds() / 86400.0)
    return math.pow(0.5, age_days / half_life_days)


def recency(memory: Memory, now: datetime, half_lives: dict[str, float]) -> float:
    return decay(memory.updated_at or memory.created_at, now, half_lives.get(memory.type, 365.0))


def _relevance(cfg: RecallConfig, parts: ScoreParts) -> float:
    w = cfg.weights
    return (w.dense * parts.dense + w.lexical * parts.lexical + w.topic * parts.topic) / ((w.dense + w.lexical + w.topic) or 1.0)


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|me|my|mine|myself)\b|我(?!们)", re.I)


def subject_weight(memory: Memory, query: str, cfg: RecallConfig) -> float:
    """How much a memory about someone else counts for this query: all of it when the query
    names them ("what does my sister eat") or asks about no one in particular; a share when
    it asks about the user ("what diet am I on")."""
    about = memory.subject
    if not about or about == "user":
        return 1.0
    low = query.lower()
    if any(word and word in low for word in re.split(r"\s+", about.lower())) or about in query:
        return 1.0
    return cfg.other_subject_weight if _FIRST_PERSON.search(query) else 1.0


def in_periods(times: list[datetime | None], periods: list[tuple[datetime, datetime]]) -> float:
    """1.0 when one of the times falls in one of the periods (start inclusive, end exclusive)."""
    return 1.0 if any(t is not None and start <= t < end for t in times for start, end in periods) else 0.0


def score(memory: Memory, dense: float, lexical: float, topic: float, now: datetime, cfg: RecallConfig,
          weight: float = 1.0, periods: list[tuple[datetime, datetime]] = ()) -> ScoreParts:
    w = cfg.weights
    parts = ScoreParts(
        dense=float(dense),
        lexical=float(lexical),
        topic=float(topic) * float(memory.importance) ** cfg.topic_importance_power,
        importance=float(memory.importance),
        recency=recency(memory, now, cfg.half_life_days),
        reinforcement=1.0 - 1.0 / (1.0 + memory.reinforced_count),
        user_stated=1.0 if memory.source_type == "user_stated" else 0.0,
        period=in_periods([s.time for s in memory.sources] + [memory.valid_from], periods) if periods else 0.0,
    )
    parts.relevance = _relevance(cfg, parts)
    parts.score = weight * (
        w.dense * parts.dense + w.lexical * parts.lexical + w.topic * parts.topic
        + w.importance * parts.importance + w.recency * parts.recency
        + w.reinforcement * parts.reinforcement + w.user_stated * parts.user_stated + w.period * parts.period
    )
    return parts


_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]*")


def question_share(text: str) -> float:
    """The share of a turn's text that asks ("Wow, that rocks! What's the main idea of your
    art?" is mostly a question): a question is weak evidence of what is true."""
    sentences = [m.group(0).strip() for m in _SENTENCE.finditer(text) if m.group(0).strip()]
    total = sum(len(x) for x in sentences)
    asked = sum(len(x) for x in sentences if x.endswith(("?", "？")))
    return asked / total if total else 0.0


def score_episode(episode: Episode, dense: float, lexical: float, now: datetime, cfg: RecallConfig,
                  periods: list[tuple[datetime, datetime]] = ()) -> ScoreParts:
    w = cfg.weights
    parts = ScoreParts(
        dense=float(dense),
        lexical=float(lexical),
        recency=decay(episode.time or episode.ingested_at, now, cfg.half_life_days.get(EPISODE_TYPE, 365.0)),
        user_stated=1.0,
        period=in_periods([episode.time], periods) if periods else 0.0,
    )
    parts.relevance = _relevance(cfg, parts)
    asking = 1.0 if not episode.statement else question_share(episode.content or "")
    parts.score = cfg.episode_weight * (1.0 - (1.0 - cfg.asking_weight) * asking) * (
        w.dense * parts.dense + w.lexical * parts.lexical + w.recency * parts.recency + w.user_stated * parts.user_stated
        + w.period * parts.period
    )
    return parts


def select(hits: list[RecallHit], top_k: int, max_per_type: int, min_relevance: float,
           max_episodes: int | None = None) -> list[RecallHit]:
    """Best first; no memory type takes more than max_per_type slots, and episodes no more
    than max_episodes, while other candidates remain. A memory ranked by the turn it came
    from (its folded evidence outscored its own text) counts as that turn, an episode: storing
    a fact from a turn must not make the turn harder to find than it was as an episode."""
    eligible = sorted((h for h in hits if h.parts.relevance >= min_relevance), key=lambda h: (-h.parts.score, -h.parts.relevance, h.id))
    limits = {EPISODE_TYPE: max_per_type if max_episodes is None else max_episodes}
    chosen: list[RecallHit] = []
    skipped: list[RecallHit] = []
    per_type: dict[str, int] = {}
    for h in eligible:
        if len(chosen) == top_k:
            break
        kind = EPISODE_TYPE if h.memory is not None and h.parts.evidence > 0 and h.parts.evidence >= h.parts.score else h.type
        if per_type.get(kind, 0) >= limits.get(kind, max_per_type):
            skipped.append(h)
            continue
        per_type[kind] = per_type.get(kind, 0) + 1
        chosen.append(h)
    for h in skipped:
        if len(chosen) == top_k:
            break
        chosen.append(h)
    chosen.sort(key=lambda h: (-h.parts.score, -h.parts.relevance, h.id))
    return chosen
