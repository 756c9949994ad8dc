from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import JsonlOpt, JsonOpt, StoreOpt, TableOpt, TsvOpt, open_from, output


def profile(
    user: Annotated[str, typer.Option("--user", "-u", help="Whose profile (required).")],
    markdown: Annotated[bool, typer.Option("--markdown", help="Output: Markdown.")] = False,
    fmt: Annotated[Optional[str], typer.Option("--format", "-f", help="table, tsv, json, jsonl, markdown or prompt.")] = None,
    budget: Annotated[Optional[int], typer.Option("--budget", help="Token budget of --format prompt (default: prompt.budget).")] = None,
    as_json: JsonOpt = False,
    jsonl: JsonlOpt = False,
    tsv: TsvOpt = False,
    table: TableOpt = False,
    store: StoreOpt = None,
) -> None:
    """Show a user's profile in three levels, built offline from their memories: who they
    are now (work context, personal context, top of mind), their history (recent months,
    earlier context, long-term background) and the facts. Every line carries the id of
    the memory it comes from (memctl audit --id ID traces it).

    Example:

        memctl profile --user xiaolin
        memctl profile --user sam --markdown > sam.md
        memctl profile --user kai --format prompt --budget 200
    """
    import sys

    from ..errors import UsageError
    from . import render
    from .common import write

    if fmt is not None and fmt not in ("table", "tsv", "json", "jsonl", "markdown", "prompt"):
        raise UsageError("--format must be one of table, tsv, json, jsonl, markdown, prompt")
    if markdown and fmt not in (None, "markdown"):
        raise UsageError("give one output format")
    fmt = output(as_json, jsonl, tsv, table, "markdown" if markdown else fmt)
    if budget is not None and budget < 1:
        raise UsageError("--budget must be at least 1")
    s = open_from(store, check_model=False)
    p = s.profile(user)
    if fmt == "markdown":
        from ..profile import markdown as to_markdown

        write(sys.stdout, to_markdown(p))
    elif fmt == "prompt":
        from ..profile import prompt

        write(sys.stdout, prompt(p, budget or s.config.prompt.budget) + "\n")
    else:
        render.profile(p, fmt)
