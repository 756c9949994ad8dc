"""The opened store: its folder, settings, tables, lock, recall spool, clock and model,
and the reads and writes every verb shares.

Layout of a store:
  .memctl/memctl.toml      every setting, with its default (config.py)
  .memctl/db/              the LanceDB directory (db.py, schema.py)
  .memctl/store.lock       the write lock (lock.py)
  .memctl/recalls.jsonl    recall bookkeeping not yet folded in (spool.py)
  .memctl/rules/           optional extensions of the extraction rules

The verb modules (ingest, recall, forget, compaction, reembed, audit, history) take a
`Core` and nothing above it; `MemoryStore` (store.py) is the facade over them.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Sequence, TypeVar

import numpy as np

from . import __version__
from .config import CONFIG_FILENAME, MEMORY_TYPES, STORE_DIRNAME, Config, load_config, write_config
from .conversations import check_user_id
from .db import Database, sql_in, sql_str, vector_matrix
from .embedding import Embedder, embed_batched, get_embedder, model_info
from .errors import (
    LockTimeoutError, MemctlError, ModelMismatchError, NotFoundError, SchemaError, StoreExistsError,
    StoreNotFoundError, UsageError,
)
from .lock import FileLock, StoreLock
from .migrations import SCHEMA_VERSION, migrate, read_meta, recount_users
from .schema import EPISODE_COLUMNS, FULL_MEMORY_COLUMNS, MEMORY_COLUMNS, Episode, Event, Memory, new_id
from .spool import RecallSpool

T = TypeVar("T")

# Attempts of a lock-free read whose table version a writer removed meanwhile.
_READ_ATTEMPTS = 5


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def data_uri(store_dir: Path, cfg: Config) -> str:
    """Where the store's LanceDB directory is: a path under .memctl/, or a URI."""
    data = cfg.store.data
    if "://" in data:
        return data
    p = Path(data).expanduser()
    return str(p if p.is_absolute() else store_dir / p)


def create(path: str | os.PathLike[str], *, model: str | None = None, config: Config | None = None) -> Path:
    """Create a store in `path`/.memctl (or in `path` itself if it is named .memctl)."""
    base = Path(path).expanduser()
    store_dir = base if base.name == STORE_DIRNAME else base / STORE_DIRNAME
    if (store_dir / CONFIG_FILENAME).exists():
        raise StoreExistsError(f"{store_dir} already holds a memctl store")
    cfg = config or Config()
    if model is not None:
        cfg.embedding.use_model(model)
    info = model_info(cfg.embedding.model)
    dim = info.dim if info.dim is not None else get_embedder(cfg.embedding.model).dim
    store_dir.mkdir(parents=True, exist_ok=True)
    db = Database(data_uri(store_dir, cfg))
    lock = FileLock(store_dir / "store.lock", cfg.store.lock_timeout_seconds)
    with lock.hold():
        meta = {
            "model": cfg.embedding.model,
            "dim": str(dim),
            "created_at": utcnow().isoformat(),
            "created_by": f"memctl {__version__}",
        }
        migrate(db, meta)
        write_config(cfg, store_dir / CONFIG_FILENAME)
    return store_dir


def check_types(types: Iterable[str]) -> list[str]:
    out = []
    for t in types:
        if t not in MEMORY_TYPES:
            raise UsageError(f"unknown memory type {t!r} (use {', '.join(MEMORY_TYPES)})")
        out.append(t)
    return out


class Core:
    def __init__(
        self,
        store_dir: str | os.PathLike[str],
        *,
        clock: Callable[[], datetime] = utcnow,
        preload_model: bool = False,
        check_model: bool = True,
    ) -> None:
        self.dir = Path(store_dir)
        if not (self.dir / CONFIG_FILENAME).is_file():
            raise StoreNotFoundError(f"no memctl store at {self.dir}; run `memctl init`")
        self.config: Config = load_config(self.dir / CONFIG_FILENAME)
        if preload_model:
            get_embedder(self.config.embedding.model)  # the default model loads in a thread
        self.clock = clock
        self.db = Database(data_uri(self.dir, self.config))
        self.lock: StoreLock = FileLock(self.dir / "store.lock", self.config.store.lock_timeout_seconds)
        self.spool = RecallSpool(self.dir)
        self._embedder: Embedder | None = None
        self._sizes: tuple[int, dict[str, tuple[int, int]]] | None = None
        self.meta = read_meta(self.db)
        if not self.meta:
            raise StoreNotFoundError(f"{self.dir} has settings but no data at {self.db.uri}; run `memctl init` again")
        if int(self.meta.get("schema_version", "0")) > SCHEMA_VERSION:
            raise SchemaError(f"the store has schema version {self.meta['schema_version']}, newer than this memctl ({SCHEMA_VERSION}): upgrade memctl")
        if int(self.meta.get("schema_version", "0")) < SCHEMA_VERSION:
            # A migration may need vectors (turns becoming episodes): from the store's own
            # model, or none until `memctl reembed` while the settings name another.
            usable = self.meta.get("model") == self.config.embedding.model
            with self.lock.hold():
                migrate(self.db, self.meta, self.embed if usable else None)
        if check_model and self.meta.get("model") != self.config.embedding.model:
            raise ModelMismatchError(
                f"the store's vectors were made by {self.meta.get('model')}, but memctl.toml sets "
                f"embedding.model = {self.config.embedding.model!r}: run `memctl reembed` to rebuild them, "
                f"or set the model back"
            )

    # -- the model ---------------------------------------------------------------------

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            if self.meta.get("model") != self.config.embedding.model:
                raise ModelMismatchError(f"the store's vectors were made by {self.meta.get('model')}: run `memctl reembed`")
            self._embedder = get_embedder(self.config.embedding.model)
            if self._embedder.dim != int(self.meta["dim"]):
                raise ModelMismatchError(
                    f"model {self._embedder.model_id} gives {self._embedder.dim}-dim vectors; the store holds {self.meta['dim']}-dim"
                )
        return self._embedder

    def use_embedder(self, embedder: Embedder) -> None:
        """The model the store's vectors now come from (after a reembed)."""
        self._embedder = embedder

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, int(self.meta["dim"])), dtype=np.float32)
        return embed_batched(self.embedder, texts, self.config.embedding.batch_size)

    @property
    def dim(self) -> int:
        return int(self.meta["dim"])

    def hash(self, text: str) -> str:
        """Keyed hash of a text for the event log: proves identity without keeping the text."""
        key = self.meta.get("hash_key", "").encode()
        return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()[:24]

    @property
    def rules_dir(self) -> str | None:
        extra = self.dir / "rules"
        return str(extra) if extra.is_dir() else None

    def save_config(self) -> None:
        write_config(self.config, self.dir / CONFIG_FILENAME)

    # -- reads -------------------------------------------------------------------------

    def read_memories(self, where: str | None, *, with_vectors: bool = False, limit: int | None = None,
                      ids: set[str] | None = None, version: int | None = None) -> list[Memory]:
        """Rows matching `where` (and, if given, whose id is in `ids`: one scan however many)."""
        columns = FULL_MEMORY_COLUMNS if with_vectors else MEMORY_COLUMNS
        table = self.db.to_table("memories", version, columns=columns, filter=where, limit=limit)
        if ids is not None:
            import pyarrow as pa
            import pyarrow.compute as pc

            table = table.filter(pc.is_in(table.column("id"), value_set=pa.array(sorted(ids), pa.string())))
        text_columns = [c for c in columns if c not in ("vector", "context_vector")]
        memories = [Memory.from_row(r) for r in table.select(text_columns).to_pylist()]
        if with_vectors and memories:
            context, present = vector_matrix(table, "context_vector")
            for m, v, c, ok in zip(memories, vector_matrix(table)[0], context, present):
                m.vector = v
                m.context_vector = c if ok else None
        return memories

    def by_ids(self, ids: Iterable[str], *, with_vectors: bool = False) -> list[Memory]:
        """The memories with these ids (any status), looked up in chunks."""
        unique = sorted(set(ids))
        found: list[Memory] = []
        for i in range(0, len(unique), _ID_CHUNK):
            found.extend(self.read_memories(sql_in("id", unique[i:i + _ID_CHUNK]), with_vectors=with_vectors))
        return found

    def get(self, memory_id: str) -> Memory:
        found = self.read_memories(f"id = {sql_str(memory_id)}")
        if not found:
            raise NotFoundError(f"no memory with id {memory_id}")
        return found[0]

    def present(self, table: str, column: str, values: Iterable[str], where: str | None = None) -> set[str]:
        """Which of `values` occur in `column` of `table` (rows also matching `where`):
        one filtered read per chunk of values, however many."""
        found: set[str] = set()
        unique = sorted(set(values))
        for i in range(0, len(unique), _ID_CHUNK):
            chunk = sql_in(column, unique[i:i + _ID_CHUNK])
            rows = self.db.to_table(table, columns=[column], filter=f"{chunk} AND {where}" if where else chunk)
            found.update(rows.column(column).to_pylist())
        return found

    def forgotten(self, ids: Iterable[str]) -> set[str]:
        """Which of these memory or episode ids the store has forgotten (its event log says so)."""
        return self.present("events", "memory_id", ids, "kind LIKE '%forgotten%'")

    def chain(self, chain_id: str) -> list[Memory]:
        """Every version of one memory, oldest first."""
        found = self.read_memories(f"chain_id = {sql_str(chain_id)}")
        if not found:
            raise NotFoundError(f"no memory chain {chain_id}")
        return sorted(found, key=lambda m: m.version)

    def memories(self, user: str | None = None, *, status: str | None = "active",
                 types: Iterable[str] | None = None) -> list[Memory]:
        """Memories of a user (or all users), newest first."""
        clauses = []
        if user is not None:
            clauses.append(f"user_id = {sql_str(check_user_id(user))}")
        if status is not None:
            clauses.append(f"status = {sql_str(status)}")
        if types:
            clauses.append(sql_in("type", check_types(types)))
        found = self.read_memories(" AND ".join(clauses) if clauses else None)
        return sorted(found, key=lambda m: (m.updated_at or m.created_at or utcnow(), m.id), reverse=True)

    def active(self, user: str, *, with_vectors: bool = True) -> list[Memory]:
        """One user's active memories."""
        return self.read_memories(f"user_id = {sql_str(user)} AND status = 'active'", with_vectors=with_vectors)

    def users(self) -> list[str]:
        table = self.db.to_table("memories", columns=["user_id"])
        return sorted(set(table.column("user_id").to_pylist()))

    def user_size(self, user: str) -> tuple[int, int]:
        """How many memory rows (every version) and episodes with text the user has.

        The whole users table is read once per version of it and kept: a warm process
        (an agent) answers this from memory while no write changes the counts."""
        ds = self.db.open("users")
        if self._sizes is None or self._sizes[0] != ds.version:
            table = ds.to_table(columns=["user_id", "memories", "episodes"])
            sizes = {u: (int(m or 0), int(e or 0)) for u, m, e in zip(
                table.column("user_id").to_pylist(), table.column("memories").to_pylist(), table.column("episodes").to_pylist())}
            self._sizes = (ds.version, sizes)
        return self._sizes[1].get(user, (0, 0))

    def episodes(self, where: str | None, *, with_vectors: bool = False) -> list[Episode]:
        columns = EPISODE_COLUMNS + (["vector"] if with_vectors else [])
        table = self.db.to_table("episodes", columns=columns, filter=where)
        out = [Episode.from_row(r) for r in table.select(EPISODE_COLUMNS).to_pylist()]
        if with_vectors and out:
            vectors, present = vector_matrix(table)
            for e, v, ok in zip(out, vectors, present):
                e.vector = v if ok else None
        return out

    def episodes_by_keys(self, keys: Iterable[str], *, with_vectors: bool = False) -> list[Episode]:
        unique = sorted(set(keys))
        found: list[Episode] = []
        for i in range(0, len(unique), _ID_CHUNK):
            found.extend(self.episodes(sql_in("turn_key", unique[i:i + _ID_CHUNK]), with_vectors=with_vectors))
        return found

    def retrying(self, read: Callable[[], T]) -> T:
        """Run a lock-free read; if a writer removed the table version it was reading, wait
        for that writer (it holds the store lock while it cleans up) and read again."""
        for attempt in range(_READ_ATTEMPTS):
            try:
                return read()
            except (OSError, ValueError, MemctlError) as exc:
                if attempt == _READ_ATTEMPTS - 1 or not _vanished(exc):
                    raise
                with self.lock.hold():
                    pass
        raise AssertionError("unreachable")

    # -- writes: the caller holds the store lock ---------------------------------------

    def count_in_users(self, memories: dict[str, int], episodes: dict[str, int]) -> None:
        """Add new rows to the per-user counts (compaction recounts them from the tables)."""
        users = set(memories) | set(episodes)
        if not users:
            return
        current = {r["user_id"]: r for r in self.db.to_table("users", filter=sql_in("user_id", users)).to_pylist()}
        now = self.clock()
        rows = []
        for u in sorted(users):
            row = current.get(u) or {"user_id": u, "memories": 0, "episodes": 0}
            rows.append({"user_id": u, "memories": int(row["memories"] or 0) + memories.get(u, 0),
                         "episodes": int(row["episodes"] or 0) + episodes.get(u, 0), "updated_at": now})
        self.db.upsert("users", rows, "user_id")

    def recount_users(self, users: Iterable[str] | None) -> None:
        """Refresh the per-user counts of these users (every user when None)."""
        recount_users(self.db, None if users is None else sorted(set(users)))

    def refresh_outdated(self, keys: Iterable[str], active: Iterable[Memory]) -> None:
        """Mark the episodes `keys` (turns memories came from) outdated unless one of the
        `active` memories (every active memory of their users) still comes from them."""
        keys = set(keys)
        if not keys:
            return
        live = {s.turn_key for m in active for s in m.sources} & keys
        for flag, chosen in (("true", keys - live), ("false", live)):
            ordered = sorted(chosen)
            for i in range(0, len(ordered), _ID_CHUNK):
                self.db.update("episodes", {"outdated": flag}, sql_in("turn_key", ordered[i:i + _ID_CHUNK]))

    def append_events(self, events: Sequence[Event], store_version: int, now: datetime) -> None:
        rows = [e.to_row(new_id(), now, store_version) for e in events]
        if rows:
            self.db.append("events", rows)

    def flush_recalls(self) -> None:
        """Fold pending recall bookkeeping into the table. Caller holds the lock."""
        pending = self.spool.take()
        if not pending.counts:
            self.spool.done()
            return
        rows = self.read_memories(sql_in("id", pending.counts), with_vectors=True)
        for m in rows:
            m.recall_count += pending.counts[m.id]
            last = pending.last[m.id]
            m.last_recalled_at = max(m.last_recalled_at, last) if m.last_recalled_at else last
        version = self.db.upsert("memories", [m.to_row() for m in rows], "id") if rows else self.db.version("memories")
        known = {m.id for m in rows}
        events = []
        for rec in pending.recalls:
            ids = [i for i in rec.ids if i in known]
            if ids:
                events.append(Event("recalled", rec.user, related=ids, count=len(ids), detail={"at": rec.time.isoformat()}))
        self.append_events(events, version, self.clock())
        self.spool.done()

    def try_flush_recalls(self) -> None:
        """Fold the spool in if no writer is busy; otherwise that writer or the next does."""
        try:
            with self.lock.hold(timeout=0):
                self.flush_recalls()
        except LockTimeoutError:
            pass


# Ids per lookup: an IN list of this many keeps each filter small.
_ID_CHUNK = 2000


def _vanished(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, FileNotFoundError) or "not found" in text or "no such file" in text
