"""Record types and the Arrow schemas of the store's tables.

Tables (each a Lance dataset in the store's LanceDB directory):
  memories  one row per version of a memory, with its vector and provenance
  episodes  one row per ingested user turn: the turn verbatim (secrets masked) with the
            message it answered and a vector, the evidence of what was said; and the
            ledger of turns (a forgotten turn keeps its key and loses its text, so
            re-ingesting an old log brings nothing back)
  users     per user, how many memories and episodes the store holds: recall picks an
            exact scan or the tables' indexes by it
  events    append-only log of every change: ids, counts and keyed hashes, never text
  meta      key/value facts about the store: schema version, model, dimension
  migrations  the named migrations applied to this store
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pyarrow as pa


TS = pa.timestamp("us", tz="UTC")

SOURCE_TYPE = pa.struct(
    [
        ("session", pa.string()),
        ("turn", pa.string()),
        ("time", TS),
        ("clause", pa.string()),
        ("turn_key", pa.string()),
    ]
)


def memories_schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False),
            pa.field("chain_id", pa.string(), nullable=False),
            pa.field("version", pa.int32(), nullable=False),
            pa.field("status", pa.string(), nullable=False),
            pa.field("user_id", pa.string(), nullable=False),
            pa.field("type", pa.string(), nullable=False),
            pa.field("content", pa.string(), nullable=False),
            pa.field("lang", pa.string()),
            pa.field("topics", pa.list_(pa.string())),
            pa.field("slot", pa.string()),
            pa.field("importance", pa.float32()),
            pa.field("confidence", pa.float32()),
            pa.field("source_type", pa.string()),
            pa.field("sources", pa.list_(SOURCE_TYPE)),
            pa.field("created_at", TS),
            pa.field("updated_at", TS),
            pa.field("valid_from", TS),
            pa.field("valid_to", TS),
            pa.field("last_recalled_at", TS),
            pa.field("recall_count", pa.int32()),
            pa.field("reinforced_count", pa.int32()),
            pa.field("cause", pa.string()),
            pa.field("supersedes", pa.string()),
            pa.field("merged_from", pa.list_(pa.string())),
            pa.field("merged_into", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
            # The embedding of the source turn (and the message it answered): the memory's
            # context for recall. Half precision: it only ranks. Null after a forget
            # touched the turn (recall then uses `vector`).
            pa.field("context_vector", pa.list_(pa.float16(), dim)),
            # The text of the source turn and the message it answered (secrets masked),
            # matched by recall's lexical part; trimmed to what remains when a forget
            # touches the turn. Kept with the memory so recall reads one table.
            pa.field("context_text", pa.string()),
            # Whom it is about: "user", or a person, pet, thing or event in the user's
            # life ("son Noah", "儿子乐乐", "店"). Null in stores before subjects: the user.
            pa.field("subject", pa.string()),
        ]
    )


def episodes_schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            # The turn's identity (turns.turn_key in stores before episodes): also the episode id.
            pa.field("turn_key", pa.string(), nullable=False),
            pa.field("user_id", pa.string(), nullable=False),
            pa.field("session", pa.string()),
            pa.field("turn", pa.string()),
            pa.field("role", pa.string()),
            pa.field("time", TS),
            # What the user said, secrets masked, forgotten clauses removed; null once the
            # turn is forgotten (or expired), and, with episodes off, unless a memory came from it.
            pa.field("content", pa.string()),
            pa.field("ingested_at", TS),
            # The assistant message this turn answered ("Any allergies?" -> "Just peanuts"):
            # kept, masked, with the turn's text, and dropped whenever anything of the turn is forgotten.
            pa.field("context", pa.string()),
            # The start of the assistant message that answered it ("Congrats on the new
            # job at Shopify!"): words of the exchange that recall matches; dropped with
            # the context whenever anything of the turn is forgotten.
            pa.field("reply", pa.string()),
            # The embedding of the turn with the end of the message it answered
            # (context_input); null without text. Single precision: Lance builds a vector
            # index on half precision several times slower.
            pa.field("vector", pa.list_(pa.float32(), dim)),
            # Memories came from this turn and every one of them was superseded or
            # forgotten: recall leaves it out (it would bring the outdated fact back).
            pa.field("outdated", pa.bool_()),
            # The turn states something rather than only asking, requesting or chatting.
            pa.field("statement", pa.bool_()),
        ]
    )


USERS_SCHEMA = pa.schema(
    [
        pa.field("user_id", pa.string(), nullable=False),
        # Rows of the user in the memories table (every version) and episodes with text.
        pa.field("memories", pa.int64()),
        pa.field("episodes", pa.int64()),
        pa.field("updated_at", TS),
    ]
)

EVENTS_SCHEMA = pa.schema(
    [
        pa.field("event_id", pa.string(), nullable=False),
        pa.field("time", TS),
        pa.field("kind", pa.string()),
        pa.field("user_id", pa.string()),
        pa.field("memory_id", pa.string()),
        pa.field("chain_id", pa.string()),
        pa.field("related", pa.list_(pa.string())),
        pa.field("content_hash", pa.string()),
        pa.field("count", pa.int32()),
        pa.field("store_version", pa.int64()),
        # JSON with ids, numbers and reasons only; never memory or turn text.
        pa.field("detail", pa.string()),
    ]
)

META_SCHEMA = pa.schema([pa.field("key", pa.string(), nullable=False), pa.field("value", pa.string())])

MIGRATIONS_SCHEMA = pa.schema(
    [pa.field("name", pa.string(), nullable=False), pa.field("applied_at", TS)]
)

# Columns read for recall, listing and rendering: everything but the vectors.
# Read only where needed: the vectors and the context text are not shown in listings.
MEMORY_COLUMNS = [f.name for f in memories_schema(1) if f.name not in ("vector", "context_vector", "context_text")]
# ...and with them: what recall, compaction and rewrites read.
FULL_MEMORY_COLUMNS = MEMORY_COLUMNS + ["vector", "context_vector", "context_text"]


# Columns of an episode read for recall and listing (the vector is read where needed).
EPISODE_COLUMNS = ["turn_key", "user_id", "session", "turn", "time", "content", "context", "reply", "outdated",
                   "ingested_at", "statement"]


# A memory's copy of its source turn is cut to this many characters: every memory (and
# version) of a turn carries one, so a long turn copied whole grows the store with the
# square of its length. Chat turns are shorter; recall's words match the memory itself too.
_CONTEXT_TEXT_CHARS = 2000


def context_text(content: str, context: str | None) -> str:
    """A memory's `context_text`: its source turn and the message that turn answered."""
    content = content[:_CONTEXT_TEXT_CHARS]
    return f"{content} {context[:_CONTEXT_TEXT_CHARS]}" if context else content


# What a context vector embeds (measured on LoCoMo, bench/bench_locomo.py): whole turns
# and whole questions cost a third of ingest time and gave R@5 0.597; these cuts 0.603.
_TURN_CHARS = 200
_ASKED_CHARS = 80


def context_input(content: str, context: str | None) -> str:
    """What a memory's `context_vector` embeds: the start of its source turn and the end
    of the message it answered (where the question usually is). The encoder's cost grows
    with every token while a sentence embedding of a long text says little more."""
    text = content[:_TURN_CHARS]
    if context:
        text += " " + context[max(0, len(context) - _ASKED_CHARS):]
    return text

def new_id() -> str:
    """A new memory or event id: 16 hex digits, random."""
    import uuid

    return uuid.uuid4().hex[:16]


@dataclass
class Source:
    session: str
    turn: str
    time: datetime | None
    clause: str
    turn_key: str

    def public(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "turn": self.turn,
            "time": iso(self.time),
            "clause": self.clause,
        }


@dataclass
class Memory:
    """One version of a memory. `chain_id` is stable across versions."""

    id: str
    chain_id: str
    version: int
    status: str
    user_id: str
    type: str
    content: str
    lang: str = "en"
    topics: list[str] = field(default_factory=list)
    slot: str | None = None
    importance: float = 0.5
    confidence: float = 0.8
    source_type: str = "user_stated"
    sources: list[Source] = field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    last_recalled_at: datetime | None = None
    recall_count: int = 0
    reinforced_count: int = 0
    cause: str = "ingest"
    supersedes: str | None = None
    merged_from: list[str] = field(default_factory=list)
    merged_into: str | None = None
    vector: Any = None
    context_vector: Any = None
    context_text: str | None = None
    subject: str | None = None

    @property
    def about(self) -> str:
        """Whom the memory is about: "user" unless it names someone or something else."""
        return self.subject or "user"

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "Memory":
        data = {k: v for k, v in row.items() if k in _MEMORY_FIELDS}
        data["sources"] = [Source(s["session"], s["turn"], s["time"], s["clause"], s["turn_key"])
                           for s in (row.get("sources") or ())]
        data["topics"] = list(row.get("topics") or ())
        data["merged_from"] = list(row.get("merged_from") or ())
        data["recall_count"] = int(row.get("recall_count") or 0)
        data["reinforced_count"] = int(row.get("reinforced_count") or 0)
        for k in ("importance", "confidence"):
            if row.get(k) is not None:
                data[k] = round(float(row[k]), 4)
        return cls(**data)

    def to_row(self) -> dict[str, Any]:
        import numpy as np

        row = {k: getattr(self, k) for k in self.__dataclass_fields__}
        row["sources"] = [s.__dict__.copy() for s in self.sources]
        if self.vector is not None:
            row["vector"] = np.asarray(self.vector, dtype=np.float32)
        if self.context_vector is not None:
            row["context_vector"] = np.asarray(self.context_vector, dtype=np.float16)
        return row

    def public(self) -> dict[str, Any]:
        """The documented JSON shape (contract): stable field names, ISO-8601 times."""
        return {
            "kind": "memory",
            "id": self.id,
            "chain_id": self.chain_id,
            "version": self.version,
            "status": self.status,
            "user": self.user_id,
            "type": self.type,
            "subject": self.about,
            "content": self.content,
            "lang": self.lang,
            "topics": list(self.topics),
            "importance": round(self.importance, 3),
            "confidence": round(self.confidence, 3),
            "source_type": self.source_type,
            "sources": [s.public() for s in self.sources],
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "valid_from": iso(self.valid_from),
            "valid_to": iso(self.valid_to),
            "last_recalled_at": iso(self.last_recalled_at),
            "recall_count": self.recall_count,
            "reinforced_count": self.reinforced_count,
            "cause": self.cause,
            "supersedes": self.supersedes,
            "merged_from": list(self.merged_from),
            "merged_into": self.merged_into,
        }


@dataclass
class Episode:
    """One user turn as it was said (secrets masked): the evidence layer."""

    id: str  # the turn key
    user_id: str
    session: str | None
    turn: str | None
    time: datetime | None
    content: str | None
    context: str | None = None
    outdated: bool = False
    ingested_at: datetime | None = None
    statement: bool = True
    vector: Any = None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "Episode":
        return cls(row["turn_key"], row["user_id"], row.get("session"), row.get("turn"), row.get("time"),
                   row.get("content"), row.get("context"), bool(row.get("outdated")), row.get("ingested_at"),
                   row.get("statement") is not False)

    def public(self) -> dict[str, Any]:
        """The recall JSON shape of an episode: a memory's keys where they make sense."""
        when = iso(self.time)
        return {
            "kind": "episode",
            "id": self.id,
            "chain_id": None,
            "version": None,
            "status": "outdated" if self.outdated else "active",
            "user": self.user_id,
            "type": "episode",
            "subject": "user",
            "content": self.content,
            "session": self.session,
            "turn": self.turn,
            "time": when,
            "importance": None,
            "confidence": None,
            "source_type": "user_stated",
            "sources": [{"session": self.session, "turn": self.turn, "time": when}],
            "created_at": when,
            "updated_at": when,
            "valid_from": when,
            "valid_to": None,
        }


@dataclass
class Event:
    """One entry of the append-only event log: ids, counts, a keyed hash of the text and
    a detail of ids, numbers and reasons, never the text itself. Built here and written
    only by `Core.append_events`, which stamps the time and the store version."""

    # ingested | reinforced | superseded | merged | expired | archived | forgotten | recalled | reembedded
    # | episodes (turns kept, counted per user and ingest) | episode_forgotten | episode_expired
    kind: str
    user_id: str | None = None
    memory_id: str | None = None
    chain_id: str | None = None
    related: list[str] = field(default_factory=list)
    content_hash: str | None = None
    count: int = 1
    detail: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, kind: str, memory: "Memory", content_hash: str, related: list[str] | None = None,
           count: int = 1, **detail: Any) -> "Event":
        """An event about one memory."""
        return cls(kind, memory.user_id, memory.id, memory.chain_id, list(related or []), content_hash, count, detail)

    def to_row(self, event_id: str, time: datetime, store_version: int) -> dict[str, Any]:
        import json

        return {
            "event_id": event_id, "time": time, "kind": self.kind, "user_id": self.user_id,
            "memory_id": self.memory_id, "chain_id": self.chain_id, "related": list(self.related),
            "content_hash": self.content_hash, "count": int(self.count or 1), "store_version": store_version,
            "detail": json.dumps(self.detail, ensure_ascii=False, sort_keys=True, default=str),
        }


_MEMORY_FIELDS = frozenset(Memory.__dataclass_fields__)


def iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.isoformat().replace("+00:00", "Z")

