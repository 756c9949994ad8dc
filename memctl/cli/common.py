"""What every command shares: the --store option, output options, opening the store."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

if TYPE_CHECKING:
    from ..store import MemoryStore

StoreOpt = Annotated[
    Optional[Path],
    typer.Option("--store", metavar="DIR", help="Store to use (default: $MEMCTL_STORE, else the nearest .memctl/ upward)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON to stdout instead of a table.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Show what would change; change nothing.")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]
# Output formats of `recall` (render.recall draws each).
RECALL_FORMATS = ("table", "json", "jsonl", "prompt")


def open_from(store: Path | None, *, preload_model: bool = False, check_model: bool = True) -> "MemoryStore":
    from ..store import open_store

    return open_store(store, preload_model=preload_model, check_model=check_model)


def parse_when(value: str | None, option: str) -> datetime | None:
    """An ISO-8601 date or time from the command line; naive values are UTC."""
    if value is None:
        return None
    from ..conversations import parse_time
    from ..errors import UsageError, InputError

    try:
        return parse_time(value, option)
    except InputError as exc:
        raise UsageError(str(exc)) from None


def confirm(question: str) -> bool:
    """Ask on a terminal; refuse (rather than hang or assume yes) when there is none."""
    import sys

    from ..errors import UsageError

    if not sys.stdin.isatty():
        raise UsageError("refusing to change the store without confirmation: pass --yes")
    return typer.confirm(question, default=False, err=True)


def now_utc() -> datetime:
    return datetime.now(timezone.utc)
