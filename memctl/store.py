"""MemoryStore: the library's one object and its verbs (ingest, recall, forget, compact,
audit, diff). The CLI calls exactly these; agent code does too.

Layout of a store:
  .memctl/memctl.toml      every setting, with its default
  .memctl/db/              the LanceDB directory (see db.py, schema.py)
  .memctl/store.lock       the write lock (lock.py)
  .memctl/recalls.jsonl    recall bookkeeping not yet folded in (usage.py)
  .memctl/rules/           optional extensions of the extraction rules
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from . import __version__
from .config import CONFIG_FILENAME, MEMORY_TYPES, STORE_DIRNAME, Config, load_config, resolve_store_dir, write_config
from .conversations import Conversation, check_user_id, clean, read_sources
from .db import Database, sql_in, sql_str, sql_time, vector_matrix
from .embedding import Embedder, embed_batched, get_embedder, model_info
from .errors import (
    ModelMismatchError, NotFoundError, SchemaError, StoreExistsError, StoreNotFoundError, UsageError,
)
from .lock import FileLock, StoreLock
from .migrations import SCHEMA_VERSION, migrate, read_meta
from .results import IngestReport, RecallHit, RecallResult
from .schema import FULL_MEMORY_COLUMNS, MEMORY_COLUMNS, Memory, context_input, context_text

# Users with more active memories than this are recalled through the vector index
# (top_k_candidates nearest) instead of an exact pass over all their memories.
EXACT_RECALL_LIMIT = 5000
_SPOOL_FLUSH_BYTES = 64 * 1024


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


def init_store(path: str | os.PathLike[str] = ".", *, model: str | None = None, config: Config | None = None) -> "MemoryStore":
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
    db = Database(_data_uri(store_dir, cfg))
    lock = FileLock(store_dir / "store.lock", cfg.store.lock_timeout_seconds)
    with lock.hold():
        meta = {
            "model": cfg.embedding.model,
            "dim": str(dim),
            "created_at": _utcnow().isoformat(),
            "created_by": f"memctl {__version__}",
        }
        migrate(db, meta)
        write_config(cfg, store_dir / CONFIG_FILENAME)
    return MemoryStore(store_dir)


def open_store(
    path: str | os.PathLike[str] | None = None, *, preload_model: bool = False, check_model: bool = True
) -> "MemoryStore":
    """Open the store at `path`, or the one found by --store / $MEMCTL_STORE / .memctl upward.

    preload_model starts loading the embedding model before the store's tables are
    opened, for a caller that will embed right away (a CLI recall).
    """
    return MemoryStore(resolve_store_dir(path), preload_model=preload_model, check_model=check_model)


def _data_uri(store_dir: Path, cfg: Config) -> str:
    data = cfg.store.data
    if "://" in data:
        return data
    p = Path(data).expanduser()
    return str(p if p.is_absolute() else store_dir / p)


class MemoryStore:
    def __init__(
        self,
        store_dir: str | os.PathLike[str],
        *,
        clock: Callable[[], datetime] = _utcnow,
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
        self.db = Database(_data_uri(self.dir, self.config))
        self.lock: StoreLock = FileLock(self.dir / "store.lock", self.config.store.lock_timeout_seconds)
        from .usage import RecallSpool

        self.spool = RecallSpool(self.dir)
        self.meta = read_meta(self.db)
        if not self.meta:
            raise StoreNotFoundError(f"{self.dir} has settings but no data at {self.db.uri}; run `memctl init` again")
        if int(self.meta.get("schema_version", "0")) > SCHEMA_VERSION:
            raise SchemaError(f"the store has schema version {self.meta['schema_version']}, newer than this memctl ({SCHEMA_VERSION}): upgrade memctl")
        if int(self.meta.get("schema_version", "0")) < SCHEMA_VERSION:
            with self.lock.hold():
                migrate(self.db, self.meta)
        if check_model and self.meta.get("model") != self.config.embedding.model:
            raise ModelMismatchError(
                f"the store's vectors were made by {self.meta.get('model')}, but memctl.toml sets "
                f"embedding.model = {self.config.embedding.model!r}: run `memctl reembed` to rebuild them, "
                f"or set the model back"
            )
        self._embedder: Embedder | None = None

    # -- shared pieces ---------------------------------------------------------------

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

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, int(self.meta["dim"])), dtype=np.float32)
        return embed_batched(self.embedder, texts, self.config.embedding.batch_size)

    def hash(self, text: str) -> str:
        """Keyed hash of a text for the event log: proves identity without keeping the text."""
        key = self.meta.get("hash_key", "").encode()
        return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()[:24]

    @property
    def rules_dir(self) -> str | None:
        extra = self.dir / "rules"
        return str(extra) if extra.is_dir() else None

    def rescale(self, cosines: np.ndarray) -> np.ndarray:
        from .reconcile import rescaler

        e = self.config.embedding
        return rescaler(e.similarity_floor, e.similarity_ceiling)(cosines)

    def _memories(self, filter: str | None, with_vectors: bool = False, limit: int | None = None,
                  ids: set[str] | None = None) -> list[Memory]:
        """Rows matching `filter` (and, if given, whose id is in `ids`: one scan however many)."""
        columns = FULL_MEMORY_COLUMNS if with_vectors else MEMORY_COLUMNS
        table = self.db.to_table("memories", columns=columns, filter=filter, limit=limit)
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

    def get(self, memory_id: str) -> Memory:
        found = self._memories(f"id = {sql_str(memory_id)}")
        if not found:
            raise NotFoundError(f"no memory with id {memory_id}")
        return found[0]

    def chain(self, chain_id: str) -> list[Memory]:
        """Every version of one memory, oldest first."""
        found = self._memories(f"chain_id = {sql_str(chain_id)}")
        if not found:
            raise NotFoundError(f"no memory chain {chain_id}")
        return sorted(found, key=lambda m: m.version)

    def memories(self, user: str | None = None, *, status: str | None = "active", types: Iterable[str] | None = None) -> list[Memory]:
        """Memories of a user (or all users), newest first."""
        clauses = []
        if user is not None:
            clauses.append(f"user_id = {sql_str(check_user_id(user))}")
        if status is not None:
            clauses.append(f"status = {sql_str(status)}")
        if types:
            clauses.append(sql_in("type", _check_types(types)))
        found = self._memories(" AND ".join(clauses) if clauses else None)
        return sorted(found, key=lambda m: (m.updated_at or m.created_at or _utcnow(), m.id), reverse=True)

    def users(self) -> list[str]:
        table = self.db.to_table("memories", columns=["user_id"])
        return sorted(set(table.column("user_id").to_pylist()))

    def _append_events(self, events: list[dict[str, Any]], store_version: int, now: datetime) -> None:
        import json

        from .reconcile import new_id

        rows = []
        for e in events:
            rows.append({
                "event_id": new_id(), "time": now, "kind": e["kind"], "user_id": e.get("user_id"),
                "memory_id": e.get("memory_id"), "chain_id": e.get("chain_id"), "related": list(e.get("related") or []),
                "content_hash": e.get("content_hash"), "count": int(e.get("count") or 1), "store_version": store_version,
                "detail": json.dumps(e.get("detail") or {}, ensure_ascii=False, sort_keys=True, default=str),
            })
        if rows:
            self.db.append("events", rows)

    def _flush_recalls(self) -> None:
        """Fold pending recall bookkeeping into the table. Caller holds the lock."""
        pending = self.spool.take()
        if not pending.counts:
            self.spool.done()
            return
        rows = self._memories(sql_in("id", pending.counts), with_vectors=True)
        for m in rows:
            m.recall_count += pending.counts[m.id]
            last = pending.last[m.id]
            m.last_recalled_at = max(m.last_recalled_at, last) if m.last_recalled_at else last
        version = self.db.upsert("memories", [m.to_row() for m in rows], "id") if rows else self.db.version("memories")
        known = {m.id for m in rows}
        events = []
        for rec in pending.recalls:
            ids = [i for i in rec["ids"] if i in known]  # type: ignore[union-attr]
            if ids:
                events.append({"kind": "recalled", "user_id": rec["u"], "related": ids, "count": len(ids),
                               "detail": {"at": rec["t"]}})
        self._append_events(events, version, self.clock())
        self.spool.done()

    # -- ingest ----------------------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[str] = (),
        *,
        user: str | None = None,
        session: str | None = None,
        fmt: str | None = None,
        dry_run: bool = False,
        stdin_text: str | None = None,
        conversations: Sequence[Conversation] | None = None,
    ) -> IngestReport:
        """Read conversations, extract memories and reconcile them with what is stored.

        Every file is validated before anything is written; a bad one raises InputError.
        Re-ingesting turns already seen adds nothing; forgotten turns stay forgotten.
        """
        from .extract import Candidate, Negation, extract, load_rules

        convs = list(conversations) if conversations is not None else read_sources(
            paths, fmt=fmt, user=user, session=session, stdin_text=stdin_text
        )
        convs.sort(key=lambda c: (c.user, c.time or datetime.min.replace(tzinfo=timezone.utc)))
        rules = load_rules(self.rules_dir)
        xc = self.config.extract
        report = IngestReport(dry_run=dry_run, conversations=len(convs))
        report.files = len({c.origin for c in convs})
        extractions = []
        for conv in convs:
            ex = extract(conv, clean(conv), rules=rules, keep_tasks=xc.keep_tasks,
                         task_ttl_days=xc.task_ttl_days, infer=xc.infer, min_importance=xc.min_importance)
            extractions.append(ex)
        all_keys = [t.turn_key for ex in extractions for t in ex.turns]
        report.turns = len(all_keys)
        seen = self._seen_turns(all_keys)
        items = [i for ex in extractions for i in ex.items if i.turn_key not in seen]
        texts = [i.content if isinstance(i, Candidate) else i.context if isinstance(i, Negation) else (i.target or i.clause)
                 for i in items]
        vectors = self.embed(texts)
        # Each source turn's own embedding (with the message it answered): memories' context.
        turns = {t.turn_key: t for ex in extractions for t in ex.turns}
        needed = sorted({i.turn_key for i in items if isinstance(i, Candidate)})
        context_vectors = self.embed([context_input(turns[k].content, turns[k].context) for k in needed])
        context = {k: (context_text(turns[k].content, turns[k].context), v) for k, v in zip(needed, context_vectors)}
        for ex in extractions:
            for d in ex.dropped:
                report.dropped[d.reason] = report.dropped.get(d.reason, 0) + 1
            report.secrets_blocked += ex.secrets_blocked
        report.users = sorted({c.user for c in convs})
        if dry_run:
            plans = self._plan(items, vectors, context, rules)
            self._report(report, plans, seen, all_keys)
            return report
        with self.lock.hold():
            self._flush_recalls()
            seen = self._seen_turns(all_keys)  # again: another process may have ingested meanwhile
            keep = [n for n, i in enumerate(items) if i.turn_key not in seen]
            items = [items[n] for n in keep]
            vectors = vectors[keep] if len(keep) else vectors[:0]
            plans = self._plan(items, vectors, context, rules)
            now = self.clock()
            upserts = [m for p in plans.values() for m in p.upserts.values()]
            version = self.db.upsert("memories", [m.to_row() for m in upserts], "id") if upserts else self.db.version("memories")
            self._append_events([e for p in plans.values() for e in p.events], version, now)
            new_turns = [t for ex in extractions for t in ex.turns if t.turn_key not in seen]
            self._record_turns(new_turns, plans, now)
            self.db.ensure_index("memories", "user_id")
            self.db.ensure_index("turns", "turn_key")
            self.db.ensure_index("turns", "user_id")
            forget_ids = {i for p in plans.values() for i in p.forget_ids}
            if forget_ids:
                from .purge import purge_memories

                purge_memories(self, forget_ids, reason="forget request")
            report.store_version = self.db.version("memories")
        self._report(report, plans, seen, all_keys)
        return report

    def _seen_turns(self, keys: Sequence[str]) -> set[str]:
        if not keys:
            return set()
        seen: set[str] = set()
        unique = sorted(set(keys))
        for i in range(0, len(unique), 500):
            chunk = unique[i : i + 500]
            table = self.db.to_table("turns", columns=["turn_key"], filter=sql_in("turn_key", chunk))
            seen.update(table.column("turn_key").to_pylist())
        return seen

    def _plan(self, items: list[Any], vectors: np.ndarray, context: dict[str, Any], rules: Any) -> dict[str, Any]:
        from .reconcile import Pool, Reconciler

        by_user: dict[str, list[int]] = {}
        for n, item in enumerate(items):
            by_user.setdefault(item.user_id, []).append(n)
        # Reconciliation asks "the same fact?", not "relevant?": similarity is rescaled over the
        # whole range above the model's floor, so that only near-identical texts reach the top.
        from .reconcile import rescaler

        same_fact = rescaler(self.config.embedding.similarity_floor, 1.0)
        reconciler = Reconciler(self.config.reconcile, rules, same_fact, self.hash, now=self.clock())
        plans = {}
        for user_id, idx in by_user.items():
            pool = Pool(self._memories(f"user_id = {sql_str(user_id)} AND status = 'active'", with_vectors=True), int(self.meta["dim"]))
            plans[user_id] = reconciler.plan(pool, [items[n] for n in idx], {k: vectors[n] for k, n in enumerate(idx)},
                                             context)
        return plans

    def _record_turns(self, turns: list[Any], plans: dict[str, Any], now: datetime) -> None:
        """The ledger of new user turns; text only for turns that memories came from."""
        sources: set[str] = set()
        forgotten: dict[str, list[str]] = {}
        for p in plans.values():
            for m in p.upserts.values():
                sources.update(s.turn_key for s in m.sources)
            for key, clauses in p.forgotten_clauses.items():
                forgotten.setdefault(key, []).extend(clauses)
        kept_clauses: dict[str, list[str]] = {}
        for p in plans.values():
            for m in p.upserts.values():
                for s in m.sources:
                    kept_clauses.setdefault(s.turn_key, []).append(s.clause)
        rows = []
        for t in turns:
            content, context = (t.content, t.context) if t.turn_key in sources else (None, None)
            if content is not None and t.turn_key in forgotten:
                # Something of this turn was forgotten as it was said: keep only what remains.
                content, context = " … ".join(dict.fromkeys(kept_clauses[t.turn_key])), None
            rows.append({"turn_key": t.turn_key, "user_id": t.user_id, "session": t.session, "turn": t.turn,
                         "role": t.role, "time": t.time, "content": content, "ingested_at": now, "context": context})
        # One row per key even if a file repeats a turn.
        unique = {r["turn_key"]: r for r in rows}
        if unique:
            self.db.append("turns", list(unique.values()))

    def _report(self, report: IngestReport, plans: dict[str, Any], seen: set[str], keys: list[str]) -> None:
        report.turns_seen = sum(1 for k in keys if k in seen)
        report.turns_new = len(keys) - report.turns_seen
        counts: Counter[str] = Counter()
        for p in plans.values():
            for ch in p.changes:
                counts[ch.action] += 1
                report.changes.append(ch)
        report.added = counts["added"]
        report.reinforced = counts["reinforced"]
        report.superseded = counts["superseded"]
        report.forgotten = counts["forgotten"]

    # -- recall ----------------------------------------------------------------------

    def recall(
        self,
        query: str,
        user: str,
        *,
        top_k: int | None = None,
        types: Iterable[str] | None = None,
        as_of: datetime | None = None,
        include_history: bool = False,
        record: bool = True,
    ) -> RecallResult:
        """The memories of `user` that matter for `query`, best first.

        The user filter is applied inside the storage query, before any similarity is
        computed: no other user's memory can ever be a candidate.
        """
        from .lexical import BM25
        from .ranking import candidate_indices, score, select
        from .topics import load_topics, topics_of

        check_user_id(user)
        if not query or not query.strip():
            raise UsageError("the query is empty")
        cfg = self.config.recall
        k = top_k if top_k is not None else cfg.top_k_inject
        if k < 1:
            raise UsageError("--top-k must be at least 1")
        embedder = self.embedder  # starts loading the model while the store is read
        where = [f"user_id = {sql_str(user)}"]
        if as_of is not None:
            t = sql_time(as_of)
            where.append(f"(created_at IS NULL OR created_at <= {t})")
            where.append(f"(valid_from IS NULL OR valid_from <= {t})")
            where.append(f"(valid_to IS NULL OR valid_to > {t})")
        active_only = as_of is None and not include_history
        if types:
            where.append(sql_in("type", _check_types(types)))
        filter_ = " AND ".join(where)
        qvec = embedder.embed([query])[0]
        columns = FULL_MEMORY_COLUMNS
        table = self.db.to_table("memories", columns=columns, filter=filter_, limit=EXACT_RECALL_LIMIT + 1)
        if active_only:
            # Filtered here rather than in the scan: the user's index finds the rows, and a
            # second predicate in the scan costs more than dropping a few history rows.
            import pyarrow.compute as pc

            table = table.filter(pc.equal(table.column("status"), "active"))
        if table.num_rows > EXACT_RECALL_LIMIT:
            table = self._large_user_table(filter_ + (" AND status = 'active'" if active_only else ""), qvec, query,
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
        dense = self.rescale(cosine)
        # Words of the memory and of its context (the source turn and the message it answered).
        texts = [f"{c} {x}" if x else c for c, x in zip(table.column("content").to_pylist(), table.column("context_text").to_pylist())]
        lexical = np.array(BM25(texts).match(query), dtype=np.float32)
        qtopics = set(topics_of(query, load_topics(self.rules_dir)))
        topic = np.array([1.0 if qtopics & set(t or ()) else 0.0 for t in table.column("topics").to_pylist()], dtype=np.float32)
        importance = table.column("importance").to_numpy(zero_copy_only=False).astype(np.float32)
        idx = candidate_indices(dense, lexical, topic, importance, cfg.top_k_candidates)
        now = self.clock()
        candidates = [Memory.from_row(r) for r in table.take(idx).select(MEMORY_COLUMNS).to_pylist()]
        hits = [RecallHit(m, score(m, dense[i], lexical[i], topic[i], now, cfg)) for m, i in zip(candidates, idx)]
        result.hits = select(hits, k, cfg.max_per_type, cfg.min_relevance)
        if record and result.hits:
            self.spool.record(user, [h.memory.id for h in result.hits], now)
            if self.spool.size() > _SPOOL_FLUSH_BYTES:
                self._try_flush()
        return result

    def _large_user_table(self, filter_: str, qvec: np.ndarray, query: str, k: int) -> Any:
        """Candidates for a user with very many memories: k nearest plus k best by words."""
        from .lexical import BM25

        near = self.db.to_table(
            "memories", columns=["id"], filter=filter_, prefilter=True,
            nearest={"column": "vector", "q": qvec, "k": k, "metric": "cosine"},
        ).column("id").to_pylist()
        texts = self.db.to_table("memories", columns=["id", "content"], filter=filter_)
        scores = np.array(BM25(texts.column("content").to_pylist()).scores(query))
        ids = texts.column("id").to_pylist()
        best = [ids[i] for i in np.argsort(-scores)[:k] if scores[i] > 0]
        return self.db.to_table("memories", columns=FULL_MEMORY_COLUMNS,
                                filter=sql_in("id", set(near) | set(best)))

    def forget(
        self,
        *,
        ids: Sequence[str] | None = None,
        chain: str | None = None,
        user: str | None = None,
        types: Sequence[str] | None = None,
        query: str | None = None,
        dry_run: bool = False,
    ) -> Any:
        """Delete memories and every trace of their text (see purge.py); returns a ForgetReport."""
        from .purge import forget

        return forget(self, dry_run=dry_run, ids=list(ids or []), chain=chain, user=user,
                      types=_check_types(types) if types else None, query=query)

    def apply_forget(self, plan: Any) -> Any:
        """Forget what a `forget(..., dry_run=True)` selected, nothing more (see purge.apply)."""
        from .purge import apply

        return apply(self, plan)

    def compact(
        self, *, user: str | None = None, dry_run: bool = False, wait: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> Any:
        """Merge duplicates, supersede contradictions, expire and archive, tidy the files;
        returns a CompactReport. Safe while other processes ingest."""
        from .compaction import compact

        return compact(self, user=user, dry_run=dry_run, wait=wait, progress=progress)

    def reembed(self, model: str | None = None, progress: Callable[[int, int], None] | None = None) -> Any:
        """Rebuild every vector with `model` (or the model memctl.toml names), then use it."""
        from .reembed import reembed

        if model is not None:
            self.config.embedding.use_model(model)
            write_config(self.config, self.dir / CONFIG_FILENAME)
        return reembed(self, progress)

    def audit(self, user: str | None = None) -> Any:
        """Counts, store facts and health figures (see audit.py); returns an AuditReport."""
        from .audit import audit

        return audit(self, user)

    def trace(self, memory_id: str) -> Any:
        """One memory with its sources, versions, merges and recall history (a Trace)."""
        from .audit import retrying, trace

        return retrying(self, lambda: trace(self, memory_id))

    def history(self, ref: str) -> Any:
        """The versions of one memory (by memory or chain id), oldest first (a MemoryHistory)."""
        from .audit import retrying
        from .history import memory_history

        return retrying(self, lambda: memory_history(self, ref))

    def diff(self, start: Any, end: Any = None, user: str | None = None) -> Any:
        """What changed between two points (history.Point: a store version or a time)."""
        from .audit import retrying
        from .history import store_diff

        return retrying(self, lambda: store_diff(self, start, end, user))

    def _try_flush(self) -> None:
        from .errors import LockTimeoutError

        try:
            with self.lock.hold(timeout=0):
                self._flush_recalls()
        except LockTimeoutError:
            pass  # a writer is busy; it or the next one folds the spool in


def _check_types(types: Iterable[str]) -> list[str]:
    out = []
    for t in types:
        if t not in MEMORY_TYPES:
            raise UsageError(f"unknown memory type {t!r} (use {', '.join(MEMORY_TYPES)})")
        out.append(t)
    return out
