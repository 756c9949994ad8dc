"""Rebuilding every vector of a store with another embedding model.

The store refuses to open when memctl.toml names a model other than the one that made
its vectors (vectors of two models cannot be compared). `reembed` is the way through:
it embeds every memory (all versions) and every source turn again with the configured
model, rewrites the memories table with the new dimension, records the model, and
drops the old table versions.
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
from .schema import MEMORY_COLUMNS, Event, context_input, context_text, memories_schema


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
        # A context vector embeds what ingest embedded: the source turn whose text the
        # memory keeps, cut as context_input() cuts it. A memory whose context vector a
        # forget dropped keeps none.
        turns = {context_text(r["content"], r["context"]): context_input(r["content"], r["context"]) for r in
                 core.db.rows("turns", columns=["content", "context"], filter="content IS NOT NULL")}
        inputs = sorted({turns.get(r["context_text"], r["context_text"]) for r, has in zip(rows, had_context)
                         if has and r["context_text"]})
        total = len(rows) + len(inputs)

        def report(offset: int) -> Callable[[int], None] | None:
            return (lambda done: progress(offset + done, total)) if progress else None

        vectors = embed_batched(embedder, [r["content"] for r in rows], size, report(0))
        context = dict(zip(inputs, embed_batched(embedder, inputs, size, report(len(rows)))))
        for row, vector, has in zip(rows, vectors, had_context):
            row["vector"] = vector
            text = row["context_text"]
            row["context_vector"] = context[turns.get(text, text)].astype(np.float16) if has and text else None
        schema = memories_schema(embedder.dim)
        core.db.overwrite("memories", pa.Table.from_pylist(rows, schema=schema))
        core.meta.update(model=embedder.model_id, dim=str(embedder.dim))
        write_meta(core.db, core.meta)
        core.db.ensure_index("memories", "user_id")
        core.append_events([Event("reembedded", count=len(rows), detail={"from": old_model, "to": embedder.model_id})],
                           core.db.version("memories"), core.clock())
        core.db.optimize("memories", purge=True)
    core.use_embedder(embedder)
    return ReembedReport(old_model, embedder.model_id, embedder.dim, len(rows), len(inputs), time.perf_counter() - start)
