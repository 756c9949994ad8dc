from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from .common import JsonlOpt, JsonOpt, StoreOpt, TableOpt, TsvOpt, output, parse_when, verbose


def recall(
    query: Annotated[str, typer.Argument(help="What the agent is about to answer.")],
    user: Annotated[str, typer.Option("--user", "-u", help="Whose memories (required).")],
    top_k: Annotated[Optional[int], typer.Option("--top-k", "-k", help="How many items (default: recall.top_k_inject).")] = None,
    types: Annotated[Optional[List[str]], typer.Option("--type", "-t", help="Only memories of this type (repeatable; 'episode' for episodes).")] = None,
    kinds: Annotated[Optional[List[str]], typer.Option("--kind", help="Only memories or only episodes: memory | episode.")] = None,
    as_of: Annotated[Optional[str], typer.Option("--as-of", help="What was true at this ISO-8601 time.")] = None,
    include_history: Annotated[bool, typer.Option("--include-history", help="Also superseded and archived versions, and turns whose facts are outdated (marked).")] = False,
    fmt: Annotated[Optional[str], typer.Option("--format", "-f", help="table, tsv, json, jsonl or prompt (default: table on a terminal, tsv otherwise).")] = None,
    as_json: JsonOpt = False,
    jsonl: JsonlOpt = False,
    tsv: TsvOpt = False,
    table: TableOpt = False,
    budget: Annotated[Optional[int], typer.Option("--budget", help="Token budget of --format prompt (default: prompt.budget).")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Show the parts of each score.")] = False,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not note this recall (recall counts); read-only use.")] = False,
    store: StoreOpt = None,
) -> None:
    """Recall what matters for a query from one user's memories and episodes, best first.

    One ranked list of two kinds: memories (curated facts) and episodes (turns as the
    user said them). Ranked by meaning, shared words and topics, importance and recency.
    Only the given user's rows are ever searched. Works on a read-only store: the recall
    is then not noted (see --verbose).

    Example:

        memctl recall "帮我推荐三亚的餐厅" --user xiaolin
        memctl recall "plan my week" --user sam --format prompt --budget 200
    """
    import sys

    from ..config import EPISODE_TYPE, MEMORY_TYPES
    from ..conversations import check_user_id
    from ..errors import InputError, UsageError
    from .common import open_from

    # Every argument is checked before the store opens or a model starts loading.
    if fmt is not None and fmt not in ("table", "tsv", "json", "jsonl", "prompt"):
        raise UsageError("--format must be one of table, tsv, json, jsonl, prompt")
    fmt = output(as_json, jsonl, tsv, table, fmt)
    if not query.strip():
        raise UsageError("the query is empty")
    try:
        check_user_id(user, "--user")
    except InputError as exc:
        raise UsageError(str(exc)) from None
    if budget is not None and budget < 1:
        raise UsageError("--budget must be at least 1")
    if top_k is not None and top_k < 1:
        raise UsageError("--top-k must be at least 1")
    for kind in kinds or ():
        if kind not in ("memory", "episode"):
            raise UsageError(f"--kind must be memory or episode, not {kind!r}")
    for t in types or ():
        if t not in MEMORY_TYPES + (EPISODE_TYPE,):
            raise UsageError(f"--type: unknown type {t!r} (use {', '.join(MEMORY_TYPES + (EPISODE_TYPE,))})")
    when = parse_when(as_of, "--as-of")
    # Everything is checked: now the model loads while the storage libraries import.
    _preload_model(store)
    s = open_from(store, preload_model=True)
    result = s.recall(query, user, top_k=top_k, types=types, kinds=kinds, as_of=when, include_history=include_history,
                      record=not no_record)
    if result.note and verbose():
        sys.stderr.write(f"memctl: note: {result.note}\n")
    from . import render

    render.recall(result, fmt, explain=explain, budget=budget or s.config.prompt.budget)


def _preload_model(store: Path | None) -> None:
    """Start loading the store's model before the storage libraries are imported: the
    two take about as long, and a cold recall waits for the longer of them, not both."""
    from ..config import CONFIG_FILENAME, load_config, resolve_store_dir
    from ..embedding import preload
    from ..errors import MemctlError

    try:
        preload(load_config(resolve_store_dir(store) / CONFIG_FILENAME).embedding.model)
    except MemctlError:
        pass  # opening the store reports it
