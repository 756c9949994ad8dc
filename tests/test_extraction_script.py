"""Traditional Chinese: read with the simplified rules, kept in the user's own characters.
Simplified Chinese, Cantonese written in simplified characters and Japanese stay as typed."""

from __future__ import annotations

import pytest

from memctl.extract.script import reading
from test_extraction_coverage import RULES, SEPT, kept

from memctl.conversations import Conversation, Turn, clean
from memctl.extract import extract


@pytest.mark.parametrize("text, expected", [
    ("哈囉 我在台中開一間小咖啡店 想請你幫我寫秋季新品的菜單文案", [("profile", "user", "用戶在台中開一間小咖啡店")]),
    ("我老婆是國小老師", [("profile", "老婆", "用戶的老婆是國小老師")]),
    ("兩個女兒一個國二一個小四", [("profile", "user", "用戶有兩個女兒，一個國二一個小四")]),
])
def test_a_traditional_turn_is_read_and_kept_in_its_own_characters(text, expected):
    assert kept(text) == expected


def test_the_characters_the_user_typed_are_kept_not_the_tables_variants():
    # "台" stays "台" (the tables would write "臺"); "菜單" stays (not the Taiwan "選單").
    read = reading("我在台中開店 菜單要改")
    assert read.text == "我在台中开店 菜单要改"
    assert read.back("用户在台中开店，菜单要改") == "用戶在台中開店，菜單要改"


@pytest.mark.parametrize("text", [
    "我在沈阳跑网约车",
    "有孙仔陪住都几开心。带阿乐游泳嗰阵您自己都要注意防晒同埋饮水。",  # simplified Cantonese
    "比如「勉強（べんきょう）しなければならない」",  # Japanese kanji
    "I live in Taipei",
])
def test_simplified_chinese_cantonese_and_japanese_are_read_as_typed(text):
    read = reading(text)
    assert read.text == text and not read.typed


def test_the_episode_keeps_the_traditional_turn_verbatim():
    conv = Conversation("u", "s", SEPT, [Turn("t1", "user", "我老婆是國小老師")])
    out = extract(conv, clean(conv), rules=RULES)
    assert [t.content for t in out.turns] == ["我老婆是國小老師"]
    assert [i.clause for i in out.items] == ["我老婆是國小老師"]


@pytest.mark.parametrize("text, expected", [
    ("我在台中开一间小咖啡店", [("profile", "user", "用户在台中开一间小咖啡店")]),
    ("两个孩子都上小学了", [("profile", "user", "用户的两个孩子都上小学了")]),
    ("两个娃", [("profile", "user", "用户有两个娃")]),
    ("我想开一家咖啡店", []),  # a wish, not a shop
    ("下个月要跟车友骑单车环岛 十天 店要先关 要怎么公告比较好", []),  # how to, asked without a question mark
])
def test_a_shop_the_user_runs_and_how_many_children(text, expected):
    assert kept(text) == expected
