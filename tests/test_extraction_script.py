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
    # How to, asked without a question mark; the plan it frames is dated and the user's own.
    ("下个月要跟车友骑单车环岛 十天 店要先关 要怎么公告比较好", [("task", "user", "用户下个月要跟车友骑单车环岛，十天，店要先关（2026-10）")]),
])
def test_a_shop_the_user_runs_and_how_many_children(text, expected):
    assert kept(text) == expected


@pytest.mark.parametrize("text", ["幫我記住我的密碼 hunter22", "幫我記住我的身份證號 110101199003074513",
                                  "請記住我的卡號是6222020200112233445", "幫我記住我的護照號碼 E12345678",
                                  "幫我記住我的身分證字號 A123456789"])
def test_a_secret_in_traditional_characters_is_masked_like_its_simplified_twin(text):
    conv = Conversation("u", "s", SEPT, [Turn("t1", "user", text)])
    out = extract(conv, clean(conv), rules=RULES)
    assert out.items == [] and out.secrets_blocked >= 1
    assert not any(ch.isdigit() for t in out.turns for ch in t.content.replace("[secret removed]", ""))


@pytest.mark.parametrize("text, expected", [
    ("我是髮型設計師，在台北發展", "用戶是髮型設計師，在台北發展"),  # 髮 and 發, each as typed
    ("我在松山區開一家早餐店", "用戶在松山區開一家早餐店"),
    ("我在後面的麵包店上班", "用戶在後面的麵包店上班"),
])
def test_each_character_is_written_back_as_typed_where_it_was_typed(text, expected):
    assert [c for _, _, c in kept(text)] == [expected]


def test_a_turn_either_script_writes_alike_follows_the_writers_turn_before():
    conv = Conversation("u", "s", SEPT, [Turn("t1", "user", "我在台中開一間小咖啡店"), Turn("t2", "user", "我老婆是老师")])
    out = extract(conv, clean(conv), rules=RULES)
    assert [i.content for i in out.items][0] == "用戶在台中開一間小咖啡店"
    conv = Conversation("u", "s", SEPT, [Turn("t1", "user", "我在台中開一間小咖啡店"), Turn("t2", "user", "最近生意不太好")])
    assert all(i.content.startswith("用戶") for i in extract(conv, clean(conv), rules=RULES).items)


@pytest.mark.parametrize("text, expected", [
    ("A:你有几个孩子？", "两个"),
])
def test_how_many_children_as_an_answer(text, expected):
    conv = Conversation("u", "s", SEPT, [Turn("t0", "assistant", text[2:]), Turn("t1", "user", expected)])
    assert [i.content for i in extract(conv, clean(conv), rules=RULES).items] == ["用户有两个孩子"]
