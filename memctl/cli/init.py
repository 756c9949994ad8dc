from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import JsonOpt, StoreOpt


def init(
    directory: Annotated[Optional[Path], typer.Argument(help="Folder to create .memctl/ in (default: --store, $MEMCTL_STORE, else here).")] = None,
    model: Annotated[
        Optional[str],
        typer.Option("--model", help="Embedding model: use-multilingual-v3 (default), all-MiniLM-L6-v2, hash-ngram-256, or st:<folder>."),
    ] = None,
    as_json: JsonOpt = False,
    store: StoreOpt = None,
) -> None:
    """Create a memory store (.memctl/ with memctl.toml holding every default).

    Example:

        memctl init            # in the current folder
        memctl init ~/agent --model all-MiniLM-L6-v2
        MEMCTL_STORE=/srv/agent memctl init
    """
    import os

    from .render import dump_json
    from ..config import STORE_DIRNAME, STORE_ENV
    from ..errors import UsageError
    from ..store import init_store

    if directory is not None and store is not None and directory != store:
        raise UsageError("give the folder once: as an argument or as --store")
    target = directory or store or Path(os.environ.get(STORE_ENV) or ".")
    if target.name == STORE_DIRNAME:
        target = target.parent  # --store names the .memctl/ folder itself, as every command accepts
    s = init_store(target, model=model)
    if as_json:
        dump_json({"store": str(s.dir), "model": s.meta["model"], "dim": int(s.meta["dim"])})
    else:
        import sys

        from .common import write

        typer.echo(f"Created memctl store at {s.dir} (model {s.meta['model']}).", err=True)
        write(sys.stdout, f"{s.dir}\n")


def path(store: StoreOpt = None) -> None:
    """Print the store a command would use: --store, else $MEMCTL_STORE, else the
    nearest .memctl/ in this folder or a parent.

    Example:

        memctl path
        du -sh "$(memctl path)"
    """
    import sys

    from ..config import resolve_store_dir
    from .common import write

    write(sys.stdout, f"{resolve_store_dir(store)}\n")
