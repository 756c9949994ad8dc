"""Forgetting for real: selecting memories and deleting every trace of their text.

Where a memory's words live, and how each is cleared:
  memories table   the rows (every selected version) are deleted
  turns table      the source turns keep only the clauses of memories that remain;
                   a turn nothing remains from keeps no text at all (its key stays in
                   the ledger, so re-ingesting the old log brings nothing back)
  events table     never held text: a "forgotten" event records ids, a keyed hash, time
  old versions     deleted rows stay readable in older table versions and in data files
                   until they are rewritten: compact with deletions materialised, then
                   drop every older version (DESIGN.md: the purge that worked every time)
All under the store lock, so a concurrent writer never sees a half-purged store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .db import sql_in, sql_str
from .schema import Memory

if TYPE_CHECKING:
    from .store import MemoryStore

_CHUNK = 2000


@dataclass
class PurgeStats:
    memories: int = 0
    turns_cleared: int = 0
    turns_trimmed: int = 0
    files_before: int = 0
    files_after: int = 0
    versions_removed: bool = False
    forgotten: list[Memory] = field(default_factory=list)


def purge_memories(store: "MemoryStore", ids: set[str], reason: str, whole_user: str | None = None) -> PurgeStats:
    """Delete the memories with these ids and every copy of their text. Caller holds the lock."""
    stats = PurgeStats()
    if not ids:
        return stats
    doomed: list[Memory] = []
    for chunk in _chunks(sorted(ids)):
        doomed.extend(store._memories(sql_in("id", chunk)))
    if not doomed:
        return stats
    stats.forgotten = doomed
    stats.memories = len(doomed)
    doomed_ids = {m.id for m in doomed}
    turn_keys = {s.turn_key for m in doomed for s in m.sources}

    if whole_user is not None:
        store.db.delete("memories", f"user_id = {sql_str(whole_user)} AND " + _in_or_all(doomed_ids, whole_user, store))
    else:
        for chunk in _chunks(sorted(doomed_ids)):
            store.db.delete("memories", sql_in("id", chunk))

    # Which of those turns do remaining memories still come from, and through which clauses?
    users = sorted({m.user_id for m in doomed})
    remaining: dict[str, list[str]] = {}
    for user in users:
        table = store.db.to_table("memories", columns=["sources"], filter=f"user_id = {sql_str(user)}")
        for sources in table.column("sources").to_pylist():
            for s in sources or []:
                if s["turn_key"] in turn_keys:
                    remaining.setdefault(s["turn_key"], []).append(s["clause"])
    updates: list[dict[str, Any]] = []
    for chunk in _chunks(sorted(turn_keys)):
        for row in store.db.rows("turns", filter=sql_in("turn_key", chunk)):
            if row["content"] is None:
                continue
            kept = remaining.get(row["turn_key"])
            row["content"] = " … ".join(dict.fromkeys(kept)) if kept else None
            row["context"] = None  # the question answered may repeat what was forgotten
            if kept:
                stats.turns_trimmed += 1
            else:
                stats.turns_cleared += 1
            updates.append(row)
    if updates:
        store.db.upsert("turns", updates, "turn_key")
    # Remaining memories from those turns lose the turn's embedding: it saw the forgotten words.
    touched = [m for user in users for m in store._memories(f"user_id = {sql_str(user)}", with_vectors=True)
               if m.context_vector is not None and any(s.turn_key in turn_keys for s in m.sources)]
    for m in touched:
        m.context_vector = None
    if touched:
        store.db.upsert("memories", [m.to_row() for m in touched], "id")

    version = store.db.version("memories")
    store._append_events(
        [
            {"kind": "forgotten", "user_id": m.user_id, "memory_id": m.id, "chain_id": m.chain_id,
             "content_hash": store.hash(m.content), "detail": {"reason": reason, "version": m.version}}
            for m in doomed
        ],
        version,
        store.clock(),
    )
    before = after = 0
    for name in ("memories", "turns"):
        result = store.db.optimize(name, purge=True)
        before += result["files_before"]
        after += result["files_after"]
    stats.files_before, stats.files_after = before, after
    stats.versions_removed = True
    return stats


def _in_or_all(ids: set[str], user: str, store: "MemoryStore") -> str:
    """For a whole-user forget, a predicate on the user alone when it covers every id."""
    total = store.db.count("memories", f"user_id = {sql_str(user)}")
    return "true" if total == len(ids) else sql_in("id", ids)


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[i : i + _CHUNK] for i in range(0, len(items), _CHUNK)] or [[]]
