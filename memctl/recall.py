"""recall: the memories of one user that matter for a query, best first.

The user filter is applied inside the storage query, before any similarity is computed:
no other user's memory can ever be a candidate. Each memory is scored by meaning (its
own vector and its source turn's), shared words, shared topics, importance, recency and
reinforcement (ranking.py); recalls are noted in the spool, not written to the table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

import numpy as np

from .conversations import check_user_id
from .core import Core, check_types
from .db import sql_in, sql_str, sql_time, vector_matrix
from .errors import UsageError
from .judgement import rescaler
from .lexical import BM25
from .ranking import candidate_indices, score, select
from .results import RecallHit, RecallResult
from .schema import FULL_MEMORY_COLUMNS, MEMORY_COLUMNS, Memory
from .topics import load_topics, topics_of

# Users with more active memories than this are recalled through the vector index
# (top_k_candidates nearest) instead of an exact pass over all their memories.
EXACT_RECALL_LIMIT = 5000
# Spool size at which a recall folds the spool into the table (if no writer is busy).
SPOOL_FLUSH_BYTES = 64 * 1024


def recall(
    core: Core,
    query: str,
    user: str,
    *,
    top_k: int | None = None,
    types: Iterable[str] | None = None,
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
        raise UsageError("--top-k must be at least 1")
    embedder = core.embedder  # starts loading the model while the store is read
    where = [f"user_id = {sql_str(user)}"]
    if as_of is not None:
        t = sql_time(as_of)
        where.append(f"(created_at IS NULL OR created_at <= {t})")
        where.append(f"(valid_from IS NULL OR valid_from <= {t})")
        where.append(f"(valid_to IS NULL OR valid_to > {t})")
    active_only = as_of is None and not include_history
    if types:
        where.append(sql_in("type", check_types(types)))
    filter_ = " AND ".join(where)
    qvec = embedder.embed([query])[0]
    table = core.db.to_table("memories", columns=FULL_MEMORY_COLUMNS, filter=filter_, limit=EXACT_RECALL_LIMIT + 1)
    if active_only:
        # Filtered here rather than in the scan: the user's index finds the rows, and a
        # second predicate in the scan costs more than dropping a few history rows.
        import pyarrow.compute as pc

        table = table.filter(pc.equal(table.column("status"), "active"))
    if table.num_rows > EXACT_RECALL_LIMIT:
        table = _large_user_table(core, filter_ + (" AND status = 'active'" if active_only else ""), qvec, query,
                                  cfg.top_k_candidates)
    result = RecallResult(query=query, user=user)
    if table.num_rows == 0:
        return result
    # Features for every memory of the user straight from Arrow columns; Memory objects
    # only for the candidates.
    matrix, _ = vector_matrix(table)
    cosine = matrix @ qvec
    context, present = vector_matrix(table, "context_vector")
    if present.any():
        # Meaning of the memory and of the turn it came from ("The kids loved it!" after
        # "We went camping"), mixed; a memory without a context vector uses its own.
        w = cfg.context_weight
        cosine = np.where(present, (1 - w) * cosine + w * (context @ qvec), cosine)
    e = core.config.embedding
    dense = rescaler(e.similarity_floor, e.similarity_ceiling)(cosine)
    # Words of the memory and of its context (the source turn and the message it answered).
    texts = [f"{c} {x}" if x else c for c, x in zip(table.column("content").to_pylist(), table.column("context_text").to_pylist())]
    lexical = np.array(BM25(texts).match(query), dtype=np.float32)
    qtopics = set(topics_of(query, load_topics(core.rules_dir)))
    topic = np.array([1.0 if qtopics & set(t or ()) else 0.0 for t in table.column("topics").to_pylist()], dtype=np.float32)
    importance = table.column("importance").to_numpy(zero_copy_only=False).astype(np.float32)
    idx = candidate_indices(dense, lexical, topic, importance, cfg.top_k_candidates)
    now = core.clock()
    candidates = [Memory.from_row(r) for r in table.take(idx).select(MEMORY_COLUMNS).to_pylist()]
    hits = [RecallHit(m, score(m, dense[i], lexical[i], topic[i], now, cfg)) for m, i in zip(candidates, idx)]
    result.hits = select(hits, k, cfg.max_per_type, cfg.min_relevance)
    if record and result.hits:
        core.spool.record(user, [h.memory.id for h in result.hits], now)
        if core.spool.size() > SPOOL_FLUSH_BYTES:
            core.try_flush_recalls()
    return result


def _large_user_table(core: Core, filter_: str, qvec: np.ndarray, query: str, k: int) -> Any:
    """Candidates for a user with very many memories: k nearest plus k best by words."""
    near = core.db.to_table(
        "memories", columns=["id"], filter=filter_, prefilter=True,
        nearest={"column": "vector", "q": qvec, "k": k, "metric": "cosine"},
    ).column("id").to_pylist()
    texts = core.db.to_table("memories", columns=["id", "content"], filter=filter_)
    scores = np.array(BM25(texts.column("content").to_pylist()).scores(query))
    ids = texts.column("id").to_pylist()
    best = [ids[i] for i in np.argsort(-scores)[:k] if scores[i] > 0]
    return core.db.to_table("memories", columns=FULL_MEMORY_COLUMNS, filter=sql_in("id", set(near) | set(best)))
