"""forget: selecting memories and episodes and deleting every trace of their text, for real.

Where the words live, and how each is cleared:
  memories table   the rows (every selected version) are deleted; a memory that only
                   loses some sources (forget a session) keeps the others
  episodes table   a forgotten episode keeps its key (the ledger: re-ingesting the old log
                   brings nothing back) and loses its text, the message it answered and
                   its vector; a turn a forgotten memory came from loses that memory's
                   clause, the message it answered, and gets a vector of what is left
  memories' context  memories from a touched turn take the turn's new text and vector
  events table     never held text: "forgotten" events record ids, a keyed hash, time
  old versions     deleted rows stay readable in older table versions and in data files
                   until they are rewritten: compact with deletions materialised, then
                   drop every older version (the purge that removed the text every time
                   it was measured; one optimize() call alone did not always)
All under the store lock, so a concurrent writer never sees a half-purged store.

Cut short (a kill, a full disk), a purge is finished by the next forget, compact or
ingest: its intent (ids only, never text) is written to `forget.pending` first and removed
last, and every step can run again (the turns' text is cut before the rows go, the events
are logged once).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .conversations import check_user_id
from .core import Core, check_types
from .db import sql_in, sql_str
from .errors import NotFoundError, UsageError
from .judgement import rescaler
from .lexical import BM25, remove_clauses
from .results import ForgetReport, PurgeStats
from .schema import Episode, Event, Memory, context_input, context_text

_CHUNK = 2000
# Episode ids are turn keys (32 hex digits); memory ids have 16.
_EPISODE_ID_LEN = 32


@dataclass
class Doomed:
    """What one purge removes: whole memories, whole episodes, and sources of memories
    that stay (a forgotten session's sayings of a fact also said elsewhere)."""

    memories: set[str] = field(default_factory=set)
    episodes: set[str] = field(default_factory=set)
    sources: dict[str, set[str]] = field(default_factory=dict)  # memory id -> turn keys


def purge(core: Core, ids: set[str], reason: str, whole_user: str | None = None,
          episodes: set[str] | None = None, sources: dict[str, set[str]] | None = None) -> PurgeStats:
    """Delete these memories and episodes and every copy of their text. Caller holds the lock."""
    return _purge(core, Doomed(set(ids), set(episodes or ()), dict(sources or {})), reason, whole_user)


INTENT = "forget.pending"


def _purge(core: Core, doomed: Doomed, reason: str, whole_user: str | None) -> PurgeStats:
    """Every step can be run again: the intent (ids only, never text) is written first and
    removed last, so a purge cut short (a kill, a full disk) is finished by the next
    forget, compact or ingest (`finish_pending`)."""
    intent = core.dir / INTENT
    _write_intent(intent, doomed, reason, whole_user)
    stats = _purge_steps(core, doomed, reason, whole_user)
    intent.unlink(missing_ok=True)
    return stats


def finish_pending(core: Core) -> bool:
    """Finish a purge that was cut short. Caller holds the lock. True when there was one."""
    intent = core.dir / INTENT
    if not intent.exists():
        return False
    try:
        data = json.loads(intent.read_text(encoding="utf-8"))
        doomed = Doomed(set(data["memories"]), set(data["episodes"]), {k: set(v) for k, v in data["sources"].items()})
    except (ValueError, KeyError, TypeError, OSError):
        # A torn intent (killed while writing it): nothing was purged yet, nothing to finish.
        intent.unlink(missing_ok=True)
        return False
    _purge_steps(core, doomed, data.get("reason") or "forget", data.get("whole_user"))
    for name in ("memories", "episodes"):
        core.db.optimize(name, purge=True)  # the versions a cut-short purge left behind
    intent.unlink(missing_ok=True)
    return True


def _write_intent(path: Path, doomed: Doomed, reason: str, whole_user: str | None) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"memories": sorted(doomed.memories), "episodes": sorted(doomed.episodes),
                               "sources": {k: sorted(v) for k, v in doomed.sources.items()},
                               "reason": reason, "whole_user": whole_user}), encoding="utf-8")
    os.replace(tmp, path)


def _purge_steps(core: Core, doomed: Doomed, reason: str, whole_user: str | None) -> PurgeStats:
    stats = PurgeStats()
    gone = core.by_ids(doomed.memories) if doomed.memories else []
    trimmed_memories = core.by_ids(doomed.sources, with_vectors=True) if doomed.sources else []
    gone_episodes = core.episodes_by_keys(doomed.episodes) if doomed.episodes else []
    if not gone and not gone_episodes and not trimmed_memories:
        return stats
    stats.memories, stats.episodes = len(gone), len(gone_episodes)
    gone_ids = {m.id for m in gone}
    # Clauses to cut out of each touched turn: the forgotten memories' sayings.
    cut: dict[str, list[str]] = {}
    for m in gone:
        for s in m.sources:
            cut.setdefault(s.turn_key, []).append(s.clause)
    for m in trimmed_memories:
        for s in m.sources:
            if s.turn_key in doomed.sources[m.id]:
                cut.setdefault(s.turn_key, []).append(s.clause)
        m.sources = [s for s in m.sources if s.turn_key not in doomed.sources[m.id]]
    cleared = {e.id for e in gone_episodes}
    touched_keys = set(cut) | cleared

    # Order matters for a purge cut short: the turns' text is cut first (the only step
    # that needs the forgotten memories' clauses), the events next, the rows last; a
    # repeated run finds the rows still there and does it all again, harmlessly.

    # The episodes: cleared whole, or cut down to what was not forgotten.
    rows = []
    for chunk in _chunks(sorted(touched_keys)):
        rows.extend(core.db.rows("episodes", filter=sql_in("turn_key", chunk)))
    reembed: list[int] = []
    for n, row in enumerate(rows):
        if row["content"] is None:
            continue
        if row["turn_key"] in cleared:
            row["content"] = None
            stats.turns_cleared += 1
        else:
            row["content"] = remove_clauses(row["content"], cut.get(row["turn_key"], []))
            if row["content"] is None:
                stats.turns_cleared += 1
            else:
                stats.turns_trimmed += 1
                reembed.append(n)
        row["context"] = row["reply"] = None  # the exchange around it may repeat what was forgotten
        row["vector"] = None
    if reembed and core.config.episodes.enabled:
        for n, v in zip(reembed, core.embed([context_input(rows[n]["content"], None) for n in reembed])):
            rows[n]["vector"] = np.asarray(v, dtype=np.float32)
    text = {r["turn_key"]: (r["content"], r["vector"]) for r in rows}

    # Memories that remain from those turns take the turn's new text and vector as context.
    users = sorted({m.user_id for m in gone} | {e.user_id for e in gone_episodes} | {m.user_id for m in trimmed_memories})
    remaining = [m for user in users for m in core.read_memories(f"user_id = {sql_str(user)}", with_vectors=True)
                 if m.id not in gone_ids and m.id not in doomed.memories and any(s.turn_key in touched_keys for s in m.sources)]
    by_id = {m.id: m for m in remaining}
    for m in trimmed_memories:
        kept = by_id.setdefault(m.id, m)
        kept.sources = m.sources
    orphans = {mid for mid, m in by_id.items() if not m.sources}
    for m in by_id.values():
        first = next((s.turn_key for s in m.sources if s.turn_key in text), None)
        if first is not None:
            content, vector = text[first]
            m.context_text = context_text(content, None) if content else None
            m.context_vector = np.asarray(vector, dtype=np.float16) if vector is not None else None
    if rows:
        core.db.upsert("episodes", rows, "turn_key")
    kept_rows = [m.to_row() for mid, m in by_id.items() if mid not in orphans]
    if kept_rows:
        core.db.upsert("memories", kept_rows, "id")
    if orphans:
        # Memories left with no source at all: nothing the user said holds them any more.
        gone.extend(by_id[mid] for mid in orphans)
        stats.memories += len(orphans)
    # Events once: a repeated run skips what an earlier, cut-short one already logged.
    logged = core.forgotten([m.id for m in gone] + [e.id for e in gone_episodes])
    version = core.db.version("memories")
    events = [Event.of("forgotten", m, core.hash(m.content), reason=reason, version=m.version) for m in gone if m.id not in logged]
    events += [Event("episode_forgotten", e.user_id, e.id, detail={"reason": reason}) for e in gone_episodes if e.id not in logged]
    if events:
        core.append_events(events, version, core.clock())
    doomed_ids = sorted({m.id for m in gone})
    if doomed_ids:
        if whole_user is not None and not orphans:
            core.db.delete("memories", f"user_id = {sql_str(whole_user)} AND " + _in_or_all(set(doomed_ids), whole_user, core))
        else:
            for chunk in _chunks(doomed_ids):
                core.db.delete("memories", sql_in("id", chunk))
    active = [m for user in users for m in core.active(user, with_vectors=False)]
    core.refresh_outdated({k for k in touched_keys if k not in cleared} | {k for k in cut}, active)
    before = after = 0
    for name in ("memories", "episodes"):
        result = core.db.optimize(name, purge=True)
        before += result["files_before"]
        after += result["files_after"]
    stats.files_before, stats.files_after = before, after
    core.recount_users(users)
    return stats


def _in_or_all(ids: set[str], user: str, core: Core) -> str:
    """For a whole-user forget, a predicate on the user alone when it covers every id."""
    total = core.db.count("memories", f"user_id = {sql_str(user)}")
    return "true" if total == len(ids) else sql_in("id", ids)


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[i : i + _CHUNK] for i in range(0, len(items), _CHUNK)]


def select(
    core: Core,
    *,
    ids: list[str] | None = None,
    chain: str | None = None,
    user: str | None = None,
    types: list[str] | None = None,
    query: str | None = None,
    session: str | None = None,
) -> tuple[list[Memory], list[Episode], dict[str, set[str]]]:
    """What a forget selects: memories (every version where a chain is selected), episodes,
    and, for a session, the sayings of facts that were also said in other sessions.

    By id (memory ids and episode ids), by chain, by user (everything, or some types of
    memory), by user and query (memories and episodes that match by meaning and words),
    or by user and session (its episodes, and the memories said only in it).
    """
    if ids:
        if chain or user or types or query or session:
            raise UsageError("ids cannot be combined with other selectors")
        memory_ids = [i for i in ids if len(i) != _EPISODE_ID_LEN]
        episode_ids = [i for i in ids if len(i) == _EPISODE_ID_LEN]
        found = core.by_ids(memory_ids) if memory_ids else []
        episodes = [e for e in core.episodes_by_keys(episode_ids) if e.content is not None] if episode_ids else []
        missing = sorted(set(ids) - {m.id for m in found} - {e.id for e in episodes})
        if missing:
            # Forgetting again what is already forgotten is done, not an error; an id that
            # was never in the store is.
            missing = sorted(set(missing) - core.forgotten(missing))
        if missing:
            raise NotFoundError(f"no memory or episode with id {missing[0]}"
                                + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
        return found, episodes, {}
    if chain:
        if user or types or query or session:
            raise UsageError("a chain cannot be combined with other selectors")
        return core.chain(chain), [], {}
    if not user:
        raise UsageError("say what to forget: --id, --chain, or --user (with --type, --query or --session to narrow it)")
    check_user_id(user)
    if sum(x is not None and x != [] for x in (types, query, session)) > 1:
        raise UsageError("types, a query and a session cannot be combined")
    if query is not None:
        matched = _matching(core, user, query)
        chains = sorted({m.chain_id for m in matched})
        return [m for c in chains for m in core.chain(c)], _matching_episodes(core, user, query), {}
    if session is not None:
        return _session(core, user, session)
    memories = core.memories(user, status=None, types=check_types(types) if types else None)
    episodes = [] if types else core.episodes(f"user_id = {sql_str(user)} AND content IS NOT NULL")
    return memories, episodes, {}


def _relevance(core: Core, vectors: np.ndarray, texts: list[str], query: str) -> np.ndarray:
    """Half meaning, half shared words (0..1) of each text to the query."""
    qvec = core.embedder.embed([query])[0]
    e = core.config.embedding
    dense = rescaler(e.similarity_floor, e.similarity_ceiling)(vectors @ qvec)
    lexical = np.array(BM25(texts).match(query))
    return 0.5 * dense + 0.5 * lexical


def _matching(core: Core, user: str, query: str) -> list[Memory]:
    """Memories (any status) whose own words or meaning match the query.

    Unlike recall, no context: a memory is not selected because its source turn also
    said something else that matches ("我不吃海鲜，对花生过敏" holds two memories).
    """
    if not query.strip():
        raise UsageError("the query is empty")
    memories = core.read_memories(f"user_id = {sql_str(user)}", with_vectors=True)
    if not memories:
        return []
    relevance = _relevance(core, np.vstack([m.vector for m in memories]), [m.content for m in memories], query)
    return [m for m, r in zip(memories, relevance) if r >= core.config.forget.min_relevance]


def _matching_episodes(core: Core, user: str, query: str) -> list[Episode]:
    """Episodes whose own words or meaning match the query."""
    episodes = [e for e in core.episodes(f"user_id = {sql_str(user)} AND content IS NOT NULL", with_vectors=True)
                if e.content]
    if not episodes:
        return []
    dim = core.dim
    vectors = np.vstack([e.vector if e.vector is not None else np.zeros(dim, np.float32) for e in episodes])
    relevance = _relevance(core, vectors.astype(np.float32), [e.content or "" for e in episodes], query)
    return [e for e, r in zip(episodes, relevance) if r >= core.config.forget.min_relevance]


def _session(core: Core, user: str, session: str) -> tuple[list[Memory], list[Episode], dict[str, set[str]]]:
    """A session's episodes; the memories said only in it (every version of their chain);
    and, of memories also said elsewhere, the sayings from this session."""
    episodes = core.episodes(f"user_id = {sql_str(user)} AND session = {sql_str(session)}")
    keys = {e.id for e in episodes}
    whole: set[str] = set()
    partial: dict[str, set[str]] = {}
    every = core.read_memories(f"user_id = {sql_str(user)}")
    for m in every:
        here = {s.turn_key for s in m.sources if s.turn_key in keys or s.session == session}
        if not here:
            continue
        if len(here) == len({s.turn_key for s in m.sources}):
            whole.add(m.chain_id)
        else:
            partial[m.id] = here
    memories = [m for m in every if m.chain_id in whole]
    partial = {mid: k for mid, k in partial.items() if mid not in {m.id for m in memories}}
    return memories, [e for e in episodes if e.content is not None], partial


def forget(core: Core, *, dry_run: bool = False, **selector: Any) -> ForgetReport:
    if (core.dir / INTENT).exists():
        # A forget cut short before: finished first, whatever is asked now (a re-run that
        # selects nothing must still complete it).
        with core.lock.hold():
            finish_pending(core)
    memories, episodes, sources = select(core, **selector)
    plan = ForgetReport(True, {k: v for k, v in selector.items() if v}, memories, episodes=episodes,
                        trimmed={k: sorted(v) for k, v in sources.items()})
    return plan if dry_run else apply(core, plan)


def apply(core: Core, plan: ForgetReport) -> ForgetReport:
    """Forget exactly what a dry run selected: what the user saw and confirmed, not a new
    selection (an ingest may have added matching memories since)."""
    report = ForgetReport(False, plan.selector, plan.memories, episodes=plan.episodes, trimmed=plan.trimmed)
    if not plan.memories and not plan.episodes and not plan.trimmed:
        return report
    s = plan.selector
    whole_user = s.get("user") if s.get("user") and not (s.get("types") or s.get("query") or s.get("session")) else None
    with core.lock.hold():
        core.flush_recalls()
        finish_pending(core)
        # Selected before the lock: a compaction may have merged some of them since, and
        # the merged memory carries their text. It goes too (re-checked under the lock).
        merged = _merged_since(core, {m.id for m in plan.memories if m.status == "active" and not m.merged_into})
        if merged:
            report.memories = list(plan.memories) + core.by_ids(merged)
        doomed = {m.id for m in plan.memories} | merged
        report.stats = _purge(core, Doomed(doomed, {e.id for e in plan.episodes},
                                           {k: set(v) for k, v in plan.trimmed.items()}), "forget", whole_user)
    return report


def _merged_since(core: Core, ids: set[str]) -> set[str]:
    """The memories that ids were merged into, transitively, as the store is now."""
    found: set[str] = set()
    frontier = ids
    while frontier:
        into = {m.merged_into for m in core.by_ids(frontier) if m.merged_into} - ids - found
        found |= into
        frontier = into
    return found
