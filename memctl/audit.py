"""audit: what the store holds and how healthy it is.

The health figures use the rules the other verbs act on, so that they agree: a pair of
near-duplicates is a pair `compact` would merge, an expired memory is one `compact`
would expire, a secret is what ingest would have masked. `--check` compares each figure
with its limit in memctl.toml ([audit]); a figure without a limit only informs.

Reads only: no lock, no write, not even the recall bookkeeping (pending recalls are
counted from the spool).
"""

from __future__ import annotations

import bisect
import time
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import __version__
from .conversations import check_user_id
from .core import Core
from .db import disk_usage, file_count, sql_str, vector_matrix
from .errors import StoreDamagedError
from .extract import load_rules
from .extract.secrets import find_secrets
from .judgement import LEXICAL_REACH, Judge, similar_pairs
from .results import AuditReport, Figure

# Ids listed per health figure (the figure itself counts all of them).
EXAMPLES = 10
# Texts scanned for secrets per regex pass (one joined text: far fewer calls than rows).
_SCAN_CHUNK = 2_000


def audit(core: Core, user: str | None = None) -> AuditReport:
    """Every figure is read from one version of each table. A compaction or forget running
    meanwhile may delete the files of that version (under the store lock); the audit then
    waits for that writer to finish and starts again on the new version."""
    if user is not None:
        check_user_id(user)
    return core.retrying(lambda: _audit(core, user, {n: core.db.version(n) for n in _TABLES}))


# The tables audit reads, each at one version.
_TABLES = ("memories", "episodes", "users", "events")


def _audit(core: Core, user: str | None, pinned: dict[str, int]) -> AuditReport:
    start = time.perf_counter()
    damaged = _files(core)
    if damaged.value:
        # Nothing else can be read reliably: say which files, in one line.
        raise StoreDamagedError(f"{core.dir}: {int(damaged.value)} data file(s) not on disk whole, e.g. "
                                f"{damaged.examples[0]}; restore the store from a backup or re-import an export")
    where = f"user_id = {sql_str(user)}" if user is not None else None
    columns = ["id", "user_id", "type", "status", "content", "lang", "importance", "confidence", "source_type",
               "created_at", "updated_at", "valid_to", "last_recalled_at", "recall_count", "reinforced_count"]
    every = core.db.to_table("memories", pinned["memories"], columns=columns, filter=where)
    counts = _counts(every)
    active = every.filter(pc.equal(every.column("status"), "active"))
    cfg = core.config.audit
    now = core.clock()
    pending = core.spool.pending()

    ids = active.column("id").to_pylist()
    recalls = np.asarray(pc.fill_null(active.column("recall_count"), 0).to_numpy(zero_copy_only=False), dtype=np.int64)
    for k, i in enumerate(ids):
        if i in pending.counts:
            recalls[k] += pending.counts[i]
    health = [
        *_duplicates(core, where, pinned["memories"]),
        _stale(active, ids, pending.last, now, cfg.stale_days),
        _expired(core, active, ids, now),
        _low_confidence(active, ids, cfg),
        _noise(active, ids, recalls, cfg),
        _secrets(core, where, cfg.max_secrets, pinned),
        _model(core),
        damaged,
    ]
    counts["episodes"] = _episode_counts(core, where, pinned["episodes"])
    report = AuditReport(user, _store_facts(core, pinned), counts, health)
    report.counts["recalls_pending"] = sum(len(r.ids) for r in pending.recalls if user is None or r.user == user)
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


def _episode_counts(core: Core, where: str | None, version: int) -> dict[str, Any]:
    """Episodes: every turn in the ledger, those with text (the evidence recall searches),
    those left out as outdated, those whose text was forgotten or expired."""
    table = core.db.to_table("episodes", version, columns=["user_id", "outdated"], filter=where)
    with_text = core.db.to_table("episodes", version, columns=["user_id", "outdated"],
                                 filter=" AND ".join(filter(None, [where, "content IS NOT NULL"])))
    outdated = int(pc.sum(pc.fill_null(with_text.column("outdated"), False).cast(pa.int64())).as_py() or 0)
    by_user = {r["user_id"]: r["user_id_count"] for r in with_text.group_by("user_id").aggregate([("user_id", "count")]).to_pylist()}
    return {"turns": table.num_rows, "with_text": with_text.num_rows, "outdated": outdated,
            "without_text": table.num_rows - with_text.num_rows, "by_user": dict(sorted(by_user.items()))}


def _store_facts(core: Core, pinned: dict[str, int]) -> dict[str, Any]:
    tables = {}
    for name in _TABLES:
        ds = core.db.open(name, pinned[name])
        tables[name] = {"rows": ds.count_rows(), "version": int(ds.version), "versions_kept": len(ds.versions()),
                        "data_files": file_count(ds),
                        "bytes": disk_usage(core.db.table_uri(name))[1] if core.db.is_local else None}
    files, size = disk_usage(core.dir)
    return {
        "path": str(core.dir), "memctl_version": __version__, "schema_version": int(core.meta.get("schema_version", 0)),
        "model": core.meta.get("model"), "dim": int(core.meta.get("dim", 0)),
        "configured_model": core.config.embedding.model, "tables": tables, "files": files, "bytes": size,
    }


def _duplicates(core: Core, where: str | None, version: int) -> list[Figure]:
    """Active pairs of one user and type that compact would merge, and opposite statements
    about one thing that compact would resolve (the newer superseding the older)."""
    table = core.db.to_table("memories", version, columns=["id", "user_id", "type", "content", "lang", "vector"],
                              filter=("status = 'active'" + (f" AND {where}" if where else "")))
    cfg = core.config
    dup, contra = Figure("near_duplicate_pairs", 0, cfg.audit.max_duplicate_pairs,
                         "active pairs of one user and type that say the same thing (compact merges them)"), \
        Figure("contradicting_pairs", 0, cfg.audit.max_contradicting_pairs,
               "active opposite statements about one thing (compact keeps the newer)")
    if table.num_rows < 2:
        return [dup, contra]
    judge = Judge(cfg, load_rules(core.rules_dir))
    vectors, _ = vector_matrix(table)
    ids = table.column("id").to_pylist()
    contents = table.column("content").to_pylist()
    langs = table.column("lang").to_pylist()
    groups: dict[tuple[str, str], list[int]] = {}
    for i, key in enumerate(zip(table.column("user_id").to_pylist(), table.column("type").to_pylist())):
        groups.setdefault(key, []).append(i)
    negative = [judge.negative(c, lang) for c, lang in zip(contents, langs)]
    lowest = min(judge.contradiction, judge.merge - LEXICAL_REACH)
    for rows in groups.values():
        if len(rows) < 2:
            continue
        rows = sorted(rows, key=lambda i: ids[i])  # as compaction orders a group
        first, second, sims = similar_pairs(vectors[rows], [contents[i] for i in rows], judge.same, lowest)
        # The judge's own tests, on the pairs compaction would ask them of.
        for a, b, sim in zip(first.tolist(), second.tolist(), sims.tolist()):
            i, j = rows[a], rows[b]
            if negative[i] == negative[j]:
                if judge.same_fact(sim, contents[i], contents[j]):
                    dup.value += 1
                    if len(dup.examples) < EXAMPLES:
                        dup.examples.append(f"{ids[i]}~{ids[j]}")
            elif judge.opposite(sim, contents[i], contents[j]):
                contra.value += 1
                if len(contra.examples) < EXAMPLES:
                    contra.examples.append(f"{ids[i]}~{ids[j]}")
    return [dup, contra]


def _micros(column: Any) -> np.ndarray:
    """A timestamp column as microseconds since the epoch; missing times as -1."""
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


def _expired(core: Core, active: Any, ids: list[str], now: datetime) -> Figure:
    cfg = core.config.compact
    types = np.asarray(active.column("type").to_numpy(zero_copy_only=False))
    end = _micros(active.column("valid_to"))
    touched = np.maximum(_micros(active.column("updated_at")), _micros(active.column("created_at")))
    touched = np.where(touched >= 0, touched, _us(now))
    day = 86_400_000_000
    ttl = np.where(types == "goal", cfg.goal_ttl_days * day, cfg.task_ttl_days * day)
    end = np.where(end >= 0, end, touched + ttl)
    found = np.flatnonzero(np.isin(types, ["goal", "task"]) & (end <= _us(now)))
    return Figure("expired_active", int(len(found)), core.config.audit.max_expired_active,
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


def _secrets(core: Core, where: str | None, limit: float, pinned: dict[str, int]) -> Figure:
    """Every text the store keeps (all memory versions, their source clauses and context,
    every episode and the message it answered) through the patterns ingest masks with."""
    rules = load_rules(core.rules_dir)
    mem = core.db.to_table("memories", pinned["memories"], columns=["id", "content", "sources", "context_text"], filter=where)
    mem_ids = mem.column("id").to_pylist()
    sources = mem.column("sources").combine_chunks()
    turns = core.db.to_table("episodes", pinned["episodes"], columns=["turn_key", "content", "context", "reply"],
                              filter=" AND ".join(filter(None, [where, "content IS NOT NULL"])))
    turn_ids = [f"episode:{k}" for k in turns.column("turn_key").to_pylist()]
    # (texts, the owner of each text): every place the store keeps text.
    parts = [
        (mem.column("content").to_pylist(), mem_ids),
        (pc.list_flatten(sources).field("clause").to_pylist(), [mem_ids[k] for k in pc.list_parent_indices(sources).to_pylist()]),
        (mem.column("context_text").to_pylist(), mem_ids),
        (turns.column("content").to_pylist(), turn_ids),
        (turns.column("context").to_pylist(), turn_ids),
        (turns.column("reply").to_pylist(), turn_ids),
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


def _files(core: Core) -> Figure:
    """Data files of the tables' current versions that are not on disk whole (a write on a
    full disk that the storage did not notice; memctl's own writes check and go back)."""
    short = [f"{name}: {path}" for name in _TABLES for path in core.db.short_files(name)]
    return Figure("damaged_files", len(short), 0, "data files not on disk whole (should be 0)", short[:EXAMPLES])


def _model(core: Core) -> Figure:
    mismatch = core.meta.get("model") != core.config.embedding.model
    return Figure("model_mismatch", int(mismatch), 0,
                  f"memctl.toml names {core.config.embedding.model}, the vectors are from {core.meta.get('model')}"
                  if mismatch else "the configured model made the stored vectors")
