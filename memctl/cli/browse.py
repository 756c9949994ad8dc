from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from .common import JsonlOpt, JsonOpt, StoreOpt, TableOpt, TsvOpt, open_from, output, parse_when


def browse(
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="Only this user's items.")] = None,
    kinds: Annotated[Optional[List[str]], typer.Option("--kind", help="memory (default) or episode (repeatable).")] = None,
    types: Annotated[Optional[List[str]], typer.Option("--type", "-t", help="Only memories of this type (repeatable).")] = None,
    statuses: Annotated[Optional[List[str]], typer.Option("--status", "-s", help="active (default), superseded, archived, outdated; repeatable.")] = None,
    all_statuses: Annotated[bool, typer.Option("--all-statuses", help="Every status.")] = False,
    subject: Annotated[Optional[str], typer.Option("--subject", help="Only memories about this subject: user, or a relation such as sister, dog.")] = None,
    since: Annotated[Optional[str], typer.Option("--since", help="Updated (or said) at or after this ISO-8601 time.")] = None,
    until: Annotated[Optional[str], typer.Option("--until", help="Updated (or said) at or before this ISO-8601 time.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many, newest first; 0 for all.")] = 50,
    as_json: JsonOpt = False,
    jsonl: JsonlOpt = False,
    tsv: TsvOpt = False,
    table: TableOpt = False,
    store: StoreOpt = None,
) -> None:
    """List memories (and episodes) without a query, newest first.

    Filters combine: user, kind, type, status, subject and a time range. Without a
    format flag: a table on a terminal, tab-separated rows in a pipe (kind, user, type,
    status, subject, time, content, id).

    Example:

        memctl list --user xiaolin
        memctl list --user sam --type preference --status superseded --json
        memctl list --user kai --kind episode --since 2026-11-01 --limit 0
    """
    from ..errors import UsageError
    from . import render

    fmt = output(as_json, jsonl, tsv, table)
    if limit < 0:
        raise UsageError("--limit must be 0 (all) or more")
    if all_statuses and statuses:
        raise UsageError("give --status or --all-statuses, not both")
    start, end = parse_when(since, "--since"), parse_when(until, "--until")
    if start and end and start > end:
        raise UsageError("--since is after --until")
    s = open_from(store, check_model=False)
    found = s.browse(user=user, kinds=kinds or ["memory"], types=types, statuses=None if all_statuses else (statuses or ["active"]),
                     subject=subject, since=start, until=end, limit=limit)
    render.listing(found, fmt)
