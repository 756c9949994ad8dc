"""Recall bookkeeping without a table write per recall.

Every recall appends one line (time, user, memory ids; never text) to a spool file next
to memctl.toml. The next write to the store (ingest, forget, compact) folds the spool
into the memories' `recall_count` / `last_recalled_at` and the event log in one batch:
recall stays a read, and the store does not grow a table version per query.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

SPOOL_NAME = "recalls.jsonl"


@dataclass(frozen=True)
class RecallRecord:
    """One recall as the spool keeps it: when, whose, which memories."""

    time: datetime
    user: str
    ids: tuple[str, ...]

    def to_line(self) -> str:
        return json.dumps({"t": self.time.isoformat(), "u": self.user, "ids": list(self.ids)}, separators=(",", ":")) + "\n"

    @classmethod
    def from_line(cls, line: str) -> "RecallRecord | None":
        """The record of one spool line; None for a torn line a crash left behind."""
        try:
            rec = json.loads(line)
            return cls(datetime.fromisoformat(rec["t"]), str(rec["u"]), tuple(str(i) for i in rec["ids"]))
        except (ValueError, KeyError, TypeError):
            return None


@dataclass
class Pending:
    """What the spool holds: every record, and per memory its count and latest time."""

    counts: Counter[str] = field(default_factory=Counter)
    last: dict[str, datetime] = field(default_factory=dict)
    recalls: list[RecallRecord] = field(default_factory=list)

    def add(self, rec: RecallRecord) -> None:
        self.recalls.append(rec)
        for mid in rec.ids:
            self.counts[mid] += 1
            if mid not in self.last or rec.time > self.last[mid]:
                self.last[mid] = rec.time


class RecallSpool:
    def __init__(self, store_dir: Path) -> None:
        self.path = store_dir / SPOOL_NAME
        self._lock_path = store_dir / "recalls.lock"

    def _lock(self):  # type: ignore[no-untyped-def]
        import filelock

        return filelock.FileLock(str(self._lock_path))

    def record(self, user: str, ids: list[str], when: datetime) -> None:
        if not ids:
            return
        line = RecallRecord(when, user, tuple(ids)).to_line()
        with self._lock():
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(line)

    def _files(self) -> list[Path]:
        return [p for p in (self.taking, self.path) if p.exists()]

    @property
    def taking(self) -> Path:
        return self.path.with_suffix(".taking")

    def pending(self, files: list[Path] | None = None) -> Pending:
        """What the spool holds (both the live and the set-aside file unless `files`)."""
        out = Pending()
        for path in self._files() if files is None else [p for p in files if p.exists()]:
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    rec = RecallRecord.from_line(line)
                    if rec is not None:
                        out.add(rec)
        return out

    def take(self) -> Pending:
        """Move the spool aside and read it; `done()` deletes it once applied.

        The caller holds the store lock. Recalls that arrive meanwhile start a new spool;
        if applying fails, the next take reads the set-aside file again.
        """
        with self._lock():
            if self.path.exists():
                if self.taking.exists():
                    with open(self.taking, "a", encoding="utf-8") as out, open(self.path, encoding="utf-8") as src:
                        out.write(src.read())
                    os.remove(self.path)
                else:
                    os.replace(self.path, self.taking)
        return self.pending([self.taking])

    def done(self) -> None:
        if self.taking.exists():
            os.remove(self.taking)

    def size(self) -> int:
        return sum(p.stat().st_size for p in self._files())
