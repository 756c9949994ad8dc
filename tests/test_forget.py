"""forget: every selector deletes the text everywhere, and forgotten stays forgotten."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone

import numpy as np
import pytest

from conftest import assert_absent, conversation, lance_strings, write_json
from memctl.errors import NotFoundError, UsageError

SECRET_FACT = "I live at 12 Baker Street"
KEEP_FACT = "I'm allergic to peanuts"


@pytest.fixture
def loaded(store, tmp_path):
    write_json(tmp_path / "a.json", conversation("u1", "s1", SECRET_FACT + ".", KEEP_FACT + ".", "I love jazz music."))
    write_json(tmp_path / "b.json", conversation("u2", "s1", "My address is 12 Baker Street, flat B.", "I work as a nurse."))
    store.ingest([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    return store


def _address(store, user="u1"):
    return next(m for m in store.memories(user) if "Baker" in m.content)


def _check_gone_and_others_intact(store, user="u1"):
    assert not any("Baker" in h.content for h in store.recall("Baker Street address", user, include_history=True).hits)
    assert any("peanuts" in m.content for m in store.memories("u1"))


@pytest.mark.parametrize("selector", ["id", "chain", "query"])
def test_each_selector_forgets_for_real(loaded, selector):
    target = _address(loaded)
    kwargs = {"id": {"ids": [target.id]}, "chain": {"chain": target.chain_id},
              "query": {"user": "u1", "query": "Baker Street"}}[selector]
    report = loaded.forget(**kwargs)
    assert [m.id for m in report.memories] == [target.id]
    _check_gone_and_others_intact(loaded)
    # u2 said the same words: only u1's copy is gone.
    assert any("Baker" in m.content for m in loaded.memories("u2"))
    strings = list(lance_strings(loaded.dir))
    assert not any("Baker" in s and "flat B" not in s for s in strings)
    events = loaded.db.rows("events", filter="kind = 'forgotten'")
    assert len(events) == 1 and events[0]["memory_id"] == target.id and "Baker" not in str(events[0])


def test_forget_whole_user_and_user_type(loaded):
    report = loaded.forget(user="u2", types=["profile"])
    assert {m.type for m in report.memories} == {"profile"}
    assert loaded.memories("u2", types=["profile"]) == []
    loaded.forget(user="u2")
    assert loaded.memories("u2", status=None) == []
    assert_absent(loaded.dir, "flat B", "nurse")
    assert any("peanuts" in m.content for m in loaded.memories("u1"))


def test_dry_run_changes_nothing(loaded):
    from conftest import snapshot

    before = snapshot(loaded.dir)
    report = loaded.forget(user="u1", query="Baker Street", dry_run=True)
    assert report.dry_run and len(report.memories) == 1 and report.to_dict()["memories"][0]["content"]
    assert snapshot(loaded.dir) == before


def test_bad_selectors(loaded):
    with pytest.raises(UsageError):
        loaded.forget()
    with pytest.raises(UsageError):
        loaded.forget(ids=["x"], user="u1")
    with pytest.raises(NotFoundError):
        loaded.forget(ids=["0000000000000000"])
    with pytest.raises(UsageError):
        loaded.forget(user="u1", query="x", types=["profile"])


def test_all_versions_of_a_chain(store, tmp_path):
    write_json(tmp_path / "a.json", conversation("u3", "a", "I live in Berlin.", time="2026-01-01T00:00:00Z"))
    write_json(tmp_path / "b.json", conversation("u3", "b", "Actually I moved to Lisbon.", time="2026-02-01T00:00:00Z"))
    store.ingest([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    chain = [m for m in store.memories("u3") if "Lisbon" in m.content][0].chain_id
    assert len(store.chain(chain)) == 2
    store.forget(chain=chain)
    assert_absent(store.dir, "Berlin", "Lisbon")


def test_reingest_brings_nothing_back_but_a_new_session_does(loaded, tmp_path):
    loaded.forget(user="u1", query="Baker Street")
    again = loaded.ingest([str(tmp_path / "a.json")])
    assert again.added == 0 and again.turns_new == 0
    assert_absent(loaded.dir, SECRET_FACT)
    write_json(tmp_path / "new.json", conversation("u1", "s2", SECRET_FACT + "."))
    assert loaded.ingest([str(tmp_path / "new.json")]).added == 1
    assert any("Baker" in m.content for m in loaded.memories("u1"))


def test_forget_in_a_large_compressed_store(store, tmp_path):
    """10,000+ rows merged into one large data file, the forgotten text inside it."""
    dim = int(store.meta["dim"])
    rng = np.random.default_rng(1)
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    rows, turns = [], []
    for i in range(10_500):
        mid, key = uuid.uuid4().hex[:16], uuid.uuid4().hex
        v = rng.standard_normal(dim).astype(np.float32)
        text = f"User likes topic number {i} and the colour {'blue' if i % 2 else 'green'}"
        rows.append({"id": mid, "chain_id": mid, "version": 1, "status": "active", "user_id": f"bulk{i % 300}",
                     "type": "preference", "content": text, "lang": "en", "topics": [], "slot": None, "importance": 0.5,
                     "confidence": 0.9, "source_type": "user_stated",
                     "sources": [{"session": "s", "turn": f"t{i}", "time": now, "clause": text, "turn_key": key}],
                     "created_at": now, "updated_at": now, "valid_from": now, "valid_to": None, "last_recalled_at": None,
                     "recall_count": 0, "reinforced_count": 0, "cause": "ingest", "supersedes": None, "merged_from": [],
                     "merged_into": None, "vector": v / np.linalg.norm(v), "context_vector": None})
        turns.append({"turn_key": key, "user_id": f"bulk{i % 300}", "session": "s", "turn": f"t{i}", "role": "user",
                      "time": now, "content": text, "ingested_at": now, "context": None, "vector": None, "outdated": False})
    with store.lock.hold():
        store.db.append("memories", rows)
        store.db.append("episodes", turns)
    write_json(tmp_path / "a.json", conversation("u1", "s1", SECRET_FACT + ".", KEEP_FACT + "."))
    store.ingest([str(tmp_path / "a.json")])
    with store.lock.hold():  # one big file holding the fact, with its pages compressed
        store.db.optimize("memories", purge=False)
        store.db.optimize("episodes", purge=False)
    assert sum(len(f.data_files()) for f in store.db.open("memories").get_fragments()) == 1
    store.forget(user="u1", query="Baker Street")
    assert_absent(store.dir, "Baker Street")
    assert store.db.count("memories") == 10_501
    assert any("peanuts" in m.content for m in store.memories("u1"))


def test_an_ingest_racing_a_forget_does_not_resurrect(loaded, tmp_path):
    """Another process re-ingests the old log while a forget runs: it waits for the store
    lock, finds the turns already in the ledger, and brings nothing back."""
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    cmd = [sys.executable, "-m", "memctl", "ingest", str(tmp_path / "a.json"), "--json", "--store", str(loaded.dir)]
    with loaded.lock.hold():
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        time.sleep(3)  # the other process has read and extracted the file and now waits for the lock
        assert proc.poll() is None
        loaded.forget(user="u1", query="Baker Street")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert '"added": 0' in out
    assert_absent(loaded.dir, SECRET_FACT)


def test_a_confirmed_plan_forgets_what_it_showed_and_nothing_added_since(store, tmp_path):
    from conftest import conversation, write_json

    write_json(tmp_path / "a.json", conversation("u1", "s1", "I love oolong tea.", "I am a nurse."))
    store.ingest([str(tmp_path / "a.json")])
    plan = store.forget(user="u1", query="oolong tea", dry_run=True)
    assert [m.content for m in plan.memories] == ["User loves oolong tea"]
    write_json(tmp_path / "b.json", conversation("u1", "s2", "I drink oolong tea every morning."))
    store.ingest([str(tmp_path / "b.json")])
    report = store.apply_forget(plan)
    assert not report.dry_run and [m.id for m in report.memories] == [m.id for m in plan.memories]
    assert sorted(m.content for m in store.memories("u1")) == ["User drinks oolong tea every morning", "User is a nurse"]
