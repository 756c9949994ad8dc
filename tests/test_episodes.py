"""Episodes: every user turn kept as it was said, recalled beside memories, forgotten for real."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from conftest import assert_absent, conversation, fixed_clock, lance_strings, write_json


def _ingest(store, tmp_path, name, conv):
    write_json(tmp_path / f"{name}.json", conv)
    return store.ingest([str(tmp_path / f"{name}.json")])


@pytest.fixture
def chat(store, tmp_path):
    conv = conversation("u1", "s1", "I'm allergic to peanuts.", "Can you suggest a board game for tonight?",
                        "We went camping at Lake Tahoe with the kids last weekend.", "My API key is sk-abcdef1234567890abcdef12.")
    _ingest(store, tmp_path, "chat", conv)
    return store


def test_every_user_turn_is_an_episode_verbatim_and_masked(chat):
    rows = {r["turn"]: r for r in chat.db.rows("episodes")}
    assert set(rows) == {"t1", "t3", "t5", "t7"}
    assert rows["t3"]["content"] == "Can you suggest a board game for tonight?" and rows["t3"]["statement"] is False
    assert rows["t5"]["statement"] is True and rows["t5"]["vector"] is not None
    assert "sk-abcdef" not in rows["t7"]["content"] and "[secret removed]" in rows["t7"]["content"]
    assert rows["t1"]["session"] == "s1" and rows["t1"]["time"] is not None
    assert chat.core.user_size("u1") == (len(chat.memories("u1", status=None)), 4)


def test_recall_one_list_of_two_kinds(chat):
    result = chat.recall("camping at the lake with the kids", "u1", top_k=3)
    assert 0 < len(result.hits) <= 3
    rows = result.to_list()
    assert {r["kind"] for r in rows} <= {"memory", "episode"}
    episode = next(h for h in chat.recall("board game tonight", "u1").hits if h.kind == "episode")
    data = episode.to_dict()
    assert data["type"] == "episode" and data["id"] == episode.id and data["content"].startswith("Can you suggest")
    assert data["sources"] == [{"session": "s1", "turn": "t3", "time": data["time"]}]
    for key in ("id", "chain_id", "version", "status", "user", "type", "content", "importance", "confidence",
                "score", "source_type", "sources", "created_at", "updated_at", "valid_from", "valid_to"):
        assert key in data
    assert all(h.kind == "episode" for h in chat.recall("peanuts", "u1", kinds=["episode"]).hits)
    assert all(h.kind == "memory" for h in chat.recall("peanuts", "u1", kinds=["memory"]).hits)


def test_an_episode_is_folded_into_the_memory_that_came_from_it(chat):
    hits = chat.recall("allergic to peanuts", "u1").hits
    peanut = [h for h in hits if "peanut" in h.content]
    assert len(peanut) == 1 and peanut[0].kind == "memory"


def test_a_turn_whose_memories_were_superseded_is_left_out(store, tmp_path):
    _ingest(store, tmp_path, "a", conversation("u2", "a", "I live in Berlin.", time="2026-01-10T10:00:00Z"))
    _ingest(store, tmp_path, "b", conversation("u2", "b", "Actually I moved to Lisbon.", time="2026-06-10T10:00:00Z"))
    now = store.recall("where do I live", "u2").hits
    assert not any("Berlin" in h.content for h in now), [h.content for h in now]
    history = store.recall("where do I live", "u2", include_history=True).hits
    berlin = [h for h in history if "Berlin" in h.content]
    assert berlin and all(h.status != "active" for h in berlin)
    flags = {r["session"]: r["outdated"] for r in store.db.rows("episodes", filter="user_id = 'u2'")}
    assert flags == {"a": True, "b": False}
    episodes = store.recall("where do I live", "u2", kinds=["episode"], include_history=True).hits
    assert any(h.status == "outdated" and "Berlin" in h.content for h in episodes)


def test_forget_an_episode_by_id_leaves_no_trace(chat):
    episode = next(h for h in chat.recall("board game tonight", "u1").hits if h.kind == "episode")
    report = chat.forget(ids=[episode.id])
    assert [e.id for e in report.episodes] == [episode.id] and not report.memories
    assert_absent(chat.dir, "board game")
    assert chat.db.count("episodes", f"turn_key = '{episode.id}'") == 1  # the ledger keeps the key
    events = chat.db.rows("events", filter="kind = 'episode_forgotten'")
    assert len(events) == 1 and events[0]["memory_id"] == episode.id


def test_forget_by_query_takes_matching_episodes_and_memories(chat):
    report = chat.forget(user="u1", query="camping at Lake Tahoe")
    assert report.episodes and all("Tahoe" in (e.content or "") for e in report.episodes)
    assert_absent(chat.dir, "Tahoe")
    assert any("peanut" in m.content for m in chat.memories("u1"))


def test_forgetting_a_memory_cuts_its_words_out_of_its_turn(store, tmp_path):
    _ingest(store, tmp_path, "c", conversation("u3", "s", "I live at 12 Baker Street, and I love jazz music."))
    address = next(m for m in store.memories("u3") if "Baker" in m.content)
    store.forget(ids=[address.id])
    assert_absent(store.dir, "Baker")
    text = store.db.rows("episodes", filter="user_id = 'u3'")[0]["content"]
    assert "jazz" in text


def test_forget_a_session_keeps_what_was_also_said_elsewhere(store, tmp_path):
    _ingest(store, tmp_path, "a", conversation("u4", "one", "I'm vegetarian.", "I work as a nurse."))
    _ingest(store, tmp_path, "b", conversation("u4", "two", "I'm vegetarian.", "My sister lives in Oslo and I visited her."))
    report = store.forget(user="u4", session="two")
    assert report.episodes and {e.session for e in report.episodes} == {"two"}
    assert_absent(store.dir, "Oslo")
    vegetarian = next(m for m in store.memories("u4") if "vegetarian" in m.content)
    assert {s.session for s in vegetarian.sources} == {"one"}
    assert any("nurse" in m.content for m in store.memories("u4"))


def test_forget_the_whole_user_takes_every_episode(chat):
    chat.forget(user="u1")
    assert chat.db.count("episodes", "user_id = 'u1' AND content IS NOT NULL") == 0
    assert_absent(chat.dir, "peanuts", "board game", "Tahoe")


def test_reingest_never_duplicates_and_forgotten_turns_never_return(chat, tmp_path):
    before = chat.db.count("episodes")
    again = chat.ingest([str(tmp_path / "chat.json")])
    assert again.episodes == 0 and chat.db.count("episodes") == before
    chat.forget(user="u1", query="board game")
    chat.ingest([str(tmp_path / "chat.json")])
    assert not any("board game" in s for s in lance_strings(chat.dir))


def test_a_store_with_episodes_switched_off(tmp_path):
    from memctl import init_store
    from memctl.config import Config

    config = Config()
    config.episodes.enabled = False
    store = init_store(tmp_path / "off", model="hash-ngram-256", config=config)
    report = _ingest(store, tmp_path, "c", conversation("u5", "s", "I'm allergic to peanuts.", "What a lovely day it is!"))
    assert report.episodes == 0 and report.added == 1
    rows = {r["turn"]: r for r in store.db.rows("episodes")}
    assert rows["t1"]["content"] and rows["t3"]["content"] is None  # provenance only
    assert all(r["vector"] is None for r in rows.values())
    assert all(h.kind == "memory" for h in store.recall("lovely day peanuts", "u5").hits)
    assert store.ingest([str(tmp_path / "c.json")]).turns_new == 0


def test_the_prompt_block_puts_memories_first_then_quoted_episodes(chat):
    from memctl.prompt import prompt_block

    result = chat.recall("a board game for tonight, and food I can't eat", "u1", top_k=6)
    block = prompt_block(result, 400)
    lines = block.splitlines()
    facts = [n for n, line in enumerate(lines) if line.startswith("- [")]
    said = [n for n, line in enumerate(lines) if line.startswith('- 2026-')]
    assert facts and said and max(facts) < min(said)
    assert "What the user said earlier" in block


def test_old_episodes_lose_their_text_at_compaction(store, tmp_path):
    from memctl import MemoryStore

    _ingest(store, tmp_path, "old", conversation("u6", "old", "I painted the fence blue in Lisbon.", time="2025-01-01T10:00:00Z"))
    _ingest(store, tmp_path, "new", conversation("u6", "new", "I painted the shed green.", time="2026-11-20T10:00:00Z"))
    cfg = (store.dir / "memctl.toml").read_text()
    (store.dir / "memctl.toml").write_text(cfg.replace("max_age_days = 0", "max_age_days = 365"))
    report = MemoryStore(store.dir, clock=fixed_clock()).compact()
    assert report.episodes_expired == 1
    texts = {r["session"]: r["content"] for r in store.db.rows("episodes")}
    assert texts["old"] is None and "shed" in texts["new"]
    import lance

    episodes = str(store.dir / "db" / "episodes.lance")
    for version in lance.dataset(episodes).versions():
        rows = lance.dataset(episodes, version=version["version"]).to_table(columns=["content"]).to_pylist()
        assert not any("fence" in (r["content"] or "") for r in rows)
    old = next(m for m in store.memories("u6") if "fence" in m.content)
    assert old.context_text is None and old.sources[0].clause == "I painted the fence blue in Lisbon"


def test_audit_counts_episodes_and_scans_them(chat):
    report = chat.audit()
    episodes = report.counts["episodes"]
    assert episodes["turns"] == 4 and episodes["with_text"] == 4 and episodes["by_user"] == {"u1": 4}
    assert report.store["tables"]["episodes"]["rows"] == 4 and report.store["tables"]["episodes"]["bytes"] > 0
    assert report.figure("secrets").value == 0


def test_a_large_user_is_served_by_the_indexes(store, tmp_path):
    """Above the exact limit recall uses the tables' vector and full-text indexes (built by
    compact); the best hit is the same as the exact pass finds."""
    lines = [f"I collected {n} seashells on the beach in Portugal." for n in range(3)] + [
        "I'm allergic to peanuts.", "My daughter plays the violin every Tuesday.", "I used to live in Kyoto."]
    _ingest(store, tmp_path, "many", conversation("u7", "s", *lines))
    exact = [h.id for h in store.recall("violin lessons", "u7").hits]
    cfg = (store.dir / "memctl.toml").read_text()
    (store.dir / "memctl.toml").write_text(cfg.replace("exact_rows = 5000", "exact_rows = 2"))
    store = type(store)(store.dir)
    store.compact()
    assert store.db.has_index("episodes", "vector") and store.db.has_index("episodes", "content")
    assert store.db.has_index("memories", "vector") and store.db.has_index("memories", "content")
    indexed = [h.id for h in store.recall("violin lessons", "u7").hits]
    assert indexed and indexed[0] == exact[0]
    # Words said after the index was built are found too.
    _ingest(store, tmp_path, "later", conversation("u7", "s2", "I started learning the cello in March."))
    assert any("cello" in h.content for h in store.recall("cello", "u7").hits)


def test_diff_reports_episodes(store, tmp_path):
    from memctl.results import Point

    _ingest(store, tmp_path, "a", conversation("u8", "s", "I love hiking.", "Is it going to rain?"))
    d = store.diff(Point(time=datetime(2000, 1, 1, tzinfo=timezone.utc)))
    assert d.episodes["added"] == 2 and d.to_dict()["episodes"]["added"] == 2


def test_a_question_that_names_a_period_asks_about_what_was_said_then():
    from memctl.recall import asked_periods

    now = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)
    [(start, end)] = asked_periods("What did I cook in May 2023?", now)
    assert (start.date().isoformat(), end.date().isoformat()) == ("2023-05-01", "2023-06-01")
    [(start, end)] = asked_periods("我2023年5月去了哪里？", now)
    assert start.date().isoformat() == "2023-05-01"
    [(start, _)] = asked_periods("What did I do last week?", now)  # looking back from now
    assert start.date().isoformat() == "2026-11-23"
    assert asked_periods("what do I like to cook?", now) == []


def test_of_two_like_turns_the_one_said_in_the_named_period_ranks_first(store, tmp_path):
    for session, when in (("s-may", "2023-05-10T10:00:00+00:00"), ("s-june", "2023-06-20T10:00:00+00:00")):
        _ingest(store, tmp_path, session, conversation("u1", session, "We had a picnic by the river with friends.", time=when))
    store.core.clock = fixed_clock()
    first = store.recall("What did we do by the river in June 2023?", "u1", kinds=["episode"]).hits[0]
    assert first.episode.session == "s-june" and first.parts.period == 1.0
    first = store.recall("What did we do by the river in May 2023?", "u1", kinds=["episode"]).hits[0]
    assert first.episode.session == "s-may"


def _chat(user: str, session: str, *messages: str) -> dict:
    """A conversation of alternating user and assistant messages, as given."""
    turns = [{"role": "user" if n % 2 == 0 else "assistant", "content": text, "id": f"t{n + 1}"} for n, text in enumerate(messages)]
    return {"user": user, "session": session, "time": "2026-11-02T10:00:00+08:00", "messages": turns}


def test_a_follow_up_is_found_through_the_turn_it_follows(tmp_path):
    from memctl import init_store
    from memctl.config import Config

    found = {}
    for asked in ("What did you play?", "Nice."):
        talk = ["We had a picnic with some friends from church last weekend.", asked, "Charades mostly, and the kids played tag.",
                "Noted.", "The tomatoes are finally ripening in the garden.", "Noted.", "I play board games with my nephew every Friday."]
        for weight in (0.0, 0.8):
            config = Config()
            config.recall.neighbour_weight = weight
            store = init_store(tmp_path / f"w{weight}{len(asked)}", model="hash-ngram-256", config=config)
            _ingest(store, tmp_path, f"talk{weight}{len(asked)}", _chat("u1", "s1", *talk))
            hits = store.recall("what did we play at the church picnic with friends", "u1", kinds=["episode"], top_k=2).hits
            found[asked, weight] = [h.episode.turn for h in hits]
            if weight and "?" in asked:
                picnic, follow_up = hits
    # Alone, the board games share more words; said in reply to "What did you play?" right
    # after the picnic, the answer wins; after a message that asked nothing, it does not.
    assert found["What did you play?", 0.0] == ["t1", "t7"] and found["What did you play?", 0.8] == ["t1", "t3"]
    assert found["Nice.", 0.8] == ["t1", "t7"]
    assert follow_up.parts.neighbour == pytest.approx(picnic.parts.score)
    assert follow_up.parts.score == pytest.approx(0.8 * follow_up.parts.neighbour)
    assert follow_up.to_dict()["score_parts"]["neighbour"] > 0


def test_the_neighbours_of_a_turn_are_the_users_turns_next_to_it_in_its_session():
    import numpy as np

    from memctl.recall import _next_to

    asked = [None, "Which one?", "What then?", "Where?", "And then？"]
    before, after = _next_to(["a", "a", "a", "b", "b"], asked, np.array([True, True, True, True, True]))
    assert before.tolist() == [-1, 0, 1, -1, 3] and after.tolist() == [1, 2, -1, 4, -1]
    # A turn left out (outdated, or with no text left) is no one's neighbour; nor is a turn
    # after a message that asked nothing.
    before, after = _next_to(["a", "a", "a", None], asked[:4], np.array([True, False, True, True]))
    assert before.tolist() == [-1, -1, -1] and after.tolist() == [-1, -1, -1]
    before, after = _next_to(["a", "a"], [None, "Got it."], np.array([True, True]))
    assert before.tolist() == [-1, -1] and after.tolist() == [-1, -1]


def test_a_turn_the_user_asks_not_to_keep_is_kept_nowhere(store, tmp_path):
    conv = conversation("u1", "s1", "I'm allergic to peanuts.",
                        "secret: im planning to quit but nobody at work knows yet so dont save this",
                        "我其实准备跳槽了 公司还没人知道 别记下来")
    report = _ingest(store, tmp_path, "private", conv)
    assert {r["turn"] for r in store.db.rows("episodes")} == {"t1"}
    assert [m.content for m in store.memories("u1")] == ["User is allergic to peanuts"]
    assert_absent(store.dir, "nobody at work knows", "跳槽")
    # A re-ingest keeps them out again, and the allergy stays.
    _ingest(store, tmp_path, "private", conv)
    assert {r["turn"] for r in store.db.rows("episodes")} == {"t1"}
    assert report.turns >= 1
