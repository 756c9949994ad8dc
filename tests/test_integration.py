"""With the real models (marked `integration`; they run in CI too)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import SAMPLES, conversation, write_json

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def use_store(tmp_path_factory):
    from memctl import init_store

    s = init_store(tmp_path_factory.mktemp("use"))  # the default model
    s.ingest([str(SAMPLES)])
    return s


def test_default_model_is_multilingual_use(use_store):
    assert use_store.meta["model"] == "use-multilingual-v3" and use_store.meta["dim"] == "512"


def test_travel_acceptance_with_the_real_model(use_store):
    top = [h.content for h in use_store.recall("帮我推荐三亚的餐厅", "xiaolin").hits[:5]]
    assert any("海鲜" in c for c in top) and any("花生" in c for c in top), top
    for other in ("sam", "kai"):
        assert all(h.item.user_id == other for h in use_store.recall("帮我推荐三亚的餐厅", other).hits)


def test_a_question_about_the_user_puts_their_own_diet_before_their_sisters(use_store, tmp_path):
    write_json(tmp_path / "d.json", conversation("diet", "s", "My sister is on a keto diet.", "I'm vegetarian."))
    use_store.ingest([str(tmp_path / "d.json")])
    hits = use_store.recall("what diet am I on", "diet", kinds=["memory"]).hits
    assert hits[0].content == "User is vegetarian", [h.content for h in hits]
    assert [h.memory.subject for h in hits if "sister" in h.content] == ["sister"]
    zh = conversation("diet-zh", "s", "我姐姐在吃生酮饮食", "我吃素")
    write_json(tmp_path / "z.json", zh)
    use_store.ingest([str(tmp_path / "z.json")])
    assert use_store.recall("我平时吃什么", "diet-zh", kinds=["memory"]).hits[0].content == "用户吃素"


def test_cross_language_recall(use_store, tmp_path):
    write_json(tmp_path / "x.json", conversation("bi", "s", "I'm allergic to peanuts.", "我每天早上跑步。"))
    use_store.ingest([str(tmp_path / "x.json")])
    zh_to_en = [h.content for h in use_store.recall("我对什么过敏？下午茶吃什么好", "bi").hits]
    en_to_zh = [h.content for h in use_store.recall("what exercise does the user do in the morning", "bi").hits]
    assert zh_to_en and "peanut" in zh_to_en[0]
    assert en_to_zh and "跑步" in en_to_zh[0]


def test_cli_recall_in_a_fresh_process(use_store):
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    out = subprocess.run(
        [sys.executable, "-m", "memctl", "recall", "花生", "--user", "xiaolin", "--json", "--store", str(use_store.dir)],
        capture_output=True, text=True, env=env, check=True,
    ).stdout
    assert "花生" in json.loads(out)[0]["content"]


def test_sentence_transformers_minilm_offline(tmp_path):
    pytest.importorskip("sentence_transformers")
    from memctl import init_store

    s = init_store(tmp_path / "st", model="all-MiniLM-L6-v2")
    assert s.meta["dim"] == "384"
    write_json(tmp_path / "c.json", conversation("u", "s", "I'm allergic to peanuts.", "I work as a nurse."))
    s.ingest([str(tmp_path / "c.json")])
    hits = s.recall("which foods should the user avoid?", "u").hits
    assert hits and "peanuts" in hits[0].content


def test_compact_merges_bilingual_paraphrases_with_the_real_model(tmp_path):
    from datetime import datetime, timedelta, timezone

    from conftest import seed
    from memctl import MemoryStore, init_store

    store = init_store(tmp_path / "c")
    clusters = {
        ("preference", "seafood"): ["用户不吃海鲜", "用户从来不吃海鲜", "User doesn't eat seafood"],
        ("behavior", "running"): ["用户每天早上跑步", "用户每天早晨都会跑步", "User runs every morning"],
        ("preference", "short"): ["User wants answers kept short", "User prefers short answers", "用户希望回答简短一些"],
        ("profile", "peanut"): ["用户对花生过敏", "用户吃花生会过敏"],
    }
    distinct = [("profile", "用户对芒果过敏"), ("profile", "用户住在杭州"), ("profile", "User lives in Shanghai"),
                ("preference", "用户不吃辣"), ("profile", "User is allergic to cats")]
    now = datetime(2026, 11, 30, tzinfo=timezone.utc)
    seeded = {key: seed(store, "u", [(key[0], text) for text in texts]) for key, texts in clusters.items()}
    seed(store, "u", distinct)
    seed(store, "u", [("preference", "User loves coffee", now - timedelta(days=60)),
                      ("preference", "User quit coffee", now - timedelta(days=2))])
    report = MemoryStore(store.dir, clock=lambda: now).compact()
    assert len(report.merges) == len(clusters)
    for key, members in seeded.items():
        merge = next(m for m in report.merges if {x.id for x in m.members} & {x.id for x in members})
        assert {x.id for x in merge.members} == {x.id for x in members}, (key, merge.to_dict())
        assert set(merge.merged.merged_from) == {x.id for x in members}
    active = {m.content for m in store.memories("u")}
    assert {text for _t, text in distinct} <= active
    assert "User quit coffee" in active and "User loves coffee" not in active
    assert len(active) == len(clusters) + len(distinct) + 1
    assert MemoryStore(store.dir, clock=lambda: now).compact().changes == 0


@pytest.mark.parametrize("fact, unrelated", [
    ("I'm allergic to peanuts.", "I don't drink coffee anymore."),
    ("我对花生过敏", "我已经不喝咖啡了"),
])
def test_an_unrelated_not_anymore_never_closes_a_health_fact(use_store, tmp_path, fact, unrelated):
    user = "neg-" + str(abs(hash(fact)) % 10000)
    write_json(tmp_path / "a.json", conversation(user, "s1", fact, time="2026-11-01T10:00:00+00:00"))
    write_json(tmp_path / "b.json", conversation(user, "s2", unrelated, time="2026-11-05T10:00:00+00:00"))
    use_store.ingest([str(tmp_path / "a.json")])
    use_store.ingest([str(tmp_path / "b.json")])
    active = [m.content for m in use_store.memories(user)]
    assert any("peanut" in c or "花生" in c for c in active), active


def test_old_times_recalled_close_only_what_they_name(use_store, tmp_path):
    # "We used to rock a song by Tupac" had closed the podcast memory it was near in meaning.
    user = "used-to"
    write_json(tmp_path / "a.json", conversation(user, "s1", "Yesterday my friends and I recorded a podcast about the rap industry!",
                                                 time="2026-08-22T10:00:00+00:00"))
    write_json(tmp_path / "b.json", conversation(user, "s2", 'We used to rock a song by Tupac and Dr. Dre called "California Love".',
                                                 time="2026-09-22T10:00:00+00:00"))
    write_json(tmp_path / "c.json", conversation(user, "s3", "I live in Kyoto.", time="2026-09-23T10:00:00+00:00"))
    write_json(tmp_path / "d.json", conversation(user, "s4", "I used to live in Kyoto, now I'm in Osaka.", time="2026-10-01T10:00:00+00:00"))
    for name in "abcd":
        use_store.ingest([str(tmp_path / f"{name}.json")])
    active = [m.content for m in use_store.memories(user)]
    assert any("podcast" in c for c in active), active
    assert "User lives in Kyoto" not in active, active


def test_two_memories_of_old_times_are_not_one_thing(use_store, tmp_path):
    # ("used" was the one word they shared.)
    user = "used-to-twice"
    write_json(tmp_path / "a.json", conversation(user, "s1", "I used to compete in a few dance competitions and shows.",
                                                 time="2026-08-22T10:00:00+00:00"))
    write_json(tmp_path / "b.json", conversation(user, "s2", "I used to love spending time in the studio.", time="2026-09-22T10:00:00+00:00"))
    for name in "ab":
        use_store.ingest([str(tmp_path / f"{name}.json")])
    active = [m.content for m in use_store.memories(user)]
    assert any("competitions" in c for c in active) and any("studio" in c for c in active), active
