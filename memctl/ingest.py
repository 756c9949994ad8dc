"""ingest: conversations in; episodes and memories out.

  read (conversations.py) -> clean -> extract (extract/) -> embed
  -> plan per user against their active memories (reconcile.py)
  -> write, under the store lock: memories, episodes (every user turn as it was said,
     secrets masked, with a vector), events, per-user counts; forget requests purge

Turns already in the ledger (the episodes table) are skipped, so re-ingesting adds
nothing; the check is made again under the lock, since another process may have
ingested them meanwhile.
"""

from __future__ import annotations

import sys
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from .conversations import Conversation, Turn, clean, read_sources
from .core import Core
from .extract import Candidate, Extraction, ForgetRequest, Item, Negation, TurnRecord, load_rules
from .extract.rules import Rules
from .extract.worker import Extractor
from .forget import finish_pending
from .judgement import Judge
from .lexical import remove_clauses
from .reconcile import Plan, Pool, Reconciler
from .results import IngestReport
from .schema import Event, context_input, context_text


# Turns extracted before their batch is embedded in the background.
_EMBED_BATCH_TURNS = 256


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
    progress: Callable[[int, int], None] | None = None,
) -> IngestReport:
    """Read conversations, keep their user turns as episodes, extract memories and
    reconcile them with what is stored. `progress(done, total)` is told after each
    conversation is extracted."""
    convs = list(conversations) if conversations is not None else read_sources(
        paths, fmt=fmt, user=user, session=session, stdin_text=stdin_text
    )
    convs.sort(key=lambda c: (c.user, c.time or datetime.min.replace(tzinfo=timezone.utc)))
    report = IngestReport(dry_run=dry_run, conversations=len(convs))
    report.files = len({c.origin for c in convs})
    report.users = sorted({c.user for c in convs})
    rules = load_rules(core.rules_dir)
    done, total = 0, len(convs)
    xc, worker_turns = core.config.extract, core.config.ingest.worker_turns
    user_turns = sum(1 for c in convs for t in c.turns if t.role == "user")
    extractor = Extractor(rules, core.rules_dir, {"keep_tasks": xc.keep_tasks, "task_ttl_days": xc.task_ttl_days,
                                                  "infer": xc.infer, "min_importance": xc.min_importance},
                          use_process=0 < worker_turns <= user_turns, warnings=report.warnings)

    def told(n: int) -> None:
        if progress is not None:
            progress(done + n, total)

    # A big log goes in as units of whole conversations, each extracted, planned and
    # written on its own, so that memory stays bounded by the unit, not the log; a unit
    # sees what the ones before it wrote, and is let go once written. A dry run plans
    # everything against the store as it is, so it is one unit.
    units = [convs] if dry_run else list(_units(convs, core.config.ingest.unit_turns))
    del convs
    units.reverse()
    with extractor:
        while units:
            unit = units.pop()
            _ingest_unit(core, unit, report, rules, extractor, dry_run, told)
            done += len(unit)
    return report


@contextmanager
def _quick_handover() -> Iterator[None]:
    """While extraction (pure Python) and embedding (NumPy calls, each needing the
    interpreter back between products) overlap, the interpreter hands over every 0.5 ms
    instead of 5 ms: the embedding threads wait less for it. Measured on LoCoMo (2 cores):
    17.4 s -> 16.5 s. The previous interval is restored afterwards."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, 0.0005))
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _units(convs: list[Conversation], turns: int) -> Iterator[list[Conversation]]:
    """Consecutive runs of conversations with about `turns` user turns each (a
    conversation is never split)."""
    unit: list[Conversation] = []
    count = 0
    for conv in convs:
        unit.append(conv)
        count += sum(1 for t in conv.turns if t.role == "user")
        if count >= turns:
            yield unit
            unit, count = [], 0
    if unit or not convs:
        yield unit


def _ingest_unit(core: Core, convs: list[Conversation], report: IngestReport, rules: Rules, extractor: Extractor,
                 dry_run: bool, progress: Callable[[int], None]) -> None:
    """Extract, embed, plan and write one unit of conversations, adding to `report`."""
    episodes_on = core.config.episodes.enabled
    limit = core.config.ingest.max_message_chars
    # Extraction (Python) and embedding (mostly NumPy, which releases the interpreter)
    # overlap: each batch of conversations is embedded in the background while the next
    # is extracted. One embedding per new turn (the episode's vector and the context of the
    # memories that come from it; with episodes off, only turns memories may come from),
    # and one per new item.
    extractions: list[Extraction] = []
    items: list[Item] = []
    seen: set[str] = set()
    batches: list[tuple[list[str], Future[np.ndarray], Future[np.ndarray]]] = []
    with _quick_handover(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="memctl-embed") as embedding:
        batch: list[Extraction] = []

        def flush() -> None:
            keys = [t.turn_key for ex in batch for t in ex.turns]
            already = _seen_turns(core, keys)
            seen.update(already)
            new_items = [i for ex in batch for i in ex.items if i.turn_key not in already]
            said = {t.turn_key: t for ex in batch for t in ex.turns}
            needed = [k for k in dict.fromkeys(keys) if k not in already] if episodes_on else \
                sorted({i.turn_key for i in new_items if isinstance(i, Candidate)})
            items.extend(new_items)
            batches.append((needed, embedding.submit(core.embed, [_embedded_text(i) for i in new_items]),
                            embedding.submit(core.embed, [context_input(said[k].content, said[k].context) for k in needed])))
            batch.clear()

        pairs = [(conv, _limited(conv, clean(conv), limit, report.warnings)) for conv in convs]
        for n, ex in enumerate(extractor.run(pairs), 1):
            extractions.append(ex)
            batch.append(ex)
            if sum(len(b.turns) for b in batch) >= _EMBED_BATCH_TURNS:
                flush()
            progress(n)
        if batch:
            flush()
        parts = [item_vectors.result() for _, item_vectors, _ in batches]
        turn_vectors = {k: v for needed, _, vecs in batches for k, v in zip(needed, vecs.result())}
    vectors = np.vstack(parts) if parts else core.embed([])
    turns: dict[str, TurnRecord] = {t.turn_key: t for ex in extractions for t in ex.turns}
    all_keys = [t.turn_key for ex in extractions for t in ex.turns]
    report.turns += len(all_keys)
    context = {k: (context_text(turns[k].content, turns[k].context), turn_vectors[k])
               for k in {i.turn_key for i in items if isinstance(i, Candidate)}}
    for ex in extractions:
        for d in ex.dropped:
            report.dropped[d.reason] = report.dropped.get(d.reason, 0) + 1
        report.secrets_blocked += ex.secrets_blocked
    if dry_run:
        plans, _pools = _plan(core, items, vectors, context, rules)
        _report(report, plans, seen, all_keys)
        report.episodes += sum(1 for k in dict.fromkeys(all_keys) if k not in seen) if episodes_on else 0
        return
    with core.lock.hold():
        core.flush_recalls()
        finish_pending(core)  # a forget cut short is completed before anything is added
        seen = _seen_turns(core, all_keys)  # again: another process may have ingested meanwhile
        keep = [n for n, i in enumerate(items) if i.turn_key not in seen]
        items = [items[n] for n in keep]
        vectors = vectors[keep] if len(keep) else vectors[:0]
        plans, pools = _plan(core, items, vectors, context, rules)
        now = core.clock()
        upserts = [m for p in plans.values() for m in p.upserts.values()]
        new_turns = list({t.turn_key: t for ex in extractions for t in ex.turns if t.turn_key not in seen}.values())
        rows = _episode_rows(core, new_turns, items, plans, turn_vectors, episodes_on, now)
        outdated, live = _outdated_turns(plans, pools)
        for row in rows:
            row["outdated"] = row["turn_key"] in outdated
        events = [e for p in plans.values() for e in p.events] + _unlogged(core, plans)
        kept = Counter(r["user_id"] for r in rows if r["content"] is not None and episodes_on)
        events += [Event("episodes", u, count=n) for u, n in sorted(kept.items())]
        # Memories, then their events, then the turns: cut short anywhere, a re-run of the
        # same ingest finds the turns unrecorded, recognises the memories it already wrote
        # (Plan.replayed) and completes what is missing, never applying a statement twice.
        version = core.db.upsert("memories", [m.to_row() for m in upserts], "id") if upserts else core.db.version("memories")
        core.append_events(events, version, now)
        if rows:
            core.db.append("episodes", rows)
        written = {r["turn_key"] for r in rows}
        # Older turns whose memories this ingest superseded.
        core.refresh_outdated(outdated - written, [m for pool in pools.values() for m in pool.memories])
        for table, column in (("memories", "user_id"), ("episodes", "turn_key"), ("episodes", "user_id"),
                              ("users", "user_id")):
            core.db.ensure_index(table, column)
        new_rows = Counter({u: sum(1 for mid in p.upserts if mid in p.created) for u, p in plans.items()})
        core.count_in_users(new_rows, Counter(r["user_id"] for r in rows if r["content"] is not None))
        report.episodes += sum(kept.values())
        forget_ids = {i for p in plans.values() for i in p.forget_ids}
        if forget_ids:
            from .forget import purge

            purge(core, forget_ids, reason="forget request")
        report.store_version = core.db.version("memories")
    _report(report, plans, seen, all_keys)


# How far back from ingest.max_message_chars a message may be cut, to end at a space or a
# Chinese punctuation mark rather than inside a word (or a secret, which cut short might
# no longer look like one).
_CUT_BACK = 1000
_CUT_AT = frozenset("。！？；，、")


def _limited(conv: Conversation, turns: list[Turn], limit: int, warnings: list[str]) -> list[Turn]:
    """The turns with every user message longer than `limit` characters cut to it, each cut noted in `warnings`."""
    if limit <= 0 or not any(t.role == "user" and len(t.content) > limit for t in turns):
        return turns
    out = []
    for t in turns:
        if t.role == "user" and len(t.content) > limit:
            cut = _cut(t.content, limit)
            where = f"{conv.origin}: " if conv.origin else ""
            warnings.append(f"{where}user {conv.user}, session {conv.session}, turn {t.id}: message of "
                            f"{len(t.content):,} characters cut to {len(cut):,} (ingest.max_message_chars = {limit:,})")
            t = Turn(t.id, t.role, cut, t.time)
        out.append(t)
    return out


def _cut(text: str, limit: int) -> str:
    """The first `limit` characters of `text`, ending at a space or punctuation mark when
    one is near (within _CUT_BACK characters)."""
    at = limit
    if not (text[limit].isspace() or text[limit] in _CUT_AT):
        for i in range(limit - 1, max(0, limit - _CUT_BACK) - 1, -1):
            if text[i].isspace() or text[i] in _CUT_AT:
                at = i + 1 if text[i] in _CUT_AT else i
                break
    return text[:at].rstrip()


def _unlogged(core: Core, plans: dict[str, Plan]) -> list[Event]:
    """Events for replayed memories whose ingest was cut short before it logged them."""
    replayed = {m.id: m for p in plans.values() for m in p.replayed}
    if not replayed:
        return []
    logged = core.present("events", "memory_id", replayed)
    return [Event.of("ingested", m, core.hash(m.content), cause="recovered") for mid, m in sorted(replayed.items()) if mid not in logged]


def _embedded_text(item: Item) -> str:
    """What an item is matched by: a candidate's content, a negation's question, a forget's target."""
    if isinstance(item, Candidate):
        return item.content
    if isinstance(item, Negation):
        return item.context
    if isinstance(item, ForgetRequest):
        return item.target or item.clause
    return item.clause


def _seen_turns(core: Core, keys: Sequence[str]) -> set[str]:
    return core.present("episodes", "turn_key", keys)


def _plan(core: Core, items: list[Item], vectors: np.ndarray, context: dict[str, tuple[str, np.ndarray]],
          rules: Rules) -> tuple[dict[str, Plan], dict[str, Pool]]:
    by_user: dict[str, list[int]] = {}
    for n, item in enumerate(items):
        by_user.setdefault(item.user_id, []).append(n)
    reconciler = Reconciler(Judge(core.config, rules), core.hash, core.config.reconcile.forget_similarity, now=core.clock())
    plans, pools = {}, {}
    for user_id, idx in by_user.items():
        pools[user_id] = Pool(core.active(user_id), core.dim)
        plans[user_id] = reconciler.plan(pools[user_id], [items[n] for n in idx], {k: vectors[n] for k, n in enumerate(idx)},
                                         context)
    return plans, pools


def _outdated_turns(plans: dict[str, Plan], pools: dict[str, Pool]) -> tuple[set[str], set[str]]:
    """Turns whose memories this plan closed, split into those no active memory comes
    from any more (outdated) and those one still does."""
    closed = {s.turn_key for p in plans.values() for m in p.upserts.values() if m.status != "active" for s in m.sources}
    live = {s.turn_key for pool in pools.values() for m in pool.memories for s in m.sources} & closed
    return closed - live, live


def _episode_rows(core: Core, turns: list[TurnRecord], items: list[Item], plans: dict[str, Plan],
                  vectors: dict[str, np.ndarray], episodes_on: bool, now: datetime) -> list[dict[str, Any]]:
    """The ledger row of every new user turn: with episodes on, its text and vector; off,
    text only for the turns that memories came from. Words forgotten as they were said
    (and a forget request's own words) are cut out of the text."""
    sources = {s.turn_key for p in plans.values() for m in p.upserts.values() for s in m.sources}
    cut: dict[str, list[str]] = {}
    for p in plans.values():
        for key, clauses in p.forgotten_clauses.items():
            cut.setdefault(key, []).extend(clauses)
    for item in items:
        if isinstance(item, ForgetRequest):
            cut.setdefault(item.turn_key, []).append(item.clause)
    rows: list[dict[str, Any]] = []
    trimmed: dict[int, str] = {}
    for t in turns:
        keep = episodes_on or t.turn_key in sources
        content, ctx, reply, vector = (t.content, t.context, t.reply, vectors.get(t.turn_key)) if keep else (None,) * 4
        if content is not None and t.turn_key in cut:
            content, ctx, reply, vector = remove_clauses(content, cut[t.turn_key]), None, None, None
            if content is not None:
                trimmed[len(rows)] = content
        rows.append({"turn_key": t.turn_key, "user_id": t.user_id, "session": t.session, "turn": t.turn,
                     "role": t.role, "time": t.time, "content": content, "ingested_at": now, "context": ctx, "reply": reply,
                     "vector": vector if episodes_on else None, "outdated": False, "statement": t.statement})
    if trimmed and episodes_on:
        # The turn's first vector saw the forgotten words: embed what is left.
        for n, v in zip(trimmed, core.embed(list(trimmed.values()))):
            rows[n]["vector"] = v
    return rows


def _report(report: IngestReport, plans: dict[str, Plan], seen: set[str], keys: list[str]) -> None:
    turns_seen = sum(1 for k in keys if k in seen)
    report.turns_seen += turns_seen
    report.turns_new += len(keys) - turns_seen
    counts: Counter[str] = Counter()
    for p in plans.values():
        for ch in p.changes:
            counts[ch.action] += 1
            # The report keeps what it shows, not the vectors and the source turn's text: a
            # big ingest's report would otherwise hold them for every change.
            report.changes.append(replace(ch, memory=replace(ch.memory, vector=None, context_vector=None, context_text=None)))
    report.added += counts["added"]
    report.reinforced += counts["reinforced"]
    report.superseded += counts["superseded"]
    report.forgotten += counts["forgotten"]
