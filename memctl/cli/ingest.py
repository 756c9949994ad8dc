from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from .common import DryRunOpt, JsonlOpt, JsonOpt, StoreOpt, TableOpt, TsvOpt, open_from, output


def ingest(
    paths: Annotated[List[str], typer.Argument(help="Conversation files or folders; - reads standard input.")],
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="User id for conversations that name none.")] = None,
    session: Annotated[Optional[str], typer.Option("--session", help="Session id for conversations that name none.")] = None,
    input_format: Annotated[Optional[str], typer.Option("--input-format", "-i", help="Input: json, jsonl or transcript (default: by extension).")] = None,
    old_format: Annotated[Optional[str], typer.Option("--format", hidden=True, help="Old name of --input-format.")] = None,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
    jsonl: JsonlOpt = False,
    tsv: TsvOpt = False,
    table: TableOpt = False,
    store: StoreOpt = None,
) -> None:
    """Extract durable memories from conversation logs, offline.

    Every file is checked before anything is written: a malformed one stops the
    ingest with exit code 2 and the store unchanged. Ingesting the same turns again
    adds nothing.

    Example:

        memctl ingest sample_conversations/
        cat chat.jsonl | memctl ingest - --input-format jsonl --user u42
    """
    from . import render
    from ..errors import UsageError

    fmt = output(as_json, jsonl, tsv, table)
    if old_format is not None and input_format is not None and old_format != input_format:
        raise UsageError("give --input-format once (--format is its old name)")
    s = open_from(store)
    with render.progress_bar("ingesting") as advance:
        report = s.ingest(paths, user=user, session=session, fmt=input_format or old_format, dry_run=dry_run, progress=advance)
    render.ingest(report, fmt)
