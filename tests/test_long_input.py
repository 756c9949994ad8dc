"""Very long user messages: cut to ingest.max_message_chars with a warning, and taken in
whole (no limit) without error, drops that say why, or any memory from a blob.

Behaviour only: no timing is asserted here (bench/bench_long.py measures time per MB).
"""

from __future__ import annotations

import random
import re
import string
from datetime import datetime, timezone

import pytest

from conftest import FAKE_MODEL, conversation, write_json
from memctl.config import Config, config_from_dict, load_config
from memctl.conversations import Conversation, Turn, clean, read_sources
from memctl.errors import ConfigError
from memctl.extract import Candidate, extract, load_rules
from memctl.extract.secrets import MASK, find_secrets, mask_secrets
from memctl.extract.segment import MAX_CLAUSE_CHARS

WHEN = datetime(2026, 11, 2, 10, 0, tzinfo=timezone.utc)
MB = 1_000_000


def _store(tmp_path, limit: int):
    from memctl import init_store

    cfg = Config()
    cfg.ingest.max_message_chars = limit
    return init_store(tmp_path / "proj", model=FAKE_MODEL, config=cfg)


def _extract(text: str):
    conv = Conversation("u1", "s1", WHEN, [Turn("t1", "user", text)])
    return extract(conv, clean(conv), rules=load_rules())


def _candidates(ex) -> list[Candidate]:
    return [i for i in ex.items if isinstance(i, Candidate)]


# -- the size limit ---------------------------------------------------------------------


def test_a_message_over_the_limit_is_cut_with_a_warning(tmp_path):
    store = _store(tmp_path, 2000)
    filler = " ".join(["Can you suggest a board game for tonight?"] * 60)
    text = "I'm allergic to peanuts. " + filler + " My sister Anna is a nurse in Oslo."
    assert len(text) > 2000
    report = store.ingest([str(write_json(tmp_path / "long.json", conversation("u1", "s1", text)))])
    assert len(report.warnings) == 1
    warning = report.warnings[0]
    assert "long.json" in warning and "turn t1" in warning and "ingest.max_message_chars" in warning
    assert f"{len(text):,}" in warning
    assert report.to_dict()["warnings"] == report.warnings
    (episode,) = [r for r in store.db.rows("episodes") if r["turn"] == "t1"]
    kept = episode["content"]
    # Cut at a space before the limit, never inside a word; the episode keeps the cut text.
    assert len(kept) <= 2000 and text.startswith(kept) and text[len(kept)].isspace()
    contents = [m.content for m in store.memories("u1")]
    assert any("peanuts" in c for c in contents)
    assert not any("Anna" in c or "nurse" in c for c in contents)  # said after the cut


def test_a_chinese_message_is_cut_after_a_punctuation_mark(tmp_path):
    store = _store(tmp_path, 500)
    text = "我对花生过敏。" + "今天天气不错，我们去公园散步吧。" * 60
    report = store.ingest([str(write_json(tmp_path / "zh.json", conversation("u1", "s1", text)))])
    assert len(report.warnings) == 1
    (episode,) = [r for r in store.db.rows("episodes") if r["turn"] == "t1"]
    assert len(episode["content"]) <= 500 and text.startswith(episode["content"])
    assert episode["content"][-1] in "。，"


def test_no_warning_within_the_limit_and_none_without_a_limit(tmp_path):
    store = _store(tmp_path, 0)
    text = "I'm allergic to peanuts. " * 400  # 10,000 characters: over the limit below
    report = store.ingest([str(write_json(tmp_path / "a.json", conversation("u1", "s1", text)))])
    assert report.warnings == [] and report.to_dict()["warnings"] == []
    (episode,) = [r for r in store.db.rows("episodes") if r["turn"] == "t1"]
    assert episode["content"] == text.strip()


def test_only_user_messages_are_cut(tmp_path):
    store = _store(tmp_path, 100)
    conv = {"user": "u1", "session": "s1", "time": "2026-11-02T10:00:00Z", "messages": [
        {"role": "assistant", "content": "Tell me about yourself. " * 50, "id": "a1"},
        {"role": "user", "content": "I'm allergic to peanuts.", "id": "u1"},
    ]}
    report = store.ingest([str(write_json(tmp_path / "a.json", conv))])
    assert report.warnings == [] and report.added == 1


def test_the_setting_is_written_read_and_checked(tmp_path):
    store = _store(tmp_path, 123_456)
    assert Config().ingest.max_message_chars == 100_000
    toml = (store.dir / "memctl.toml").read_text(encoding="utf-8")
    assert re.search(r"\[ingest\]\s*\nmax_message_chars = 123456", toml)
    assert load_config(store.dir / "memctl.toml").ingest.max_message_chars == 123_456
    assert config_from_dict({"ingest": {"max_message_chars": 0}}).ingest.max_message_chars == 0
    with pytest.raises(ConfigError, match="ingest.max_message_chars"):
        config_from_dict({"ingest": {"max_message_chars": -1}})
    with pytest.raises(ConfigError, match="ingest.max_message_chars"):
        config_from_dict({"ingest": {"max_message_chars": "100k"}})


# -- blobs and endless runs ---------------------------------------------------------------


# Letters that spell no secret's label ("ssn", "pin" ...): the word is read, not masked.
_PLAIN = "abcdefghkmortuvwxyz"


def test_a_1mb_unbroken_word_extracts_nothing():
    word = "".join(random.Random(3).choices(_PLAIN, k=MB))
    ex = _extract(word)
    assert _candidates(ex) == [] and ex.items == []
    assert [d.reason for d in ex.dropped] == ["too long"]
    assert len(ex.turns) == 1 and ex.turns[0].statement is False


def test_a_1mb_chinese_run_without_punctuation_extracts_nothing():
    words = ["我们", "今天", "喜欢", "工作", "周末", "爬山", "孩子", "学习", "吉他", "咖啡"]
    rng = random.Random(5)
    run = "".join(rng.choice(words) for _ in range(MB // 2))
    assert len(run) == MB
    ex = _extract(run)
    assert _candidates(ex) == []
    assert [d.reason for d in ex.dropped] == ["too long"]


def test_long_blobs_are_ingested_whole_without_a_memory(tmp_path):
    store = _store(tmp_path, 0)
    rng = random.Random(9)
    blobs = {
        "word": "".join(rng.choices(_PLAIN, k=MB)),
        "zh": "".join(rng.choice("我们今天喜欢工作周末爬山孩子学习") for _ in range(MB)),
        "host": "https://" + "".join(rng.choice(_PLAIN + ".-") for _ in range(200_000)),
        "spaces": "I'm allergic to peanuts." + " " * 200_000 + "I love playing the guitar.",
    }
    msgs = [{"role": "user", "content": text, "id": name} for name, text in blobs.items()]
    report = store.ingest([str(write_json(tmp_path / "blobs.json", {"user": "u1", "session": "s1", "messages": msgs}))])
    assert report.warnings == [] and report.turns == 4
    assert report.dropped.get("too long") == 3
    contents = [m.content for m in store.memories("u1")]
    assert len(contents) == 2 and any("peanuts" in c for c in contents) and any("guitar" in c for c in contents)


def test_a_clause_over_the_cap_is_dropped_and_the_others_are_read():
    long_clause = "Blah " + "blah " * (MAX_CLAUSE_CHARS // 5)
    ex = _extract(f"I'm allergic to peanuts. {long_clause.strip()}. I love playing the guitar.")
    assert [d.reason for d in ex.dropped] == ["too long"]
    assert len(_candidates(ex)) == 2
    at_cap = _extract(("I'm allergic to peanuts and " + "very " * 400)[:MAX_CLAUSE_CHARS])
    assert "too long" not in [d.reason for d in at_cap.dropped]


def test_an_endless_sentence_of_continuations_makes_a_memory_of_a_clause_s_length():
    short = _extract("我跳槽了，现在在美团。")
    assert [c.content for c in _candidates(short)] == ["用户跳槽了，现在在美团"]
    ex = _extract("我跳槽了，" + "，".join(["现在在美团"] * 3_000) + "。")
    (memory,) = _candidates(ex)
    assert memory.content.startswith("用户跳槽了，现在在美团")
    assert len(memory.clause) <= MAX_CLAUSE_CHARS + 10 and len(memory.content) <= MAX_CLAUSE_CHARS + 10


def test_sarcasm_is_still_found_in_a_long_turn():
    filler = "We talked about the schedule and the budget for the next quarter. " * 200
    ex = _extract(filler + "Oh great, my flight is delayed again.")
    assert ex.items == [] and {d.reason for d in ex.dropped} == {"sarcasm"}


# -- secrets in long text -----------------------------------------------------------------


def _all_matches(text: str, rules) -> list[tuple[str, int, int]]:
    """Every secret match, searched the plain way over the whole text."""
    from memctl.extract.secrets import _VALIDATORS

    out = []
    for p in rules.secrets:
        check = _VALIDATORS.get(p.validate or "")
        out += [(p.name, m.start(), m.end()) for m in p.pattern.finditer(text) if check is None or check(m.group(0))]
    return out


def test_secrets_around_long_tokens_are_found_as_in_a_whole_search():
    rules = load_rules()
    rng = random.Random(11)

    def token(n: int) -> str:
        return "".join(rng.choices(string.ascii_letters + string.digits, k=n))

    key = "sk-proj-" + token(40)
    long_key = "sk-" + token(9000)  # longer than any search window: masked whole
    pem = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(token(64) for _ in range(60)) + "\n-----END PRIVATE KEY-----"
    parts = [token(30_000), f"my OpenAI key is {key}", "a.b-c" * 3000, long_key, "password: hunter2horse", pem,
             "https://bob:s3cretpass@example.com/x", token(12_000) + "\n", "我的密码是abc12345，别忘了", "x" * 8000]
    text = " ".join(parts)
    found = [(f.name, f.start, f.end) for f in find_secrets(text, rules)]
    assert found == _all_matches(text, rules)
    masked, count = mask_secrets(text, rules)
    for secret in (key, long_key[:100], long_key[-100:], "hunter2horse", "s3cretpass", "abc12345", pem[40:120]):
        assert secret not in masked
    assert count >= 6 and MASK in masked


# -- reading long input -------------------------------------------------------------------


def test_a_transcript_turn_of_many_lines_is_read_whole():
    lines = [f"line {i} of the pasted log" for i in range(20_000)]
    text = "user: here is the log\n" + "\n".join(lines) + "\nassistant: thanks\nuser: ok then\nmore"
    (conv,) = read_sources(["-"], fmt="transcript", user="u1", stdin_text=text)
    assert [t.role for t in conv.turns] == ["user", "assistant", "user"]
    assert conv.turns[0].content == "here is the log\n" + "\n".join(lines)
    assert conv.turns[2].content == "ok then\nmore"


@pytest.mark.parametrize("text", [
    "<uploaded_files>a.py</uploaded_files> I live in Oslo",
    "I live in Oslo <uploaded_files>a.py</uploaded_files> and <UPLOADED_FILES>b</uploaded_files> ok",
    "I live in Oslo <uploaded_files> never closed",
    "<uploaded_files>x</uploaded_files> hi " + "<uploaded_files> " * 500,
    "no block at all",
])
def test_upload_blocks_are_removed_as_before(text):
    from memctl.conversations import _UPLOAD_BLOCK

    conv = Conversation("u1", "s1", WHEN, [Turn("t1", "user", text)])
    (turn,) = clean(conv)
    assert turn.content == _UPLOAD_BLOCK.sub(" ", text).strip()
