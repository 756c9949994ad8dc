"""Browse a store without a query: memories (and episodes) by user, type, status,
subject and time, newest first. The `list` verb; recall is the ranked search."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterable, Sequence

from .config import MEMORY_TYPES
from .conversations import check_user_id, parse_time
from .core import Core
from .db import sql_in, sql_str
from .errors import InputError, UsageError
from .results import Listing
from .schema import Episode, Memory

# Memories are active, superseded or archived; an episode is active, or outdated when every
# memory it gave was superseded or forgotten.
STATUSES = ("active", "superseded", "archived", "outdated")
KINDS = ("memory", "episode")


def browse(
    core: Core,
    *,
    user: str | None = None,
    kinds: Sequence[str] = ("memory",),
    types: Iterable[str] | None = None,
    statuses: Iterable[str] | None = ("active",),
    subject: str | None = None,
    since: datetime | str | None = None,
    until: datetime | str | None = None,
    limit: int | None = 50,
) -> Listing:
    """Items matching every filter given, newest first (a memory by its last update, an
    episode by when it was said); `limit` None or 0 lists them all."""
    kinds = list(kinds) or list(KINDS)
    for kind in kinds:
        if kind not in KINDS:
            raise UsageError(f"unknown kind {kind!r} (use memory or episode)")
    types = list(types or [])
    for t in types:
        if t not in MEMORY_TYPES:
            raise UsageError(f"unknown memory type {t!r} (use {', '.join(MEMORY_TYPES)})")
    statuses = list(statuses or [])
    for s in statuses:
        if s not in STATUSES:
            raise UsageError(f"unknown status {s!r} (use {', '.join(STATUSES)})")
    if limit is not None and limit < 0:
        raise UsageError("limit must be 0 (all) or more")
    if user is not None:
        check_user_id(user)
    start, end = _time(since, "since"), _time(until, "until")
    if start and end and start > end:
        raise UsageError("since is after until")

    found: list[tuple[datetime, str, Memory | Episode]] = []
    floor = datetime.min.replace(tzinfo=timezone.utc)
    if "memory" in kinds:
        clauses = [f"user_id = {sql_str(user)}"] if user is not None else []
        if statuses:
            clauses.append(sql_in("status", statuses))
        if types:
            clauses.append(sql_in("type", types))
        for m in core.read_memories(" AND ".join(clauses) or None):
            if subject is not None and m.about != subject:
                continue
            when = m.updated_at or m.created_at or floor
            if (start is None or when >= start) and (end is None or when <= end):
                found.append((when, m.id, m))
    if "episode" in kinds and not types and (subject in (None, "user")):
        where = "content IS NOT NULL" + (f" AND user_id = {sql_str(user)}" if user is not None else "")
        for e in core.episodes(where):
            if statuses and ("outdated" if e.outdated else "active") not in statuses:
                continue
            when = e.time or e.ingested_at or floor
            if (start is None or when >= start) and (end is None or when <= end):
                found.append((when, e.id, e))
    found.sort(key=lambda x: (x[0], x[1]), reverse=True)
    chosen = found if not limit else found[:limit]
    return Listing([item for _, _, item in chosen], len(found))


def _time(value: datetime | str | None, name: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = parse_time(value, name)
        except InputError as exc:
            raise UsageError(str(exc)) from None
    assert value is not None
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
