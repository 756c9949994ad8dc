"""MemoryStore: the library's one object, a facade with one method per verb.

The CLI calls exactly these; agent code does too. Each method hands the opened store
(`Core`, core.py) to the module that owns the verb:

  ingest   ingest.py       conversations in, memories reconciled and written
  recall   recall.py       one user's memories that matter for a query
  forget   forget.py       select, then delete every trace of the text
  compact  compaction.py   merge, supersede, expire, archive, tidy the files
  reembed  reembed.py      rebuild every vector with another model
  audit    audit.py        counts, store facts, health figures
  trace / history / diff   history.py: one memory's lineage; the store between two points
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .config import Config, resolve_store_dir
from .conversations import Conversation
from .core import Core, create, utcnow
from .lock import StoreLock
from .results import (
    AuditReport, CompactReport, ForgetReport, ImportReport, IngestReport, Listing, Profile, MemoryHistory, Point, RecallResult, ReembedReport,
    StoreDiff, Trace,
)
from .schema import Memory

Progress = Callable[[int, int], None]


def init_store(path: str | os.PathLike[str] = ".", *, model: str | None = None, config: Config | None = None) -> "MemoryStore":
    """Create a store in `path`/.memctl (or in `path` itself if it is named .memctl)."""
    return MemoryStore(create(path, model=model, config=config))


def open_store(
    path: str | os.PathLike[str] | None = None, *, preload_model: bool = False, check_model: bool = True
) -> "MemoryStore":
    """Open the store at `path`, or the one found by --store / $MEMCTL_STORE / .memctl upward.

    preload_model starts loading the embedding model before the store's tables are
    opened, for a caller that will embed right away (a CLI recall).
    """
    return MemoryStore(resolve_store_dir(path), preload_model=preload_model, check_model=check_model)


class MemoryStore:
    def __init__(
        self,
        store_dir: str | os.PathLike[str],
        *,
        clock: Callable[[], datetime] = utcnow,
        preload_model: bool = False,
        check_model: bool = True,
    ) -> None:
        self.core = Core(store_dir, clock=clock, preload_model=preload_model, check_model=check_model)

    # -- what the store is ------------------------------------------------------------

    @property
    def dir(self) -> Path:
        return self.core.dir

    @property
    def config(self) -> Config:
        return self.core.config

    @property
    def meta(self) -> dict[str, str]:
        return self.core.meta

    @property
    def db(self):  # type: ignore[no-untyped-def]
        """The store's tables (db.Database): for tests and tools that look inside."""
        return self.core.db

    @property
    def lock(self) -> StoreLock:
        return self.core.lock

    @property
    def clock(self) -> Callable[[], datetime]:
        """What the store takes as "now" (injectable for tests and replays)."""
        return self.core.clock

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of these texts from the store's model."""
        return self.core.embed(texts)

    # -- reading memories -------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        return self.core.get(memory_id)

    def chain(self, chain_id: str) -> list[Memory]:
        """Every version of one memory, oldest first."""
        return self.core.chain(chain_id)

    def memories(self, user: str | None = None, *, status: str | None = "active",
                 types: Iterable[str] | None = None) -> list[Memory]:
        """Memories of a user (or all users), newest first."""
        return self.core.memories(user, status=status, types=types)

    def users(self) -> list[str]:
        return self.core.users()

    def export(self, user: str | None = None, *, episodes: bool = False) -> Iterator[dict[str, Any]]:
        """Memories (every version) and optionally episodes as JSON-ready records (exchange.py)."""
        from .exchange import export

        return export(self.core, user, episodes=episodes)

    def import_records(self, lines: Iterable[str], name: str = "<records>", *, dry_run: bool = False,
                       unit: str = "line") -> ImportReport:
        """Check every JSON Lines record, then write them (exchange.py): idempotent, never
        bringing back what the store forgot, vectors from this store's model."""
        from .exchange import import_records, read_records

        return import_records(self.core, read_records(lines, name, unit), dry_run=dry_run)

    def profile(self, user: str) -> Profile:
        """The user's profile in three levels, each line traceable to a memory (profile.py)."""
        from .profile import build_profile

        return build_profile(self.core, user)

    def browse(
        self,
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
        """Memories (and episodes) without a query, newest first (browse.py)."""
        from .browse import browse

        return browse(self.core, user=user, kinds=kinds, types=types, statuses=statuses, subject=subject,
                      since=since, until=until, limit=limit)

    # -- the verbs --------------------------------------------------------------------

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
        progress: Callable[[int, int], None] | None = None,
    ) -> IngestReport:
        """Read conversations, extract memories and reconcile them with what is stored."""
        from .ingest import ingest

        return ingest(self.core, paths, user=user, session=session, fmt=fmt, dry_run=dry_run,
                      stdin_text=stdin_text, conversations=conversations, progress=progress)

    def recall(
        self,
        query: str,
        user: str,
        *,
        top_k: int | None = None,
        types: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
        as_of: datetime | None = None,
        include_history: bool = False,
        record: bool = True,
    ) -> RecallResult:
        """The memories and episodes of `user` that matter for `query`, best first, in one
        list (`kinds` narrows it to "memory" or "episode"). No other user's row is ever a
        candidate."""
        from .recall import recall

        return recall(self.core, query, user, top_k=top_k, types=types, kinds=kinds, as_of=as_of,
                      include_history=include_history, record=record)

    def forget(
        self,
        *,
        ids: Sequence[str] | None = None,
        chain: str | None = None,
        user: str | None = None,
        types: Sequence[str] | None = None,
        query: str | None = None,
        session: str | None = None,
        dry_run: bool = False,
    ) -> ForgetReport:
        """Delete memories and episodes and every trace of their text (forget.py)."""
        from .forget import forget

        return forget(self.core, dry_run=dry_run, ids=list(ids or []), chain=chain, user=user,
                      types=list(types) if types else None, query=query, session=session)

    def apply_forget(self, plan: ForgetReport) -> ForgetReport:
        """Forget what a `forget(..., dry_run=True)` selected, nothing more."""
        from .forget import apply

        return apply(self.core, plan)

    def compact(self, *, user: str | None = None, dry_run: bool = False, wait: bool = False,
                progress: Progress | None = None) -> CompactReport:
        """Merge duplicates, supersede contradictions, expire and archive, tidy the files.
        Safe while other processes ingest."""
        from .compaction import compact

        return compact(self.core, user=user, dry_run=dry_run, wait=wait, progress=progress)

    def reembed(self, model: str | None = None, progress: Progress | None = None) -> ReembedReport:
        """Rebuild every vector with `model` (or the model memctl.toml names), then use it."""
        from .reembed import reembed

        return reembed(self.core, model, progress)

    def audit(self, user: str | None = None) -> AuditReport:
        """Counts, store facts and health figures."""
        from .audit import audit

        return audit(self.core, user)

    def trace(self, memory_id: str) -> Trace:
        """One memory with its sources, versions, merges and recall history."""
        from .history import trace

        return self.core.retrying(lambda: trace(self.core, memory_id))

    def history(self, ref: str) -> MemoryHistory:
        """The versions of one memory (by memory or chain id), oldest first."""
        from .history import memory_history

        return self.core.retrying(lambda: memory_history(self.core, ref))

    def diff(self, start: Point, end: Point | None = None, user: str | None = None) -> StoreDiff:
        """What changed between two points (a store version or a time)."""
        from .history import store_diff

        return self.core.retrying(lambda: store_diff(self.core, start, end, user))
