"""Export, import and profiles: JSON Lines round trips, DeerFlow's memory.json both ways,
fixtures seeded without extraction, and the three-level profile."""

from __future__ import annotations

import json
import re

import pytest

from conftest import FAKE_MODEL, ROOT, SAMPLES, write_json

STORE_LOCAL = ("recall_count", "last_recalled_at")


@pytest.fixture
def loaded(tmp_path):
    from memctl import init_store

    s = init_store(tmp_path / "proj", model=FAKE_MODEL)
    s.ingest([str(SAMPLES)])
    return s


def _portable(records):
    return [{k: v for k, v in r.items() if k not in STORE_LOCAL} for r in records]


def test_export_import_export_is_identical(cli, loaded, tmp_path):
    out = tmp_path / "all.jsonl"
    assert cli("export", "--episodes", "-o", out, "--store", loaded.dir).code == 0
    first = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert {r["kind"] for r in first} == {"memory", "episode"}
    assert any(r["status"] == "superseded" for r in first if r["kind"] == "memory")
    assert any(r["subject"] != "user" for r in first if r["kind"] == "memory")
    cli("init", tmp_path / "other", "--model", FAKE_MODEL)
    other = tmp_path / "other"
    r = cli("import", out, "--json", "--store", other)
    assert r.code == 0 and r.json()["memories"] == sum(x["kind"] == "memory" for x in first), r.err
    again = cli("export", "--episodes", "--store", other)
    assert _portable([json.loads(x) for x in again.out.splitlines()]) == _portable(first)
    # Idempotent: a second import writes nothing.
    twice = cli("import", out, "--json", "--store", other).json()
    assert twice["memories"] == 0 and twice["episodes"] == 0 and twice["skipped_existing"] == len(first)
    # Recall works on the imported store (vectors were computed with its model).
    assert cli("recall", "Rust", "-u", "sam", "--json", "--store", other).json()


def test_a_bad_line_stops_the_import_with_nothing_written(cli, store, tmp_path):
    from conftest import snapshot

    good = {"id": "a1b2c3d4e5f60718", "user": "u1", "type": "preference", "content": "User likes green tea"}
    for bad, fragment in ((["{not json"], "line 2: invalid JSON"), ([json.dumps({**good, "id": "x2", "type": "mood"})], "line 2: type"),
                          ([json.dumps({**good, "id": "x3", "created_at": "9999-12-31T20:00:00-05:00"})], "line 2:"),
                          ([json.dumps({**good, "id": "x4", "user": "bad user!"})], "line 2:"),
                          ([json.dumps({**good, "id": "x5", "importance": True})], "line 2: importance")):
        path = tmp_path / "f.jsonl"
        path.write_text("\n".join([json.dumps(good), *bad]) + "\n", encoding="utf-8")
        before = snapshot(store.dir)
        r = cli("import", path, "--store", store.dir)
        assert r.code == 2 and fragment in r.err and r.err.count("\n") == 1, r.err
        assert snapshot(store.dir) == before


def test_import_never_brings_back_a_forgotten_memory(cli, loaded, tmp_path):
    out = tmp_path / "sam.jsonl"
    assert cli("export", "-u", "sam", "-o", out, "--store", loaded.dir).code == 0
    (mid,) = [json.loads(x)["id"] for x in out.read_text().splitlines() if "Neovim" in x]
    assert cli("forget", "--id", mid, "--yes", "--store", loaded.dir).code == 0
    r = cli("import", out, "--json", "--store", loaded.dir).json()
    assert r["memories"] == 0 and r["skipped_forgotten"] == 1
    assert not any("Neovim" in m.content for m in loaded.memories("sam"))


def test_the_readme_fixture_example_seeds_a_store(cli, tmp_path):
    """The README's CI-seeding example, run as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- fixture -->\n```jsonl\n(.*?)```", text, re.S).group(1)
    (tmp_path / "memories.jsonl").write_text(block, encoding="utf-8")
    cli("init", tmp_path / "ci", "--model", FAKE_MODEL)
    r = cli("import", tmp_path / "memories.jsonl", "--json", "--store", tmp_path / "ci")
    assert r.code == 0 and r.json()["memories"] == len(block.strip().splitlines()), r.err
    hits = cli("recall", "花生", "-u", "xiaolin", "--json", "--store", tmp_path / "ci").json()
    assert any("花生" in h["content"] for h in hits)


DEERFLOW = {
    "version": "1.0",
    "lastUpdated": "2026-11-20T08:00:00Z",
    "user": {
        "workContext": {"summary": "Backend engineer working on payments.", "updatedAt": "2026-11-20T08:00:00Z"},
        "personalContext": {"summary": "Lives in Lisbon.", "updatedAt": "2026-11-20T08:00:00Z"},
        "topOfMind": {"summary": "Learning Rust.", "updatedAt": "2026-11-20T08:00:00Z"},
    },
    "history": {
        "recentMonths": {"summary": "Moved from Berlin.", "updatedAt": "2026-11-20T08:00:00Z"},
        "earlierContext": {"summary": "", "updatedAt": ""},
        "longTermBackground": {"summary": "", "updatedAt": ""},
    },
    "facts": [
        {"id": "fact_a1", "content": "Prefers concise answers with code first", "category": "preference", "confidence": 0.9,
         "createdAt": "2026-11-02T10:00:00Z", "source": "thread_1"},
        {"id": "fact_b2", "content": "Uses Go, PostgreSQL and Kafka at work", "category": "knowledge", "confidence": 0.85,
         "createdAt": "2026-11-03T10:00:00Z", "source": "thread_1"},
        {"id": "fact_c3", "content": "Lives in Lisbon", "category": "context", "confidence": 0.95,
         "createdAt": "2026-11-10T10:00:00Z", "source": "thread_2"},
        {"id": "fact_d4", "content": "Reviews code first thing in the morning", "category": "behavior", "confidence": 0.8,
         "createdAt": "2026-11-04T10:00:00Z", "source": "thread_1"},
        {"id": "fact_e5", "content": "Wants to ship a Rust service by mid-2027", "category": "goal", "confidence": 0.9,
         "createdAt": "2026-11-05T10:00:00Z", "source": "thread_3"},
    ],
}


def test_deerflow_memory_json_imports_and_exports_back_with_the_same_facts(cli, store, tmp_path):
    path = write_json(tmp_path / "memory.json", DEERFLOW)
    r = cli("import", "--from", "deerflow", path, "--user", "sam", "--json", "--store", store.dir)
    assert r.code == 0 and r.json()["memories"] == 5, r.err
    assert {m.type for m in store.memories("sam")} == {"preference", "knowledge", "profile", "behavior", "goal"}
    again = cli("import", "--from", "deerflow", path, "--user", "sam", "--json", "--store", store.dir).json()
    assert again["memories"] == 0
    out = tmp_path / "back.json"
    assert cli("export", "--to", "deerflow", "--user", "sam", "-o", out, "--store", store.dir).code == 0
    back = json.loads(out.read_text(encoding="utf-8"))
    assert set(back) >= {"version", "lastUpdated", "user", "history", "facts"}
    for part, keys in (("user", ("workContext", "personalContext", "topOfMind")),
                       ("history", ("recentMonths", "earlierContext", "longTermBackground"))):
        for key in keys:
            assert set(back[part][key]) == {"summary", "updatedAt"}
    simple = lambda facts: sorted((f["id"], f["content"], f["category"], f["confidence"], f["createdAt"][:19], f["source"]) for f in facts)
    assert simple(back["facts"]) == simple(DEERFLOW["facts"])
    # DeerFlow's loader reads it: the same keys and types as its empty document.
    assert isinstance(back["facts"], list) and all(isinstance(f["confidence"], float) for f in back["facts"])


def test_deerflow_input_errors_are_one_line(cli, store, tmp_path):
    bad = write_json(tmp_path / "m.json", {**DEERFLOW, "facts": [{"id": "f", "content": "x", "category": "mood"}]})
    r = cli("import", "--from", "deerflow", bad, "--user", "sam", "--store", store.dir)
    assert r.code == 2 and "category" in r.err and r.err.count("\n") == 1
    assert cli("import", "--from", "deerflow", bad, "--store", store.dir).code == 2  # no --user
    assert cli("export", "--to", "deerflow", "--store", store.dir).code == 2
    (tmp_path / "users" / "sam").mkdir(parents=True)
    manifest = write_json(tmp_path / "users" / "sam" / "memory.json", {"version": "2.0", "revision": 3, "user": {}, "history": {}})
    r = cli("import", "--from", "deerflow", tmp_path, "--user", "sam", "--store", store.dir)
    assert r.code == 2 and "no facts list" in r.err and str(manifest) in r.err


def test_profile_has_three_levels_in_both_languages(cli, loaded):
    for user, words in (("sam", ("Rust", "backend engineer")), ("xiaolin", ("花生", "女儿"))):
        p = cli("profile", "-u", user, "--json", "--store", loaded.dir).json()
        assert set(p["now"]) == {"work_context", "personal_context", "top_of_mind"}
        assert set(p["history"]) == {"recent_months", "earlier_context", "long_term_background"}
        text = json.dumps(p, ensure_ascii=False)
        assert all(w in text for w in words), (user, text)
        ids = {m.id for m in loaded.memories(user, status=None)}
        for lines in list(p["now"].values()) + list(p["history"].values()):
            for line in lines:
                assert set(line["ids"]) <= ids
        md = cli("profile", "-u", user, "--markdown", "--store", loaded.dir).out
        assert md.startswith(f"# Profile of {user}") and "## History" in md
        block = cli("profile", "-u", user, "--format", "prompt", "--budget", 120, "--store", loaded.dir).out
        from memctl.tokens import count_tokens

        assert count_tokens(block) <= 120 and block.startswith("<user_profile")
    sam = cli("profile", "-u", "sam", "--json", "--store", loaded.dir).json()
    assert any("Lisbon" in x["text"] for x in sam["now"]["personal_context"])
    assert any(x["text"].startswith("was: ") and "Berlin" in x["text"] for x in sam["history"]["recent_months"])


def test_openai_chat_message_lists_and_folders_of_them(cli, store, tmp_path):
    folder = tmp_path / "chats"
    folder.mkdir()
    write_json(folder / "monday.json", [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "I'm allergic to peanuts."},
        {"role": "assistant", "content": "Noted."},
    ])
    write_json(folder / "tuesday.json", [
        {"role": "user", "content": [{"type": "text", "text": "我住在杭州"}, {"type": "image_url", "image_url": {"url": "x"}}]},
    ])
    assert cli("ingest", folder, "--store", store.dir).code == 2  # no user named anywhere
    r = cli("ingest", folder, "--user", "u7", "--json", "--store", store.dir)
    assert r.code == 0 and r.json()["conversations"] == 2, r.err
    contents = [m.content for m in store.memories("u7")]
    assert "User is allergic to peanuts" in contents and "用户住在杭州" in contents
    sessions = {e.session for e in store.browse(user="u7", kinds=["episode"], limit=0).items}
    assert sessions == {"monday", "tuesday"}
    one = cli("ingest", folder / "monday.json", "--user", "u8", "--session", "s9", "--json", "--store", store.dir)
    assert one.code == 0 and {e.session for e in store.browse(user="u8", kinds=["episode"]).items} == {"s9"}


def test_deerflow_per_user_layout_with_markdown_facts(cli, store, tmp_path):
    """users/<id>/memory.json (summaries, revision) and one Markdown file per fact under
    agents/<agent>/facts/, front matter as DeerFlow writes it (yaml.safe_dump)."""
    import yaml

    home = tmp_path / "deer" / "users" / "sam"
    facts = home / "agents" / "default" / "facts"
    facts.mkdir(parents=True)
    write_json(home / "memory.json", {"version": "2.0", "revision": 4, "lastUpdated": "2026-11-20T08:00:00Z",
                                      "user": DEERFLOW["user"], "history": DEERFLOW["history"]})
    for fact in DEERFLOW["facts"][:3]:
        meta = {"id": fact["id"], "category": fact["category"], "confidence": fact["confidence"],
                "createdAt": fact["createdAt"], "updatedAt": fact["createdAt"], "status": "active",
                "source": {"type": "conversation", "threadId": fact["source"]}, "topics": [], "revision": 1,
                "schemaVersion": 2, "user_id": "sam", "agent_name": "default"}
        text = f"---\n{yaml.safe_dump(meta, allow_unicode=True, sort_keys=False).strip()}\n---\n\n# {fact['content']}\n\n{fact['content']}\n"
        (facts / f"{fact['id']}.md").write_text(text, encoding="utf-8")
    r = cli("import", "--from", "deerflow", tmp_path / "deer", "--user", "sam", "--json", "--store", store.dir)
    assert r.code == 0 and r.json()["memories"] == 3, r.err
    out = cli("export", "--to", "deerflow", "--user", "sam", "--store", store.dir).json()
    assert sorted((f["id"], f["content"], f["category"], f["source"]) for f in out["facts"]) == \
        sorted((f["id"], f["content"], f["category"], f["source"]) for f in DEERFLOW["facts"][:3])
    (facts / "broken.md").write_text("no front matter here", encoding="utf-8")
    r = cli("import", "--from", "deerflow", tmp_path / "deer", "--user", "sam", "--store", store.dir)
    assert r.code == 2 and "broken.md" in r.err and r.err.count("\n") == 1
