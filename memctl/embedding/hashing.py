"""A deterministic embedder with no model: hashed character n-grams.

Used by the unit tests and for CI fixtures: same text, same vector, on every machine,
in microseconds. Texts sharing words or Chinese characters get similar vectors; it has
no notion of meaning, so it is not offered as a default.
"""

from __future__ import annotations

import re
import zlib
from typing import Sequence

import numpy as np

_WORD = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]")


class HashEmbedder:
    def __init__(self, model_id: str, dim: int = 256) -> None:
        self.model_id = model_id
        self.dim = dim

    def _features(self, text: str) -> list[str]:
        units = _WORD.findall(text.lower())
        feats = list(units)
        feats += [a + b for a, b in zip(units, units[1:])]
        for u in units:
            if len(u) > 3:
                feats += [u[i : i + 3] for i in range(len(u) - 2)]
        return feats

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat in self._features(text):
                h = zlib.crc32(feat.encode("utf-8"))
                out[row, h % self.dim] += 1.0 if (h >> 16) & 1 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out /= np.maximum(norms, 1e-12)
        out[norms[:, 0] == 0, 0] = 1.0
        return out
