from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import JsonOpt


def init(
    directory: Annotated[Path, typer.Argument(help="Folder to create .memctl/ in.")] = Path("."),
    model: Annotated[
        Optional[str],
        typer.Option("--model", help="Embedding model: use-multilingual-v3 (default), all-MiniLM-L6-v2, hash-ngram-256, or st:<folder>."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a memory store (.memctl/ with memctl.toml holding every default).

    Example:

        memctl init            # in the current folder
        memctl init ~/agent --model all-MiniLM-L6-v2
    """
    from .render import dump_json
    from ..store import init_store

    store = init_store(directory, model=model)
    if as_json:
        dump_json({"store": str(store.dir), "model": store.meta["model"], "dim": int(store.meta["dim"])})
    else:
        typer.echo(f"Created memctl store at {store.dir} (model {store.meta['model']}).", err=True)
        typer.echo(str(store.dir))
