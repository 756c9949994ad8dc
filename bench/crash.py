"""kill -9 at random moments inside the write phase of ingest, compact and forget.

    python bench/crash.py [--kills 20] [--users 40] [--seed 7]

The write phase is the time a command holds the store's write lock, seen from outside in
/proc/locks (nothing is asked of the process). For each command, on a fresh copy of the
same store each time: start it, wait for the lock, sleep a random part of the phase's
length (measured by an uninterrupted run), kill -9. Then: the store opens and `audit
--check` passes; the same command run again gives the active memories an uninterrupted
run gives, with no duplicates; after a forget, the forgotten user's words are in no file
of the store. The complement of the commit-point tests in tests/test_integrity.py, which
cut each command at every write through a fault hook; this one cuts inside the writes.
Prints a table; exit 1 on any failure. Uses the hash model (the point is the writes).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from soak import active, conversations, memctl  # noqa: E402

EXE = str(Path(sys.executable).parent / "memctl")
ENV = {**os.environ, "HF_HUB_OFFLINE": "1"}
FORGOTTEN = "soak0001"
MARK = "quillfeather"  # said only by the forgotten user


def _holding(lock: Path) -> bool:
    """Whether some process holds a lock on `lock` now (from /proc/locks, without taking it)."""
    try:
        inode = os.stat(lock).st_ino
    except FileNotFoundError:
        return False
    with open("/proc/locks") as f:
        return any(line.split()[5].rsplit(":", 1)[-1] == str(inode) for line in f if len(line.split()) > 5)


def _run(store: Path, args: list[str], kill_after: float | None) -> tuple[float, float, bool]:
    """Run `memctl ARGS --store STORE`; returns (seconds until it held the write lock, seconds
    it held it, whether it was killed). With `kill_after`, kill -9 that long after the lock."""
    lock = store / ".memctl" / "store.lock"
    start = time.perf_counter()
    p = subprocess.Popen([EXE, *args, "--store", str(store)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    locked = None
    while p.poll() is None:
        if locked is None and _holding(lock):
            locked = time.perf_counter()
            if kill_after is not None:
                time.sleep(kill_after)
                if p.poll() is None:
                    p.send_signal(signal.SIGKILL)
                    p.wait()
                    return locked - start, time.perf_counter() - locked, True
        time.sleep(0.002)
    end = time.perf_counter()
    if p.returncode != 0:
        raise SystemExit(f"memctl {' '.join(args)} exited {p.returncode}: {p.stderr.read().decode()[-500:]}")
    return (locked or end) - start, end - (locked or end), False


def _files_with(store: Path, needle: bytes) -> list[str]:
    return [str(f.relative_to(store)) for f in store.rglob("*") if f.is_file() and needle in f.read_bytes()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=20, help="random kills per command")
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    from common import table

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        convs = conversations(args.users, args.seed)
        for c in convs:
            if c["user"] == FORGOTTEN:
                c["messages"][0]["content"] += f" I love {MARK} pastries."
        first, second = root / "first", root / "second"
        for n, c in enumerate(convs):
            folder = first if c["session"].endswith(("d1", "d5")) else second
            folder.mkdir(exist_ok=True)
            (folder / f"c{n:05d}.json").write_text(json.dumps(c, ensure_ascii=False), encoding="utf-8")
        # The stores each command starts from: half the log ingested (for ingest); all of it
        # ingested twice over reworded copies (for compact); all of it (for forget).
        half = root / "half"
        memctl("init", str(half), "--model", "hash-ngram-256")
        memctl("ingest", str(first), "--store", str(half))
        full = root / "full"
        shutil.copytree(half, full)
        memctl("ingest", str(second), "--store", str(full))
        commands = {
            "ingest": (half, ["ingest", str(second), "--tsv"]),
            "compact": (full, ["compact", "--tsv"]),
            "forget": (full, ["forget", "--user", FORGOTTEN, "--yes", "--tsv"]),
        }
        rows, failures = [], []
        for name, (base, cmd) in commands.items():
            clean = root / f"{name}-clean"
            shutil.copytree(base, clean)
            _, phase, _ = _run(clean, cmd, None)
            want = active(clean)
            killed = audits = same = gone = 0
            for k in range(args.kills):
                trial = root / f"{name}-{k}"
                shutil.copytree(base, trial)
                _, _, was_killed = _run(trial, cmd, rng.uniform(0, 0.9 * phase))
                killed += was_killed
                audit = memctl("audit", "--check", "--store", str(trial))
                audits += audit.returncode == 0
                if audit.returncode != 0:
                    failures.append(f"{name} kill {k}: audit --check after the kill: {audit.stdout[-300:]}{audit.stderr[-300:]}")
                _run(trial, cmd, None)
                got = active(trial)
                ok = got == want and all(len(v) == len(set(v)) for v in got.values())
                same += ok
                if not ok:
                    differ = sorted(u for u in set(want) | set(got) if want.get(u) != got.get(u))
                    failures.append(f"{name} kill {k}: {len(differ)} users differ after the re-run, e.g. {differ[:3]}")
                if name == "forget":
                    left = _files_with(trial, MARK.encode())
                    gone += not left
                    if left:
                        failures.append(f"{name} kill {k}: '{MARK}' still in {left[:3]}")
                shutil.rmtree(trial)
            rows.append([name, f"{phase:.2f}", f"{killed} of {args.kills}", f"{audits} of {args.kills}",
                         f"{same} of {args.kills}", f"{gone} of {args.kills}" if name == "forget" else "-"])
        table(f"kill -9 at random moments of the write phase ({args.users} users, seed {args.seed})",
              ["command", "write phase s", "killed inside it", "audit --check passes after the kill",
               "re-run equals an uninterrupted run", "forgotten words in no file"], rows)
        for f in failures[:10]:
            print("  " + f)
        if failures:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
