"""Export and import: a store's memories (every version, with sources, subjects, status and
times) and, optionally, its episodes, as JSON Lines. One record per line:

    {"kind": "memory", "id": ..., "chain_id": ..., "version": ..., "status": ..., "user": ...,
     "type": ..., "subject": ..., "content": ..., "sources": [...], "created_at": ..., ...}
    {"kind": "episode", "id": <turn key>, "user": ..., "session": ..., "turn": ..., "time": ...,
     "content": ..., ...}

Vectors are store-local (they depend on the model) and are not exported: an import computes
them with the importing store's model. An import checks every line before it writes
anything, is idempotent (an id already stored is skipped), and never brings back a memory
or an episode the store has forgotten.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Iterable, Iterator

from .browse import STATUSES
from .config import MEMORY_TYPES
from .conversations import check_user_id, parse_time
from .core import Core
from .db import sql_in, sql_str
from .errors import InputError
from .results import ImportReport
from .schema import Event, Memory, Source, context_input, iso

_TIMES = ("created_at", "updated_at", "valid_from", "valid_to", "last_recalled_at")
_ID_CHUNK = 2000


def export(core: Core, user: str | None = None, *, episodes: bool = False) -> Iterator[dict[str, Any]]:
    """Every memory version (and, with `episodes`, every episode with text) as records,
    in a stable order: by user, chain and version; episodes by user, time and id."""
    where = f"user_id = {sql_str(check_user_id(user))}" if user is not None else None
    memories = core.read_memories(where)
    memories.sort(key=lambda m: (m.user_id, m.chain_id, m.version, m.id))
    for m in memories:
        yield memory_record(m)
    if episodes:
        found = core.episodes(" AND ".join(filter(None, [where, "content IS NOT NULL"])))
        found.sort(key=lambda e: (e.user_id, iso(e.time) or "", e.id))
        rows = {r["turn_key"]: r for r in _episode_extras(core, [e.id for e in found])}
        for e in found:
            extra = rows.get(e.id, {})
            yield {"kind": "episode", "id": e.id, "user": e.user_id, "session": e.session, "turn": e.turn,
                   "role": extra.get("role") or "user", "time": iso(e.time), "content": e.content, "context": e.context,
                   "reply": extra.get("reply"), "outdated": e.outdated, "statement": e.statement}


def memory_record(m: Memory) -> dict[str, Any]:
    return {
        "kind": "memory", "id": m.id, "chain_id": m.chain_id, "version": m.version, "status": m.status,
        "user": m.user_id, "type": m.type, "subject": m.about, "content": m.content, "lang": m.lang,
        "topics": list(m.topics), "slot": m.slot, "importance": round(float(m.importance), 4),
        "confidence": round(float(m.confidence), 4), "source_type": m.source_type,
        "sources": [{"session": s.session, "turn": s.turn, "time": iso(s.time), "clause": s.clause, "turn_key": s.turn_key}
                    for s in m.sources],
        **{k: iso(getattr(m, k)) for k in _TIMES},
        "recall_count": m.recall_count, "reinforced_count": m.reinforced_count, "cause": m.cause,
        "supersedes": m.supersedes, "merged_from": list(m.merged_from), "merged_into": m.merged_into,
        "context_text": m.context_text,
    }


def _episode_extras(core: Core, keys: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(0, len(keys), _ID_CHUNK):
        out += core.db.rows("episodes", columns=["turn_key", "role", "reply"], filter=sql_in("turn_key", keys[i:i + _ID_CHUNK]))
    return out


# -- import ---------------------------------------------------------------------------------


def read_records(lines: Iterable[str], name: str, unit: str = "line") -> list[dict[str, Any]]:
    """Parse and check every line; the first bad one stops everything (nothing written).
    Errors say "<name>: <unit> <n>" (a DeerFlow import counts facts, not lines)."""
    records: list[dict[str, Any]] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{name}: {unit} {n}"
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise InputError(f"{where}: invalid JSON ({str(exc).split(':')[0]})") from None
        if not isinstance(record, dict):
            raise InputError(f"{where}: a record must be a JSON object")
        records.append(_checked(record, where))
    return records


def _checked(r: dict[str, Any], where: str) -> dict[str, Any]:
    kind = r.get("kind", "memory")
    if kind not in ("memory", "episode"):
        raise InputError(f"{where}: kind must be memory or episode, not {kind!r}")
    for key in ("id", "user", "content"):
        if not isinstance(r.get(key), str) or not r[key].strip():
            raise InputError(f"{where}: {key!r} must be a non-empty string")
    try:
        check_user_id(r["user"], "user")
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    out = dict(r, kind=kind)
    times = _TIMES if kind == "memory" else ("time",)
    for key in times:
        try:
            out[key] = parse_time(r.get(key), key)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
    if kind == "episode":
        for key in ("session", "turn", "context", "reply", "role"):
            if r.get(key) is not None and not isinstance(r[key], str):
                raise InputError(f"{where}: {key!r} must be a string")
        return out
    if r.get("type") not in MEMORY_TYPES:
        raise InputError(f"{where}: type must be one of {', '.join(MEMORY_TYPES)}, not {r.get('type')!r}")
    status = r.get("status", "active")
    if status not in STATUSES[:3]:
        raise InputError(f"{where}: status must be active, superseded or archived, not {status!r}")
    out["status"] = status
    for key, default in (("importance", 0.5), ("confidence", 0.8)):
        value = r.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InputError(f"{where}: {key} must be a number from 0 to 1")
        out[key] = float(value)
    version = r.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError(f"{where}: version must be a whole number of at least 1")
    for key in ("topics", "merged_from"):
        if not isinstance(r.get(key, []), list) or not all(isinstance(x, str) for x in r.get(key, [])):
            raise InputError(f"{where}: {key} must be a list of strings")
    sources = r.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, dict) for s in sources):
        raise InputError(f"{where}: sources must be a list of objects")
    out["sources"] = []
    for s in sources:
        try:
            out["sources"].append(Source(s.get("session"), s.get("turn"), parse_time(s.get("time"), "source time"),
                                         s.get("clause") or "", s.get("turn_key") or f"import:{r['id']}"))
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
    return out


def import_records(core: Core, records: list[dict[str, Any]], *, dry_run: bool = False) -> ImportReport:
    """Write checked records: memories with their ids, versions and chains; episodes by turn
    key. Skips what is already stored and what the store has forgotten."""
    report = ImportReport(dry_run=dry_run, records=len(records))
    memories = [r for r in records if r["kind"] == "memory"]
    episodes = [r for r in records if r["kind"] == "episode"]
    with core.lock.hold():
        stored = core.present("memories", "id", [r["id"] for r in memories])
        stored_eps = core.present("episodes", "turn_key", [r["id"] for r in episodes], "content IS NOT NULL")
        forgotten = core.forgotten(r["id"] for r in records)
        new_memories = [r for r in memories if r["id"] not in stored and r["id"] not in forgotten]
        new_episodes = [r for r in episodes if r["id"] not in stored_eps and r["id"] not in forgotten]
        report.skipped_existing = sum(1 for r in records if r["id"] in stored or r["id"] in stored_eps)
        report.skipped_forgotten = sum(1 for r in records if r["id"] in forgotten)
        report.memories, report.episodes = len(new_memories), len(new_episodes)
        report.users = sorted({r["user"] for r in new_memories + new_episodes})
        if dry_run or not (new_memories or new_episodes):
            return report
        now = core.clock()
        built: list[Memory] = []
        vectors = core.embed([r["content"] for r in new_memories]) if new_memories else []
        # The context text is kept for recall's words; its vector is left out (recall then
        # uses the memory's own), which halves the embedding an import costs.
        contexts = [r.get("context_text") for r in new_memories]
        for n, r in enumerate(new_memories):
            m = Memory(
                id=r["id"], chain_id=r.get("chain_id") or r["id"], version=r.get("version", 1), status=r["status"],
                user_id=r["user"], type=r["type"], content=r["content"], lang=r.get("lang") or "en",
                topics=list(r.get("topics") or []), slot=r.get("slot"), importance=r["importance"], confidence=r["confidence"],
                source_type=r.get("source_type") or "user_stated", sources=r["sources"],
                created_at=r["created_at"] or now, updated_at=r["updated_at"] or r["created_at"] or now,
                valid_from=r["valid_from"] or r["created_at"] or now, valid_to=r["valid_to"], last_recalled_at=r["last_recalled_at"],
                recall_count=int(r.get("recall_count") or 0), reinforced_count=int(r.get("reinforced_count") or 0),
                cause=r.get("cause") or "import", supersedes=r.get("supersedes"), merged_from=list(r.get("merged_from") or []),
                merged_into=r.get("merged_into"), vector=vectors[n],
                context_vector=None,
                context_text=contexts[n], subject=None if r.get("subject") in (None, "user") else r["subject"],
            )
            built.append(m)
        rows = [m.to_row() for m in built]
        version = core.db.upsert("memories", rows, "id") if rows else core.db.version("memories")
        if new_episodes:
            evectors = core.embed([context_input(r["content"], r.get("context")) for r in new_episodes])
            core.db.upsert("episodes", [
                {"turn_key": r["id"], "user_id": r["user"], "session": r.get("session"), "turn": r.get("turn"),
                 "role": r.get("role") or "user", "time": r["time"], "content": r["content"], "ingested_at": now,
                 "context": r.get("context"), "reply": r.get("reply"), "vector": v, "outdated": bool(r.get("outdated")),
                 "statement": r.get("statement") is not False}
                for r, v in zip(new_episodes, evectors)], "turn_key")
        events = [Event.of("imported", m, core.hash(m.content), None) for m in built]
        core.append_events(events, version, now)
        for table, column in (("memories", "user_id"), ("episodes", "turn_key"), ("episodes", "user_id"), ("users", "user_id")):
            core.db.ensure_index(table, column)
        core.count_in_users(Counter(r["user"] for r in new_memories), Counter(r["user"] for r in new_episodes))
        report.store_version = core.db.version("memories")
    return report

