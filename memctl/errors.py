"""One error hierarchy for the library; the CLI maps it to exit codes in one place.

Exit codes (a contract relied on by scripts):
  0 success, 1 runtime or data error, 2 bad usage or bad input.
"""

from __future__ import annotations


class MemctlError(Exception):
    """Base class: a runtime or data error (exit code 1)."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        # One line: the CLI prints exactly this after "memctl: error: ".
        super().__init__(" ".join(str(message).split()))

    @property
    def message(self) -> str:
        return str(self)


class UsageError(MemctlError):
    """Bad usage: a wrong option value or combination (exit code 2)."""

    exit_code = 2


class InputError(UsageError):
    """Bad input data: a malformed, unreadable or missing conversation file (exit code 2)."""


class StoreWriteError(MemctlError):
    """The storage refused a write: a full disk, a file-size limit, an I/O error."""


class StoreDamagedError(MemctlError):
    """A file of the store is damaged (cut short, missing)."""


class StoreNotFoundError(MemctlError):
    """No store where one was expected."""


class StoreExistsError(MemctlError):
    """`init` on a directory that already holds a store."""


class ConfigError(MemctlError):
    """memctl.toml is unreadable or holds an invalid value."""


class ModelMismatchError(MemctlError):
    """The configured embedding model differs from the one that made the stored vectors."""


class ModelUnavailableError(MemctlError):
    """The configured embedding model cannot be loaded offline."""


class LockTimeoutError(MemctlError):
    """Another process held the store lock for longer than the configured timeout."""


class NotFoundError(MemctlError):
    """A memory id or chain id that the store does not hold."""


class SchemaError(MemctlError):
    """The store was written by a newer memctl, or a migration failed."""
