"""history: where one memory came from and how it changed, version by version (trace,
diff ID), and what changed in the store between two points in time or store versions
(diff --since).

A memory's versions share a chain id; each version records its cause (ingest, update,
correction, contradiction, merge). Status changes made later (expiry, archive, a merge
into another memory, a supersede by compaction) come from the event log. The event log
keeps ids, times and store versions only, so a forgotten memory shows as an id and a
time and nothing else.
"""

from __future__ import annotations

import difflib
import json
import re
from datetime import datetime, timedelta, timezone
from typing import Any

from .conversations import check_user_id, parse_time
from .core import Core
from .db import sql_in, sql_str, sql_time
from .errors import MemctlError, NotFoundError, UsageError
from .results import Change, LoggedEvent, MemoryHistory, Point, Step, StoreDiff, Trace
from .schema import Memory, iso

# Han characters one by one, Latin words and numbers whole, anything else by itself.
_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[A-Za-z0-9_'\-]+|\s+|[^\sA-Za-z0-9_'\-\u3400-\u9fff\uf900-\ufaff]")


def word_diff(old: str, new: str) -> list[dict[str, str]]:
    """The edit from `old` to `new` as runs of equal / delete / insert text: word by word
    for English, character by character for Chinese."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    out: list[dict[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append({"op": "equal", "text": "".join(a[i1:i2])})
            continue
        if i2 > i1:
            out.append({"op": "delete", "text": "".join(a[i1:i2])})
        if j2 > j1:
            out.append({"op": "insert", "text": "".join(b[j1:j2])})
    return out


# -- one memory ------------------------------------------------------------------------

# Event kinds that change a version's status after it was written, and the cause shown.
_STATUS_CAUSE = {"expired": "expiry", "archived": "archive", "superseded": "supersede", "merged": "merge"}




def trace(core: Core, memory_id: str) -> Trace:
    """One memory with its sources, versions, merges, event log and recall history."""
    m = core.get(memory_id)
    chain = core.chain(m.chain_id)
    found = {x.id: x for x in core.by_ids(m.merged_from)} if m.merged_from else {}
    # A forgotten member is shown by its id only.
    members = [found.get(i) or Memory(i, "", 0, "forgotten", m.user_id, m.type, "") for i in m.merged_from]
    into = None
    if m.merged_into:
        found_into = core.read_memories(f"id = {sql_str(m.merged_into)}")
        into = found_into[0] if found_into else None
    pending = core.spool.pending()
    recalled = core.db.to_table("events", columns=["time", "related", "detail"],
                                filter=f"kind = 'recalled' AND user_id = {sql_str(m.user_id)}")
    # A merged memory was recalled whenever one of the memories it merged was.
    lineage = merged_ancestors(core, m)
    times = []
    for when, related, detail in zip(recalled.column("time").to_pylist(), recalled.column("related").to_pylist(),
                                     recalled.column("detail").to_pylist()):
        if lineage & set(related or ()):
            times.append(_iso_text(json.loads(detail or "{}").get("at")) or iso(when))
    times += [iso(r.time) for r in pending.recalls if lineage & set(r.ids)]
    return Trace(m, chain, members, into, sorted(t for t in times if t), sum(pending.counts.get(i, 0) for i in lineage),
                 chain_events(core, m.chain_id, [x.id for x in chain] + [x.id for x in members]))


def merged_ancestors(core: Core, m: Memory) -> set[str]:
    """The memory's id and those of every memory merged into it, at any depth."""
    out, frontier = {m.id}, list(m.merged_from)
    while frontier:
        frontier = [i for i in frontier if i not in out]
        out.update(frontier)
        found = core.by_ids(frontier) if frontier else []
        frontier = [i for x in found for i in x.merged_from]
    return out


def _iso_text(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return iso(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        return value


def chain_events(core: Core, chain_id: str, ids: list[str]) -> list[LoggedEvent]:
    """The event log entries of a chain and its memories, oldest first (no recalls)."""
    table = core.db.to_table(
        "events", columns=["time", "kind", "memory_id", "related", "store_version", "detail"],
        filter=f"kind <> 'recalled' AND (chain_id = {sql_str(chain_id)}"
        + (f" OR {sql_in('memory_id', ids)} OR array_has_any(related, [{', '.join(map(sql_str, ids))}]))" if ids else ")"),
    )
    out = [LoggedEvent(iso(row["time"]), row["kind"], row["memory_id"], list(row["related"] or []),
                       row["store_version"], json.loads(row["detail"] or "{}")) for row in table.to_pylist()]
    return sorted(out, key=lambda e: (e.time or "", e.store_version or 0))


def memory_history(core: Core, ref: str) -> MemoryHistory:
    """The versions of the memory `ref` (a memory id or a chain id), oldest first, with
    what happened to them since."""
    found = core.read_memories(f"id = {sql_str(ref)}") or core.read_memories(f"chain_id = {sql_str(ref)}")
    if not found:
        raise NotFoundError(f"no memory or chain with id {ref}")
    chain = core.chain(found[0].chain_id)
    members = {m.id: m for m in core.by_ids({i for v in chain for i in v.merged_from})} \
        if any(v.merged_from for v in chain) else {}
    events = chain_events(core, chain[0].chain_id, [v.id for v in chain])
    created = {e.memory_id: e for e in events if e.kind in ("ingested", "merged")}
    steps: list[Step] = []
    previous: Memory | None = None
    for v in chain:
        made = created.get(v.id)
        detail: dict[str, Any] = {}
        if v.merged_from:
            detail["merged_from"] = [{"id": i, "content": members[i].content if i in members else None}
                                     for i in v.merged_from]
        if v.supersedes and (previous is None or v.supersedes != previous.id):
            detail["supersedes"] = v.supersedes
        steps.append(Step(
            cause=v.cause or "ingest", time=made.time if made else iso(v.created_at), id=v.id, version=v.version,
            status=v.status, content=v.content, previous_content=previous.content if previous else None,
            store_version=made.store_version if made else None, detail=detail,
            said_at=iso(v.valid_from) if v.cause != "merge" else None,
        ))
        previous = v
    by_id = {v.id: v for v in chain}
    for e in events:
        v = by_id.get(e.memory_id or "")
        if e.kind == "merged" and e.memory_id not in by_id:
            # This chain's memory was merged into a memory of another chain.
            into = core.read_memories(f"id = {sql_str(e.memory_id or '')}")
            gone = [by_id[i] for i in e.related if i in by_id]
            if gone:
                steps.append(Step("merge", e.time, e.memory_id or "", into[0].version if into else None,
                                  into[0].status if into else "forgotten", into[0].content if into else "",
                                  previous_content=gone[-1].content, store_version=e.store_version,
                                  detail={"merged_into": e.memory_id, "chain_id": into[0].chain_id if into else None,
                                          "members": e.related}))
            continue
        if e.kind == "forgotten" and v is None:
            # A forgotten version of this chain: its id, version and time, nothing of its text.
            steps.append(Step("forget", e.time, e.memory_id or "", e.detail.get("version"), "forgotten", None,
                              store_version=e.store_version, detail={"reason": e.detail.get("reason")}))
            continue
        if v is None or e.kind not in ("expired", "archived") and not (e.kind == "superseded" and e.detail.get("cause") == "compact"):
            continue
        steps.append(Step(_STATUS_CAUSE[e.kind], e.time, v.id, v.version, v.status, v.content,
                          store_version=e.store_version, detail={"reason": e.detail.get("reason"),
                                                                 "by": (e.related or [None])[0]}))
    for step in steps:
        if step.previous_content is not None and step.content is not None:
            step.diff = word_diff(step.previous_content, step.content)
    steps.sort(key=lambda s: (s.store_version if s.store_version is not None else -1, s.version or 0))
    return MemoryHistory(chain[0].chain_id, chain[0].user_id, steps)


# -- the store between two points ---------------------------------------------------------

_RELATIVE = re.compile(r"^\s*(\d+)\s*([mhdw])\s*$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}



_MAX_VERSION_DIGITS = 7


def parse_point(value: str, option: str, now: datetime) -> Point:
    """`42` (a store version), an ISO-8601 time, or an age such as `30m`, `24h`, `7d`, `2w`."""
    text = value.strip()
    if text.isdigit() and len(text) <= _MAX_VERSION_DIGITS:
        return Point(version=int(text))
    rel = _RELATIVE.match(text)
    try:
        if rel:
            return Point(time=now - timedelta(**{_UNITS[rel.group(2)]: int(rel.group(1))}))
        return Point(time=parse_time(text, option))
    except (ValueError, OverflowError, MemctlError):
        raise UsageError(f"{option}: {value!r} is not a store version, an ISO-8601 time or an age like 24h / 7d") from None




def _utc(point: Point | None) -> Point | None:
    """Naive times are UTC, in the library as on the command line."""
    if point is not None and point.time is not None and point.time.tzinfo is None:
        return Point(point.version, point.time.replace(tzinfo=timezone.utc))
    return point


def store_diff(core: Core, start: Point, end: Point | None = None, user: str | None = None) -> StoreDiff:
    start, end = _utc(start), _utc(end)
    assert start is not None
    current = core.db.version("memories")
    for point, name in ((start, "start"), (end, "end")):
        if point is not None and point.version is not None and point.version > current:
            raise UsageError(f"the {name} version {point.version} is past the store's current version {current}")
    if end is not None:
        if start.version is not None and end.version is not None and end.version < start.version or \
                start.time is not None and end.time is not None and end.time < start.time:
            raise UsageError(f"the end ({end.label()}) is before the start ({start.label()})")
    where = ["kind <> 'recalled'"]
    for point, op in ((start, ">"), (end, "<=")):
        if point is None:
            continue
        if point.version is not None:
            where.append(f"store_version {op} {int(point.version)}")
        elif point.time is not None:
            where.append(f"time {op} {sql_time(point.time)}")
    if user is not None:
        where.append(f"user_id = {sql_str(check_user_id(user))}")
    rows = core.db.to_table("events", columns=["time", "kind", "user_id", "memory_id", "related", "store_version", "count", "detail"],
                             filter=" AND ".join(where)).to_pylist()
    rows.sort(key=lambda r: (r["time"], r["store_version"] or 0))
    forgotten = {r["memory_id"] for r in rows if r["kind"] == "forgotten"}
    wanted = {r["memory_id"] for r in rows if r["memory_id"] and not r["kind"].startswith("episode")} \
        | {i for r in rows if r["kind"] == "merged" for i in r["related"] or ()}
    wanted -= forgotten
    memories = {m.id: m for m in core.by_ids(wanted)} if wanted else {}

    def content(mid: str | None) -> str | None:
        m = memories.get(mid or "")
        return m.content if m else None

    changes: list[Change] = []
    episodes = {"added": 0, "forgotten": 0, "expired": 0}
    for r in rows:
        detail = json.loads(r["detail"] or "{}")
        kind, mid = r["kind"], r["memory_id"]
        when, sv, who = iso(r["time"]), r["store_version"], r["user_id"]
        if kind == "forgotten":
            changes.append(Change("forgotten", when, sv, who, mid, None, {"reason": detail.get("reason")}))
        elif kind == "ingested":
            cause = detail.get("cause")
            kind_shown = {"correction": "corrected", "update": "updated", "contradiction": "corrected"}.get(cause, "added")
            extra = {"supersedes": r["related"][0]} if r["related"] else {}
            changes.append(Change(kind_shown, when, sv, who, mid, content(mid), {"cause": cause or "ingest", **extra}))
        elif kind == "merged":
            members = [{"id": i, "content": content(i)} for i in r["related"] or ()]
            changes.append(Change("merged", when, sv, who, mid, content(mid), {"members": members}))
        elif kind in ("superseded", "expired", "archived"):
            changes.append(Change(kind, when, sv, who, mid, content(mid),
                                  {k: v for k, v in {"reason": detail.get("reason") or detail.get("cause"),
                                                     "by": (r["related"] or [None])[0]}.items() if v}))
        elif kind == "reinforced":
            changes.append(Change("reinforced", when, sv, who, mid, content(mid), {}))
        elif kind == "episodes":
            episodes["added"] += r["count"] or 0
        elif kind == "episode_forgotten":
            episodes["forgotten"] += 1
            changes.append(Change("forgotten", when, sv, who, mid, None, {"kind": "episode", "reason": detail.get("reason")}))
        elif kind == "episodes_expired":
            episodes["expired"] += r["count"] or 0
        elif kind == "reembedded":
            changes.append(Change("reembedded", when, sv, None, None, None, {"count": r.get("count"), **detail}))
    return StoreDiff(start, end, user, changes, episodes)


__all__ = ["chain_events", "memory_history", "merged_ancestors", "parse_point", "store_diff", "trace", "word_diff"]
