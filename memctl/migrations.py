"""Named, ordered schema migrations, recorded in the store's `migrations` table.

A new store applies them all; an existing one applies those it lacks when opened, under
the store lock. A store that lists a migration this memctl does not know was written by
a newer memctl and is refused rather than damaged.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Callable

import pyarrow as pa

from .db import Database
from .errors import SchemaError
from .schema import EVENTS_SCHEMA, META_SCHEMA, MIGRATIONS_SCHEMA, TURNS_SCHEMA, context_text, memories_schema


# The tables as 0001 created them; later migrations change them.
_TURNS_V1 = pa.schema([f for f in TURNS_SCHEMA if f.name != "context"])


def _memories_v1(dim: int) -> pa.Schema:
    return pa.schema([f for f in memories_schema(dim) if f.name not in ("context_vector", "context_text")])


def _initial(db: Database, meta: dict[str, str]) -> None:
    dim = int(meta["dim"])
    for name, schema in (
        ("memories", _memories_v1(dim)),
        ("turns", _TURNS_V1),
        ("events", EVENTS_SCHEMA),
    ):
        if not db.exists(name):
            db.create(name, schema)
    meta.setdefault("hash_key", secrets.token_hex(16))


def _turn_context(db: Database, meta: dict[str, str]) -> None:
    """Keep the assistant message each source turn answered, for recall and provenance."""
    ds = db.open("turns")
    if "context" not in ds.schema.names:
        ds.add_columns(pa.field("context", pa.string()))


def _context_vector(db: Database, meta: dict[str, str]) -> None:
    """A second vector per memory, of its source turn; empty for older rows until reembed."""
    ds = db.open("memories")
    if "context_vector" not in ds.schema.names:
        ds.add_columns(pa.field("context_vector", pa.list_(pa.float16(), int(meta["dim"]))))


def _context_text(db: Database, meta: dict[str, str]) -> None:
    """Each memory's source-turn text, so recall reads one table; filled from the turns."""
    ds = db.open("memories")
    if "context_text" in ds.schema.names:
        return
    ds.add_columns(pa.field("context_text", pa.string()))
    turns = {r["turn_key"]: context_text(r["content"], r.get("context"))
             for r in db.rows("turns", columns=["turn_key", "content", "context"], filter="content IS NOT NULL")}
    rows = db.to_table("memories").to_pylist()
    for row in rows:
        first = next((s["turn_key"] for s in row["sources"] or [] if s["turn_key"] in turns), None)
        row["context_text"] = turns[first] if first else None
    if rows:
        db.upsert("memories", rows, "id")


MIGRATIONS: list[tuple[str, Callable[[Database, dict[str, str]], None]]] = [
    ("0001_initial", _initial),
    ("0002_turn_context", _turn_context),
    ("0003_context_vector", _context_vector),
    ("0004_context_text", _context_text),
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


def migrate(db: Database, meta: dict[str, str]) -> list[str]:
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
        step(db, meta)
        db.append("migrations", [{"name": name, "applied_at": datetime.now(timezone.utc)}])
        ran.append(name)
    meta["schema_version"] = str(SCHEMA_VERSION)
    write_meta(db, meta)
    return ran
