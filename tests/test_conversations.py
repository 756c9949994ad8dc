"""Reading and validating conversation files, and cleaning them."""

from __future__ import annotations

import json

import pytest

from conftest import SAMPLES, write_json
from memctl.conversations import Conversation, Turn, clean, read_sources
from memctl.errors import InputError


def test_reads_every_sample_format():
    convs = read_sources([str(SAMPLES)])
    users = {c.user for c in convs}
    assert users == {"xiaolin", "sam", "kai"}
    assert all(c.turns for c in convs)


def test_json_list_and_object(tmp_path):
    one = {"user": "u1", "session": "s1", "messages": [{"role": "user", "content": "hi", "id": 7}]}
    p1 = write_json(tmp_path / "one.json", one)
    p2 = write_json(tmp_path / "many.json", [one, dict(one, session="s2")])
    assert [c.session for c in read_sources([str(p1)])] == ["s1"]
    assert [c.session for c in read_sources([str(p2)])] == ["s1", "s2"]
    assert read_sources([str(p1)])[0].turns[0].id == "7"


def test_jsonl_groups_by_user_and_session(tmp_path):
    lines = [
        {"user": "a", "session": "s", "role": "user", "content": "one", "time": "2026-01-01T00:00:00Z"},
        {"user": "b", "session": "s", "role": "user", "content": "two"},
        {"user": "a", "session": "s", "role": "assistant", "content": "three"},
    ]
    p = tmp_path / "c.jsonl"
    p.write_text("\n".join(json.dumps(x) for x in lines), encoding="utf-8")
    convs = read_sources([str(p)])
    assert [(c.user, len(c.turns)) for c in convs] == [("a", 2), ("b", 1)]
    assert [t.id for t in convs[0].turns] == ["t1", "t2"]


def test_user_and_session_options_fill_gaps(tmp_path):
    p = write_json(tmp_path / "c.json", {"messages": [{"role": "user", "content": "hello"}]})
    conv = read_sources([str(p)], user="u9", session="s9")[0]
    assert (conv.user, conv.session) == ("u9", "s9")


def test_stdin_and_transcript(tmp_path):
    convs = read_sources(["-"], fmt="transcript", user="u1", stdin_text="user: I live in Oslo\nassistant: ok\nuser: and\nmore")
    assert [t.role for t in convs[0].turns] == ["user", "assistant", "user"]
    assert convs[0].turns[2].content == "and\nmore"


@pytest.mark.parametrize(
    "content, fragment",
    [
        ('{"user": "u", "messages": [', "invalid JSON at line 1"),
        ('{"user": "u", "session": "s", "messages": [{"role": "user", "content": 5}]}', "'content' must be a string"),
        ('{"user": "u", "session": "s", "messages": [{"role": "bot", "content": "x"}]}', "unknown role 'bot'"),
        ('{"user": "u", "session": "s", "messages": {"role": "user"}}', "'messages' must be a list"),
        ('{"session": "s", "messages": []}', "no user"),
        ('{"user": "u", "session": "s", "time": "yesterday", "messages": []}', "invalid time"),
        ('{"user": "bad user", "session": "s", "messages": []}', "invalid user id"),
    ],
)
def test_malformed_files_name_the_file(tmp_path, content, fragment):
    p = tmp_path / "bad.json"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_sources([str(p)])
    assert str(p) in str(exc.value)
    assert fragment in str(exc.value)
    assert exc.value.exit_code == 2


def test_binary_missing_and_empty(tmp_path):
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\x00\x01\x02PNG")
    with pytest.raises(InputError, match="binary file"):
        read_sources([str(binary)])
    with pytest.raises(InputError, match="no such file"):
        read_sources([str(tmp_path / "missing.json")])
    empty = tmp_path / "folder"
    empty.mkdir()
    with pytest.raises(InputError, match="holds no"):
        read_sources([str(empty)])


def test_cleaning_drops_tools_uploads_and_acks():
    conv = Conversation("u", "s", None, [
        Turn("1", "system", "You are helpful."),
        Turn("2", "user", "好的"),
        Turn("3", "user", "看看这个 <uploaded_files>/mnt/a.pdf</uploaded_files> 我对花生过敏"),
        Turn("4", "assistant", "calling search"),
        Turn("5", "tool", '{"results": []}'),
        Turn("6", "assistant", "Final answer."),
        Turn("7", "user", "thanks!"),
    ])
    turns = clean(conv)
    assert [(t.id, t.role) for t in turns] == [("3", "user"), ("6", "assistant")]
    assert "uploaded_files" not in turns[0].content and "花生" in turns[0].content


def test_json_lines_files_are_read_line_by_line_with_the_whole_file_checks(tmp_path):
    """A .jsonl file is streamed, not read whole: a byte-order mark, CRLF ends and U+2028
    inside a string read as before; a bad byte is reported at its offset in the file."""
    line = '{"user": "u1", "session": "s1", "role": "user", "content": "I live in Oslo\u2028and Bergen"}'
    p = tmp_path / "a.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\r\n" + line.replace("Oslo", "Rome").encode() + b"\r\n")
    (conv,) = read_sources([str(p)])
    assert [t.content for t in conv.turns] == ["I live in Oslo\u2028and Bergen", "I live in Rome\u2028and Bergen"]
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(line.encode() + b"\n" + b'{"user": "u1", "content": "caf\xe9"}\n')
    at = len(line.encode()) + 1 + len(b'{"user": "u1", "content": "caf')
    with pytest.raises(InputError, match=rf"bad.jsonl: not UTF-8 text \(byte {at}\)"):
        read_sources([str(bad)])
    zero = tmp_path / "zero.jsonl"
    zero.write_bytes(line.encode() + b"\n\x00\x00\n")
    with pytest.raises(InputError, match="binary file"):
        read_sources([str(zero)])
