from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import JsonlOpt, JsonOpt, StoreOpt, TableOpt, TsvOpt, now_utc, open_from, output


def diff(
    memory_id: Annotated[Optional[str], typer.Argument(metavar="[ID]", help="A memory or chain id: show its versions.")] = None,
    since: Annotated[Optional[str], typer.Option("--since", help="Changes after this time, age (24h, 7d) or store version.")] = None,
    start: Annotated[Optional[str], typer.Option("--from", help="Same as --since.")] = None,
    end: Annotated[Optional[str], typer.Option("--to", help="Changes up to this time, age or store version (default: now).")] = None,
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="With --since/--from: only this user's changes.")] = None,
    as_json: JsonOpt = False,
    jsonl: JsonlOpt = False,
    tsv: TsvOpt = False,
    table: TableOpt = False,
    store: StoreOpt = None,
) -> None:
    """Show how one memory changed, or what changed in the store between two points.

    With an ID: every version, oldest first, with its time, cause (ingest, update,
    correction, contradiction, merge, expiry, archive) and a word diff (character diff
    for Chinese). With --since/--from [--to]: what was added, corrected, merged,
    superseded, expired, archived and forgotten (forgotten memories by id and time only).

    Example:

        memctl diff 3f2a9c0d1e2b4a5c
        memctl diff --since 24h --json          # what last night's compaction changed
        memctl diff --from 12 --to 15 --user xiaolin
    """
    from . import render
    from ..errors import UsageError
    from ..history import parse_point

    fmt = output(as_json, jsonl, tsv, table)
    if since is not None and start is not None:
        raise UsageError("give --since or --from, not both")
    start = since if since is not None else start
    if memory_id is not None:
        if start is not None or end is not None or user is not None:
            raise UsageError("an ID shows one memory's versions: it takes no --since/--from/--to/--user")
        render.history(open_from(store, check_model=False).history(memory_id), fmt)
        return
    if start is None:
        raise UsageError("give a memory ID, or --since/--from to compare two points of the store")
    now = now_utc()
    first = parse_point(start, "--since" if since is not None else "--from", now)
    last = parse_point(end, "--to", now) if end is not None else None
    render.store_diff(open_from(store, check_model=False).diff(first, last, user), fmt)
