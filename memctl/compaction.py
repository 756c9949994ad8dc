"""compact: the nightly job that keeps memory small, current and clean.

Per user and type, active memories that say the same thing are merged into one (the
best-worded member's text, the members' importance and confidence, all their sources),
the members superseded with a lineage link; opposite statements about one thing are not
merged: the newer supersedes the older. Goals and tasks past their end (or past a TTL)
are archived, and so are old, unimportant memories nobody ever recalled. Then the data
files are rewritten clustered by user, indexes refreshed and old versions dropped.

The plan is computed from a snapshot without the store lock (ingests go on); it is
applied under the lock, and an action whose memories changed meanwhile is skipped, so a
concurrent ingest is never lost or doubled. A second lock keeps two compactions apart.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Callable

import numpy as np

from .conversations import check_user_id
from .core import Core
from .db import disk_usage, sql_in, sql_str, sql_time
from .errors import LockTimeoutError
from .extract import load_rules
from .forget import finish_pending
from .judgement import LEXICAL_REACH, Judge, similar_pairs
from .lexical import tokens
from .lock import FileLock
from .reconcile import MAX_SOURCES
from .results import CompactReport, Maintenance, Merge, Retire
from .schema import Event, Memory, new_id


def compact(
    core: Core,
    *,
    user: str | None = None,
    dry_run: bool = False,
    wait: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> CompactReport:
    start = time.perf_counter()
    if dry_run:  # reads only: no lock, no file created
        report = _run(core, user, dry_run, progress)
        report.seconds = time.perf_counter() - start
        return report
    guard = FileLock(core.dir / "compact.lock", core.config.store.lock_timeout_seconds, what="compaction")
    try:
        with guard.hold(timeout=None if wait else 0):
            report = _run(core, user, dry_run, progress)
    except LockTimeoutError:
        raise LockTimeoutError("another `memctl compact` is running on this store; try later or pass --wait") from None
    report.seconds = time.perf_counter() - start
    return report


def _run(core: Core, user: str | None, dry_run: bool, progress: Callable[[int, int], None] | None) -> CompactReport:
    report = CompactReport(dry_run=dry_run)
    where = "status = 'active'" + (f" AND user_id = {sql_str(check_user_id(user))}" if user else "")
    active = core.read_memories(where, with_vectors=True)
    report.memories_scanned = len(active)
    groups: dict[tuple[str, str], list[Memory]] = {}
    for m in active:
        groups.setdefault((m.user_id, m.type), []).append(m)
    report.users = len({u for u, _ in groups})
    planner = Planner(core)
    for n, ((_u, _t), members) in enumerate(sorted(groups.items())):
        planner.group(members, report)
        if progress and (n % 50 == 0 or n == len(groups) - 1):
            progress(n + 1, len(groups))
    cutoff = _episode_cutoff(core)
    if cutoff is not None:
        scope = "content IS NOT NULL AND time < " + sql_time(cutoff) + (f" AND user_id = {sql_str(user)}" if user else "")
        report.episodes_expired = core.db.count("episodes", scope)
    if dry_run:
        return report
    with core.lock.hold():
        core.flush_recalls()
        finish_pending(core)
        _apply(core, report, where, active)
        if cutoff is not None:
            report.episodes_expired = _expire_episodes(core, cutoff, user)
        report.maintenance = _maintain(core)
    return report


def _episode_cutoff(core: Core) -> datetime | None:
    days = core.config.episodes.max_age_days
    return core.clock() - timedelta(days=days) if days else None


def _expire_episodes(core: Core, cutoff: datetime, user: str | None) -> int:
    """Episodes said before the cutoff lose their text and vector; their keys stay in the
    ledger. Caller holds the store lock."""
    where = "content IS NOT NULL AND time < " + sql_time(cutoff) + (f" AND user_id = {sql_str(user)}" if user else "")
    counts = core.db.to_table("episodes", columns=["user_id"], filter=where).group_by("user_id").aggregate(
        [("user_id", "count")]).to_pylist()
    if not counts:
        return 0
    keys = set(core.db.to_table("episodes", columns=["turn_key"], filter=where).column("turn_key").to_pylist())
    core.db.update("episodes", {"content": "NULL", "context": "NULL", "reply": "NULL", "vector": "NULL"}, where)
    # Memories keep their own words and the clause they came from, not a copy of the turn.
    holders = [m for r in counts for m in core.read_memories(f"user_id = {sql_str(r['user_id'])}", with_vectors=True)
               if m.context_text is not None and any(s.turn_key in keys for s in m.sources)]
    for m in holders:
        m.context_text, m.context_vector = None, None
    if holders:
        core.db.upsert("memories", [m.to_row() for m in holders], "id")
    core.append_events([Event("episodes_expired", r["user_id"], count=r["user_id_count"],
                              detail={"before": cutoff.isoformat(), "cause": "compact"}) for r in counts],
                       core.db.version("memories"), core.clock())
    return sum(r["user_id_count"] for r in counts)


class Planner:
    """Decides merges, contradictions and expiries; `audit` asks it the same questions."""

    def __init__(self, core: Core) -> None:
        self.cfg = core.config.compact
        self.now = core.clock()
        self.judge = Judge(core.config, load_rules(core.rules_dir))
        self.same = self.judge.same

    def _negative(self, m: Memory) -> bool:
        return self.judge.negative(m.content, m.lang)

    def group(self, members: list[Memory], report: CompactReport) -> None:
        """Plan one user's memories of one type: expiries, contradictions, merges."""
        alive = [m for m in members if not self._retire_by_time(m, report)]
        if len(alive) < 2:
            return
        alive.sort(key=lambda m: m.id)  # the same plan (and the same audit) for the same memories
        judge = self.judge
        vectors = np.vstack([m.vector for m in alive]).astype(np.float32)
        lowest = min(judge.contradiction, judge.merge - LEXICAL_REACH)
        first, second, sims = similar_pairs(vectors, [m.content for m in alive], judge.same, lowest)
        neighbours: list[dict[int, float]] = [{} for _ in alive]
        for a, b, sim in zip(first.tolist(), second.tolist(), sims.tolist()):
            neighbours[a][b] = neighbours[b][a] = sim
        negative = [self._negative(m) for m in alive]
        # Opposites about one thing: the newer stands, the older is superseded.
        order = sorted(range(len(alive)), key=lambda i: (alive[i].created_at or self.now), reverse=True)
        rank = {i: r for r, i in enumerate(order)}
        taken: set[int] = set()
        for i in order:
            if i in taken:
                continue
            for j in sorted((j for j in neighbours[i] if rank[j] > rank[i]), key=rank.__getitem__):
                if j in taken or negative[i] == negative[j]:
                    continue
                if judge.opposite(neighbours[i][j], alive[i].content, alive[j].content):
                    report.retired.append(Retire(alive[j], "superseded", "contradicted by a newer memory", by=alive[i]))
                    taken.add(j)
        graph = _Graph(alive, neighbours, negative, taken, judge)
        # Merge until nothing more merges: a merged memory speaks with its best member's
        # words, which may match a memory its representative did not. Running compact
        # again right after then finds nothing to do. After the first pass, only merged
        # memories and their neighbours can form a new cluster: the others were judged.
        planned: dict[str, Merge] = {}
        dirty = set(graph.memory)
        for _ in range(_MAX_PASSES):
            dirty = self._merge_pass(graph, planned, dirty)
            if not dirty:
                break
        report.merges.extend(planned.values())

    def _merge_pass(self, graph: "_Graph", planned: dict[str, Merge], candidates: set[int]) -> set[int]:
        """Clusters around a representative (no chains of "similar to something similar");
        the most central, most reinforced memories represent first. Returns the nodes to
        look at again: the merged memories and their neighbours."""
        judge = self.judge
        candidates = {v for v in candidates if v in graph.memory}
        # Centrality counts only close neighbours: the member most like the others of its
        # cluster, not the one vaguely like everything.
        centrality = {v: 1.0 + sum(s for s in graph.edges[v].values() if judge.near(s)) + graph.memory[v].reinforced_count
                      for v in candidates}
        taken: set[int] = set()
        clusters: list[list[int]] = []
        for v in sorted(candidates, key=lambda v: (-centrality[v], graph.memory[v].id)):
            if v in taken:
                continue
            cluster = [v] + [
                u for u in sorted(graph.edges[v])
                if u not in taken and graph.negative[u] == graph.negative[v] and graph.same_fact(v, u)
            ]
            if len(cluster) < 2:
                continue
            taken.update(cluster)
            clusters.append(cluster)
        touched: set[int] = set()
        for cluster in clusters:
            originals: list[Memory] = []
            for v in cluster:  # a memory merged in an earlier pass brings its members
                earlier = planned.pop(graph.memory[v].id, None)
                originals.extend(earlier.members if earlier else [graph.memory[v]])
            merge = self._merge(originals)
            planned[merge.merged.id] = merge
            node = graph.replace(cluster, merge.merged, originals)
            touched |= {node} | set(graph.edges[node])
        return touched

    def _merge(self, members: list[Memory]) -> Merge:
        best = max(members, key=lambda m: (m.reinforced_count, m.confidence, m.updated_at or self.now, m.id))
        rep = members[0]
        mid = new_id()
        sources = [s for m in members for s in m.sources]
        if len(sources) > MAX_SOURCES:
            sources = sources[:1] + sources[-(MAX_SOURCES - 1):]
        confidence = 1.0 - float(np.prod([1.0 - m.confidence for m in members]))
        merged = Memory(
            id=mid, chain_id=rep.chain_id, version=max(m.version for m in members if m.chain_id == rep.chain_id) + 1,
            status="active", user_id=rep.user_id, type=rep.type, content=best.content, lang=best.lang,
            topics=sorted({t for m in members for t in m.topics}), slot=best.slot,
            importance=max(m.importance for m in members), confidence=round(min(0.99, confidence), 4),
            source_type="user_stated" if any(m.source_type == "user_stated" for m in members) else "inferred",
            sources=sources, created_at=min(m.created_at or self.now for m in members), updated_at=self.now,
            valid_from=min(m.valid_from or self.now for m in members),
            valid_to=max((m.valid_to for m in members if m.valid_to), default=None),
            last_recalled_at=max((m.last_recalled_at for m in members if m.last_recalled_at), default=None),
            recall_count=sum(m.recall_count for m in members),
            reinforced_count=sum(m.reinforced_count for m in members) + len(members) - 1,
            cause="merge", supersedes=rep.id, merged_from=[m.id for m in members],
            vector=best.vector, context_vector=best.context_vector,
        )
        return Merge(rep.user_id, rep.type, members, merged)

    def _retire_by_time(self, m: Memory, report: CompactReport) -> bool:
        cfg = self.cfg
        if m.type in ("goal", "task"):
            ttl = cfg.goal_ttl_days if m.type == "goal" else cfg.task_ttl_days
            end = m.valid_to or ((m.updated_at or m.created_at or self.now) + timedelta(days=ttl))
            if end <= self.now:
                why = "past its end date" if m.valid_to else f"no update for {ttl} days"
                report.retired.append(Retire(m, "expired", why))
                return True
        age = self.now - (m.updated_at or m.created_at or self.now)
        if m.recall_count == 0 and m.importance < cfg.archive_max_importance and age > timedelta(days=cfg.archive_after_days):
            report.retired.append(Retire(m, "archived", f"never recalled, importance {m.importance:.2f}, {age.days} days old"))
            return True
        return False


class _Graph:
    """The memories of one group still in play and the close pairs among them; merged
    memories replace their members, linked to the neighbours of all of them."""

    def __init__(self, alive: list[Memory], neighbours: list[dict[int, float]], negative: list[bool],
                 taken: set[int], judge: Judge) -> None:
        self.judge = judge
        self.memory: dict[int, Memory] = {i: m for i, m in enumerate(alive) if i not in taken}
        self.edges: dict[int, dict[int, float]] = {i: {j: s for j, s in neighbours[i].items() if j not in taken}
                                                    for i in self.memory}
        self.negative: dict[int, bool] = {i: negative[i] for i in self.memory}
        # Each original memory's neighbours, and which node holds it now.
        self._original = {m.id: i for i, m in enumerate(alive)}
        self._neighbours = neighbours
        self._holder = {i: i for i in self.memory}
        self._next = len(alive)
        self._lowest = min(judge.contradiction, judge.merge - LEXICAL_REACH)
        self._token_sets: dict[int, frozenset[str]] = {}

    def same_fact(self, v: int, u: int) -> bool:
        return self.judge.same_fact(self.edges[v][u], self._tokens(v), self._tokens(u))

    def _tokens(self, v: int) -> frozenset[str]:
        found = self._token_sets.get(v)
        if found is None:
            found = self._token_sets[v] = frozenset(tokens(self.memory[v].content))
        return found

    def replace(self, cluster: list[int], merged: Memory, originals: list[Memory]) -> int:
        """Put the merged memory in place of the cluster; returns its node."""
        node = self._next
        self._next += 1
        for v in cluster:
            for u in self.edges.pop(v):
                if u in self.edges:
                    self.edges[u].pop(v, None)
            del self.memory[v]
            del self.negative[v]
        self.memory[node] = merged
        self.negative[node] = self.judge.negative(merged.content, merged.lang)
        self.edges[node] = {}
        nearby = {self._holder.get(x) for m in originals for x in self._neighbours[self._original[m.id]]}
        nearby = sorted(u for u in nearby if u is not None and u in self.memory and u != node)
        for m in originals:
            self._holder[self._original[m.id]] = node
        if nearby:
            vector = np.asarray(merged.vector, dtype=np.float32)
            sims = self.judge.same(np.vstack([self.memory[u].vector for u in nearby]).astype(np.float32) @ vector)
            for u, sim in zip(nearby, sims.tolist()):
                if sim >= self._lowest:
                    self.edges[node][u] = self.edges[u][node] = sim
        return node


# Merge passes at most: each pass can only join clusters formed in the one before.
_MAX_PASSES = 20

# Up to this many memories to re-check are looked up by id; more are picked from one scan.
_LOOKUP_LIMIT = 2000


def _apply(core: Core, report: CompactReport, where: str, active: list[Memory]) -> None:
    """Write the plan; drop any action whose memories changed since the snapshot."""
    involved = {m.id for g in report.merges for m in g.members} | {r.memory.id for r in report.retired}
    involved |= {r.by.id for r in report.retired if r.by}
    # Their state now, without their vectors: a memory no longer active, or updated, has
    # changed since the snapshot. A few ids are looked up; many are picked from one scan
    # (a lookup per chunk would grow with the square).
    columns = ["id", "status", "updated_at", "version", "recall_count", "last_recalled_at"]
    if len(involved) <= _LOOKUP_LIMIT:
        state = core.db.to_table("memories", columns=columns, filter=sql_in("id", involved)) if involved else None
    else:
        import pyarrow as pa
        import pyarrow.compute as pc

        state = core.db.to_table("memories", columns=columns, filter=where)
        state = state.filter(pc.is_in(state.column("id"), value_set=pa.array(sorted(involved), pa.string())))
    rows = {r["id"]: r for r in state.to_pylist()} if state is not None else {}
    snapshot = {m.id: m for m in active}
    current: dict[str, Memory] = {}
    for mid, row in rows.items():
        if mid in snapshot:
            # Recalls folded in since the plan was made (the spool is flushed under the lock).
            m = snapshot[mid]
            m.recall_count, m.last_recalled_at = int(row["recall_count"] or 0), row["last_recalled_at"]
            current[mid] = m

    def unchanged(m: Memory) -> bool:
        row = rows.get(m.id)
        return (row is not None and m.id in current and row["status"] == "active" and row["updated_at"] == m.updated_at
                and row["version"] == m.version)

    now = core.clock()
    upserts: dict[str, Memory] = {}
    events: list[Event] = []
    kept_merges, kept_retired = [], []
    for g in report.merges:
        if not all(unchanged(m) for m in g.members):
            report.skipped += 1
            continue
        kept_merges.append(g)
        fresh = [current[m.id] for m in g.members]
        g.merged.recall_count = sum(m.recall_count for m in fresh)
        g.merged.last_recalled_at = max((m.last_recalled_at for m in fresh if m.last_recalled_at), default=None)
        upserts[g.merged.id] = g.merged
        for m in g.members:
            old = current[m.id]
            old.status, old.merged_into, old.valid_to, old.updated_at = "superseded", g.merged.id, now, now
            upserts[old.id] = old
        members = [m.id for m in g.members]
        events.append(Event.of("merged", g.merged, core.hash(g.merged.content), members, count=len(members), members=members))
    # A newer statement merged in this run now lives in the merged memory: it still
    # supersedes the older opposite one (the merged memory keeps its own lineage).
    merged_now = {m.id: g.merged for g in kept_merges for m in g.members}
    for r in report.retired:
        if r.by is not None and r.by.id in merged_now:
            r.by = merged_now[r.by.id]
        by_ok = r.by is None or r.by.id in upserts or unchanged(r.by)
        if not unchanged(r.memory) or not by_ok or r.memory.id in upserts:
            report.skipped += 1
            continue
        kept_retired.append(r)
        old = current[r.memory.id]
        old.status = "superseded" if r.action == "superseded" else "archived"
        old.updated_at = now
        if r.action != "archived" and old.valid_to is None:
            old.valid_to = now
        upserts[old.id] = old
        if r.by is not None and r.by.id not in upserts:
            newer = current[r.by.id]
            newer.supersedes = old.id
            upserts[newer.id] = newer
        events.append(Event.of(r.action, old, core.hash(old.content), [r.by.id] if r.by else [],
                               reason=r.reason, cause="compact"))
    report.merges, report.retired = kept_merges, kept_retired
    if upserts:
        version = core.db.upsert("memories", [m.to_row() for m in upserts.values()], "id")
        core.append_events(events, version, now)
        # Turns whose memories a newer statement contradicted: outdated unless another
        # memory still comes from them (a merged memory keeps all its members' sources).
        closed = {s.turn_key for r in kept_retired if r.action == "superseded" for s in r.memory.sources}
        still = [m for m in active if m.id not in upserts] + [m for m in upserts.values() if m.status == "active"]
        core.refresh_outdated(closed, still)


def _maintain(core: Core) -> Maintenance:
    """Keep the tables quick to read, then drop old versions. Caller holds the store lock.

    A table that no user fills beyond what recall reads whole is rewritten clustered by
    user (a recall reads one user's rows from one place). A table where one user has more
    gets a vector index and a full-text index instead, extended with new rows at each
    run (rewriting it would mean rebuilding them)."""
    out = Maintenance()
    out.files_before, out.bytes_before = _disk(core)
    core.recount_users(None)
    largest = core.db.to_table("users", columns=["memories", "episodes"])
    for name, order, column, labels in (("memories", ["user_id", "chain_id", "version"], "memories", "topics"),
                                         ("episodes", ["user_id", "time"], "episodes", None)):
        biggest = max(largest.column(column).to_pylist() or [0])
        if biggest > core.config.recall.exact_rows or core.db.has_index(name, "vector"):
            core.db.tidy(name, vector="vector", text="content", labels=labels)
        else:
            core.db.cluster(name, order)
    for name in ("events", "users"):
        core.db.cluster(name, None)
    out.files_after, out.bytes_after = _disk(core)
    return out


def _disk(core: Core) -> tuple[int, int]:
    return disk_usage(core.db.uri) if core.db.is_local else (0, 0)
