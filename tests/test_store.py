"""The library: init/open, ingest, reconcile, recall, isolation, model and schema checks."""

from __future__ import annotations

import pytest

from conftest import FAKE_MODEL, SAMPLES, conversation, fixed_clock, write_json
from memctl import MemoryStore, init_store, open_store
from memctl.errors import ModelMismatchError, SchemaError, StoreExistsError, StoreNotFoundError, UsageError
from memctl.migrations import MIGRATIONS


def test_init_writes_every_default_and_refuses_twice(tmp_path):
    import tomllib

    s = init_store(tmp_path / "p", model=FAKE_MODEL)
    cfg = tomllib.loads((s.dir / "memctl.toml").read_text())
    assert set(cfg) == {"store", "embedding", "episodes", "ingest", "extract", "reconcile", "recall", "prompt", "forget", "compact", "audit"}
    assert cfg["recall"]["weights"]["dense"] > 0 and cfg["recall"]["half_life_days"]["task"] < cfg["recall"]["half_life_days"]["profile"]
    assert s.meta["model"] == FAKE_MODEL and int(s.meta["dim"]) == 256
    with pytest.raises(StoreExistsError):
        init_store(tmp_path / "p", model=FAKE_MODEL)


def test_store_resolution_order(tmp_path, monkeypatch):
    a = init_store(tmp_path / "a", model=FAKE_MODEL)
    b = init_store(tmp_path / "b", model=FAKE_MODEL)
    nested = tmp_path / "a" / "deep" / "er"
    nested.mkdir(parents=True)
    monkeypatch.chdir(nested)
    assert open_store().dir == a.dir
    monkeypatch.setenv("MEMCTL_STORE", str(b.dir.parent))
    assert open_store().dir == b.dir
    assert open_store(a.dir).dir == a.dir
    monkeypatch.delenv("MEMCTL_STORE")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreNotFoundError, match="memctl init"):
        open_store()


def test_sample_ingest_and_travel_recall(store):
    report = store.ingest([str(SAMPLES)])
    assert report.added >= 15 and report.secrets_blocked >= 2
    hits = store.recall("帮我推荐三亚的餐厅", "xiaolin").hits
    top = [h.content for h in hits[:5]]
    assert any("海鲜" in c for c in top), top
    assert any("花生" in c for c in top), top
    assert all(h.item.user_id == "xiaolin" for h in hits)
    for other in ("sam", "kai", "nobody"):
        assert all(h.item.user_id == other for h in store.recall("帮我推荐三亚的餐厅", other).hits)


def test_reingest_adds_nothing(store):
    store.ingest([str(SAMPLES)])
    before = store.db.count("memories")
    turns = store.db.count("episodes")
    again = store.ingest([str(SAMPLES)])
    assert again.added == again.reinforced == again.superseded == 0
    assert again.turns_new == 0 and again.turns_seen == again.turns
    assert store.db.count("memories") == before and store.db.count("episodes") == turns


def test_correction_across_sessions_makes_a_chain(tmp_path, store):
    write_json(tmp_path / "s1.json", conversation("u1", "s1", "我不吃海鲜，也对花生过敏。", time="2026-11-01T10:00:00+08:00"))
    write_json(tmp_path / "s2.json", conversation("u1", "s2", "其实我只是不吃带壳的海鲜，鱼可以吃。", time="2026-11-08T10:00:00+08:00"))
    store.ingest([str(tmp_path / "s1.json")])
    report = store.ingest([str(tmp_path / "s2.json")])
    assert report.superseded == 1
    active = [m for m in store.memories("u1") if "海鲜" in m.content]
    assert len(active) == 1 and "带壳" in active[0].content
    chain = store.chain(active[0].chain_id)
    assert [m.version for m in chain] == [1, 2]
    assert chain[0].status == "superseded" and chain[0].valid_to is not None
    assert chain[1].cause == "correction" and chain[1].supersedes == chain[0].id
    hits = store.recall("海鲜", "u1").hits
    assert chain[0].id not in {h.id for h in hits}
    history = store.recall("海鲜", "u1", include_history=True).hits
    assert chain[0].id in {h.id for h in history}


def test_slot_update_supersedes_and_as_of_answers_the_past(tmp_path, store):
    write_json(tmp_path / "a.json", conversation("u2", "a", "I live in Berlin.", time="2026-01-10T10:00:00Z"))
    write_json(tmp_path / "b.json", conversation("u2", "b", "I moved to Lisbon last month.", time="2026-06-10T10:00:00Z"))
    store.ingest([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    now = [h.content for h in store.recall("lives in Berlin or moved to Lisbon", "u2").hits]
    assert now == ["User moved to Lisbon last month (2026-05)"]
    from datetime import datetime, timezone

    then = store.recall("lives in Berlin or moved to Lisbon", "u2", as_of=datetime(2026, 3, 1, tzinfo=timezone.utc)).hits
    assert [h.content for h in then] == ["User lives in Berlin"]


def test_reinforcement_raises_confidence(tmp_path, store):
    write_json(tmp_path / "a.json", conversation("u3", "a", "I'm allergic to peanuts."))
    write_json(tmp_path / "b.json", conversation("u3", "b", "I'm allergic to peanuts."))
    store.ingest([str(tmp_path / "a.json")])
    first = store.memories("u3")[0]
    report = store.ingest([str(tmp_path / "b.json")])
    assert report.reinforced == 1 and report.added == 0
    again = store.get(first.id)
    assert again.reinforced_count == 1 and again.confidence > first.confidence and len(again.sources) == 2


def test_contradiction_newer_wins(tmp_path, store):
    write_json(tmp_path / "a.json", conversation("u4", "a", "I love coffee.", time="2026-01-01T00:00:00Z"))
    write_json(tmp_path / "b.json", conversation("u4", "b", "I don't like coffee.", time="2026-02-01T00:00:00Z"))
    store.ingest([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    active = [m.content for m in store.memories("u4")]
    assert active == ["User doesn't like coffee"]


def test_in_conversation_forget_request(tmp_path, store):
    conv = conversation("u5", "s", "I live at 12 Baker Street.", "Forget what I said about my address.")
    write_json(tmp_path / "f.json", conv)
    report = store.ingest([str(tmp_path / "f.json")])
    assert report.forgotten == 1
    assert store.memories("u5") == []
    assert all("Baker" not in (r["content"] or "") for r in store.db.rows("episodes"))
    # Re-ingesting the same log does not bring it back.
    store.ingest([str(tmp_path / "f.json")])
    assert store.memories("u5") == []


def test_recall_contract_fields_and_options(store):
    store.ingest([str(SAMPLES)])
    result = store.recall("Rust", "sam", top_k=2)
    assert len(result.hits) <= 2
    row = result.to_list()[0]
    for key in ("id", "chain_id", "version", "status", "user", "type", "content", "importance", "confidence",
                "score", "source_type", "sources", "created_at", "updated_at", "valid_from", "valid_to"):
        assert key in row
    assert set(row["sources"][0]) >= {"session", "turn", "time"}
    only_goals = store.recall("Rust", "sam", types=["goal"]).hits
    assert only_goals and all(h.memory.type == "goal" for h in only_goals)
    with pytest.raises(UsageError):
        store.recall("Rust", "sam", types=["nonsense"])
    with pytest.raises(UsageError):
        store.recall("   ", "sam")


def test_recall_is_recorded_and_folded_in_by_the_next_write(tmp_path, store):
    store.ingest([str(SAMPLES)])
    hit = store.recall("花生", "xiaolin").hits[0]
    assert store.core.spool.size() > 0
    write_json(tmp_path / "n.json", conversation("other", "n", "I like tea."))
    store.ingest([str(tmp_path / "n.json")])
    m = store.get(hit.memory.id)
    assert m.recall_count == 1 and m.last_recalled_at is not None
    kinds = store.db.to_table("events", columns=["kind"]).column("kind").to_pylist()
    assert "recalled" in kinds


def test_quota_keeps_one_type_from_filling_every_slot(tmp_path, store):
    lines = ["I went hiking yesterday.", "I went hiking last week.", "I went hiking last month.",
             "I went hiking in May.", "I went hiking in June.", "I love hiking in the mountains."]
    write_json(tmp_path / "h.json", conversation("u6", "h", *lines))
    store.ingest([str(tmp_path / "h.json")])
    store.config.recall.max_per_type = 2
    hits = store.recall("hiking", "u6", top_k=3).hits
    assert "preference" in {h.memory.type for h in hits}


def test_model_mismatch_is_refused(store):
    cfg = (store.dir / "memctl.toml").read_text()
    (store.dir / "memctl.toml").write_text(cfg.replace(f'model = "{FAKE_MODEL}"', 'model = "use-multilingual-v3"'))
    with pytest.raises(ModelMismatchError, match="reembed"):
        MemoryStore(store.dir)


def test_migrations_recorded_and_newer_store_refused(store):
    names = [r["name"] for r in store.db.rows("migrations")]
    assert names == [name for name, _ in MIGRATIONS]
    from memctl.migrations import write_meta

    meta = dict(store.meta, schema_version=str(len(MIGRATIONS) + 1))
    with store.lock.hold():
        write_meta(store.db, meta)
    with pytest.raises(SchemaError, match="upgrade memctl"):
        MemoryStore(store.dir)


def test_store_is_a_lancedb_database(store):
    lancedb = pytest.importorskip("lancedb")
    store.ingest([str(SAMPLES)])
    db = lancedb.connect(str(store.db.uri))
    assert {"memories", "episodes", "users", "events"} <= set(db.list_tables().tables)
    assert db.open_table("memories").count_rows() == store.db.count("memories")


def test_clock_is_injectable(store):
    s = MemoryStore(store.dir, clock=fixed_clock())
    assert s.clock().year == 2026


def test_migration_from_the_previous_schema(tmp_path, monkeypatch):
    """A store written by the first schema (turns without `context`, memories without
    `context_vector`) opens, migrates and keeps its data."""
    import memctl.migrations as migrations
    import memctl.core as core_module

    first = migrations.MIGRATIONS[:1]
    monkeypatch.setattr(migrations, "MIGRATIONS", first)
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 1)
    monkeypatch.setattr(core_module, "SCHEMA_VERSION", 1)
    old = init_store(tmp_path / "old", model=FAKE_MODEL)
    assert "context" not in old.db.schema("turns").names
    assert "context_vector" not in old.db.schema("memories").names
    assert "context_text" not in old.db.schema("memories").names
    old.db.append("turns", [{"turn_key": "k1", "user_id": "u", "session": "s", "turn": "t1", "role": "user",
                             "time": None, "content": "I live in Oslo", "ingested_at": None}])
    from conftest import seed
    from memctl.schema import Source

    memory = seed(old, "u", [("profile", "User lives in Oslo")])[0]
    memory.sources = [Source("s", "t1", None, "I live in Oslo", "k1")]
    with old.lock.hold():
        old.db.upsert("memories", [memory.to_row()], "id")
    monkeypatch.undo()

    new = MemoryStore(old.dir)
    assert not new.db.exists("turns") and "context" in new.db.schema("episodes").names
    assert "context_vector" in new.db.schema("memories").names
    assert [r["name"] for r in new.db.rows("migrations")] == [name for name, _ in MIGRATIONS]
    assert new.meta["schema_version"] == str(len(MIGRATIONS))
    assert new.db.rows("episodes")[0]["content"] == "I live in Oslo"
    assert new.db.rows("memories", columns=["context_text"]) == [{"context_text": "I live in Oslo"}]
    write_json(tmp_path / "c.json", conversation("u", "s2", "I work as a nurse."))
    assert new.ingest([str(tmp_path / "c.json")]).added == 1


def test_migration_turns_ledger_becomes_episodes(tmp_path, monkeypatch):
    """A store of the schema before episodes: its turns ledger (text only for the turns
    memories came from) becomes the episodes table, with vectors where the text is still
    there; outdated turns are marked; the retired catch-all type is archived."""
    import memctl.core as core_module
    import memctl.migrations as migrations
    from conftest import seed
    from memctl.schema import Source

    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:4])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 4)
    monkeypatch.setattr(core_module, "SCHEMA_VERSION", 4)
    old = init_store(tmp_path / "old", model=FAKE_MODEL)
    turn = {"user_id": "u", "session": "s", "role": "user", "time": None, "ingested_at": None, "context": "Where do you live?"}
    old.db.append("turns", [
        {**turn, "turn_key": "k1", "turn": "t1", "content": "I live in Oslo"},
        {**turn, "turn_key": "k2", "turn": "t2", "content": "I live in Bergen now"},
        {**turn, "turn_key": "k3", "turn": "t3", "content": None},  # no memory came from it
        {**turn, "turn_key": "k4", "turn": "t4", "content": "I had pancakes with my sister today"},
    ])
    oslo, bergen, pancakes = seed(old, "u", [("profile", "User lives in Oslo"), ("profile", "User lives in Bergen"),
                                             ("context", "User had pancakes with their sister today")])
    for m, key, clause in ((oslo, "k1", "I live in Oslo"), (bergen, "k2", "I live in Bergen now"),
                           (pancakes, "k4", "I had pancakes with my sister today")):
        m.sources = [Source("s", key[1:], None, clause, key)]
    oslo.status = "superseded"
    with old.lock.hold():
        old.db.upsert("memories", [m.to_row() for m in (oslo, bergen, pancakes)], "id")
    monkeypatch.undo()

    new = MemoryStore(old.dir)
    assert not new.db.exists("turns")
    rows = {r["turn_key"]: r for r in new.db.rows("episodes")}
    assert set(rows) == {"k1", "k2", "k3", "k4"}
    assert rows["k3"]["content"] is None and rows["k3"]["vector"] is None
    assert rows["k2"]["content"] == "I live in Bergen now" and rows["k2"]["vector"] is not None
    assert rows["k1"]["outdated"] and not rows["k2"]["outdated"]
    assert new.get(pancakes.id).status == "archived"
    assert new.db.rows("users") and new.core.user_size("u") == (3, 3)
    hits = new.recall("pancakes with my sister", "u").hits
    assert hits[0].kind == "episode" and hits[0].id == "k4"
    history = new.recall("where do I live", "u", kinds=["episode"], include_history=True).hits
    assert {"k1", "k2"} <= {h.id for h in history} and any(h.status == "outdated" for h in history)


def test_no_cross_user_results_over_1000_randomized_queries(tmp_path, store):
    """Two users with opposite preferences on the same topics never see each other's memories."""
    import json
    import random

    from conftest import DATA

    data = json.loads((DATA / "recall_eval.json").read_text(encoding="utf-8"))
    users = ["lin", "mei"]
    for user in users:
        texts = [s["text"] for s in data["users"][user]["statements"]]
        write_json(tmp_path / f"{user}.json", conversation(user, f"{user}-s", *texts))
        store.ingest([str(tmp_path / f"{user}.json")])
    words = [s["text"] for u in users for s in data["users"][u]["statements"]]
    words += [q["query"] for q in data["queries"] if q["user"] in users]
    rng = random.Random(11)
    seen = 0
    for _ in range(1000):
        user = rng.choice(users)
        query = rng.choice(words)[: rng.randrange(4, 30)]
        hits = store.recall(query, user, top_k=rng.randrange(1, 10), record=False).hits
        seen += len(hits)
        assert all(h.item.user_id == user for h in hits), query
    assert seen > 1000  # the queries did find memories: the check above is not vacuous


def test_reembed_switches_models_and_keeps_memories(store):
    store.ingest([str(SAMPLES)])
    before = {m.id: m.content for m in store.memories(status=None)}
    cfg = (store.dir / "memctl.toml").read_text()
    (store.dir / "memctl.toml").write_text(cfg.replace(f'model = "{FAKE_MODEL}"', 'model = "use-multilingual-v3"'))
    with pytest.raises(ModelMismatchError):
        MemoryStore(store.dir)
    from memctl import open_store

    report = open_store(store.dir, check_model=False).reembed()
    assert report.new_model == "use-multilingual-v3" and report.dim == 512 and report.memories == len(before)
    again = MemoryStore(store.dir)
    assert {m.id: m.content for m in again.memories(status=None)} == before
    hits = again.recall("帮我推荐三亚的餐厅", "xiaolin").hits
    assert any("花生" in h.content for h in hits)


def test_reembed_rebuilds_the_vectors_ingest_made(store):
    """Same model, same inputs: every vector comes back as ingest wrote it (the context
    vector from the cut source turn, not from the stored context text)."""
    import numpy as np

    store.ingest([str(SAMPLES)])
    before = {m.id: m for m in store.core.read_memories(None, with_vectors=True)}
    assert any(m.context_vector is not None for m in before.values())
    store.reembed()
    after = {m.id: m for m in store.core.read_memories(None, with_vectors=True)}
    assert after.keys() == before.keys()
    for mid, m in before.items():
        assert np.allclose(after[mid].vector, m.vector, atol=1e-6)
        if m.context_vector is None:
            assert after[mid].context_vector is None
        else:
            assert np.allclose(after[mid].context_vector, m.context_vector, atol=1e-3), m.content


def test_a_fact_said_twice_and_forgotten_in_one_ingest_is_never_written(store, tmp_path):
    from conftest import assert_absent

    write_json(tmp_path / "c.json", conversation("u1", "s1", "I love oolong coffee.", "I really love oolong coffee!",
                                                 "I am a nurse.", "Please forget what I said about oolong coffee."))
    report = store.ingest([str(tmp_path / "c.json")])
    assert report.forgotten == 1 and [m.content for m in store.memories("u1")] == ["User is a nurse"]
    kinds = store.db.to_table("events", columns=["kind", "memory_id"]).to_pylist()
    assert sorted(e["kind"] for e in kinds) == ["episodes", "ingested"]
    assert_absent(store.dir, "oolong")



def test_forget_what_i_just_said_takes_the_turn_before_whatever_the_ids(store, tmp_path, monkeypatch):
    # Both memories share the conversation's time; the one said last goes, not the one whose
    # random id sorts last (ids made here in falling order, so an id tie-break picks the first).
    import itertools

    from memctl import reconcile

    ids = (f"m{n:04d}" for n in itertools.count(9999, -1))
    monkeypatch.setattr(reconcile, "new_id", lambda: next(ids))
    write_json(tmp_path / "c.json", conversation("u1", "s1", "I am a nurse.", "I have a dog named Biscuit.",
                                                 "Forget what I just said."))
    report = store.ingest([str(tmp_path / "c.json")])
    assert report.forgotten == 1 and [m.content for m in store.memories("u1")] == ["User is a nurse"]

def test_as_of_counts_microseconds(store):
    from datetime import datetime, timedelta, timezone

    from conftest import seed

    made = datetime(2026, 11, 1, 12, 0, 0, 500_000, tzinfo=timezone.utc)
    seed(store, "u1", [("profile", "User is a nurse", made)])
    assert store.recall("nurse", "u1", as_of=made + timedelta(microseconds=200_000)).hits
    assert not store.recall("nurse", "u1", as_of=made - timedelta(microseconds=200_000)).hits
