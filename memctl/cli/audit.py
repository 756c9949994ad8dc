from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import JsonlOpt, JsonOpt, StoreOpt, TableOpt, TsvOpt, open_from, output


def audit(
    user: Annotated[Optional[str], typer.Option("--user", "-u", help="Only this user's memories.")] = None,
    memory_id: Annotated[Optional[str], typer.Option("--id", help="Trace one memory: sources, versions, merges, recalls.")] = None,
    check: Annotated[bool, typer.Option("--check", help="Exit 1 when a health figure is over its limit in memctl.toml ([audit]).")] = False,
    as_json: JsonOpt = False,
    jsonl: JsonlOpt = False,
    tsv: TsvOpt = False,
    table: TableOpt = False,
    store: StoreOpt = None,
) -> None:
    """Show what the store holds and how healthy it is, or where one memory came from.

    Counts by user, type and status; model, schema and table versions, size on disk;
    near-duplicate and contradicting pairs, stale and expired memories, low-confidence
    inferences, the noise ratio, anything that looks like a secret, a model mismatch.

    Example:

        memctl audit --check            # in CI: exit 1 when a figure is over its limit
        memctl audit --user xiaolin --json
        memctl audit --id 3f2a9c0d1e2b4a5c
    """
    from . import render
    from ..errors import MemctlError, UsageError

    fmt = output(as_json, jsonl, tsv, table)
    s = open_from(store, check_model=False)
    if memory_id is not None:
        if user is not None or check:
            raise UsageError("--id traces one memory: it takes neither --user nor --check")
        render.trace(s.trace(memory_id), fmt)
        return
    report = s.audit(user)
    render.audit(report, fmt)
    if check and report.failures:
        raise MemctlError("audit check failed: " + "; ".join(f"{f.name} {f.value} > {f.limit}" for f in report.failures))
