"""Concurrency soak: the order and the processes that ingest must not change what is true.

    python bench/soak.py [--users 100] [--workers 4] [--seed 7]

Writes 4 dated conversations per user (a city, then a move; a diet, then a change; likes;
a relative's job), shuffles all of them into `workers` batches, and runs, at the same
time: one `memctl ingest` process per batch, a `memctl compact` loop, `memctl recall`
readers and a `memctl forget` of one user. Then compacts once more and compares every
user's active memories with a store that ingested the same files in one sequential call
(minus the forgotten user), and looks for words only the forgotten user said in every file
of the store (the turn ledger and the event log keep the user's id and the turns' keys, by
design: a forgotten turn never comes back, and the forget is on record). Prints a table; exit 1 when they differ or anything of that user is left. Uses the hash model
(the point is ordering and locking, not meaning).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CITIES = ["Berlin", "Lisbon", "Madrid", "Oslo", "Vienna", "Prague", "Dublin", "Zurich"]
DIETS = [("I'm vegetarian.", "I'm pescatarian now."), ("我基本不吃辣", "微辣现在可以吃了"), ("I don't drink coffee.", "I drink coffee again now.")]
LIKES = ["green tea", "hiking", "jazz", "chess", "sushi", "cycling", "poetry", "gardening"]
JOBS = ["nurse", "teacher", "pilot", "chef", "lawyer", "architect"]
MARK = "quillfeather"


def conversations(users: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for u in range(users):
        user = f"soak{u:04d}"
        a, b = rng.sample(CITIES, 2)
        before, after = rng.choice(DIETS)
        said = [
            [f"I live in {a}.", before],
            [f"I love {rng.choice(LIKES)}.", f"My sister is a {rng.choice(JOBS)}."],
            [f"Actually I moved to {b}.", after],
            [f"I love {rng.choice(LIKES)}."],
        ]
        for day, lines in zip((1, 5, 10, 15), said):
            messages = []
            for n, text in enumerate(lines):
                messages += [{"role": "user", "content": text, "id": f"t{n}"}, {"role": "assistant", "content": "Noted."}]
            out.append({"user": user, "session": f"{user}-d{day}", "time": f"2026-11-{day:02d}T10:00:00+00:00", "messages": messages})
    return out


def memctl(*args: str) -> subprocess.CompletedProcess[str]:
    exe = str(Path(sys.executable).parent / "memctl")
    return subprocess.run([exe, *args], capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})


def active(store: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in memctl("export", "--store", str(store)).stdout.splitlines():
        r = json.loads(line)
        if r["status"] == "active":
            out.setdefault(r["user"], []).append(r["content"])
    return {u: sorted(v) for u, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from common import table

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        convs = conversations(args.users, args.seed)
        forgotten = "soak0000"
        for c in convs:
            if c["user"] == forgotten:  # words only the forgotten user said, looked for in every file at the end
                c["messages"][0]["content"] += f" I love {MARK} pastries."
        files = []
        for n, c in enumerate(convs):
            path = root / "in" / f"c{n:05d}.json"
            path.parent.mkdir(exist_ok=True)
            path.write_text(json.dumps(c, ensure_ascii=False), encoding="utf-8")
            files.append(str(path))
        random.Random(args.seed).shuffle(files)
        batches = [files[i::args.workers] for i in range(args.workers)]

        sequential = root / "sequential"
        memctl("init", str(sequential), "--model", "hash-ngram-256")
        memctl("ingest", str(root / "in"), "--store", str(sequential))
        memctl("forget", "--user", forgotten, "--yes", "--store", str(sequential))
        memctl("compact", "--store", str(sequential))

        concurrent = root / "concurrent"
        memctl("init", str(concurrent), "--model", "hash-ngram-256")
        exe = str(Path(sys.executable).parent / "memctl")
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        start = time.perf_counter()
        ingests = []
        import shlex

        for batch in batches:
            # Each worker ingests its shuffled files ten at a time, as a cron over a folder would.
            calls = [" ".join(map(shlex.quote, [exe, "ingest", *batch[i:i + 10], "--store", str(concurrent), "--tsv"]))
                     + " >/dev/null || rc=1" for i in range(0, len(batch), 10)]
            ingests.append(subprocess.Popen(["sh", "-c", "rc=0; " + "; ".join(calls) + "; exit $rc"],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env))
        compactions = readers = errors = 0
        forgot = False
        while any(p.poll() is None for p in ingests):
            r = memctl("compact", "--wait", "--store", str(concurrent))
            compactions += 1
            errors += r.returncode != 0
            r = memctl("recall", "where do I live", "-u", "soak0001", "--jsonl", "--store", str(concurrent))
            readers += 1
            errors += r.returncode != 0
            if not forgot and compactions >= 1:
                r = memctl("forget", "--user", forgotten, "--yes", "--store", str(concurrent))
                forgot = r.returncode == 0
                errors += r.returncode != 0
        failed_ingests = sum(p.wait() != 0 for p in ingests)
        memctl("forget", "--user", forgotten, "--yes", "--store", str(concurrent))  # what arrived after the first forget
        memctl("compact", "--store", str(concurrent))
        seconds = time.perf_counter() - start

        want, got = active(sequential), active(concurrent)
        differ = sorted(u for u in set(want) | set(got) if want.get(u) != got.get(u))
        dupes = sum(len(v) - len(set(v)) for v in got.values())
        leaked = sum(1 for line in memctl("export", "--episodes", "--store", str(concurrent)).stdout.splitlines()
                     if json.loads(line)["user"] == forgotten)
        files_with = [str(f.relative_to(concurrent)) for f in concurrent.rglob("*") if f.is_file()
                      and MARK.encode() in f.read_bytes()]
        table(f"Soak: {len(files)} conversations of {args.users} users, {args.workers} concurrent ingests", ["figure", "value"], [
            ["seconds", seconds], ["compactions during the ingests", compactions], ["recalls during the ingests", readers],
            ["failed ingests / other failed commands", f"{failed_ingests} / {errors}"],
            ["users whose active memories differ from the sequential ingest", f"{len(differ)} of {len(set(want) | set(got))}"],
            ["duplicate active memories", dupes], ["records of the forgotten user left", leaked],
            ["files (any table version) holding the forgotten user's words", len(files_with)],
        ])
        for u in differ[:5]:
            print(f"  {u}: sequential {want.get(u)}\n  {' ' * len(u)}  concurrent {got.get(u)}")
        for f in files_with[:5]:
            print(f"  the forgotten user's words in {f}")
        if differ or dupes or leaked or failed_ingests or files_with:
            sys.exit(1)


if __name__ == "__main__":
    main()
