"""Memories two readers marked garbled in the judged files, and still stored: a verb whose
object the clause before said ("用户每周六上午都打"), a 他/她/它 with no one named before it,
"we" of a team's tools written "User and others", and what the user thinks of a fact left on
its end ("which sucks", "not happening"). Each case failed before its fix; the cases beside
them pin what must stay."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memctl.conversations import Conversation, Turn, clean
from memctl.extract import Candidate, extract, load_rules

RULES = load_rules()
WHEN = datetime(2026, 9, 10, 10, 0, tzinfo=timezone.utc)


def contents(*messages: str) -> list[str]:
    turns = [Turn(f"t{i}", "assistant", m[2:]) if m.startswith("A:") else Turn(f"t{i}", "user", m)
             for i, m in enumerate(messages)]
    conv = Conversation("u", "s", WHEN, turns)
    return [c.content for c in extract(conv, clean(conv), rules=RULES).items if isinstance(c, Candidate)]


@pytest.mark.parametrize("text", ["我每周六上午都打", "我不太能吃", "我家里从小就不吃", "我要开始学了", "我负责剪"])
def test_a_verb_without_what_it_acts_on_is_not_kept(text):
    assert contents(text) == []


@pytest.mark.parametrize("text, expected", [
    ("我负责剪视频", "用户负责剪视频"),
    ("我会游泳", "用户会游泳"),
    ("我每周六上午都打网球", "用户每周六上午都打网球"),
])
def test_the_same_verb_with_what_it_acts_on_stays(text, expected):
    assert contents(text) == [expected]


@pytest.mark.parametrize("text", ["我周末一般都带他去爬山", "我每个周末都回去看他", "我这周六带它去看鸟类专科医院"])
def test_a_pronoun_with_no_one_named_before_it_is_not_kept(text):
    assert contents(text) == []


@pytest.mark.parametrize("text, expected", [
    ("我想学吉他", "用户想学吉他"),                       # a guitar, not "him"
    ("我一般吃氯雷他定", "用户一般吃氯雷他定"),             # a medicine's name
    ("我老公周末一般都带他去爬山", "用户的老公周末一般都带他去爬山"),  # someone else's clause: their own "him"
])
def test_ta_inside_a_word_or_someone_elses_clause_stays(text, expected):
    assert contents(text) == [expected]


@pytest.mark.parametrize("text, expected", [
    ("we use Grafana + Alertmanager, not Datadog", "User's team uses Grafana + Alertmanager, not Datadog"),
    ("we write everything in Go", "User's team writes everything in Go"),
    ("we run Go services on Kubernetes, Postgres, Kafka", "User's team runs Go services on Kubernetes, Postgres, Kafka"),
    ("we use goose for migrations not golang-migrate", "User's team uses goose for migrations not golang-migrate"),
])
def test_we_of_a_teams_tools_is_the_team(text, expected):
    assert contents(text) == [expected]


@pytest.mark.parametrize("text, expected", [
    ("I'll miss Jess's birthday on the 20th which sucks", "User will miss Jess's birthday on the 20th"),
    ("I'm lactose intolerant and ramen is getting old", "User is lactose intolerant"),
    ("I'm a barista so not exactly rolling in it", "User is a barista"),
])
def test_what_the_user_thinks_of_a_fact_is_left_off(text, expected):
    assert [c.split(" (")[0] for c in contents(text)] == [expected]


@pytest.mark.parametrize("text", [
    "my goal is sub 4 hrs",                                        # for which race
    "I practise every morning after breakfast for half an hour",   # practises what
    "I usually get two or three a month",                          # two or three what
    "I can do about 30 min a day on weekdays",                     # of what
    "I need to sort nursery by then",                              # when then is
    "I would rather not start that habit",                         # which habit
])
def test_a_number_or_a_when_said_before_is_not_kept(text):
    assert contents(text) == []


@pytest.mark.parametrize("text, expected", [
    ("I practise piano every morning", "User practises piano every morning"),
    ("I get migraines two or three times a month", "User gets migraines two or three times a month"),
    ("I work tues thurs and sat mornings, no gym those days", "User works tues thurs and sat mornings, no gym those days"),
])
def test_the_same_forms_with_their_what_stay(text, expected):
    assert contents(text) == [expected]


def test_that_week_is_the_week_of_the_date_said_with_it():
    # The memory has its own date: "that week" says when.
    assert "User will be off work that week (2026-09-14)" in contents(
        "mom's knee replacement is on the 14th, i'll be off work that week")
    assert contents("my wife Sam is a pilot for united, she's flying that weekend") == ["User's wife Sam is a pilot for united"]


def test_a_leftover_that_says_when_joins_the_fact_before_it():
    # "12月考" alone says neither which exam nor whose: it is the exam of the clause before.
    assert contents("在备考雅思，目标7分，12月考") == ["用户在备考雅思，目标7分，12月考"]
    # (Not where it still points elsewhere: "标题必须过她审".)
    assert contents("我们主编要求所有稿子周三中午前交，标题必须过她审。") == ["用户团队主编要求所有稿子周三中午前交"]


def test_what_can_only_be_done_in_a_month_is_ahead():
    when = datetime(2026, 3, 15, 10, 0, tzinfo=timezone.utc)
    conv = Conversation("u", "s", when, [Turn("t0", "user", "我只能考12月的了")])
    got = [c.content for c in extract(conv, clean(conv), rules=RULES).items if isinstance(c, Candidate)]
    assert got == ["用户只能考12月的了（2026-12）"]


def test_a_time_aimed_at_is_for_the_race_named_before():
    # (Was "User's goal is under 4:30", kept alone in a test from a reader's fact list: for which
    # race, another turn said, and two readers marked the same form garbled elsewhere.)
    assert contents("i signed up for the chicago marathon in october", "A:Great! How are you training?",
                    "ok. goal is under 4:30. realistic?")[-1] == "User's goal for the marathon is under 4:30"
    assert contents("training for my first half marathon", "my goal is under 2:15")[-1] == "User's goal for the half marathon is under 2:15"
    assert contents("ok. goal is under 4:30. realistic?") == []


@pytest.mark.parametrize("text", [
    "我已经搬过来了",              # moved where
    "我打算5月2号去",              # going where
    "我坚持半年了",                # kept up what
    "我老是按错",                  # pressed what wrong
    "my wife and I are going in December for 3 weeks",  # going where
    "I'm a beginner",              # at what
    "I want to learn",             # what
])
def test_where_or_what_said_in_another_turn_is_not_kept(text):
    assert contents(text) == []


@pytest.mark.parametrize("text, expected", [
    ("我下个月搬去上海", "用户下个月搬去上海（2026-10）"),
    ("我打算5月2号去华山", "用户打算5月2号去华山（2027-05-02）"),
    ("我申论一直55上不去", "用户申论一直55上不去"),
    ("I'm a beginner at woodworking", "User is a beginner at woodworking"),
    ("I'm going for a run every morning", "User is going for a run every morning"),
])
def test_with_where_or_what_said_they_stay(text, expected):
    assert contents(text) == [expected]


def test_the_tables_of_a_wedding_are_not_where_the_user_is():
    got = contents("我十月三号结婚 在西安 酒店订在曲江那边 想问伴手礼送啥比较好 大概30桌")
    assert "用户十月三号结婚（2026-10-03）" in got
    assert not any("30桌" in c for c in got)


def test_where_the_user_is_now_said_as_a_correction_replaces_where_they_lived():
    assert contents("纠正一下，我之前说错了，我现在在成都不在重庆，去年搬过来的") == ["用户现在在成都不在重庆，去年搬过来的（2025）"]


@pytest.mark.parametrize("text, expected", [
    # With a date of its own a plan says when, if not where: kept, as it was.
    ("我在装修房子，打算明年3月住进去", ["用户打算明年3月住进去（2027-03）"]),
    ("我12月就考了", ["用户12月就考了（2025-12）"]),
    # 他/她 of whom the turn told before is written as them.
    ("我奶奶住院了，我下周六去医院看她", ["用户的奶奶住院了", "用户下周六去医院看奶奶（2026-09-19）"]),
    ("我不喜欢麻烦他人", ["用户不喜欢麻烦他人"]),                 # 他人: others, no "him"
    ("我坚持一周健身三次", ["用户坚持一周健身三次"]),             # kept up what: said
    ("我女儿在新加坡上学，我每个月寄点吃的过去", ["用户的女儿在新加坡上学", "用户每个月寄点吃的过去"]),
])
def test_what_a_review_found_the_first_rules_dropped(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text", [
    "Every time I tried, I failed",       # no habit, no event
    "Whenever we fight, I end up apologizing",
])
def test_a_whenever_clause_is_no_event(text):
    assert contents(text) == []


@pytest.mark.parametrize("text, expected", [
    ("I'm going next week to Paris", "User is going next week to Paris (2026-09-14~2026-09-20)"),
    ("We take the kids to church services every Sunday", "User and their family take the kids to church services every Sunday"),
    ("I have IBS and dairy is no joke for me", "User has IBS and dairy is no joke for them"),
    ("I work for a company that sucks at paying on time", "User works for a company that sucks at paying on time"),
    ("When I'm upset I don't want advice, just listen", "When the user is upset they don't want advice, just listen"),
])
def test_what_a_review_found_the_first_rules_cut_or_misread(text, expected):
    assert contents(text) == [expected]


def test_a_home_country_is_a_capital_in_someone_elses_clause():
    assert contents("I miss my home country, honestly") == ["User misses their home country"]
    assert contents("I left my home country, Syria, in 2015 as a refugee") == [
        "User left their home country, Syria, in 2015 as a refugee (2015)"]


def test_a_goal_of_hours_is_no_race_time():
    assert "User's goal for the 5k is 8 hours" not in contents("Ran a 5k this morning", "A:Nice",
                                                               "I'm trying to sleep more. My goal is 8 hours")
