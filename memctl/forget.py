"""forget: selecting memories and deleting every trace of their text, for real.

Where a memory's words live, and how each is cleared:
  memories table   the rows (every selected version) are deleted
  turns table      the source turns keep only the clauses of memories that remain;
                   a turn nothing remains from keeps no text at all (its key stays in
                   the ledger, so re-ingesting the old log brings nothing back)
  events table     never held text: a "forgotten" event records ids, a keyed hash, time
  old versions     deleted rows stay readable in older table versions and in data files
                   until they are rewritten: compact with deletions materialised, then
                   drop every older version (the purge that removed the text every time
                   it was measured; one optimize() call alone did not always)
All under the store lock, so a concurrent writer never sees a half-purged store.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .conversations import check_user_id
from .core import Core, check_types
from .db import sql_in, sql_str
from .errors import NotFoundError, UsageError
from .judgement import rescaler
from .lexical import BM25
from .results import ForgetReport, PurgeStats
from .schema import Event, Memory

_CHUNK = 2000


def purge(core: Core, ids: set[str], reason: str, whole_user: str | None = None) -> PurgeStats:
    """Delete the memories with these ids and every copy of their text. Caller holds the lock."""
    stats = PurgeStats()
    if not ids:
        return stats
    doomed = core.by_ids(ids)
    if not doomed:
        return stats
    stats.memories = len(doomed)
    doomed_ids = {m.id for m in doomed}
    turn_keys = {s.turn_key for m in doomed for s in m.sources}

    if whole_user is not None:
        core.db.delete("memories", f"user_id = {sql_str(whole_user)} AND " + _in_or_all(doomed_ids, whole_user, core))
    else:
        for chunk in _chunks(sorted(doomed_ids)):
            core.db.delete("memories", sql_in("id", chunk))

    # The memories that remain from those turns, and through which clauses.
    users = sorted({m.user_id for m in doomed})
    touched = [m for user in users for m in core.read_memories(f"user_id = {sql_str(user)}", with_vectors=True)
               if any(s.turn_key in turn_keys for s in m.sources)]
    remaining: dict[str, list[str]] = {}
    for m in touched:
        for src in m.sources:
            if src.turn_key in turn_keys:
                remaining.setdefault(src.turn_key, []).append(src.clause)
    updates: list[dict[str, Any]] = []
    trimmed: dict[str, str | None] = {}
    for chunk in _chunks(sorted(turn_keys)):
        for row in core.db.rows("turns", filter=sql_in("turn_key", chunk)):
            if row["content"] is None:
                continue
            kept = remaining.get(row["turn_key"])
            row["content"] = " … ".join(dict.fromkeys(kept)) if kept else None
            trimmed[row["turn_key"]] = row["content"]
            row["context"] = None  # the question answered may repeat what was forgotten
            if kept:
                stats.turns_trimmed += 1
            else:
                stats.turns_cleared += 1
            updates.append(row)
    if updates:
        core.db.upsert("turns", updates, "turn_key")
    # Their context becomes the trimmed turn text, and the turn's embedding (which saw the
    # forgotten words) is dropped.
    for m in touched:
        m.context_vector = None
        first = next((s.turn_key for s in m.sources if s.turn_key in turn_keys), None)
        m.context_text = trimmed.get(first) if first else None
    if touched:
        core.db.upsert("memories", [m.to_row() for m in touched], "id")

    version = core.db.version("memories")
    core.append_events([Event.of("forgotten", m, core.hash(m.content), reason=reason, version=m.version) for m in doomed],
                       version, core.clock())
    before = after = 0
    for name in ("memories", "turns"):
        result = core.db.optimize(name, purge=True)
        before += result["files_before"]
        after += result["files_after"]
    stats.files_before, stats.files_after = before, after
    return stats


def _in_or_all(ids: set[str], user: str, core: Core) -> str:
    """For a whole-user forget, a predicate on the user alone when it covers every id."""
    total = core.db.count("memories", f"user_id = {sql_str(user)}")
    return "true" if total == len(ids) else sql_in("id", ids)


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[i : i + _CHUNK] for i in range(0, len(items), _CHUNK)]


def select(
    core: Core,
    *,
    ids: list[str] | None = None,
    chain: str | None = None,
    user: str | None = None,
    types: list[str] | None = None,
    query: str | None = None,
) -> list[Memory]:
    """The memories a forget selects: by id, by chain (every version), by user (everything,
    or some types), or by user and query (matches by meaning and words, every version of
    each matching memory)."""
    if ids:
        if chain or user or types or query:
            raise UsageError("--id cannot be combined with other selectors")
        found = core.by_ids(ids)
        missing = sorted(set(ids) - {m.id for m in found})
        if missing:
            raise NotFoundError(f"no memory with id {missing[0]}" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
        return found
    if chain:
        if user or types or query:
            raise UsageError("--chain cannot be combined with other selectors")
        return core.chain(chain)
    if not user:
        raise UsageError("say what to forget: --id, --chain, or --user (with --type or --query to narrow it)")
    check_user_id(user)
    if query:
        if types:
            raise UsageError("--query and --type cannot be combined")
        matched = _matching(core, user, query)
        chains = sorted({m.chain_id for m in matched})
        return [m for c in chains for m in core.chain(c)]
    return core.memories(user, status=None, types=check_types(types) if types else None)


def _matching(core: Core, user: str, query: str) -> list[Memory]:
    """Memories (any status) whose own words or meaning match the query.

    Unlike recall, no context: a memory is not selected because its source turn also
    said something else that matches ("我不吃海鲜，对花生过敏" holds two memories).
    """
    if not query.strip():
        raise UsageError("the query is empty")
    memories = core.read_memories(f"user_id = {sql_str(user)}", with_vectors=True)
    if not memories:
        return []
    qvec = core.embedder.embed([query])[0]
    e = core.config.embedding
    dense = rescaler(e.similarity_floor, e.similarity_ceiling)(np.vstack([m.vector for m in memories]) @ qvec)
    lexical = np.array(BM25([m.content for m in memories]).match(query))
    relevance = 0.5 * dense + 0.5 * lexical
    return [m for m, r in zip(memories, relevance) if r >= core.config.forget.min_relevance]


def forget(core: Core, *, dry_run: bool = False, **selector: Any) -> ForgetReport:
    plan = ForgetReport(True, {k: v for k, v in selector.items() if v}, select(core, **selector))
    return plan if dry_run else apply(core, plan)


def apply(core: Core, plan: ForgetReport) -> ForgetReport:
    """Forget exactly the memories a dry run selected: what the user saw and confirmed,
    not a new selection (an ingest may have added matching memories since)."""
    report = ForgetReport(False, plan.selector, plan.memories)
    if not plan.memories:
        return report
    s = plan.selector
    whole_user = s.get("user") if s.get("user") and not s.get("types") and not s.get("query") else None
    with core.lock.hold():
        core.flush_recalls()
        report.stats = purge(core, {m.id for m in plan.memories}, reason="forget", whole_user=whole_user)
    return report
