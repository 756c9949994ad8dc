"""One big JSON Lines file through `memctl ingest` in a new process: seconds, user turns a
second and peak resident memory (the process's maximum RSS, model included).

The file is built in a temporary folder from LoCoMo's ten conversations, both speakers'
views, each copied under many users (real text, about 330 bytes a line) until it reaches
the size asked for; lines are written session by session, as a chat log would be. Nothing
from the dataset is kept after the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import locomo
from common import table

SIZES_MB = (10, 100)
MODEL = os.environ.get("MEMCTL_BENCH_MODEL", "")  # empty: the store's default model


def write_jsonl(path: Path, megabytes: float) -> tuple[int, int]:
    """Write about `megabytes` MB of JSON Lines; returns (lines, user turns)."""
    samples = locomo.load()
    limit = int(megabytes * 1_000_000)
    size = lines = user_turns = 0
    copy = 0
    with path.open("w", encoding="utf-8") as out:
        while size < limit:
            copy += 1
            for sample in samples:
                for speaker in ("speaker_a", "speaker_b"):
                    name = sample["conversation"][speaker]
                    user = f"{locomo.user_id(sample, name)}-{copy}"
                    for conv in locomo.conversations_for(sample, name):
                        for turn in conv.turns:
                            line = json.dumps({"user": user, "session": conv.session, "role": turn.role, "id": turn.id,
                                               "content": turn.content, "time": turn.time.isoformat()},
                                              ensure_ascii=False) + "\n"
                            out.write(line)
                            size += len(line.encode("utf-8"))
                            lines += 1
                            user_turns += turn.role == "user"
                    if size >= limit:
                        return lines, user_turns
    return lines, user_turns


def measure(megabytes: float) -> tuple[int, int, float, float]:
    """(lines, user turns, seconds, peak RSS in MB) for one ingest of a file of that size."""
    with tempfile.TemporaryDirectory(prefix="memctl-big-") as tmp:
        data = Path(tmp) / "big.jsonl"
        lines, user_turns = write_jsonl(data, megabytes)
        store = Path(tmp) / "store"
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        init = [sys.executable, "-m", "memctl", "init", "--store", str(store)] + (["--model", MODEL] if MODEL else [])
        subprocess.run(init, check=True, env=env, capture_output=True)
        # A child of its own, so that RUSAGE_CHILDREN is this ingest's peak and nothing else's.
        code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
                "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
                "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)")
        cmd = [sys.executable, "-m", "memctl", "ingest", "--store", str(store), "--json", str(data)]
        out = subprocess.run([sys.executable, "-c", code, *cmd], check=True, env=env, capture_output=True, text=True)
        seconds, rss_kb, rc = out.stdout.split()
        if rc != "0":
            raise SystemExit(f"ingest of {megabytes} MB exited {rc}")
    return lines, user_turns, float(seconds), int(rss_kb) / 1024


def run(sizes: tuple[float, ...] = SIZES_MB) -> None:
    rows = []
    for mb in sizes:
        lines, user_turns, seconds, rss = measure(mb)
        rows.append((f"{mb:g} MB", f"{lines:,}", f"{user_turns:,}", f"{seconds:.0f}", f"{user_turns / seconds:.0f}",
                     f"{rss:,.0f}"))
    table("one JSON Lines file, one ingest process", ["file", "lines", "user turns", "seconds", "user turns/s",
                                                       "peak RSS MB"], rows)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    run(tuple(float(a) for a in sys.argv[1:]) or SIZES_MB)
