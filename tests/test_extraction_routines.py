"""What readers of a fresh set marked garbled: a weekly routine given this weekend's date, a
month's weather taken for the user, a term that ends on a date read as past, a remark or
question left on the end of a fact, "like" as a filler read as a liking, a birthday put in
the coming year, answers to numbered questions run together with their numbers, and a pet
named in lower case. Each case failed before its fix."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memctl.conversations import Conversation, Turn, clean
from memctl.extract import Candidate, extract, load_rules

RULES = load_rules()
SEPT = datetime(2026, 9, 10, 10, 0, tzinfo=timezone.utc)


def stored(*messages: str, when: datetime = SEPT) -> list[tuple[str, str]]:
    """(type, content) of what a conversation stores; "A:" opens an assistant message."""
    turns = [Turn(f"t{i}", "assistant", m[2:]) if m.startswith("A:") else Turn(f"t{i}", "user", m)
             for i, m in enumerate(messages)]
    conv = Conversation("u", "s", when, turns)
    return [(c.type, c.content) for c in extract(conv, clean(conv), rules=RULES).items if isinstance(c, Candidate)]


def contents(*messages: str, when: datetime = SEPT) -> list[str]:
    return [content for _, content in stored(*messages, when=when)]


@pytest.mark.parametrize("messages, expected", [
    # Every weekend, not this one: no date, and one fact with what it goes with.
    (("我老公在苏州上班 只有周末回杭州",), [("profile", "用户的老公在苏州上班，只有周末回杭州")]),
    (("A:他有什么爱好？", "我男朋友特别喜欢钓鱼 周末一有空就去东湖边上钓"),
     [("preference", "用户的男朋友特别喜欢钓鱼"), ("behavior", "用户的男朋友周末一有空就去东湖边上钓")]),
    (("我周末一有空就去钓鱼",), [("behavior", "用户周末一有空就去钓鱼")]),
    (("白天在银行上班 朝九晚六 所以只有晚上8点到11点和周末能学",), [("behavior", "用户只有晚上8点到11点和周末能学")]),
    # Two weekdays named together come round every week ("tues and thurs"), and the
    # question after the comma is for this chat.
    (("also i've started joining my neighbour sue for her 7am walks on tues and thurs, does that count for anything",),
     [("behavior", "User has started joining their neighbour sue for her 7am walks on tues and thurs")]),
    (("i've been going to physio tues and thurs",), [("behavior", "User has been going to physio tues and thurs")]),
])
def test_a_weekly_routine_is_no_dated_plan(messages, expected):
    assert stored(*messages) == expected


@pytest.mark.parametrize("text", ["周末要去爬山了", "这周末我要去爬山"])
def test_this_weekends_plan_keeps_its_date(text):
    assert contents(text)[-1].endswith("（2026-09-12~2026-09-13）")


@pytest.mark.parametrize("text, expected", [
    # Two days of one week, told of once: the date stays.
    ("I'm going to the concert on fri and sat", ["User is going to the concert on fri and sat (2026-09-11)"]),
    # Free time of one day or week is no habit.
    ("明天只有晚上有空", []),
])
def test_days_of_one_week_are_no_routine(text, expected):
    assert contents(text) == expected


def test_a_months_weather_is_not_the_user():
    assert contents("我们住在西安 8月太热了 估计只能在室内") == ["用户住在西安"]
    # What the user says after the weather is still the user's.
    assert contents("我们住在西安 8月太热了 打算去青海避暑") == ["用户住在西安", "用户打算去青海避暑"]
    assert contents("冬天太冷了，想去海南过冬") == ["用户想去海南过冬"]


def test_a_leave_that_ends_on_a_date_is_ahead_and_an_event():
    feb = datetime(2026, 2, 10, 10, 0, tzinfo=timezone.utc)
    assert stored("我产假到4月底就结束了", when=feb) == [("event", "用户产假到4月底就结束了（2026-04）")]
    assert stored("我的合同到6月就到期了", when=feb)[0][0] == "event"
    # A month with 就 ... 了 and no 到 before it stays behind, and so does a term that ran out
    # in a month already past this year.
    assert contents("我4月就搬走了", when=feb) == ["用户4月就搬走了（2025-04）"]
    assert contents("我实习到8月就结束了") == ["用户实习到8月就结束了（2026-08）"]
    assert contents("我在北京待到9月就回老家了", when=datetime(2026, 11, 30, tzinfo=timezone.utc)) == \
        ["用户在北京待到9月就回老家了（2026-09）"]


@pytest.mark.parametrize("text, expected", [
    ("my husband marco usually does this stuff but he travels for work mon-thu every week (hes a sales rep for a medical "
     "device company) so its on me",
     ["User's husband Marco travels for work mon-thu every week (he's a sales rep for a medical device company)"]),
    ("每个月总是月光 救命", ["用户每个月总是月光"]),
    # Crying as the fact itself stays.
    ("我昨天跟男朋友吵架 吵完我哭了", ["用户昨天跟男朋友吵架（2026-09-09）", "吵完用户哭了（2026-09-09）"]),
    ("jan is always dead for me bc clients are all doing planning 💀 so like right now lol",
     ["Jan is always dead for the user because clients are all doing planning"]),
])
def test_what_it_means_for_this_chat_is_not_the_fact(text, expected):
    assert contents(text) == expected


def test_the_day_one_was_born_is_behind():
    july = datetime(2026, 7, 2, 19, 0, tzinfo=timezone.utc)
    assert contents("my puppy juno was born april 15", when=july) == ["User's puppy Juno was born april 15 (2026-04-15)"]
    # A birth still to come is ahead.
    assert contents("our baby is due to be born on january 12", when=july) == ["User's baby is due to be born on january 12 (2027-01-12)"]


def test_answers_to_numbered_questions_lose_their_numbers():
    got = contents("A:A few questions: 1) How many kanji do you know? 2) What does your week look like? "
                   "3) What materials do you use?",
                   "1 maybe 400 kanji 2 i'm a shift supervisor at a distribution warehouse in columbus, 6:30 start "
                   "3 anki + the shin kanzen master books")
    assert got == ["User is a shift supervisor at a distribution warehouse in columbus, 6:30 start"]
    assert contents("1 我是程序员 2 我住在杭州") == ["用户是程序员", "用户住在杭州"]
    # A count is no number of an answer.
    assert contents("1 of my sons is autistic and the other 2 are in college") == \
        ["1 of the user's sons is autistic and the other 2 are in college"]


def test_a_puppy_named_in_lower_case_is_known_by_its_name():
    july = datetime(2026, 7, 2, 19, 0, tzinfo=timezone.utc)
    got = contents("HELP lol we just brought home a border collie puppy, her name is juno and shes 10 weeks",
                   "A:Congrats on Juno!", "oh wait i miscounted, juno's actually 11 weeks, born april 15", when=july)
    assert got == ["User and their family just brought home a border collie puppy, her name is Juno",
                   "User's collie Juno is 10 weeks", "User's collie Juno is 11 weeks, born april 15 (2026-04-15)"]
    assert contents("we adopted a cat named after my grandma") == ["User and others adopted a cat named after their grandma"]
    # "her" after a person in between may be that person.
    assert contents("we got a kitten for my daughter, her name is zoe", "A:cute", "zoe turns 8 next week") == \
        ["User and their family got a kitten for their daughter, her name is zoe"]
    assert contents("I brought home a dog bed for the new puppy") == []


def test_questions_that_name_no_one_ask_about_the_pet_just_told_of():
    got = contents("我家柯基豆包这两天有点拉稀 精神还行 要不要带去医院啊",
                   "A:精神、食欲都正常的话可以先观察1–2天。先问几个问题：  - 多大了？ - 有没有呕吐、便血？",
                   "三岁了 公的 去年做了绝育 平时吃的是三文鱼的狗粮")
    assert got == ["用户的柯基三岁了，公的", "用户的柯基去年做了绝育（2025）", "用户的柯基平时吃的是三文鱼的狗粮"]
    # After talk of the user, the same questions are the user's; after talk of the pet, a
    # question that is not a pet's is the user's too.
    assert contents("我最近压力很大", "A:多大了？做什么工作的？", "三十了 在银行上班")[1:] == ["用户三十了", "用户在银行上班"]
    assert contents("我给我家狗买了个新窝", "A:挺好。最近工作忙吗？", "还行 最近在准备考研")[-1] == "用户最近在准备考研"


@pytest.mark.parametrize("messages, expected", [
    # A fragment whose object the clause before held joins it ("每次都吃光": ate the pumpkin up).
    (("A:你女儿平时爱吃什么？", "南瓜小米粥她应该会喜欢 她超爱吃南瓜的 每次都吃光"), ["用户的女儿超爱吃南瓜的，每次都吃光"]),
    (("德语现在B1 在歌德学院上课 每周六全天",), ["用户德语现在B1 在歌德学院上课，每周六全天"]),
    (("游泳可以 我办了小区游泳馆的卡 打算每周二周四晚上下班后去",), ["用户办了小区游泳馆的卡，打算每周二周四晚上下班后去"]),
])
def test_a_fragment_joins_the_fact_that_holds_its_object(messages, expected):
    assert contents(*messages) == expected


def test_units_asked_for_are_a_preference_in_plain_words():
    assert contents("yes and can u give amounts in grams? i weigh everything, the cups thing drives me nuts") == \
        ["User prefers amounts in grams"]


@pytest.mark.parametrize("text, expected", [
    # Facts a labelled set written blind found missing.
    ("ya i do payroll for a mid sized construction co", ["User does payroll for a mid sized construction co"]),
    ("my partner works remote for a fintech in berlin", ["User's partner works remote for a fintech in berlin"]),
    ("i take my coffee black, no sugar", ["User takes their coffee black, no sugar"]),
    ("爸妈国庆来北京住一个礼拜", ["用户的爸妈国庆来北京住一个礼拜（2026-10-01~2026-10-07）"]),
    ("给代码的话用python，别用java", ["用户希望给代码的话用python"]),
    ("讲东西多用列表，别一大段一大段的", ["用户希望讲东西多用列表，别一大段一大段的"]),
    ("帮我总结下这篇，我有点阅读障碍，字一多就看不进去", ["用户有点阅读障碍，字一多就看不进去"]),
    # What a review of those rules found them taking wrongly.
    ("i work remote for a few days next week while visiting my parents",
     ["User works remote for a few days next week while visiting their parents (2026-09-14~2026-09-20)"]),
    ("我以为我有多动症，结果医生说不是", []),
])
def test_what_a_set_written_blind_found(text, expected):
    assert contents(text) == expected


def test_half_a_year_is_six_months_ahead_not_this_year():
    assert contents("我希望半年内把英语考到雅思7分") == ["用户希望半年内把英语考到雅思7分（截止 2027-03）"]
