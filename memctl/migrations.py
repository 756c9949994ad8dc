"""Named, ordered schema migrations, recorded in the store's `migrations` table.

A new store applies them all; an existing one applies those it lacks when opened, under
the store lock. A store that lists a migration this memctl does not know was written by
a newer memctl and is refused rather than damaged.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Callable, Sequence

import numpy as np
import pyarrow as pa

from .db import Database, sql_in
from .errors import SchemaError
from .schema import (
    EVENTS_SCHEMA, META_SCHEMA, MIGRATIONS_SCHEMA, TS, USERS_SCHEMA, Event, context_input, context_text,
    episodes_schema, memories_schema, new_id,
)

# Texts to vectors with the store's model; None when the model cannot be used yet (a
# reembed is pending): vectors are then left empty and `memctl reembed` fills them.
Embed = Callable[[Sequence[str]], np.ndarray]

# The tables as 0001 created them; later migrations change them.
_TURNS_V1 = pa.schema(
    [
        pa.field("turn_key", pa.string(), nullable=False),
        pa.field("user_id", pa.string(), nullable=False),
        pa.field("session", pa.string()),
        pa.field("turn", pa.string()),
        pa.field("role", pa.string()),
        pa.field("time", TS),
        pa.field("content", pa.string()),
        pa.field("ingested_at", TS),
    ]
)


def _memories_v1(dim: int) -> pa.Schema:
    return pa.schema([f for f in memories_schema(dim) if f.name not in ("context_vector", "context_text")])


def _initial(db: Database, meta: dict[str, str], embed: Embed | None) -> None:
    dim = int(meta["dim"])
    for name, schema in (
        ("memories", _memories_v1(dim)),
        ("turns", _TURNS_V1),
        ("events", EVENTS_SCHEMA),
    ):
        if not db.exists(name):
            db.create(name, schema)
    meta.setdefault("hash_key", secrets.token_hex(16))


def _turn_context(db: Database, meta: dict[str, str], embed: Embed | None) -> None:
    """Keep the assistant message each source turn answered, for recall and provenance."""
    ds = db.open("turns")
    if "context" not in ds.schema.names:
        ds.add_columns(pa.field("context", pa.string()))


def _context_vector(db: Database, meta: dict[str, str], embed: Embed | None) -> None:
    """A second vector per memory, of its source turn; empty for older rows until reembed."""
    ds = db.open("memories")
    if "context_vector" not in ds.schema.names:
        ds.add_columns(pa.field("context_vector", pa.list_(pa.float16(), int(meta["dim"]))))


def _context_text(db: Database, meta: dict[str, str], embed: Embed | None) -> None:
    """Each memory's source-turn text, so recall reads one table; filled from the turns."""
    ds = db.open("memories")
    if "context_text" in ds.schema.names:
        return
    ds.add_columns(pa.field("context_text", pa.string()))
    turns = {r["turn_key"]: context_text(r["content"], r.get("context"))
             for r in db.rows("turns", columns=["turn_key", "content", "context"], filter="content IS NOT NULL")} \
        if db.exists("turns") else {}
    rows = db.to_table("memories").to_pylist()
    for row in rows:
        first = next((s["turn_key"] for s in row["sources"] or [] if s["turn_key"] in turns), None)
        row["context_text"] = turns[first] if first else None
    if rows:
        db.upsert("memories", rows, "id")


def _episodes(db: Database, meta: dict[str, str], embed: Embed | None) -> None:
    """The turns ledger becomes the episodes table: every turn keeps its key; a turn whose
    text is still there (a memory came from it) becomes an episode with a vector."""
    if db.exists("episodes"):
        return
    schema = episodes_schema(int(meta["dim"]))
    db.create("episodes", schema)
    if not db.exists("turns"):
        return
    rows = db.to_table("turns").to_pylist()
    active, any_memory = _source_turns(db)
    texts = [context_input(r["content"], r.get("context")) for r in rows if r["content"] is not None]
    vectors = iter(embed(texts) if embed is not None and texts else [None] * len(texts))
    for row in rows:
        row["vector"] = next(vectors) if row["content"] is not None else None
        if row["vector"] is not None:
            row["vector"] = np.asarray(row["vector"], dtype=np.float32)
        row["outdated"] = row["turn_key"] in any_memory and row["turn_key"] not in active
        row["statement"] = True
    for start in range(0, len(rows), 10_000):
        db.append("episodes", rows[start:start + 10_000])
    db.drop("turns")


def _source_turns(db: Database) -> tuple[set[str], set[str]]:
    """Turn keys that an active memory came from, and those any memory came from."""
    table = db.to_table("memories", columns=["status", "sources"])
    active: set[str] = set()
    every: set[str] = set()
    for status, sources in zip(table.column("status").to_pylist(), table.column("sources").to_pylist()):
        keys = {s["turn_key"] for s in sources or []}
        every |= keys
        if status == "active":
            active |= keys
    return active, every


def _users(db: Database, meta: dict[str, str], embed: Embed | None) -> None:
    """Per-user counts of memories and episodes."""
    if not db.exists("users"):
        db.create("users", USERS_SCHEMA)
    recount_users(db, None)


def _retire_context(db: Database, meta: dict[str, str], embed: Embed | None) -> None:
    """The catch-all `context` type is retired: what it held ("so the turn can be found
    again") is kept as an episode. Active context memories are archived, not deleted."""
    found = db.to_table("memories", filter="type = 'context' AND status = 'active'").to_pylist()
    if not found:
        return
    now = datetime.now(timezone.utc)
    for row in found:
        row["status"], row["updated_at"] = "archived", now
    version = db.upsert("memories", found, "id")
    events = [Event("archived", r["user_id"], r["id"], r["chain_id"], detail={"reason": "the context type is retired; "
                    "its turn is kept as an episode", "cause": "migration"}) for r in found]
    db.append("events", [e.to_row(new_id(), now, version) for e in events])


def recount_users(db: Database, users: Sequence[str] | None) -> None:
    """Set the counts of these users (of every user when None) from the tables."""
    def counts(table: str, where: str | None) -> dict[str, int]:
        data = db.to_table(table, columns=["user_id"], filter=where)
        out: dict[str, int] = {}
        for row in data.group_by("user_id").aggregate([("user_id", "count")]).to_pylist():
            out[row["user_id"]] = row["user_id_count"]
        return out

    scope = None if users is None else sql_in("user_id", users)
    memories = counts("memories", scope)
    episodes = counts("episodes", f"({scope}) AND content IS NOT NULL" if scope else "content IS NOT NULL")
    everyone = sorted(set(memories) | set(episodes) | set(users or ()))
    now = datetime.now(timezone.utc)
    rows = [{"user_id": u, "memories": memories.get(u, 0), "episodes": episodes.get(u, 0), "updated_at": now} for u in everyone]
    if users is None:
        db.overwrite("users", pa.Table.from_pylist(rows, schema=USERS_SCHEMA))
    elif rows:
        db.upsert("users", rows, "user_id")


def _subjects(db: Database, meta: dict[str, str], embed: Embed | None) -> None:
    """Whom each memory is about; memories written before are about the user (null)."""
    ds = db.open("memories")
    if "subject" not in ds.schema.names:
        ds.add_columns(pa.field("subject", pa.string()))


MIGRATIONS: list[tuple[str, Callable[[Database, dict[str, str], Embed | None], None]]] = [
    ("0001_initial", _initial),
    ("0002_turn_context", _turn_context),
    ("0003_context_vector", _context_vector),
    ("0004_context_text", _context_text),
    ("0005_episodes", _episodes),
    ("0006_users", _users),
    ("0007_retire_context", _retire_context),
    ("0008_subjects", _subjects),
]

SCHEMA_VERSION = len(MIGRATIONS)


def read_meta(db: Database) -> dict[str, str]:
    if not db.exists("meta"):
        return {}
    return {r["key"]: r["value"] for r in db.rows("meta")}


def write_meta(db: Database, meta: dict[str, str]) -> None:
    if not db.exists("meta"):
        db.create("meta", META_SCHEMA)
    db.upsert("meta", [{"key": k, "value": v} for k, v in sorted(meta.items())], "key")


def applied(db: Database) -> list[str]:
    if not db.exists("migrations"):
        return []
    return [r["name"] for r in db.rows("migrations")]


def migrate(db: Database, meta: dict[str, str], embed: Embed | None = None) -> list[str]:
    """Apply the migrations this store lacks; returns their names. Caller holds the lock."""
    done = applied(db)
    known = [name for name, _ in MIGRATIONS]
    unknown = [name for name in done if name not in known]
    if unknown:
        raise SchemaError(f"the store has migration {unknown[0]} that this memctl does not know: upgrade memctl")
    if not db.exists("migrations"):
        db.create("migrations", MIGRATIONS_SCHEMA)
    ran = []
    for name, step in MIGRATIONS:
        if name in done:
            continue
        step(db, meta, embed)
        db.append("migrations", [{"name": name, "applied_at": datetime.now(timezone.utc)}])
        ran.append(name)
    meta["schema_version"] = str(SCHEMA_VERSION)
    write_meta(db, meta)
    return ran
