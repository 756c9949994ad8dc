"""Property-based fuzzing of the input readers: whatever a file holds, reading it gives
conversations or one InputError naming the file (exit 2) — never another exception.

Derandomized and without an example database, so every run tries the same inputs and a
failure is shrunk to a small one that reproduces."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memctl.conversations import read_sources
from memctl.errors import InputError

pytestmark = pytest.mark.reliability

_SETTINGS = settings(derandomize=True, database=None, deadline=None, max_examples=300,
                     suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40) | st.sampled_from(
    ["", "user", "assistant", "bot", "2026-11-02T10:00:00+08:00", "0001-01-01T00:00:00+14:00", "9999-12-31T20:00:00-05:00",
     "我对花生过敏", "I live in Oslo.", "\u2028", "\x1b[31m", "u1", "s1"])
_scalar = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | _text
_json = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
                     max_leaves=12)
_part = st.fixed_dictionaries({"type": st.sampled_from(["text", "image_url"]) | _json, "text": _text | _json}) | _json
_time = st.sampled_from(["2026-11-02T10:00:00+08:00", "2026-11-02"]) | _text | _json
# Mostly well-formed, each field sometimes anything: the readers' checks are reached one by one.
_message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "user", "system", "tool", "bot"]) | _json,
     "content": _text | st.lists(_part, max_size=3) | _json},
    optional={"id": st.integers() | _text | _json, "time": _time,
              "user": st.sampled_from(["u1", "bad user"]) | _json, "session": _text | _json})
_conversation = st.fixed_dictionaries(
    {"user": st.sampled_from(["u1", "u1", "u 2"]) | _json, "messages": st.lists(_message, max_size=4) | _json},
    optional={"session": _text | _json, "time": _time})


def _document(draw_value) -> str:
    return json.dumps(draw_value, ensure_ascii=False, allow_nan=True)


_contents = st.one_of(
    _conversation.map(_document),
    st.lists(_conversation, max_size=3).map(_document),
    st.lists(_message, max_size=4).map(_document),
    st.lists(_message, max_size=5).map(lambda ms: "\n".join(_document(m) for m in ms)),
    st.lists(_json, max_size=4).map(lambda vs: "\n".join(_document(v) for v in vs)),
    st.lists(st.tuples(st.sampled_from(["user:", "assistant:", "用户：", "", "AI:"]), _text), max_size=5)
    .map(lambda ls: "\n".join(f"{s} {t}" for s, t in ls)),
    _text,
)


def _check(path, **kwargs) -> None:
    try:
        read_sources([str(path)], **kwargs)
    except InputError as exc:
        message = str(exc)
        assert "\n" not in message.strip() or "\\n" in message, message
        assert str(path) in message or path.name in message, message
        assert exc.exit_code == 2


@_SETTINGS
@given(content=_contents, suffix=st.sampled_from([".json", ".jsonl", ".txt"]), user=st.sampled_from([None, "u1"]))
def test_any_text_reads_or_is_one_input_error(tmp_path, content, suffix, user):
    path = tmp_path / f"in{suffix}"
    path.write_text(content, encoding="utf-8")
    _check(path, user=user)


@_SETTINGS
@given(data=st.binary(max_size=200), suffix=st.sampled_from([".json", ".jsonl", ".txt"]))
def test_any_bytes_read_or_are_one_input_error(tmp_path, data, suffix):
    path = tmp_path / f"in{suffix}"
    path.write_bytes(data)
    _check(path, user="u1")


@_SETTINGS
@given(content=_contents, cut=st.integers(min_value=0, max_value=400), junk=st.binary(min_size=1, max_size=8))
def test_a_valid_file_damaged_anywhere_reads_or_is_one_input_error(tmp_path, content, cut, junk):
    """A log cut short or with bytes spliced in (a crash while it was written, a bad copy)."""
    raw = content.encode("utf-8")
    at = min(cut, len(raw))
    path = tmp_path / "in.jsonl"
    path.write_bytes(raw[:at] + junk + raw[at:])
    _check(path, user="u1")
