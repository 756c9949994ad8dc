"""compact: merge with lineage, contradictions, expiry, archive, idempotence, locks."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from conftest import conversation, seed, write_json
from memctl import MemoryStore
from memctl.errors import LockTimeoutError

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


def _at(store, when=NOW):
    return MemoryStore(store.dir, clock=lambda: when)


def test_merges_near_copies_with_lineage_and_keeps_distinct_facts(store):
    members = seed(store, "u1", [("preference", "User likes short answers with code first"),
                                 ("preference", "User likes short answers with the code first"),
                                 ("preference", "User likes hiking in the Alps")])
    report = _at(store).compact()
    assert len(report.merges) == 1
    merge = report.merges[0]
    assert {m.id for m in merge.members} == {members[0].id, members[1].id}
    active = store.memories("u1")
    assert len(active) == 2 and any("hiking" in m.content for m in active)
    merged = next(m for m in active if m.cause == "merge")
    assert set(merged.merged_from) == {members[0].id, members[1].id}
    assert len(merged.sources) == 2 and merged.reinforced_count == 1
    for old in (store.get(members[0].id), store.get(members[1].id)):
        assert old.status == "superseded" and old.merged_into == merged.id
    kinds = store.db.to_table("events", columns=["kind"]).column("kind").to_pylist()
    assert kinds.count("merged") == 1


def test_contradictions_are_not_merged_the_newer_wins(store):
    old, new = seed(store, "u2", [("behavior", "User drinks black coffee every morning", NOW - timedelta(days=30)),
                                  ("behavior", "User no longer drinks black coffee every morning", NOW - timedelta(days=1))])
    report = _at(store).compact()
    assert report.merges == [] and [r.action for r in report.retired] == ["superseded"]
    assert [m.content for m in store.memories("u2")] == ["User no longer drinks black coffee every morning"]
    assert store.get(old.id).status == "superseded" and store.get(new.id).supersedes == old.id


def test_a_contradiction_whose_newer_side_is_merged_is_still_resolved(store):
    old, new, copy = seed(store, "u2", [
        ("behavior", "User drinks black coffee every morning", NOW - timedelta(days=30)),
        ("behavior", "User no longer drinks black coffee every morning", NOW - timedelta(days=1)),
        ("behavior", "User no longer drinks black coffee every morning.", NOW - timedelta(days=2)),
    ])
    report = _at(store).compact()
    assert report.skipped == 0 and len(report.merges) == 1
    (retired,) = report.retired
    assert retired.memory.id == old.id and retired.by.id == report.merges[0].merged.id
    assert [m.id for m in store.memories("u2")] == [report.merges[0].merged.id]
    assert store.get(old.id).status == "superseded"
    assert _at(store).compact().changes == 0


@pytest.mark.parametrize("lookup_limit", [0, 2000])
def test_the_plan_is_checked_against_the_store_by_lookup_or_by_scan(store, monkeypatch, lookup_limit):
    import memctl.compaction as compaction

    monkeypatch.setattr(compaction, "_LOOKUP_LIMIT", lookup_limit)
    seed(store, "u1", [("preference", "User likes short answers with code first"),
                       ("preference", "User likes short answers with the code first"),
                       ("preference", "User likes hiking in the Alps")])
    first, second, third = seed(store, "u2", [("preference", "User drinks green tea"), ("preference", "User drinks green tea."),
                                              ("preference", "User plays chess")])
    plan = _at(store).compact(dry_run=True)
    assert len(plan.merges) == 2
    with store.lock.hold():  # another process reinforced one member of u2's cluster since
        row = store.core.read_memories(f"id = '{second.id}'", with_vectors=True)[0]
        row.updated_at, row.reinforced_count = NOW, 1
        store.db.upsert("memories", [row.to_row()], "id")
        compaction._apply(_at(store).core, plan, "status = 'active'", store.core.read_memories("status = 'active'", with_vectors=True))
    assert plan.skipped == 1 and [g.user for g in plan.merges] == ["u1"]
    assert len(store.memories("u1")) == 2 and len(store.memories("u2")) == 3


def test_expiry_and_archive(store):
    seed(store, "u3", [("goal", "User wants to visit Sanya for the new year"),
                       ("task", "User flies to Tokyo on Friday"),
                       ("event", "User ran a marathon")], when=NOW - timedelta(days=400))
    rows = {m.type: m for m in store.core.read_memories("user_id = 'u3'", with_vectors=True)}
    rows["goal"].valid_to = NOW - timedelta(days=10)  # a deadline that has passed
    rows["event"].importance = 0.2  # unimportant, never recalled, 400 days old
    with store.lock.hold():
        store.db.upsert("memories", [rows["goal"].to_row(), rows["event"].to_row()], "id")
    report = _at(store).compact()
    actions = {r.memory.type: (r.action, r.reason) for r in report.retired}
    assert actions["goal"] == ("expired", "past its end date")
    assert actions["task"] == ("expired", "no update for 14 days")
    assert actions["event"][0] == "archived" and "never recalled" in actions["event"][1]
    assert store.memories("u3") == []
    assert {m.status for m in store.memories("u3", status=None)} == {"archived"}
    assert _at(store).recall("marathon", "u3").hits == []
    assert _at(store).recall("marathon", "u3", include_history=True).hits


def test_second_run_changes_nothing_and_dry_run_writes_nothing(store, tmp_path):
    from conftest import SAMPLES, snapshot

    store.ingest([str(SAMPLES)])
    seed(store, "xiaolin", [("preference", "用户不吃海鲜和贝类"), ("preference", "用户不吃海鲜和贝类。")])
    before = snapshot(store.dir)
    plan = _at(store).compact(dry_run=True)
    assert plan.changes > 0 and snapshot(store.dir) == before
    first = _at(store).compact()
    assert first.changes == plan.changes
    second = _at(store).compact()
    assert second.changes == 0 and second.skipped == 0
    assert second.maintenance.files_after == first.maintenance.files_after


def test_user_option_limits_the_run(store):
    seed(store, "a", [("preference", "User likes tea a lot"), ("preference", "User likes tea a lot!")])
    seed(store, "b", [("preference", "User likes tea a lot"), ("preference", "User likes tea a lot!")])
    report = _at(store).compact(user="a")
    assert {m.user for m in report.merges} == {"a"}
    assert len(store.memories("b")) == 2


def test_a_second_compaction_is_refused_while_one_runs(store):
    from memctl.lock import FileLock

    guard = FileLock(store.dir / "compact.lock", 1, what="compaction")
    with guard.hold():
        with pytest.raises(LockTimeoutError, match="another `memctl compact` is running"):
            _at(store).compact()


@pytest.mark.reliability
def test_compact_concurrent_with_an_ingest_loses_and_doubles_nothing(store, tmp_path):
    facts = ["User likes green tea", "User plays the cello", "User lives near the harbour", "User fears spiders",
             "User speaks Finnish"]
    seed(store, "u5", [("preference", facts[i % 5]) for i in range(40)])  # each written 8 times
    lines = [f"I love {verb} {thing}." for verb, thing in zip(
        ["collecting", "repairing", "painting", "building", "photographing", "studying"] * 5,
        ["vintage stamps", "old radios", "watercolour birds", "wooden kayaks", "night skies", "medieval maps",
         "fountain pens", "pinball machines", "city murals", "garden sheds", "street cats", "baroque music",
         "glass marbles", "bicycle frames", "mountain lakes", "model trains", "clay teapots", "ancient coins",
         "pocket watches", "vinyl records", "desert plants", "harbour boats", "folk costumes", "chess openings",
         "meteorite fragments", "typewriters", "paper lanterns", "jazz drummers", "lighthouse towers", "sea shells"])]
    write_json(tmp_path / "new.json", conversation("u5", "new", *lines))
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    proc = subprocess.Popen([sys.executable, "-m", "memctl", "ingest", str(tmp_path / "new.json"), "--store", str(store.dir)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    report = _at(store).compact()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    _at(store).compact()  # whatever the first run could not see
    active = store.memories("u5")
    contents = [m.content for m in active]
    assert len(contents) == len(set(contents)), "a memory was written twice"
    # Every statement the ingest keeps on its own is held by an active memory (itself, or
    # merged into one): the same turns as an ingest into an empty store.
    from memctl import init_store

    alone = init_store(tmp_path / "alone", model=store.meta["model"])
    alone.ingest([str(tmp_path / "new.json")])
    expected = {s.turn for m in alone.memories("u5") for s in m.sources}
    said = {s.turn for m in active for s in m.sources if s.session == "new"}
    assert said == expected and len(expected) >= 25
    assert sorted(c for c in contents if c in facts) == sorted(facts) and report.memories_scanned >= 40


def test_large_groups_are_planned_from_close_pairs_not_every_pair(store, monkeypatch):
    """Above the exact limit, candidate pairs come from random-projection trees and shared
    rare words: on a small group forced down that path, the plan is the exact plan."""
    import memctl.judgement as judgement

    seed(store, "u6", [("preference", "User likes short answers with code first"),
                       ("preference", "User likes short answers with the code first"),
                       ("preference", "User drinks green tea every morning"),
                       ("preference", "User drinks green tea every morning."),
                       ("preference", "User plays chess on Sundays"),
                       ("preference", "User loves coffee"), ("preference", "User doesn't love coffee")])
    exact = _at(store).compact(dry_run=True)
    monkeypatch.setattr(judgement, "EXACT_PAIRS_LIMIT", 0)
    approximate = _at(store).compact(dry_run=True)
    assert sorted(sorted(m.id for m in g.members) for g in approximate.merges) == \
        sorted(sorted(m.id for m in g.members) for g in exact.merges) and len(exact.merges) == 2
    assert [(r.memory.id, r.action) for r in approximate.retired] == [(r.memory.id, r.action) for r in exact.retired]


def test_close_pairs_are_found_in_a_large_group_without_comparing_every_pair():
    import numpy as np

    from memctl.judgement import rescaler, similar_pairs

    rng = np.random.default_rng(4)
    n = 6000
    vectors = rng.standard_normal((n, 64)).astype(np.float32)
    chosen = rng.choice(n, 600, replace=False)
    for i, j in zip(chosen[:300], chosen[300:]):  # 300 planted near-duplicates of other statements
        vectors[j] = vectors[i] + rng.standard_normal(64).astype(np.float32) * 0.05
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    texts = [f"statement {i}" for i in range(n)]
    first, second, sims = similar_pairs(vectors, texts, rescaler(0.0, 1.0), 0.75)
    found = set(zip(first.tolist(), second.tolist()))
    planted = {(int(min(i, j)), int(max(i, j))) for i, j in zip(chosen[:300], chosen[300:])}
    assert len(planted & found) >= 0.97 * len(planted)
    assert len(found) < 3 * len(planted)  # close pairs, not every pair
    assert (sims >= 0.75).all()
