"""Lexical matching: tokens, BM25 shares, and the other forms of an English word."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from memctl.lexical import BM25, other_forms, tokens

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("query, doc", [
    ("When did he win his third tournament?", "I won my third tournament last week"),
    ("What did she buy?", "I bought a used bike"),
    ("Where did they go on holiday?", "We went to Lisbon for the holidays"),
    ("What did he teach?", "I taught piano for ten years"),
    ("How are his wives?", "my wife is a nurse"),
])
def test_a_query_word_finds_its_irregular_forms(query, doc):
    scores = BM25([doc, "something else entirely", "another unrelated turn"]).match(query)
    assert scores[0] > 0 and scores[1] == scores[2] == 0


def test_regular_forms_and_chinese_match_as_before():
    assert BM25(["I have been painting a lot"]).match("paint") == [1.0]
    assert BM25(["我对花生过敏", "我喜欢编程"]).match("花生")[0] > 0
    assert tokens("Running shoes") == ["runn", "sho"]  # a light stem, matched by prefix


def test_other_forms_go_both_ways_and_only_where_the_prefix_misses():
    forms = other_forms()
    assert "won" in forms["win"] and "win" in forms["won"]
    assert forms.get("paint") is None  # "painted", "painting" share the stem


def test_the_forms_file_is_what_the_generator_writes():
    sys.path.insert(0, str(ROOT / "bench"))
    import word_forms

    with open(ROOT / "memctl" / "extract" / "rules" / "forms.toml", "rb") as fh:
        assert tomllib.load(fh)["en"] == word_forms.forms()
