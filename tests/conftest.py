"""Shared fixtures: stores built with the deterministic hash embedder, a CLI runner that
goes through memctl's own error handling, and a snapshot of every byte of a store."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_conversations"
DATA = Path(__file__).resolve().parent / "data"
FAKE_MODEL = "hash-ngram-256"


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """No test sees a real store, a real model download, or the developer's environment."""
    monkeypatch.delenv("MEMCTL_STORE", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def store(tmp_path):
    from memctl import init_store

    return init_store(tmp_path / "proj", model=FAKE_MODEL)


@pytest.fixture
def store_dir(store):
    return store.dir


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def cli(capsys):
    """Run `memctl ARGS` in-process through main(): exit codes and stderr as a user sees them."""
    from memctl.cli import main

    def run(*args: str, stdin: str | None = None) -> Result:
        import io
        import sys

        old_stdin = sys.stdin
        if stdin is not None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        finally:
            sys.stdin = old_stdin
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def snapshot(directory: Path) -> dict[str, str]:
    """Every file under a directory with the hash of its bytes."""
    out = {}
    for root, _dirs, files in os.walk(directory):
        for name in files:
            p = Path(root) / name
            out[str(p.relative_to(directory))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def conversation(user: str, session: str, *user_messages: str, time: str = "2026-11-02T10:00:00+08:00") -> dict:
    messages = []
    for i, text in enumerate(user_messages, 1):
        messages.append({"role": "user", "content": text, "id": f"t{2 * i - 1}"})
        messages.append({"role": "assistant", "content": "好的。" if any("\u4e00" <= c <= "\u9fff" for c in text) else "Noted.", "id": f"t{2 * i}"})
    return {"user": user, "session": session, "time": time, "messages": messages}


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def fixed_clock(iso: str = "2026-11-30T12:00:00+00:00"):
    when = datetime.fromisoformat(iso).astimezone(timezone.utc)
    return lambda: when


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def lance_strings(store_dir: Path):
    """Every string in every row of every version of every table, read through Lance."""
    import lance

    for table in sorted((store_dir / "db").glob("*.lance")):
        ds = lance.dataset(str(table))
        for version in ds.versions():
            rows = lance.dataset(str(table), version=version["version"]).to_table().to_pylist()
            yield from _strings(rows)


def assert_absent(store_dir: Path, *needles: str) -> None:
    """No needle anywhere: not in any row of any table version (read through Lance, which
    also sees compressed pages), and not in the raw bytes of any file of the store."""
    text = "\x00".join(lance_strings(store_dir))
    assert text, "the store has no rows at all: nothing was checked"
    blobs = []
    for root, _dirs, files in os.walk(store_dir):
        for name in files:
            path = Path(root) / name
            blobs.append((path, path.read_bytes()))
    for needle in needles:
        assert needle not in text, f"{needle!r} is still readable through Lance"
        raw = needle.encode("utf-8")
        for path, blob in blobs:
            assert raw not in blob, f"{needle!r} is in the bytes of {path}"


def seed(store, user: str, items, *, when=None) -> list:
    """Write memories straight into a store (as older stores or parallel writers leave
    them), bypassing extraction and reconciliation. items: (type, content[, created_at])."""
    import uuid
    from datetime import datetime, timezone

    from memctl.schema import Memory, Source

    when = when or datetime(2026, 10, 1, tzinfo=timezone.utc)
    contents = [item[1] for item in items]
    vectors = store.embed(contents)
    memories = []
    for item, vector in zip(items, vectors):
        created = item[2] if len(item) > 2 else when
        mid = uuid.uuid4().hex[:16]
        key = uuid.uuid4().hex
        memories.append(Memory(
            id=mid, chain_id=mid, version=1, status="active", user_id=user, type=item[0], content=item[1],
            lang="zh" if any("\u4e00" <= c <= "\u9fff" for c in item[1]) else "en", importance=0.6, confidence=0.8,
            sources=[Source("seed", mid, created, item[1], key)], created_at=created, updated_at=created,
            valid_from=created, vector=vector,
        ))
    with store.lock.hold():
        store.db.upsert("memories", [m.to_row() for m in memories], "id")
    return memories
