"""Facts that were lost to a word read wrong: what the user does whenever something comes
("whenever I'm overwhelmed, I ...", "我一喝酒就脸红"), where the user comes from said in
passing ("my home country, Sweden"), "IT" read as "it", "when it rains" read as a reference,
a verb joined by "and" left unagreed ("stays in and read") and a tool the user is using for
a purpose. Each kept case failed before its fix; the cases beside them pin what must stay out."""

from __future__ import annotations

import pytest

from test_extraction_routines import stored  # (said on 2026-09-10, as before)


@pytest.mark.parametrize("text, expected", [
    ("Whenever I'm overwhelmed, I just take a break and do some breathing or meditate.",
     ("behavior", "Whenever the user is overwhelmed, they just take a break and do some breathing or meditate")),
    ("When I get stressed I go for a run.", ("behavior", "When the user gets stressed they go for a run")),
    ("Whenever I travel I bring my own pillow.", ("behavior", "Whenever the user travels they bring their own pillow")),
    ("Every time I visit my mom, I bring flowers", ("behavior", "Every time the user visits their mom, they bring flowers")),
    # "every time" opens a clause of its own; it is not a time put after the verb.
    ("Every time I visit my mom I bring flowers", ("behavior", "Every time the user visits their mom they bring flowers")),
    ("When it rains, I usually stay in and read.", ("behavior", "When it rains, the user usually stays in and reads")),
    ("一紧张我就会咬指甲", ("behavior", "一紧张用户就会咬指甲")),
    ("我一喝酒就脸红", ("behavior", "用户一喝酒就脸红")),
    ("一到冬天我就容易感冒", ("behavior", "一到冬天用户就容易感冒")),
])
def test_what_the_user_does_whenever_something_comes(text, expected):
    assert stored(text) == [expected]


@pytest.mark.parametrize("text", [
    "whenever i was sad i called her",         # what the user did, back then
    "When I'm tired I can't think straight",   # a state of the moment
    "Whenever I come here, I bring it with me",  # here, and it: said before
    "我一会儿就到",                              # in a moment, not a habit
    "我一看就会了",                              # once, and done
    "我一喝就拉肚子",                            # drinks what: said before
])
def test_a_moment_or_a_reference_is_no_habit(text):
    assert stored(text) == []


def test_what_follows_a_fact_stays_part_of_it():
    # The subject-less "一喝牛奶就拉肚子" says more of the intolerance: one memory, as before.
    assert stored("乳糖不耐受，一喝牛奶就拉肚子") == [("profile", "用户乳糖不耐受，一喝牛奶就拉肚子")]


@pytest.mark.parametrize("text, expected", [
    ("This necklace is super special to me - a gift from my grandma in my home country, Sweden.",
     "User's home country is Sweden"),
    ("My home country is Sweden.", "User's home country is Sweden"),
])
def test_where_the_user_comes_from(text, expected):
    assert ("profile", expected) in stored(text)


def test_it_in_capitals_is_no_reference():
    assert ("event", "User recently left their IT job after 3 years") in stored(
        "I made a huge call - recently left my IT job after 3 years. It was tough but I wanted something that made a difference.")
    assert stored("I finally fixed it") == []


@pytest.mark.parametrize("text, expected", [
    ("I usually stay in and read on Sundays.", "User usually stays in and reads on Sundays"),
    ("After work, I usually cook and watch TV.", "After work, the user usually cooks and watches TV"),
    ("I usually come home and put the kettle on", "User usually comes home and puts the kettle on"),
    # Two things, not two doings.
    ("I grow tomatoes and peppers", "User grows tomatoes and peppers"),
])
def test_a_verb_joined_by_and_agrees(text, expected):
    assert [c for _, c in stored(text)] == [expected]


@pytest.mark.parametrize("text, expected", [
    ("I'm using Notion to plan my week.", "User is using Notion to plan their week"),
    ("I'm using the Pomodoro Technique to avoid burnout but I'm still struggling to prioritize.",
     "User is using the Pomodoro Technique to avoid burnout"),
])
def test_a_tool_the_user_is_using_for_a_purpose(text, expected):
    assert stored(text) == [("behavior", expected)]


def test_a_tool_used_for_this_message_is_not_kept():
    assert stored("I'm using my laptop to write this") == []


@pytest.mark.parametrize("text, expected", [
    ("I mostly read on my phone between meetings", "User mostly reads on their phone between meetings"),
    ("I usually put the kids to bed at 8", "User usually puts the kids to bed at 8"),
    ("I always set my alarm for 6", "User always sets their alarm for 6"),
])
def test_a_verb_that_is_its_own_past_is_present_in_a_habit(text, expected):
    assert [c for _, c in stored(text)] == [expected]


def test_the_same_verb_in_a_dated_past_stays_past():
    assert [c for _, c in stored("I cut my hair last week")] == ["User cut their hair last week (2026-08-31~2026-09-06)"]


def test_used_to_what_is_said_before():
    assert stored("我习惯了") == []
    assert stored("我习惯了早起") != []
