"""What every command shares: the --store option, output options, opening the store."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional, TextIO

import typer

if TYPE_CHECKING:
    from ..store import MemoryStore

StoreOpt = Annotated[
    Optional[Path],
    typer.Option("--store", metavar="DIR", help="Store to use (default: $MEMCTL_STORE, else the nearest .memctl/ upward)."),
]
# One set of output options for every command that prints rows. Without one: a table on a
# terminal, tab-separated lines (no header, like gh) when stdout is a pipe or a file.
JsonOpt = Annotated[bool, typer.Option("--json", help="Output: one JSON document.")]
JsonlOpt = Annotated[bool, typer.Option("--jsonl", "--nl", help="Output: JSON Lines, one row per line.")]
TsvOpt = Annotated[bool, typer.Option("--tsv", help="Output: tab-separated rows (the default when stdout is not a terminal).")]
TableOpt = Annotated[bool, typer.Option("--table", help="Output: a table (the default on a terminal).")]
OUTPUTS = ("table", "tsv", "json", "jsonl")
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Show what would change; change nothing.")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]
# Output formats of `recall` (render.recall draws each).
RECALL_FORMATS = ("table", "json", "jsonl", "prompt")


class PipeClosed(Exception):
    """The reader of stdout went away (`| head -1`): not an error. Deliberately not an
    OSError, which Click would turn into exit 1."""


def write(out: "TextIO", text: str) -> None:
    try:
        out.write(text)
    except BrokenPipeError:
        raise PipeClosed from None


_VERBOSE = False


def verbose() -> bool:
    """--verbose (or MEMCTL_VERBOSE=1): notes on stderr about what was skipped and why."""
    import os

    return _VERBOSE or os.environ.get("MEMCTL_VERBOSE") == "1"


def set_verbose(on: bool) -> None:
    global _VERBOSE
    _VERBOSE = on


def output(as_json: bool = False, jsonl: bool = False, tsv: bool = False, table: bool = False, fmt: str | None = None) -> str:
    """The output format a command's flags ask for, or the default for where stdout goes."""
    import sys

    from ..errors import UsageError

    chosen = [name for name, on in (("json", as_json), ("jsonl", jsonl), ("tsv", tsv), ("table", table)) if on]
    if fmt is not None:
        chosen.append(fmt)
    if len(set(chosen)) > 1:
        raise UsageError("give one output format: --json, --jsonl, --tsv or --table")
    if chosen:
        return chosen[0]
    return "table" if sys.stdout.isatty() else "tsv"


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
