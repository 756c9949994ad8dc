"""audit: what the store holds, how healthy it is, and where one memory came from.

The health figures use the rules the other verbs act on, so that they agree: a pair of
near-duplicates is a pair `compact` would merge, an expired memory is one `compact`
would expire, a secret is what ingest would have masked. `--check` compares each figure
with its limit in memctl.toml ([audit]); a figure without a limit only informs.

Reads only: no lock, no write, not even the recall bookkeeping (pending recalls are
counted from the spool).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import numpy as np

from .db import disk_usage, file_count, sql_in, sql_str, vector_matrix
from .lexical import overlap
from .schema import Memory, iso

if TYPE_CHECKING:
    from .store import MemoryStore

T = TypeVar("T")

# Ids listed per health figure (the figure itself counts all of them).
EXAMPLES = 10
# Texts scanned for secrets per regex pass (one joined text: far fewer calls than rows).
_SCAN_CHUNK = 2_000


@dataclass
class Figure:
    name: str
    value: float
    limit: float | None
    meaning: str
    examples: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.limit is not None and self.value > self.limit

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "limit": self.limit, "failed": self.failed,
                "meaning": self.meaning, "examples": self.examples}


@dataclass
class AuditReport:
    user: str | None
    store: dict[str, Any]
    counts: dict[str, Any]
    health: list[Figure]
    seconds: float = 0.0

    @property
    def failures(self) -> list[Figure]:
        return [f for f in self.health if f.failed]

    def figure(self, name: str) -> Figure:
        return next(f for f in self.health if f.name == name)

    def to_dict(self) -> dict[str, Any]:
        return {"user": self.user, "store": self.store, "counts": self.counts,
                "health": {f.name: f.to_dict() for f in self.health},
                "failed": [f.name for f in self.failures], "seconds": round(self.seconds, 3)}


def audit(store: "MemoryStore", user: str | None = None) -> AuditReport:
    """Every figure is read from one version of each table. A compaction or forget running
    meanwhile may delete the files of that version (under the store lock); the audit then
    waits for that writer to finish and starts again on the new version."""
    from .conversations import check_user_id

    if user is not None:
        check_user_id(user)
    return retrying(store, lambda: _audit(store, user, {n: store.db.version(n) for n in ("memories", "turns", "events")}))


def retrying(store: "MemoryStore", read: Callable[[], T]) -> T:
    """Run a lock-free read; if a writer removed the table version it was reading, wait
    for that writer (it holds the store lock while it cleans up) and read again."""
    from .errors import MemctlError

    for attempt in range(_ATTEMPTS):
        try:
            return read()
        except (OSError, ValueError, MemctlError) as exc:
            if attempt == _ATTEMPTS - 1 or not _vanished(exc):
                raise
            with store.lock.hold():
                pass
    raise AssertionError("unreachable")


_ATTEMPTS = 5


def _vanished(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, FileNotFoundError) or "not found" in text or "no such file" in text


def _audit(store: "MemoryStore", user: str | None, pinned: dict[str, int]) -> AuditReport:
    import time

    import pyarrow.compute as pc

    start = time.perf_counter()
    where = f"user_id = {sql_str(user)}" if user is not None else None
    columns = ["id", "user_id", "type", "status", "content", "lang", "importance", "confidence", "source_type",
               "created_at", "updated_at", "valid_to", "last_recalled_at", "recall_count", "reinforced_count"]
    every = store.db.to_table("memories", pinned["memories"], columns=columns, filter=where)
    counts = _counts(every)
    active = every.filter(pc.equal(every.column("status"), "active"))
    cfg = store.config.audit
    now = store.clock()
    pending = store.spool.pending()

    ids = active.column("id").to_pylist()
    recalls = np.asarray(pc.fill_null(active.column("recall_count"), 0).to_numpy(zero_copy_only=False), dtype=np.int64)
    for k, i in enumerate(ids):
        if i in pending.counts:
            recalls[k] += pending.counts[i]
    health = [
        *_duplicates(store, where, pinned["memories"]),
        _stale(active, ids, pending.last, now, cfg.stale_days),
        _expired(store, active, ids, now),
        _low_confidence(active, ids, cfg),
        _noise(active, ids, recalls, cfg),
        _secrets(store, where, cfg.max_secrets, pinned),
        _model(store),
    ]
    report = AuditReport(user, _store_facts(store, pinned), counts, health)
    report.counts["recalls_pending"] = sum(len(r["ids"]) for r in pending.recalls  # type: ignore[arg-type]
                                           if user is None or r["u"] == user)
    report.seconds = time.perf_counter() - start
    return report


def _counts(table: Any) -> dict[str, Any]:
    def grouped(key: str) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        rows = table.group_by([key, "status"]).aggregate([("id", "count")]).to_pylist()
        for row in sorted(rows, key=lambda r: (r[key], r["status"])):
            out.setdefault(row[key], {})[row["status"]] = row["id_count"]
        return out

    by_user = grouped("user_id")
    by_status: Counter[str] = Counter()
    for row in by_user.values():
        by_status.update(row)
    return {"memories": table.num_rows, "users": len(by_user), "by_status": dict(sorted(by_status.items())),
            "by_type": grouped("type"), "by_user": by_user}


def _store_facts(store: "MemoryStore", pinned: dict[str, int]) -> dict[str, Any]:
    from . import __version__

    tables = {}
    for name in ("memories", "turns", "events"):
        ds = store.db.open(name, pinned[name])
        tables[name] = {"rows": ds.count_rows(), "version": int(ds.version), "versions_kept": len(ds.versions()),
                        "data_files": file_count(ds)}
    files, size = disk_usage(store.dir)
    return {
        "path": str(store.dir), "memctl_version": __version__, "schema_version": int(store.meta.get("schema_version", 0)),
        "model": store.meta.get("model"), "dim": int(store.meta.get("dim", 0)),
        "configured_model": store.config.embedding.model, "tables": tables, "files": files, "bytes": size,
    }


def _duplicates(store: "MemoryStore", where: str | None, version: int) -> list[Figure]:
    """Active pairs of one user and type that compact would merge, and opposite statements
    about one thing that compact would resolve (the newer superseding the older)."""
    from .compaction import Planner

    table = store.db.to_table("memories", version, columns=["id", "user_id", "type", "content", "lang", "vector"],
                              filter=("status = 'active'" + (f" AND {where}" if where else "")))
    cfg = store.config
    dup, contra = Figure("near_duplicate_pairs", 0, cfg.audit.max_duplicate_pairs,
                         "active pairs of one user and type that say the same thing (compact merges them)"), \
        Figure("contradicting_pairs", 0, cfg.audit.max_contradicting_pairs,
               "active opposite statements about one thing (compact keeps the newer)")
    if table.num_rows < 2:
        return [dup, contra]
    planner = Planner(store)
    vectors, _ = vector_matrix(table)
    ids = table.column("id").to_pylist()
    contents = table.column("content").to_pylist()
    langs = table.column("lang").to_pylist()
    groups: dict[tuple[str, str], list[int]] = {}
    for i, key in enumerate(zip(table.column("user_id").to_pylist(), table.column("type").to_pylist())):
        groups.setdefault(key, []).append(i)
    negative = np.array([planner.negative(c, lang) for c, lang in zip(contents, langs)])
    merge, lexical = cfg.compact.merge_similarity, cfg.compact.merge_lexical
    for rows in groups.values():
        if len(rows) < 2:
            continue
        idx = np.asarray(rows)
        m = vectors[idx]
        sims = planner.same(m @ m.T)
        same_sign = negative[idx][:, None] == negative[idx][None, :]
        upper = np.triu(np.ones_like(same_sign), k=1)
        # The same tests as Planner.same_fact / Planner.opposite; word overlap only where
        # the similarity leaves it open.
        for a, b in zip(*np.nonzero(upper & same_sign & (sims >= merge - 0.15))):
            i, j = rows[a], rows[b]
            if sims[a, b] >= merge or overlap(contents[i], contents[j]) >= lexical:
                dup.value += 1
                if len(dup.examples) < EXAMPLES:
                    dup.examples.append(f"{ids[i]}~{ids[j]}")
        for a, b in zip(*np.nonzero(upper & ~same_sign & (sims >= planner.contradiction))):
            i, j = rows[a], rows[b]
            if planner.opposite(float(sims[a, b]), contents[i], contents[j]):
                contra.value += 1
                if len(contra.examples) < EXAMPLES:
                    contra.examples.append(f"{ids[i]}~{ids[j]}")
    return [dup, contra]


def _micros(column: Any) -> np.ndarray:
    """A timestamp column as microseconds since the epoch; missing times as -1."""
    import pyarrow as pa
    import pyarrow.compute as pc

    values = pc.fill_null(column.cast(pa.timestamp("us", tz="UTC")).cast(pa.int64()), -1)
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype=np.int64)


def _us(when: datetime) -> int:
    return int(when.timestamp() * 1_000_000)


def _stale(active: Any, ids: list[str], pending_last: dict[str, datetime], now: datetime, days: int) -> Figure:
    last = np.maximum(_micros(active.column("last_recalled_at")), _micros(active.column("created_at")))
    for k, i in enumerate(ids):
        if i in pending_last:
            last[k] = max(last[k], _us(pending_last[i]))
    stale = np.flatnonzero((last >= 0) & (last < _us(now - timedelta(days=days))))
    return Figure("stale", int(len(stale)), None, f"active memories not recalled (nor created) in the last {days} days",
                  [ids[k] for k in stale[:EXAMPLES]])


def _expired(store: "MemoryStore", active: Any, ids: list[str], now: datetime) -> Figure:
    cfg = store.config.compact
    types = np.asarray(active.column("type").to_numpy(zero_copy_only=False))
    end = _micros(active.column("valid_to"))
    touched = np.maximum(_micros(active.column("updated_at")), _micros(active.column("created_at")))
    touched = np.where(touched >= 0, touched, _us(now))
    day = 86_400_000_000
    ttl = np.where(types == "goal", cfg.goal_ttl_days * day, cfg.task_ttl_days * day)
    end = np.where(end >= 0, end, touched + ttl)
    found = np.flatnonzero(np.isin(types, ["goal", "task"]) & (end <= _us(now)))
    return Figure("expired_active", int(len(found)), store.config.audit.max_expired_active,
                  "goals and tasks past their end date or TTL, still active (compact expires them)",
                  [ids[k] for k in found[:EXAMPLES]])


def _low_confidence(active: Any, ids: list[str], cfg: Any) -> Figure:
    found = [i for i, s, c in zip(ids, active.column("source_type").to_pylist(), active.column("confidence").to_pylist())
             if s == "inferred" and (c or 0) < cfg.low_confidence]
    return Figure("low_confidence_inferred", len(found), cfg.max_low_confidence_inferred,
                  f"inferred memories with confidence below {cfg.low_confidence}", found[:EXAMPLES])


def _noise(active: Any, ids: list[str], recalls: np.ndarray, cfg: Any) -> Figure:
    importance = np.asarray(active.column("importance").to_numpy(zero_copy_only=False), dtype=np.float32)
    noisy = (recalls == 0) & (np.nan_to_num(importance) < cfg.noise_max_importance)
    ratio = round(float(noisy.mean()), 4) if len(ids) else 0.0
    return Figure("noise_ratio", ratio, cfg.max_noise_ratio,
                  f"share of active memories never recalled and of importance below {cfg.noise_max_importance}",
                  [ids[i] for i in np.flatnonzero(noisy)[:EXAMPLES]])


def _secrets(store: "MemoryStore", where: str | None, limit: float, pinned: dict[str, int]) -> Figure:
    """Every text the store keeps (all memory versions, their source clauses, source turns
    and their context) through the same patterns ingest masks with."""
    import bisect

    import pyarrow.compute as pc

    from .extract import load_rules
    from .extract.secrets import find_secrets

    rules = load_rules(store.rules_dir)
    mem = store.db.to_table("memories", pinned["memories"], columns=["id", "content", "sources", "context_text"], filter=where)
    mem_ids = mem.column("id").to_pylist()
    sources = mem.column("sources").combine_chunks()
    turns = store.db.to_table("turns", pinned["turns"], columns=["turn_key", "content", "context"],
                              filter=" AND ".join(filter(None, [where, "content IS NOT NULL"])))
    turn_ids = [f"turn:{k}" for k in turns.column("turn_key").to_pylist()]
    # (texts, the owner of each text): every place the store keeps text.
    parts = [
        (mem.column("content").to_pylist(), mem_ids),
        (pc.list_flatten(sources).field("clause").to_pylist(), [mem_ids[k] for k in pc.list_parent_indices(sources).to_pylist()]),
        (mem.column("context_text").to_pylist(), mem_ids),
        (turns.column("content").to_pylist(), turn_ids),
        (turns.column("context").to_pylist(), turn_ids),
    ]
    hits: list[str] = []
    for texts, owners in parts:
        for start in range(0, len(texts), _SCAN_CHUNK):
            chunk = texts[start:start + _SCAN_CHUNK]
            offsets, pos = [], 0
            for text in chunk:
                offsets.append(pos)
                pos += len(text or "") + 2
            # One pass over the joined chunk finds candidates; every text a match touches is
            # checked again on its own, so a match across two texts is never counted and a
            # text whose own match was swallowed by such a match is still found.
            found = find_secrets("\n\n".join(t or "" for t in chunk), rules)
            touched = {k for f in found for k in range(bisect.bisect_right(offsets, f.start) - 1,
                                                       bisect.bisect_right(offsets, max(f.start, f.end - 1)))}
            for k in sorted(touched):
                if chunk[k] and find_secrets(chunk[k], rules):
                    hits.append(owners[start + k])
    unique = list(dict.fromkeys(hits))
    return Figure("secrets", len(hits), limit, "texts kept in the store that look like a secret (should be 0)",
                  unique[:EXAMPLES])


def _model(store: "MemoryStore") -> Figure:
    mismatch = store.meta.get("model") != store.config.embedding.model
    return Figure("model_mismatch", int(mismatch), 0,
                  f"memctl.toml names {store.config.embedding.model}, the vectors are from {store.meta.get('model')}"
                  if mismatch else "the configured model made the stored vectors")


# -- one memory --------------------------------------------------------------------------


@dataclass
class Trace:
    """Everything known about one memory: where it came from and what happened to it."""

    memory: Memory
    chain: list[Memory]
    merged_from: list[Memory]
    merged_into: Memory | None
    recalls: list[str]
    recalls_pending: int
    events: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "memory": self.memory.public(),
            "sources": [s.public() for s in self.memory.sources],
            "chain": [{"id": m.id, "version": m.version, "status": m.status, "cause": m.cause, "content": m.content,
                       "valid_from": iso(m.valid_from), "valid_to": iso(m.valid_to)} for m in self.chain],
            "merged_from": [{"id": m.id, "content": m.content, "status": m.status} for m in self.merged_from],
            "merged_into": None if self.merged_into is None else {"id": self.merged_into.id, "content": self.merged_into.content},
            "recall_count": self.memory.recall_count + self.recalls_pending,
            "last_recalled_at": iso(self.memory.last_recalled_at),
            "recalled_at": self.recalls,
            "events": self.events,
        }


def trace(store: "MemoryStore", memory_id: str) -> Trace:
    m = store.get(memory_id)
    chain = store.chain(m.chain_id)
    found = {x.id: x for x in store._memories(sql_in("id", m.merged_from))} if m.merged_from else {}
    # A forgotten member is shown by its id only.
    members = [found.get(i) or Memory(i, "", 0, "forgotten", m.user_id, m.type, "") for i in m.merged_from]
    into = None
    if m.merged_into:
        found = store._memories(f"id = {sql_str(m.merged_into)}")
        into = found[0] if found else None
    pending = store.spool.pending()
    recalled = store.db.to_table("events", columns=["time", "related", "detail"],
                                 filter=f"kind = 'recalled' AND user_id = {sql_str(m.user_id)}")
    # A merged memory was recalled whenever one of the memories it merged was.
    lineage = _merged_ancestors(store, m)
    times = []
    for when, related, detail in zip(recalled.column("time").to_pylist(), recalled.column("related").to_pylist(),
                                     recalled.column("detail").to_pylist()):
        if lineage & set(related or ()):
            times.append(_iso_text(json.loads(detail or "{}").get("at")) or iso(when))
    times += [_iso_text(str(r["t"])) for r in pending.recalls if lineage & set(r["ids"])]  # type: ignore[arg-type]
    return Trace(m, chain, members, into, sorted(t for t in times if t), sum(pending.counts.get(i, 0) for i in lineage),
                 chain_events(store, m.chain_id, [x.id for x in chain] + [x.id for x in members]))


def _merged_ancestors(store: "MemoryStore", m: Memory) -> set[str]:
    """The memory's id and those of every memory merged into it, at any depth."""
    out, frontier = {m.id}, list(m.merged_from)
    while frontier:
        frontier = [i for i in frontier if i not in out]
        out.update(frontier)
        found = store._memories(sql_in("id", frontier)) if frontier else []
        frontier = [i for x in found for i in x.merged_from]
    return out


def _iso_text(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return iso(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        return value


def chain_events(store: "MemoryStore", chain_id: str, ids: list[str]) -> list[dict[str, Any]]:
    """The event log entries of a chain and its memories, oldest first (no recalls)."""
    table = store.db.to_table(
        "events", columns=["time", "kind", "memory_id", "related", "store_version", "detail"],
        filter=f"kind <> 'recalled' AND (chain_id = {sql_str(chain_id)}"
        + (f" OR {sql_in('memory_id', ids)} OR array_has_any(related, [{', '.join(map(sql_str, ids))}]))" if ids else ")"),
    )
    out = []
    for row in table.to_pylist():
        out.append({"time": iso(row["time"]), "kind": row["kind"], "memory_id": row["memory_id"],
                    "related": list(row["related"] or []), "store_version": row["store_version"],
                    "detail": json.loads(row["detail"] or "{}")})
    return sorted(out, key=lambda e: (e["time"] or "", e["store_version"] or 0))


__all__ = ["AuditReport", "Figure", "Trace", "audit", "chain_events", "retrying", "trace"]
