"""Run the benchmarks and print their tables: `python bench/run.py [NAME ...]`.

Without names it runs all of them. Public datasets are read from ../shared/data/
(override with MEMCTL_BENCH_DATA); nothing is downloaded.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


# name: what it measures. Each is the module bench_<name> (dashes as underscores) with a run().
BENCHMARKS = {
    "samples": "ingest speed, warm and cold-CLI recall latency on sample_conversations/",
    "extraction": "keep/drop precision and recall on labelled sets; DuLeMon persona facts",
    "recall-set": "bilingual recall set: hit@5 by query kind (zh-zh, en-en, zh-en, en-zh, paraphrases)",
    "locomo": "LoCoMo ingest speed and evidence R@5 against a raw-turn BM25 baseline",
    "models": "embedding model comparison: bilingual quality and cold start",
    "scale": "warm recall: one user with 100,000 memories and 1,000,000 episodes; 1,000,000 memories over 10,000 users",
    "forget": "forget 10,000 memories of one user among 100,000",
    "compact": "compact 50,000-200,000 memories over many users, and 25,000-200,000 of one user: time, size, files",
    "audit": "audit of 100,000 memories (before and after compact) and diff --since",
    "exchange": "export of 100,000 memories to JSON Lines and their import into a fresh store",
    "long": "one very long user message (50 KB to 5 MB; chat, unbroken runs, tokens): extract and ingest seconds per MB",
    "big": "one big JSON Lines file (10 and 100 MB of LoCoMo text) through `memctl ingest` in a new process: seconds, peak RSS",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", choices=[[], *BENCHMARKS], metavar="NAME",
                        help="which to run: " + ", ".join(BENCHMARKS))
    args = parser.parse_args()
    for name in args.names or list(BENCHMARKS):
        print(f"\n=== {name}: {BENCHMARKS[name]}")
        start = time.perf_counter()
        importlib.import_module("bench_" + name.replace("-", "_")).run()
        print(f"({name} took {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
