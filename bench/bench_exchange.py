"""Export and import at scale: 100,000 memories over 1,000 users exported as JSON Lines,
then imported into a fresh store (vectors computed by the importing store's model).

The import's cost is mostly the embedding of every memory: measured with the hash model
(no neural network: the storage and checking cost) and with the default model, on all
100,000 each."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import synthetic
from common import table


def run(total: int = 100_000, users: int = 1_000, default_model_sample: int | None = None) -> dict[str, float]:
    from memctl import init_store

    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        source = init_store(Path(tmp) / "source", model="hash-ngram-256")
        synthetic.build(source, total, users=users)
        path = Path(tmp) / "all.jsonl"
        start = time.perf_counter()
        with open(path, "w", encoding="utf-8") as fh:
            for record in source.export():
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        out["export"] = time.perf_counter() - start
        lines = path.read_text(encoding="utf-8").split("\n")
        target = init_store(Path(tmp) / "hash", model="hash-ngram-256")
        start = time.perf_counter()
        report = target.import_records(lines, str(path))
        out["import_hash"] = time.perf_counter() - start
        assert report.memories == total, report
        sample = [line for line in lines if line][:default_model_sample or total]
        real = init_store(Path(tmp) / "use")
        real.embed(["warm up"])
        start = time.perf_counter()
        real.import_records(sample, str(path))
        out["import_default_sample"] = time.perf_counter() - start
    rows = [
        [f"export {total:,} memories to JSON Lines", out["export"], "≤ 10 s"],
        [f"import {total:,} memories, hash model", out["import_hash"], "≤ 60 s"],
        [f"import {len(sample):,} memories, default model", out["import_default_sample"], "≤ 60 s"],
    ]
    table("Export and import (seconds)", ["step", "seconds", "target"], rows)
    return out


if __name__ == "__main__":
    run()
