"""Helpers shared by the benchmarks: data locations, timing, tables."""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Iterable, Sequence

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("MEMCTL_BENCH_DATA", ROOT.parent / "shared" / "data"))
CACHE = ROOT / "bench" / ".cache"


def need(path: Path) -> Path:
    if not path.exists():
        sys.exit(f"bench: {path} is missing (public datasets are read from {SHARED_DATA}; set MEMCTL_BENCH_DATA)")
    return path


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def median(values: Iterable[float]) -> float:
    return statistics.median(list(values))


def table(title: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    rows = [[_fmt(c) for c in r] for r in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in rows)) if rows else len(str(h)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    sys.stdout.flush()


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 100 else f"{value:.1f}"
    return str(value)
