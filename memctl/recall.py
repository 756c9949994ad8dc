"""recall: what one user said and what is true about them, ranked for one query.

Two kinds of item come back in one list: memories (curated facts) and episodes (turns as
they were said). The user filter is applied inside the storage query, before any
similarity is computed: no other user's row can ever be a candidate.

Each memory is scored by meaning (its own vector and its source turn's), shared words,
shared topics, importance, recency and reinforcement; each episode by meaning, words and
recency (ranking.py). A user with few rows is read whole and scored exactly; a user with
many is served by the tables' own indexes (vector and full-text, kept by `compact`).
An episode that a listed memory came from is folded into that memory, and by default a
turn whose memories were all superseded or forgotten is left out: it would bring the
outdated fact back. Recalls are noted in the spool, not written to the table.
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Any, Iterable

import numpy as np
import pyarrow as pa

from .config import EPISODE_TYPE, MEMORY_TYPES, LEGACY_TYPES
from .conversations import check_user_id
from .core import Core
from .db import sql_in, sql_str, sql_time, vector_matrix
from .errors import UsageError
from .judgement import rescaler
from .lexical import BM25, HAN
from .ranking import candidate_indices, score, score_episode, select
from .results import RecallHit, RecallResult
from .schema import EPISODE_COLUMNS, FULL_MEMORY_COLUMNS, MEMORY_COLUMNS, Episode, Memory
from .topics import load_topics, topics_of

KINDS = ("memory", "episode")
# Spool size at which a recall folds the spool into the table (if no writer is busy).
SPOOL_FLUSH_BYTES = 64 * 1024
# Lists probed in a vector index: with the index's ~sqrt(n) lists, a few percent of rows.
_NPROBES = 20
# A user holding at least this share of a table's rows is filtered after the index
# search (a prefilter over most of a table costs more than it saves).
_POSTFILTER_SHARE = 0.5
# The topic leg of a large user: only memories this important can gain from a topic.
_TOPIC_MIN_IMPORTANCE = 0.8


def recall(
    core: Core,
    query: str,
    user: str,
    *,
    top_k: int | None = None,
    types: Iterable[str] | None = None,
    kinds: Iterable[str] | None = None,
    as_of: datetime | None = None,
    include_history: bool = False,
    record: bool = True,
) -> RecallResult:
    check_user_id(user)
    if not query or not query.strip():
        raise UsageError("the query is empty")
    cfg = core.config.recall
    k = top_k if top_k is not None else cfg.top_k_inject
    if k < 1:
        raise UsageError("top_k must be at least 1")
    wanted = _kinds(kinds, types)
    memory_types = [t for t in (types or ()) if t != EPISODE_TYPE]
    embedder = core.embedder  # starts loading the model while the store is read
    query = about_the_user(query, user)
    qvec = embedder.embed([query])[0]
    now = core.clock()
    memory_rows, episode_rows = core.user_size(user)
    hits: list[RecallHit] = []
    if "memory" in wanted:
        hits += _memory_hits(core, query, qvec, user, memory_types, as_of, include_history, memory_rows, now)
    if "episode" in wanted and core.config.episodes.enabled:
        hits += _episode_hits(core, query, qvec, user, as_of, include_history, episode_rows, now)
    result = RecallResult(query=query, user=user)
    result.hits = select(_fold(hits, cfg.min_relevance), k, cfg.max_per_type, cfg.min_relevance, cfg.max_episodes)
    memory_ids = [h.memory.id for h in result.hits if h.memory is not None]
    if record and memory_ids:
        core.spool.record(user, memory_ids, now)
        if core.spool.size() > SPOOL_FLUSH_BYTES:
            core.try_flush_recalls()
    return result


def about_the_user(query: str, user: str) -> str:
    """The query without the user's own name: "What has Melanie painted?" asks Melanie's
    store about painting; her name says whose store, not what in it (and it fills the
    messages others addressed to her). A name is a part of the user id of three letters
    or more, capitalised in the query (or two or more Han characters)."""
    parts = [p for p in re.split(r"[^\w]+|_", user) if p]
    out = query
    for part in parts:
        if HAN.search(part) and len(part) >= 2:
            out = out.replace(part, " ")
        elif part.isalpha() and len(part) >= 3:
            out = re.sub(rf"\b{re.escape(part[0].upper() + part[1:].lower())}(?:'s|’s)?\b", " ", out)
    out = re.sub(r"\s+", " ", out).strip()
    return out if re.search(r"\w", out) else query


def _kinds(kinds: Iterable[str] | None, types: Iterable[str] | None) -> set[str]:
    out = set(kinds or KINDS)
    unknown = out - set(KINDS)
    if unknown:
        raise UsageError(f"unknown kind {sorted(unknown)[0]!r} (use memory or episode)")
    if types:
        types = list(types)
        for t in types:
            if t not in MEMORY_TYPES + (EPISODE_TYPE,) + LEGACY_TYPES:
                raise UsageError(f"unknown memory type {t!r} (use {', '.join(MEMORY_TYPES + (EPISODE_TYPE,))})")
        if EPISODE_TYPE not in types:
            out.discard("episode")
        if all(t == EPISODE_TYPE for t in types):
            out.discard("memory")
    return out


def _fold(hits: list[RecallHit], min_relevance: float) -> list[RecallHit]:
    """An episode that a relevant candidate memory came from is that memory's evidence,
    not an item of its own: it is dropped, and the memory ranks at least as high as the
    turn it came from."""
    memories = [h for h in hits if h.memory is not None and h.parts.relevance >= min_relevance]
    by_turn: dict[str, list[RecallHit]] = {}
    for h in memories:
        assert h.memory is not None
        for s in h.memory.sources:
            by_turn.setdefault(s.turn_key, []).append(h)
    out = []
    for h in hits:
        if h.episode is not None and h.episode.id in by_turn:
            for m in by_turn[h.episode.id]:
                m.parts.evidence = max(m.parts.evidence, h.parts.score)
            continue
        out.append(h)
    for h in memories:
        h.parts.score = max(h.parts.score, h.parts.evidence)
    return out


# -- memories ------------------------------------------------------------------------------


def _memory_hits(core: Core, query: str, qvec: np.ndarray, user: str, types: list[str], as_of: datetime | None,
                 include_history: bool, rows: int, now: datetime) -> list[RecallHit]:
    cfg = core.config.recall
    where = [f"user_id = {sql_str(user)}"]
    if as_of is not None:
        t = sql_time(as_of)
        where.append(f"(created_at IS NULL OR created_at <= {t})")
        where.append(f"(valid_from IS NULL OR valid_from <= {t})")
        where.append(f"(valid_to IS NULL OR valid_to > {t})")
    active_only = as_of is None and not include_history
    if types:
        where.append(sql_in("type", types))
    filter_ = " AND ".join(where)
    table = None
    exact = cfg.exact_rows
    if rows <= exact:
        table = core.db.to_table("memories", columns=FULL_MEMORY_COLUMNS, filter=filter_, limit=exact + 1)
        if table.num_rows > exact:
            table = None  # the counts were behind: this user is large after all
        elif active_only:
            # Filtered here rather than in the scan: the user's index finds the rows, and a
            # second predicate in the scan costs more than dropping a few history rows.
            import pyarrow.compute as pc

            table = table.filter(pc.equal(table.column("status"), "active"))
    qtopics = set(topics_of(query, load_topics(core.rules_dir)))
    if table is None:
        large_filter = filter_ + (" AND status = 'active'" if active_only else "")
        table = _large_memory_table(core, large_filter, qvec, query, qtopics, max(rows, 1), cfg.top_k_candidates)
    if table.num_rows == 0:
        return []
    # Features for every row straight from Arrow columns; Memory objects only for the candidates.
    matrix, _ = vector_matrix(table)
    cosine = matrix @ qvec
    context, present = vector_matrix(table, "context_vector")
    if present.any():
        # Meaning of the memory and of the turn it came from ("The kids loved it!" after
        # "We went camping"), mixed; a memory without a context vector uses its own.
        w = cfg.context_weight
        cosine = np.where(present, (1 - w) * cosine + w * (context @ qvec), cosine)
    dense = _relevance_scale(core)(cosine)
    # Words of the memory and of its context (the source turn and the message it answered).
    texts = [f"{c} {x}" if x else c for c, x in zip(table.column("content").to_pylist(), table.column("context_text").to_pylist())]
    lexical = np.array(BM25(texts).match(query), dtype=np.float32)
    topic = np.array([1.0 if qtopics & set(t or ()) else 0.0 for t in table.column("topics").to_pylist()], dtype=np.float32)
    importance = table.column("importance").to_numpy(zero_copy_only=False).astype(np.float32)
    idx = candidate_indices(dense, lexical, topic, importance, cfg.top_k_candidates)
    candidates = [Memory.from_row(r) for r in table.take(idx).select(MEMORY_COLUMNS).to_pylist()]
    return [RecallHit(m, score(m, dense[i], lexical[i], topic[i], now, cfg)) for m, i in zip(candidates, idx)]


def _large_memory_table(core: Core, filter_: str, qvec: np.ndarray, query: str, qtopics: set[str], rows: int,
                        k: int) -> pa.Table:
    """Candidates of a user with very many memories: the k nearest, the k best by words
    and the k most important on the query's topics, read in full."""
    ids = set(_nearest(core, "memories", "id", filter_, qvec, rows, k))
    ids |= set(_best_words(core, "memories", "id", "content", filter_, query, rows, k))
    if qtopics:
        topical = core.db.to_table(
            "memories", columns=["id"], limit=k,
            filter=f"{filter_} AND importance >= {_TOPIC_MIN_IMPORTANCE} AND array_has_any(topics, "
                   f"[{', '.join(sql_str(t) for t in sorted(qtopics))}])")
        ids |= set(topical.column("id").to_pylist())
    return core.db.to_table("memories", columns=FULL_MEMORY_COLUMNS, filter=sql_in("id", ids))


# -- episodes ------------------------------------------------------------------------------


_EPISODE_READ = EPISODE_COLUMNS + ["vector"]


def _episode_hits(core: Core, query: str, qvec: np.ndarray, user: str, as_of: datetime | None, include_history: bool,
                  rows: int, now: datetime) -> list[RecallHit]:
    cfg = core.config.recall
    where = [f"user_id = {sql_str(user)}", "content IS NOT NULL"]
    if as_of is not None:
        where.append(f"(time IS NULL OR time <= {sql_time(as_of)})")
    if not include_history:
        where.append("(outdated IS NULL OR outdated = false)")
    filter_ = " AND ".join(where)
    table = None
    exact = cfg.exact_rows
    if rows <= exact:
        table = core.db.to_table("episodes", columns=_EPISODE_READ, filter=filter_, limit=exact + 1)
        if table.num_rows > exact:
            table = None
    if table is None:
        keys = set(_nearest(core, "episodes", "turn_key", filter_, qvec, max(rows, 1), cfg.top_k_candidates))
        keys |= set(_best_words(core, "episodes", "turn_key", "content", filter_, query, max(rows, 1), cfg.top_k_candidates))
        table = core.db.to_table("episodes", columns=_EPISODE_READ, filter=sql_in("turn_key", keys))
    if table.num_rows == 0:
        return []
    matrix, present = vector_matrix(table)
    dense = np.where(present, _relevance_scale(core)(matrix @ qvec), 0.0)
    # Words of the turn and of the message it answered ("Where did you go camping?").
    texts = [f"{c} {x}" if x else c for c, x in zip(table.column("content").to_pylist(), table.column("context").to_pylist())]
    lexical = np.array(BM25(texts).match(query), dtype=np.float32)
    k = cfg.top_k_candidates
    idx = sorted({int(i) for i in np.argsort(-dense, kind="stable")[:k]}
                 | {int(i) for i in np.argsort(-lexical, kind="stable")[:k] if lexical[i] > 0})
    episodes = [Episode.from_row(r) for r in table.take(idx).select(EPISODE_COLUMNS).to_pylist()]
    return [RecallHit(None, score_episode(e, dense[i], lexical[i], now, cfg), e) for e, i in zip(episodes, idx)]


# -- the tables' indexes -------------------------------------------------------------------


def _relevance_scale(core: Core) -> Any:
    e = core.config.embedding
    return rescaler(e.similarity_floor, e.similarity_ceiling)


def _prefilter(core: Core, table: str, rows: int) -> tuple[bool, float]:
    """Whether to filter by user before an index search, and the user's share of the table."""
    share = min(1.0, rows / max(core.db.count(table), 1))
    return share < _POSTFILTER_SHARE, share


def _nearest(core: Core, table: str, key: str, filter_: str, qvec: np.ndarray, rows: int, k: int) -> list[str]:
    prefilter, share = _prefilter(core, table, rows)
    limit = k if prefilter else math.ceil(k / share)
    found = core.db.to_table(
        table, columns=[key], filter=filter_, prefilter=prefilter,
        nearest={"column": "vector", "q": qvec, "k": limit, "metric": "cosine", "nprobes": _NPROBES},
    )
    return found.column(key).to_pylist()[:k]


def _best_words(core: Core, table: str, key: str, column: str, filter_: str, query: str, rows: int, k: int) -> list[str]:
    if core.db.has_index(table, column):
        prefilter, share = _prefilter(core, table, rows)
        found = core.db.to_table(table, columns=[key], filter=filter_, prefilter=prefilter,
                                 full_text_query=query, limit=k if prefilter else math.ceil(k / share))
        return found.column(key).to_pylist()[:k]
    # No full-text index yet (compaction builds it): every text of the user, scored here.
    texts = core.db.to_table(table, columns=[key, column], filter=filter_)
    scores = np.array(BM25([t or "" for t in texts.column(column).to_pylist()]).scores(query))
    keys = texts.column(key).to_pylist()
    return [keys[i] for i in np.argsort(-scores)[:k] if scores[i] > 0]
