"""Facts that were lost for want of a word or a case: jobs the occupation list did not
name, a plan said after a request, a dated plan that an inference cut down to "has a
child", standing rules about answers, weekly classes, how the user wants to be called.
Each case failed before its fix; the cases beside them pin what must stay as it was."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memctl.conversations import Conversation, Turn, clean
from memctl.extract import Candidate, extract, load_rules

RULES = load_rules()
SEPT = datetime(2026, 9, 10, 10, 0, tzinfo=timezone.utc)  # a Thursday


def said(text: str) -> list[Candidate]:
    conv = Conversation("u", "s", SEPT, [Turn("t1", "user", text)])
    return [i for i in extract(conv, clean(conv), rules=RULES).items if isinstance(i, Candidate)]


def kept(text: str) -> list[tuple[str, str, str]]:
    return [(c.type, c.subject, c.content) for c in said(text)]


@pytest.mark.parametrize("text, content", [
    ("can u help me write a cover letter, im a paralegal w 6 yrs experience trying to move into compliance",
     "User is a paralegal w 6 years experience trying to move into compliance"),
    ("i'm a landlord with 2 flats in leeds", "User is a landlord with 2 flats in leeds"),
    ("I'm a hospice chaplain in Duluth", "User is a hospice chaplain in Duluth"),
    ("im the only backend dev on our team", "User is the only backend dev on their team"),
    ("locksmith here, 24hr emergency calls", "User is a locksmith, 24hr emergency calls"),
])
def test_a_job_the_list_now_names_is_the_users_profile(text, content):
    assert kept(text) == [("profile", "user", content)]


@pytest.mark.parametrize("text", ["i'm a good judge of character", "i'm a huge fan of jazz"])
def test_words_that_only_look_like_jobs_are_not_added(text):
    assert not any(c.content.startswith(("User is a judge", "User is a fan")) for c in said(text))


def test_a_plan_with_its_day_after_a_request_is_kept():
    assert kept("帮我写个请假条 明天要带儿子去打疫苗") == [("task", "user", "用户明天要带儿子去打疫苗（2026-09-11）")]
    # What the request is to say, not a plan of the user's, still goes with the request.
    assert kept("帮我写个邮件 明天要发给老板") == []


def test_a_dated_plan_with_a_child_is_the_plan_not_only_that_there_is_a_child():
    assert kept("周六要陪女儿去上钢琴课") == [("task", "user", "用户周六要陪女儿去上钢琴课（2026-09-12）")]
    assert kept("每天早上我都去遛狗") == [("profile", "user", "用户养狗")]  # no plan: the inference stands


@pytest.mark.parametrize("text, content", [
    ("回答先给结论 再解释原因", "用户希望回答先给结论，再解释原因"),
    ("explain things like im a beginner, i have zero finance background", "User prefers: explain things like the user is a beginner"),
    ("when i ask for recipes assume i only have an air fryer and a microwave",
     "User prefers: when the user asks for recipes assume the user only has an air fryer and a microwave"),
])
def test_standing_rules_about_answers(text, content):
    assert kept(text) == [("preference", "user", content)]


def test_first_do_this_is_still_for_this_time():
    assert kept("先帮我看看这个报错") == []


@pytest.mark.parametrize("text, expected", [
    ("儿子周六上午有英语课 十点到十二点", [("behavior", "儿子", "用户的儿子周六上午有英语课，十点到十二点")]),
    ("我周三晚上有瑜伽课", [("behavior", "user", "用户周三晚上有瑜伽课")]),
])
def test_a_class_on_a_weekday_comes_round_every_week(text, expected):
    assert kept(text) == expected


@pytest.mark.parametrize("text", ["我下周三有公开课，讲一次函数", "周六上午有个乐高课"])
def test_a_class_next_week_or_a_single_one_is_no_routine(text):
    assert all(c.type != "behavior" for c in said(text))


def test_a_weekday_after_a_relative_is_no_name():
    assert [c.subject for c in said("女儿周末要去参加比赛")] == ["女儿"]
    assert [c.subject for c in said("老公周杰是医生")] == ["老公周杰"]


@pytest.mark.parametrize("text, expected", [
    ("叫我小林就行", ["用户希望被叫小林"]),
    ("你叫我老王就好了", ["用户希望被叫老王"]),
    ("叫我起床就行", []),
])
def test_how_the_user_wants_to_be_called(text, expected):
    assert [c.content for c in said(text)] == expected


def test_kiddo_is_a_child():
    assert kept("my kiddo has a peanut allergy") == [("profile", "kiddo", "User's kiddo has a peanut allergy")]
