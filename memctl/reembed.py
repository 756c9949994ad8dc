"""Rebuilding every vector of a store with another embedding model.

The store refuses to open when memctl.toml names a model other than the one that made
its vectors (vectors of two models cannot be compared). `reembed` is the way through:
it embeds every memory (all versions) and every source turn again with the configured
model, rewrites the memories table with the new dimension, records the model, and
drops the old table versions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
import pyarrow as pa

from .migrations import write_meta
from .schema import memories_schema

if TYPE_CHECKING:
    from .store import MemoryStore


@dataclass
class ReembedReport:
    old_model: str
    new_model: str
    dim: int
    memories: int
    contexts: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def reembed(store: "MemoryStore", progress: Callable[[int, int], None] | None = None) -> ReembedReport:
    import time

    from .embedding import get_embedder

    start = time.perf_counter()
    old_model = store.meta.get("model", "?")
    embedder = get_embedder(store.config.embedding.model)
    with store.lock.hold():
        store._flush_recalls()
        table = store.db.to_table("memories")
        rows = table.drop_columns([c for c in ("vector", "context_vector") if c in table.column_names]).to_pylist()
        size = store.config.embedding.batch_size
        done = 0

        def embed(texts: list[str]) -> np.ndarray:
            nonlocal done
            out = []
            for i in range(0, len(texts), size):
                out.append(embedder.embed(texts[i : i + size]))
                done += len(texts[i : i + size])
                if progress:
                    progress(done, total)
            return np.vstack(out) if out else np.zeros((0, embedder.dim), dtype=np.float32)

        texts = sorted({r["context_text"] for r in rows if r.get("context_text")})
        total = len(rows) + len(texts)
        vectors = embed([r["content"] for r in rows])
        context = dict(zip(texts, embed(texts)))
        for row, vector in zip(rows, vectors):
            row["vector"] = vector
            text = row.get("context_text")
            row["context_vector"] = context[text].astype(np.float16) if text else None
        schema = memories_schema(embedder.dim)
        import lance

        lance.write_dataset(pa.Table.from_pylist(rows, schema=schema), store.db.table_uri("memories"), schema=schema, mode="overwrite")
        store.meta.update(model=embedder.model_id, dim=str(embedder.dim))
        write_meta(store.db, store.meta)
        store.db.ensure_index("memories", "user_id")
        store._append_events([{"kind": "reembedded", "count": len(rows), "detail": {"from": old_model, "to": embedder.model_id}}],
                             store.db.version("memories"), store.clock())
        store.db.optimize("memories", purge=True)
    store._embedder = embedder
    return ReembedReport(old_model, embedder.model_id, embedder.dim, len(rows), len(texts), time.perf_counter() - start)
