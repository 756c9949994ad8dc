from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import JsonOpt, StoreOpt, YesOpt, confirm, open_from


def reembed(
    model: Annotated[
        Optional[str], typer.Option("--model", help="Switch to this model (written to memctl.toml) before rebuilding.")
    ] = None,
    yes: YesOpt = False,
    as_json: JsonOpt = False,
    store: StoreOpt = None,
) -> None:
    """Rebuild every vector with the configured (or given) embedding model.

    Needed after changing embedding.model in memctl.toml: until then the store refuses
    to open, since vectors of two models cannot be compared.

    Example:

        memctl reembed --model all-MiniLM-L6-v2 --yes
    """
    from .render import dump_json, progress_bar

    s = open_from(store, check_model=False)
    target = model or s.config.embedding.model
    if not yes and not confirm(f"Rebuild all vectors of {s.dir} with {target}?"):
        raise typer.Abort()
    with progress_bar("embedding") as advance:
        report = s.reembed(model, progress=advance)
    if as_json:
        dump_json(report.to_dict())
    else:
        from .render import console

        console().print(f"Re-embedded {report.memories} memories and {report.contexts} episodes with {report.new_model} "
                        f"({report.dim} dims, was {report.old_model}) in {report.seconds:.1f} s.", markup=False)
