"""The store's write lock, as an interface.

Every write to the store (ingest, forget, compact, recall bookkeeping) happens while
holding it, so writes from many processes are serialised: Lance's `merge_insert` from
concurrent processes can write duplicate keys, and purging old versions
(`delete_unverified=True`) is unsafe while another process writes. Readers never take it.

Today it is a file lock next to memctl.toml; a store on object storage shared by many
hosts would plug in a lock service here without touching callers.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator, Protocol

from .errors import LockTimeoutError


class StoreLock(Protocol):
    def hold(self, timeout: float | None = None) -> contextlib.AbstractContextManager[None]:
        """Hold the lock for the `with` block; raise LockTimeoutError after `timeout` seconds."""


class FileLock:
    def __init__(self, path: Path, default_timeout: float, what: str = "store") -> None:
        import filelock

        self.path = path
        self.default_timeout = default_timeout
        self.what = what
        # Re-entrant within a process: an ingest that runs a forget holds it once.
        self._lock = filelock.FileLock(str(path))

    @contextlib.contextmanager
    def hold(self, timeout: float | None = None) -> Iterator[None]:
        import filelock

        wait = self.default_timeout if timeout is None else timeout
        try:
            self._lock.acquire(timeout=wait)
        except filelock.Timeout:
            raise LockTimeoutError(
                f"another memctl process has held the {self.what} lock ({self.path}) for over {wait:g} s"
            ) from None
        try:
            yield
        finally:
            self._lock.release()
