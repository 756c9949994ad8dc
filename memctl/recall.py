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
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Iterable

import numpy as np
import pyarrow as pa

from .config import EPISODE_TYPE, MEMORY_TYPES, LEGACY_TYPES
from .conversations import check_user_id
from .core import Core
from .db import sql_in, sql_str, sql_time, vector_matrix
from .errors import InputError, UsageError
from .judgement import rescaler
from .lexical import BM25, HAN
from .ranking import candidate_indices, score, score_episode, select, subject_weight
from .rulefiles import read_rule_file
from .results import RecallHit, RecallResult
from .schema import EPISODE_COLUMNS, FULL_MEMORY_COLUMNS, MEMORY_COLUMNS, Episode, Memory
from .topics import load_topics, topics_of

KINDS = ("memory", "episode")
# Spool size at which a recall folds the spool into the table (if no writer is busy).
SPOOL_FLUSH_BYTES = 64 * 1024
# Lists probed in a vector index: with the index's ~sqrt(n) lists, a few percent of rows.
_NPROBES = 8
# A user holding at least this share of a table's rows is filtered after the index
# search (a prefilter over most of a table costs more than it saves).
_POSTFILTER_SHARE = 0.5
# Up to this many memory rows, a user's rows are read with every column at once.
_READ_WHOLE = 1000
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
    as_of: datetime | str | None = None,
    include_history: bool = False,
    record: bool = True,
) -> RecallResult:
    check_user_id(user, "user")
    if isinstance(as_of, str):
        from .conversations import parse_time

        try:
            as_of = parse_time(as_of, "as_of")
        except InputError as exc:
            raise UsageError(str(exc)) from None
    if not query or not query.strip():
        raise UsageError("the query is empty")
    cfg = core.config.recall
    k = top_k if top_k is not None else cfg.top_k_inject
    if k < 1:
        raise UsageError("top_k must be at least 1")
    wanted = _kinds(kinds, types)
    memory_types = [t for t in (types or ()) if t != EPISODE_TYPE]
    if as_of is not None and as_of.tzinfo is None:
        as_of = as_of.replace(tzinfo=timezone.utc)  # a naive time is UTC, as everywhere
    embedder = core.embedder  # starts loading the model while the store is read
    query = about_the_user(query, user)
    qvec = embedder.embed([query])[0]
    now = core.clock()
    periods = asked_periods(query, as_of or now, core.rules_dir)
    memory_rows, episode_rows = core.user_size(user)
    legs = []
    if "memory" in wanted:
        legs.append(lambda: _memory_hits(core, query, qvec, user, memory_types, as_of, include_history, memory_rows, now,
                                         periods))
    if "episode" in wanted and core.config.episodes.enabled:
        legs.append(lambda: _episode_hits(core, query, qvec, user, as_of, include_history, episode_rows, now,
                                          periods))
    # The legs of a large user run side by side (most of their time is spent in Lance,
    # which does not hold the interpreter lock); a small user's, one after the other.
    large = max(memory_rows, episode_rows) > cfg.exact_rows
    hits: list[RecallHit] = [h for leg in (_run(legs) if large else [leg() for leg in legs]) for h in leg]
    result = RecallResult(query=query, user=user)
    result.hits = select(_fold(hits, cfg.min_relevance), k, cfg.max_per_type, cfg.min_relevance, cfg.max_episodes)
    if include_history:
        # What is true now comes first; the history it replaced follows, marked.
        result.hits.sort(key=lambda h: h.status != "active")
    _complete(core, result.hits)
    memory_ids = [h.memory.id for h in result.hits if h.memory is not None]
    if record and memory_ids:
        # Bookkeeping, not the answer: a read-only store (a CI fixture, a shared volume)
        # still answers, and says why nothing was noted.
        try:
            core.spool.record(user, memory_ids, now)
            if core.spool.size() > SPOOL_FLUSH_BYTES:
                core.try_flush_recalls()
            result.recorded = True
        except OSError as exc:
            result.note = f"recall not recorded: {getattr(exc, 'filename', None) or core.dir}: {exc.strerror or exc}"
    return result


def about_the_user(query: str, user: str) -> str:
    """The query as the user would ask it: "What did Melanie paint?" to Melanie's store is
    "What did I paint?", "Melanie's kids" are "my kids". Her name says whose store, not
    what in it (and it fills the messages others addressed to her); her own words in the
    store say "I" and "my", so the question embeds nearer to them (LoCoMo R@5 0.706 ->
    0.714 against dropping the name), and a question about the user weighs others' facts
    down as when the user asks. A name is a part of the user id of three letters or
    more, capitalised in the query (or two or more Han characters: 我, 我的)."""
    parts = [p for p in re.split(r"[^\w]+|_", user) if p]
    out = query
    for part in parts:
        if HAN.search(part) and len(part) >= 2:
            out = out.replace(part + "的", "我的").replace(part, "我")
        elif part.isalpha() and len(part) >= 3:
            name = re.escape(part[0].upper() + part[1:].lower())
            out = re.sub(rf"\b{name}(?:'s|’s)(?!\w)", "my", out)
            out = re.sub(rf"\b{name}\b", "I", out)
    out = re.sub(r"\s+", " ", out).strip()
    # A query that was only the name asks about nothing in particular: it stays as it is.
    return out if re.search(r"\w", re.sub(r"\b(?:I|my)\b|我的?", "", out)) else query


@lru_cache(maxsize=8)
def _time_words(rules_dir: str | None) -> dict[str, Any]:
    return read_rule_file("temporal.toml", rules_dir)


def asked_periods(query: str, now: datetime, rules_dir: str | None = None) -> list[tuple[datetime, datetime]]:
    """The periods a query names ("in May 2023", "on October 13, 2023", "last week",
    "2023年5月"), resolved against `now` and looking back (a memory query asks about
    what was said): what was said or became true in them is what it asks about."""
    from .temporal import find_times

    lang = "zh" if HAN.search(query) else "en"
    return [(t.start_dt(), t.end_dt()) for t in find_times(query, lang, now, _time_words(rules_dir), past_hint=True)]


def _run(legs: list[Any]) -> list[Any]:
    """The memory and the episode searches side by side."""
    if len(legs) < 2:
        return [leg() for leg in legs]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=len(legs)) as pool:
        return list(pool.map(lambda leg: leg(), legs))


def _complete(core: Core, hits: list[RecallHit]) -> None:
    """Memories scored from a few columns (all of a small user's rows were read) are read
    in full once listed."""
    wanted = [h for h in hits if h.memory is not None and h.row is not None]
    if not wanted:
        return
    ds = core.db.open("memories")
    full = ds._take_rows([h.row for h in wanted], columns=MEMORY_COLUMNS).to_pylist()
    for h, row in zip(wanted, full):
        h.memory = Memory.from_row(row)


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

# What scoring a memory needs; the rest is read for the memories listed (_complete).
_MEMORY_SCORING = ["id", "chain_id", "version", "user_id", "type", "status", "content", "context_text", "topics", "valid_to",
                   "importance", "reinforced_count", "source_type", "created_at", "updated_at", "sources", "vector",
                   "context_vector", "subject"]


def _memory_hits(core: Core, query: str, qvec: np.ndarray, user: str, types: list[str], as_of: datetime | None,
                 include_history: bool, rows: int, now: datetime,
                 periods: list[tuple[datetime, datetime]] = ()) -> list[RecallHit]:
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
    ds = core.db.open("memories")
    table = None
    exact = cfg.exact_rows
    if rows <= exact:
        # A few rows are read whole (each column read has a fixed cost; a second read of
        # the listed ones would cost more); many, by the columns scoring needs.
        whole = rows <= _READ_WHOLE
        table = _read_user(ds, filter_, FULL_MEMORY_COLUMNS if whole else _MEMORY_SCORING, exact + 1, row_ids=not whole)
        if table.num_rows > exact:
            table = None  # the counts were behind: this user is large after all
        elif active_only:
            # Filtered here rather than in the scan: the user's index finds the rows, and a
            # second predicate in the scan costs more than dropping a few history rows.
            import pyarrow.compute as pc

            # A plan whose date has passed or a goal past its deadline is not current either.
            valid_to = table.column("valid_to")
            current = pc.or_kleene(pc.is_null(valid_to), pc.greater(valid_to, pa.scalar(now, valid_to.type)))
            table = table.filter(pc.and_(pc.equal(table.column("status"), "active"), current))
    qtopics = set(topics_of(query, load_topics(core.rules_dir)))
    if table is None:
        large_filter = filter_ + (f" AND status = 'active' AND (valid_to IS NULL OR valid_to > {sql_time(now)})"
                                  if active_only else "")
        table = _large_memory_table(core, ds, large_filter, qvec, query, qtopics, max(rows, 1), cfg.top_k_candidates)
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
    rows_read = table.take(idx).drop_columns(["vector", "context_vector"]).to_pylist()
    hits = []
    for row, i in zip(rows_read, idx):
        m = Memory.from_row(row)
        hits.append(RecallHit(m, score(m, dense[i], lexical[i], topic[i], now, cfg, subject_weight(m, query, cfg), periods),
                              row=row.get("_rowid")))
    return hits


def _large_memory_table(core: Core, ds: Any, filter_: str, qvec: np.ndarray, query: str, qtopics: set[str], rows: int,
                        k: int) -> pa.Table:
    """Candidates of a user with very many memories: the k nearest, the k best by words
    and the k most important on the query's topics, read by row id."""
    found = set(_nearest(core, ds, filter_, qvec, rows, k))
    found |= set(_best_words(core, ds, "content", filter_, query, rows, k))
    if qtopics:
        topical = ds.to_table(
            columns=[], with_row_id=True, limit=k,
            filter=f"{filter_} AND importance >= {_TOPIC_MIN_IMPORTANCE} AND array_has_any(topics, "
                   f"[{', '.join(sql_str(t) for t in sorted(qtopics))}])")
        found |= set(topical.column("_rowid").to_pylist())
    # Few rows: read them whole at once (a second read of the listed ones costs more).
    return _take(ds, sorted(found), FULL_MEMORY_COLUMNS)


def _read_user(ds: Any, filter_: str, columns: list[str], limit: int, row_ids: bool = False) -> pa.Table:
    """A few rows of one user: their row ids from the user index, then the rows by id (a
    take reads each column once; a filtered scan with the columns costs about a third
    more); with `_rowid` when asked."""
    found = ds.to_table(columns=[], with_row_id=True, filter=filter_, limit=limit).column("_rowid").to_pylist()
    return _take(ds, found, columns, with_ids=row_ids)


def _take(ds: Any, row_ids: list[int], columns: list[str], with_ids: bool = True) -> pa.Table:
    table = ds._take_rows(row_ids, columns=columns) if row_ids else ds.schema.empty_table().select(columns)
    return table.append_column("_rowid", pa.array(row_ids, pa.uint64())) if with_ids else table


# -- episodes ------------------------------------------------------------------------------


_EPISODE_READ = EPISODE_COLUMNS + ["vector"]


def _episode_mask(table: pa.Table, as_of: datetime | None, include_history: bool) -> np.ndarray:
    """The rows the episode filter keeps: with text, said by `as_of`, not outdated."""
    keep = np.array([c is not None for c in table.column("content").to_pylist()], dtype=bool)
    if as_of is not None:
        times = table.column("time").to_pylist()
        keep &= np.array([t is None or t <= as_of for t in times], dtype=bool)
    if not include_history:
        keep &= ~np.array([bool(o) for o in table.column("outdated").to_pylist()], dtype=bool)
    return keep


def _episode_hits(core: Core, query: str, qvec: np.ndarray, user: str, as_of: datetime | None, include_history: bool,
                  rows: int, now: datetime, periods: list[tuple[datetime, datetime]] = ()) -> list[RecallHit]:
    cfg = core.config.recall
    where = [f"user_id = {sql_str(user)}", "content IS NOT NULL"]
    if as_of is not None:
        where.append(f"(time IS NULL OR time <= {sql_time(as_of)})")
    if not include_history:
        where.append("(outdated IS NULL OR outdated = false)")
    filter_ = " AND ".join(where)
    ds = core.db.open("episodes")
    table = None
    exact = cfg.exact_rows
    exact_path = rows <= exact
    if exact_path:
        # Read by the user's index alone; the other conditions are checked here (a second
        # predicate in the scan costs more than dropping a few rows). The rows come in the
        # order they were stored: a session's turns one after the other.
        table = _read_user(ds, f"user_id = {sql_str(user)}", _EPISODE_READ, 2 * exact + 1, row_ids=True)
        if table.num_rows > 2 * exact:
            table = None
        else:
            table = table.sort_by("_rowid")
            keep = _episode_mask(table, as_of, include_history)
            before, after = _next_to(table.column("session").to_pylist(), table.column("context").to_pylist(), keep)
            table = table.filter(pa.array(keep))
    if table is None:
        exact_path = False
        k = cfg.top_k_candidates
        found = set(_nearest(core, ds, filter_, qvec, max(rows, 1), k))
        found |= set(_best_words(core, ds, "content", filter_, query, max(rows, 1), k))
        table = _take(ds, sorted(found), _EPISODE_READ, with_ids=False)
    if table.num_rows == 0:
        return []
    matrix, present = vector_matrix(table)
    dense = np.where(present, _relevance_scale(core)(matrix @ qvec), 0.0)
    # Words of the exchange: the turn, the message it answered ("Where did you go
    # camping?") and the reply it got ("Yosemite sounds amazing!").
    texts = [" ".join(filter(None, parts)) for parts in zip(table.column("content").to_pylist(),
                                                            table.column("context").to_pylist(),
                                                            table.column("reply").to_pylist())]
    lexical = np.array(BM25(texts).match(query), dtype=np.float32)
    k = cfg.top_k_candidates
    if not exact_path:
        before = after = None
    chosen = ({int(i) for i in np.argsort(-dense, kind="stable")[:k]}
              | {int(i) for i in np.argsort(-lexical, kind="stable")[:k] if lexical[i] > 0})
    if before is not None and cfg.neighbour_weight > 0:
        # A follow-up ("Some fun ones like charades") is found through the turn it follows
        # or leads to ("We had a picnic with friends from church"): both are candidates.
        chosen |= {int(j) for i in list(chosen) for j in (before[i], after[i]) if j >= 0}
    idx = sorted(chosen)
    episodes = [Episode.from_row(r) for r in table.take(idx).select(EPISODE_COLUMNS).to_pylist()]
    hits = {i: RecallHit(None, score_episode(e, dense[i], lexical[i], now, cfg, periods), e) for e, i in zip(episodes, idx)}
    if before is not None and cfg.neighbour_weight > 0:
        own = {i: h.parts.score for i, h in hits.items()}
        for i, h in hits.items():
            near = max((own.get(int(j), 0.0) for j in (before[i], after[i]) if j >= 0), default=0.0)
            h.parts.neighbour = near
            h.parts.score = max(h.parts.score, cfg.neighbour_weight * near)
    return list(hits.values())


def _next_to(sessions: list[str | None], asked: list[str | None], keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each kept turn of a user's (in the order they were stored), the kept row of the
    user's turn right before it and right after it in the same session, -1 where there is
    none (or it was left out). Two turns are next to each other only when the message
    between them asked something ("What games did you play?"): a reply goes on from the
    turn before; after "Got it." the next turn is a new matter."""
    n = len(sessions)
    linked = np.array([a is not None and a == b and bool(q) and ("?" in q or "？" in q)
                       for a, b, q in zip(sessions, sessions[1:], asked[1:])], dtype=bool)
    kept = np.cumsum(keep) - 1  # each stored row's index among the kept rows
    before = np.full(n, -1, dtype=np.int64)
    after = np.full(n, -1, dtype=np.int64)
    if n > 1:
        ok = linked & keep[:-1] & keep[1:]
        before[1:][ok] = kept[:-1][ok]
        after[:-1][ok] = kept[1:][ok]
    return before[keep], after[keep]


# -- the tables' indexes -------------------------------------------------------------------


def _relevance_scale(core: Core) -> Any:
    e = core.config.embedding
    return rescaler(e.similarity_floor, e.similarity_ceiling)


def _prefilter(ds: Any, rows: int) -> tuple[bool, float]:
    """Whether to filter by user before an index search, and the user's share of the table."""
    share = min(1.0, rows / max(ds.count_rows(), 1))
    return share < _POSTFILTER_SHARE, share


def _nearest(core: Core, ds: Any, filter_: str, qvec: np.ndarray, rows: int, k: int) -> list[int]:
    """Row ids of the user's k nearest rows by the table's vector index."""
    prefilter, share = _prefilter(ds, rows)
    limit = k if prefilter else math.ceil(k / share)
    found = ds.to_table(
        columns=[], with_row_id=True, filter=filter_, prefilter=prefilter, disable_scoring_autoprojection=True,
        nearest={"column": "vector", "q": qvec, "k": limit, "metric": "cosine", "nprobes": _NPROBES},
    )
    return found.column("_rowid").to_pylist()[:k]


def _best_words(core: Core, ds: Any, column: str, filter_: str, query: str, rows: int, k: int) -> list[int]:
    """Row ids of the user's k rows that best match the query's words."""
    if any(tuple(i.field_names) == (column,) for i in ds.describe_indices()):
        prefilter, share = _prefilter(ds, rows)
        found = ds.to_table(columns=[], with_row_id=True, filter=filter_, prefilter=prefilter, full_text_query=query,
                            limit=k if prefilter else math.ceil(k / share), disable_scoring_autoprojection=True)
        return found.column("_rowid").to_pylist()[:k]
    # No full-text index yet (compaction builds it): every text of the user, scored here.
    texts = ds.to_table(columns=[column], with_row_id=True, filter=filter_)
    scores = np.array(BM25([t or "" for t in texts.column(column).to_pylist()]).scores(query))
    ids = texts.column("_rowid").to_pylist()
    return [ids[i] for i in np.argsort(-scores)[:k] if scores[i] > 0]
