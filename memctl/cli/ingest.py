from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from .common import DryRunOpt, JsonOpt, StoreOpt, open_from


def ingest(
    paths: Annotated[List[str], typer.Argument(help="Conversation files or folders; - reads standard input.")],
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="User id for conversations that name none.")] = None,
    session: Annotated[Optional[str], typer.Option("--session", help="Session id for conversations that name none.")] = None,
    fmt: Annotated[Optional[str], typer.Option("--format", "-f", help="json, jsonl or transcript (default: by extension).")] = None,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
    store: StoreOpt = None,
) -> None:
    """Extract durable memories from conversation logs, offline.

    Every file is checked before anything is written: a malformed one stops the
    ingest with exit code 2 and the store unchanged. Ingesting the same turns again
    adds nothing.

    Example:

        memctl ingest sample_conversations/
        cat chat.jsonl | memctl ingest - --format jsonl --user u42
    """
    from . import render

    report = open_from(store).ingest(paths, user=user, session=session, fmt=fmt, dry_run=dry_run)
    render.ingest(report, as_json)
