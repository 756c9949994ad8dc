from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import DryRunOpt, JsonOpt, StoreOpt, open_from


def export(
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="Only this user's memories (and episodes).")] = None,
    episodes: Annotated[bool, typer.Option("--episodes", help="Also the episodes (the turns as said).")] = False,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE", help="Write to FILE instead of stdout.")] = None,
    to: Annotated[Optional[str], typer.Option("--to", help="Another tool's format: deerflow (a memory.json; needs --user).")] = None,
    store: StoreOpt = None,
) -> None:
    """Export memories (every version, with sources, subjects, status and times) and
    optionally episodes as JSON Lines, one record per line; or, with --to deerflow, one
    user's memories as the memory.json DeerFlow loads.

    Example:

        memctl export --user xiaolin -o xiaolin.jsonl
        memctl export --episodes > backup.jsonl
        memctl export --to deerflow --user xiaolin -o memory.json
    """
    import json

    from ..errors import UsageError

    if to is not None and to != "deerflow":
        raise UsageError(f"--to: unknown format {to!r} (use deerflow)")
    if to == "deerflow" and (user is None or episodes):
        raise UsageError("--to deerflow exports one user's memories: give --user, without --episodes")
    s = open_from(store, check_model=False)
    if to == "deerflow":
        from ..deerflow import to_memory_json

        assert user is not None
        doc = to_memory_json(s.browse(user=user, limit=0).items, s.core.clock(), s.profile(user))
        text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
        lines = [text]
    else:
        lines = (json.dumps(r, ensure_ascii=False) + "\n" for r in s.export(user, episodes=episodes))
    if output is None:
        from .common import write
        import sys

        for line in lines:
            write(sys.stdout, line)
        return
    tmp = output.with_name(output.name + ".part")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.writelines(lines)
        tmp.replace(output)  # a reader never sees half a file
    finally:
        tmp.unlink(missing_ok=True)


def import_(
    source: Annotated[str, typer.Argument(metavar="FILE|-", help="JSON Lines from `memctl export` (or - for stdin); with --from deerflow, a memory.json or a DeerFlow folder.")],
    from_: Annotated[Optional[str], typer.Option("--from", help="Another tool's format: deerflow.")] = None,
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="With --from deerflow: whose memories these are.")] = None,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
    store: StoreOpt = None,
) -> None:
    """Import memories (and episodes) without extraction: from `memctl export` JSON Lines,
    a hand-written fixture, or DeerFlow's memory.

    Every line is checked before anything is written (a bad line: exit 2 naming it). An
    id already in the store is skipped, so importing twice changes nothing; a memory the
    store has forgotten is never brought back. Vectors come from this store's model.

    Example:

        memctl import fixtures/memories.jsonl
        memctl import --from deerflow ~/.deer-flow/memory.json --user xiaolin
    """
    import sys

    from ..errors import InputError, UsageError
    from .render import dump_json

    if from_ is not None and from_ != "deerflow":
        raise UsageError(f"--from: unknown format {from_!r} (use deerflow)")
    if from_ == "deerflow":
        if user is None:
            raise UsageError("--from deerflow needs --user: DeerFlow's memory names no user")
        from ..deerflow import read_deerflow

        lines, name, unit = read_deerflow(Path(source), user), source, "fact"
    else:
        if user is not None:
            raise UsageError("--user goes with --from deerflow; JSON Lines records name their user")
        if source == "-":
            lines, name, unit = sys.stdin.read().split("\n"), "<stdin>", "line"
        else:
            path = Path(source)
            if not path.is_file():
                raise InputError(f"{source}: no such file")
            try:
                lines, name, unit = path.read_text(encoding="utf-8").split("\n"), source, "line"
            except UnicodeDecodeError as exc:
                raise InputError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    report = open_from(store).import_records(lines, name, dry_run=dry_run, unit=unit)
    if as_json:
        dump_json(report.to_dict())
        return
    verb = "Would import" if dry_run else "Imported"
    typer.echo(f"{verb} {report.memories} memories and {report.episodes} episodes of {len(report.users)} user(s); "
               f"skipped {report.skipped_existing} already stored, {report.skipped_forgotten} forgotten.", err=True)
