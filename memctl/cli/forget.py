from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from .common import DryRunOpt, JsonlOpt, JsonOpt, StoreOpt, TableOpt, TsvOpt, YesOpt, confirm, open_from, output


def forget(
    ids: Annotated[Optional[List[str]], typer.Option("--id", help="A memory version or an episode to forget (repeatable).")] = None,
    chain: Annotated[Optional[str], typer.Option("--chain", help="Forget every version of this memory.")] = None,
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="Forget this user's memories (all, or narrowed).")] = None,
    types: Annotated[Optional[List[str]], typer.Option("--type", "-t", help="With --user: only this type (repeatable).")] = None,
    query: Annotated[Optional[str], typer.Option("--query", "-q", help="With --user: memories and episodes matching this.")] = None,
    session: Annotated[Optional[str], typer.Option("--session", help="With --user: that session's episodes and what was said only in it.")] = None,
    dry_run: DryRunOpt = False,
    yes: YesOpt = False,
    as_json: JsonOpt = False,
    jsonl: JsonlOpt = False,
    tsv: TsvOpt = False,
    table: TableOpt = False,
    store: StoreOpt = None,
) -> None:
    """Delete memories and episodes for real: rows, all versions, the words in the turns
    they came from, and old file versions.

    Nothing of the text is left in any file of the store; the event log keeps only ids,
    a keyed hash and the time. Re-ingesting the same old log brings nothing back.

    Example:

        memctl forget --user xiaolin --query "我的地址" --dry-run
        memctl forget --chain 3f2a9c0d1e2b4a5c --yes
        memctl forget --user kai --session standup-2026-11-02 --yes
    """
    from . import render

    fmt = output(as_json, jsonl, tsv, table)
    s = open_from(store)
    plan = s.forget(ids=ids, chain=chain, user=user, types=types, query=query, session=session, dry_run=True)
    if dry_run or plan.empty:
        render.forget(plan, fmt)
        return
    if not yes:
        render.forget(plan, "table", stderr=True)
        if not confirm(f"Forget these {len(plan.memories)} memories and {len(plan.episodes)} episodes for good?"):
            raise typer.Abort()
    with render.progress_bar("forgetting"):
        done = s.apply_forget(plan)
    render.forget(done, fmt)
