"""ingest: conversations in, memories out.

  read (conversations.py) -> clean -> extract (extract/) -> embed
  -> plan per user against their active memories (reconcile.py)
  -> write, under the store lock: memories, events, the turns ledger; forget requests purge

Turns already in the ledger are skipped (re-ingesting adds nothing), and the check is
made again under the lock, since another process may have ingested them meanwhile.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from typing import Any, Sequence

import numpy as np

from .conversations import Conversation, clean, read_sources
from .core import Core
from .db import sql_in, sql_str
from .extract import Candidate, Extraction, Item, Negation, TurnRecord, extract, load_rules
from .extract.rules import Rules
from .judgement import Judge
from .reconcile import Plan, Pool, Reconciler
from .results import IngestReport
from .schema import context_input, context_text

# Turn keys per ledger lookup.
_KEY_CHUNK = 500


def ingest(
    core: Core,
    paths: Sequence[str] = (),
    *,
    user: str | None = None,
    session: str | None = None,
    fmt: str | None = None,
    dry_run: bool = False,
    stdin_text: str | None = None,
    conversations: Sequence[Conversation] | None = None,
) -> IngestReport:
    """Read conversations, extract memories and reconcile them with what is stored."""
    convs = list(conversations) if conversations is not None else read_sources(
        paths, fmt=fmt, user=user, session=session, stdin_text=stdin_text
    )
    convs.sort(key=lambda c: (c.user, c.time or datetime.min.replace(tzinfo=timezone.utc)))
    rules = load_rules(core.rules_dir)
    xc = core.config.extract
    report = IngestReport(dry_run=dry_run, conversations=len(convs))
    report.files = len({c.origin for c in convs})
    extractions: list[Extraction] = [
        extract(conv, clean(conv), rules=rules, keep_tasks=xc.keep_tasks, task_ttl_days=xc.task_ttl_days,
                infer=xc.infer, min_importance=xc.min_importance)
        for conv in convs
    ]
    all_keys = [t.turn_key for ex in extractions for t in ex.turns]
    report.turns = len(all_keys)
    seen = _seen_turns(core, all_keys)
    items = [i for ex in extractions for i in ex.items if i.turn_key not in seen]
    vectors = core.embed([_embedded_text(i) for i in items])
    context = _contexts(core, extractions, items)
    for ex in extractions:
        for d in ex.dropped:
            report.dropped[d.reason] = report.dropped.get(d.reason, 0) + 1
        report.secrets_blocked += ex.secrets_blocked
    report.users = sorted({c.user for c in convs})
    if dry_run:
        _report(report, _plan(core, items, vectors, context, rules), seen, all_keys)
        return report
    with core.lock.hold():
        core.flush_recalls()
        seen = _seen_turns(core, all_keys)  # again: another process may have ingested meanwhile
        keep = [n for n, i in enumerate(items) if i.turn_key not in seen]
        items = [items[n] for n in keep]
        vectors = vectors[keep] if len(keep) else vectors[:0]
        plans = _plan(core, items, vectors, context, rules)
        now = core.clock()
        upserts = [m for p in plans.values() for m in p.upserts.values()]
        version = core.db.upsert("memories", [m.to_row() for m in upserts], "id") if upserts else core.db.version("memories")
        core.append_events([e for p in plans.values() for e in p.events], version, now)
        new_turns = [t for ex in extractions for t in ex.turns if t.turn_key not in seen]
        _record_turns(core, new_turns, plans, now)
        core.db.ensure_index("memories", "user_id")
        core.db.ensure_index("turns", "turn_key")
        core.db.ensure_index("turns", "user_id")
        forget_ids = {i for p in plans.values() for i in p.forget_ids}
        if forget_ids:
            from .forget import purge

            purge(core, forget_ids, reason="forget request")
        report.store_version = core.db.version("memories")
    _report(report, plans, seen, all_keys)
    return report


def _embedded_text(item: Item) -> str:
    """What an item is matched by: a candidate's content, a negation's question, a forget's target."""
    if isinstance(item, Candidate):
        return item.content
    if isinstance(item, Negation):
        return item.context
    return item.target or item.clause


def _contexts(core: Core, extractions: list[Extraction], items: list[Item]) -> dict[str, tuple[str, np.ndarray]]:
    """Each source turn's own text and embedding (with the message it answered): the
    context of the memories that come from it."""
    turns: dict[str, TurnRecord] = {t.turn_key: t for ex in extractions for t in ex.turns}
    needed = sorted({i.turn_key for i in items if isinstance(i, Candidate)})
    vectors = core.embed([context_input(turns[k].content, turns[k].context) for k in needed])
    return {k: (context_text(turns[k].content, turns[k].context), v) for k, v in zip(needed, vectors)}


def _seen_turns(core: Core, keys: Sequence[str]) -> set[str]:
    if not keys:
        return set()
    seen: set[str] = set()
    unique = sorted(set(keys))
    for i in range(0, len(unique), _KEY_CHUNK):
        table = core.db.to_table("turns", columns=["turn_key"], filter=sql_in("turn_key", unique[i:i + _KEY_CHUNK]))
        seen.update(table.column("turn_key").to_pylist())
    return seen


def _plan(core: Core, items: list[Item], vectors: np.ndarray, context: dict[str, tuple[str, np.ndarray]],
          rules: Rules) -> dict[str, Plan]:
    by_user: dict[str, list[int]] = {}
    for n, item in enumerate(items):
        by_user.setdefault(item.user_id, []).append(n)
    reconciler = Reconciler(Judge(core.config, rules), core.hash, core.config.reconcile.forget_similarity, now=core.clock())
    plans = {}
    for user_id, idx in by_user.items():
        pool = Pool(core.active(user_id), core.dim)
        plans[user_id] = reconciler.plan(pool, [items[n] for n in idx], {k: vectors[n] for k, n in enumerate(idx)}, context)
    return plans


def _record_turns(core: Core, turns: list[TurnRecord], plans: dict[str, Plan], now: datetime) -> None:
    """The ledger of new user turns; text only for turns that memories came from."""
    sources: set[str] = set()
    forgotten: dict[str, list[str]] = {}
    kept_clauses: dict[str, list[str]] = {}
    for p in plans.values():
        for m in p.upserts.values():
            for s in m.sources:
                sources.add(s.turn_key)
                kept_clauses.setdefault(s.turn_key, []).append(s.clause)
        for key, clauses in p.forgotten_clauses.items():
            forgotten.setdefault(key, []).extend(clauses)
    rows: list[dict[str, Any]] = []
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
        core.db.append("turns", list(unique.values()))


def _report(report: IngestReport, plans: dict[str, Plan], seen: set[str], keys: list[str]) -> None:
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
