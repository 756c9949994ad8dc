"""Rebuilding every vector of a store with another embedding model.

The store refuses to open when memctl.toml names a model other than the one that made
its vectors (vectors of two models cannot be compared). `reembed` is the way through:
it embeds every memory (all versions) and every episode again with the configured
model, rewrites both tables with the new dimension (a memory's context vector is its
source turn's new vector), records the model, and drops the old table versions. Search
indexes on the vectors are built again by the next `compact`.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
import pyarrow as pa

from .core import Core
from .embedding import embed_batched, get_embedder
from .migrations import write_meta
from .results import ReembedReport
from .schema import MEMORY_COLUMNS, Event, context_input, episodes_schema, memories_schema


def reembed(core: Core, model: str | None = None, progress: Callable[[int, int], None] | None = None) -> ReembedReport:
    """Rebuild every vector with `model` (written to memctl.toml first) or the configured one."""
    if model is not None:
        core.config.embedding.use_model(model)
        core.save_config()
    start = time.perf_counter()
    old_model = core.meta.get("model", "?")
    embedder = get_embedder(core.config.embedding.model)
    size = core.config.embedding.batch_size
    with core.lock.hold():
        core.flush_recalls()
        table = core.db.to_table("memories", columns=MEMORY_COLUMNS + ["context_text", "context_vector"])
        had_context = table.column("context_vector").is_valid().to_pylist()
        rows = table.drop_columns(["context_vector"]).to_pylist()
        # Every turn with text gets the vector ingest gives it (context_input); a memory's
        # context vector is its source turn's. A memory whose context a forget dropped
        # keeps none.
        turns = core.db.to_table("episodes").drop_columns(["vector"]).to_pylist()
        with_text = [t for t in turns if t["content"] is not None]
        total = len(rows) + len(with_text)

        def report(offset: int) -> Callable[[int], None] | None:
            return (lambda done: progress(offset + done, total)) if progress else None

        vectors = embed_batched(embedder, [r["content"] for r in rows], size, report(0))
        turn_vectors = embed_batched(embedder, [context_input(t["content"], t["context"]) for t in with_text], size,
                                     report(len(rows)))
        by_key = {t["turn_key"]: v for t, v in zip(with_text, turn_vectors)}
        for row, vector, has in zip(rows, vectors, had_context):
            row["vector"] = vector
            key = next((s["turn_key"] for s in row["sources"] or [] if s["turn_key"] in by_key), None)
            row["context_vector"] = by_key[key].astype(np.float16) if has and key is not None else None
        keep_vectors = core.config.episodes.enabled
        for t in turns:
            t["vector"] = by_key.get(t["turn_key"]) if keep_vectors else None
        core.db.overwrite("episodes", pa.Table.from_pylist(turns, schema=episodes_schema(embedder.dim)))
        for column in ("turn_key", "user_id"):
            core.db.ensure_index("episodes", column)
        schema = memories_schema(embedder.dim)
        core.db.overwrite("memories", pa.Table.from_pylist(rows, schema=schema))
        core.meta.update(model=embedder.model_id, dim=str(embedder.dim))
        write_meta(core.db, core.meta)
        core.db.ensure_index("memories", "user_id")
        core.append_events([Event("reembedded", count=len(rows), detail={"from": old_model, "to": embedder.model_id})],
                           core.db.version("memories"), core.clock())
        for name in ("memories", "episodes"):
            core.db.optimize(name, purge=True)
    core.use_embedder(embedder)
    return ReembedReport(old_model, embedder.model_id, embedder.dim, len(rows), len(with_text), time.perf_counter() - start)
