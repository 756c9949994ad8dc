"""bench/judging.py reads the judged files as a regression set: only verdicts both readers
of one sample gave count, and a text counts once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import judging  # noqa: E402


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _row(id_: str, content: str, useful: str, faithful: str) -> dict:
    return {"id": id_, "lang": "en", "content": content, "useful": useful, "faithful": faithful, "note": id_}


def test_only_verdicts_both_readers_gave_count(tmp_path):
    a = _write(tmp_path / "sample-7a.jsonl", [
        _row("m1", "User is vegan", "useful", "faithful"),
        _row("m2", "User goings to the gym", "useful", "garbled"),
        _row("m3", "User likes tea", "useful", "faithful"),
        _row("m4", "User has a cat", "borderline", "faithful"),
    ])
    b = _write(tmp_path / "sample-7b.jsonl", [
        _row("m1", "User is vegan", "useful", "faithful"),
        _row("m2", "User goings to the gym", "noise", "garbled"),
        _row("m3", "User likes tea", "useful", "garbled"),      # the readers differ: neither set
        _row("m4", "User has a cat", "useful", "faithful"),      # not useful to both: not "good"
    ])
    lone = _write(tmp_path / "sample-8a.jsonl", [_row("m9", "User lives in Oslo", "useful", "garbled")])  # one reader only
    agreed = judging._agreed([a, b, lone])
    assert [r["content"] for r in agreed["good"]] == ["User is vegan"]
    assert [r["content"] for r in agreed["garbled"]] == ["User goings to the gym"]
    assert agreed["garbled"][0]["notes"] == "m2 | m2"


def test_a_text_judged_in_two_samples_counts_once(tmp_path):
    rows = [_row("m1", "User goings to the gym", "noise", "garbled")]
    files = [_write(tmp_path / f"sample-{n}{x}.jsonl", rows) for n in (1, 2) for x in "ab"]
    assert len(judging._agreed(files)["garbled"]) == 1
