"""Run the benchmarks and print their tables: `python bench/run.py [NAME ...]`.

Without names it runs all of them. Public datasets are read from ../shared/data/
(override with MEMCTL_BENCH_DATA); nothing is downloaded.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _samples() -> None:
    import bench_samples

    bench_samples.run()


def _locomo() -> None:
    import bench_locomo

    bench_locomo.run()


def _extraction() -> None:
    import bench_extraction

    bench_extraction.run()


def _recall_set() -> None:
    import bench_recall_set

    bench_recall_set.run()


def _models() -> None:
    import bench_models

    bench_models.run()


def _scale() -> None:
    import bench_scale

    bench_scale.run()


def _forget() -> None:
    import bench_forget

    bench_forget.run()


def _compact() -> None:
    import bench_compact

    bench_compact.run()


def _audit() -> None:
    import bench_audit

    bench_audit.run()


BENCHMARKS = {
    "samples": (_samples, "ingest speed, warm and cold-CLI recall latency on sample_conversations/"),
    "extraction": (_extraction, "keep/drop precision and recall on labelled sets; DuLeMon persona facts"),
    "recall-set": (_recall_set, "bilingual recall set: hit@5 by query kind (zh-zh, en-en, zh-en, en-zh, paraphrases)"),
    "locomo": (_locomo, "LoCoMo ingest speed and evidence R@5 against a raw-turn BM25 baseline"),
    "models": (_models, "embedding model comparison: bilingual quality and cold start"),
    "scale": (_scale, "warm recall latency at 100,000 memories over 1,000 users"),
    "forget": (_forget, "forget 10,000 memories of one user among 100,000"),
    "compact": (_compact, "compact 50,000 / 100,000 / 200,000 memories: time, size, files"),
    "audit": (_audit, "audit of 100,000 memories (before and after compact) and diff --since"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", choices=[[], *BENCHMARKS], metavar="NAME",
                        help="which to run: " + ", ".join(BENCHMARKS))
    args = parser.parse_args()
    for name in args.names or list(BENCHMARKS):
        fn, about = BENCHMARKS[name]
        print(f"\n=== {name}: {about}")
        start = time.perf_counter()
        fn()
        print(f"({name} took {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
