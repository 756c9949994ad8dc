from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import DryRunOpt, JsonlOpt, JsonOpt, StoreOpt, TableOpt, TsvOpt, open_from, output


def compact(
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="Only this user's memories.")] = None,
    wait: Annotated[bool, typer.Option("--wait", help="Wait for a running compaction instead of exiting 1.")] = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
    jsonl: JsonlOpt = False,
    tsv: TsvOpt = False,
    table: TableOpt = False,
    store: StoreOpt = None,
) -> None:
    """Merge duplicates, supersede contradictions, expire goals and tasks, archive cold
    memories, and tidy the store files. Built for cron: exit 0 ok, 1 failure.

    Safe while other processes ingest; a second compaction exits 1 (or waits with --wait).
    A second run right after the first changes nothing.

    Example:

        memctl compact --dry-run
        0 3 * * * cd /srv/agent && memctl compact --json >> compact.log
    """
    from . import render

    fmt = output(as_json, jsonl, tsv, table)
    s = open_from(store)
    with render.progress_bar("compacting") as advance:
        report = s.compact(user=user, dry_run=dry_run, wait=wait, progress=advance)
    render.compact(report, fmt)
