"""Facts lost to how they were asked or to a word read wrong: what the user asks to be
reminded of is what the user has to do ("remind me i have to submit the biometrics by
friday", "提醒我这周要给煤球买处方粮"); a weekday said on that weekday is not today; "I've got"
and a household's "we have" say what the user has; a baby expected is a family's date;
"never ..." asks for good, with "it" the thing the clause before could not stand. Each kept
case failed before its fix; the cases beside them pin what must stay out.

The messages are sent on Monday 30 November 2026."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import partial

import pytest

import test_extraction_routines

MONDAY = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)
# What a conversation stores, said on that Monday (the helper of the routines tests).
stored = partial(test_extraction_routines.stored, when=MONDAY)


@pytest.mark.parametrize("text, expected", [
    ("remind me i have to submit the visa biometrics by friday, keep forgetting",
     [("task", "User has to submit the visa biometrics by Friday (2026-12-04)")]),
    ("remind me to call my mom on sunday", [("task", "User has to call their mom on Sunday (2026-12-06)")]),
    ("need to renew my passport before jan 20, nag me about it next week",
     [("task", "User needs to renew their passport before jan 20 (2027-01-20)")]),
    ("have to book the vet for Pickle's booster shots sometime next week",
     [("task", "User has to book the vet for Pickle's booster shots sometime next week (2026-12-07~2026-12-13)")]),
    ("提醒我这周要给煤球买处方粮", [("task", "用户这周要给煤球买处方粮（2026-11-30~2026-12-06）")]),
    # The day before what, the reminder does not say: the fact stays, the reminder goes.
    ("wife's bday is nov 9, remind me to plan smth the week before", [("profile", "User's wife's birthday is nov 9 (2027-11-09)")]),
    # Reminded of nothing to do: what was said before.
    ("remind me what I said about the budget", []),
    ("提醒我一下刚才说的", []),
])
def test_what_the_user_asks_to_be_reminded_of_is_a_task(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    # Said on a Monday, "by monday" is next week's and "on monday" in the past tense last week's;
    # where the words and the verb disagree, or "it's" names it, today.
    ("ugh i have to finish grading 40 lab reports by monday morning",
     [("task", "User has to finish grading 40 lab reports by Monday morning (2026-12-07)")]),
    ("I went to the gym on monday", [("event", "User went to the gym on Monday (2026-11-23)")]),
    ("My mom had knee replacement surgery on Monday",
     [("event", "User's mom had knee replacement surgery on Monday (2026-11-30)")]),
    ("i'm starting my new job monday", []),
    ("ugh it's monday and i have to finish my thesis chapter", []),
    # "another monday", "monday mornings": no one day, and nothing left to keep of a sigh.
    ("great another monday, my absolute favorite", []),
    ("we do inventory monday mornings", [("knowledge", "User and others do inventory Monday mornings")]),
])
def test_a_weekday_said_on_that_weekday_is_not_today(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I've got two cats", [("profile", "User has two cats")]),
    ("we've got a rescue horse called Biscuit, ex racehorse",
     [("profile", "User has a rescue horse called Biscuit, ex racehorse")]),
    ("we have two cats, Miso and Udon", [("profile", "User has two cats, Miso and Udon")]),
    # Someone who minds the dog is no dog; a kitten got is a kitten come.
    ("we have a dog sitter coming on friday", []),
    ("we got a kitten for my daughter, her name is zoe",
     [("profile", "User and their family got a kitten for their daughter, her name is zoe")]),
    ("I've got a family wedding next month", [("task", "User has a family wedding next month (2026-12)")]),
])
def test_what_the_user_and_their_household_have(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("we're expecting our second baby in november",
     [("event", "User and their family are expecting their second baby in november (2026-11)")]),
    ("I'm expecting a baby girl in March", [("event", "User is expecting a baby girl in March (2027-03)")]),
    ("we're expecting our first baby", [("event", "User and their family are expecting their first baby")]),
    # What the user did this week stays, with the coming game beside it.
    ("oh and i joined a rec volleyball league, wednesday nights, first game this week!",
     [("event", "User joined a rec volleyball league, Wednesday nights, first game this week (2026-11-30~2026-12-06)")]),
])
def test_a_baby_expected_is_a_date_of_the_family(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("no more emoji in ur replies thx, feels weird when its work stuff", [("preference", "User prefers no emoji in replies")]),
    ("i hate cilantro with a passion, never put it in any recipe u give me",
     [("preference", "User hates cilantro with a passion"),
      ("preference", "User prefers: never put cilantro in any recipe the assistant gives the user")]),
    ("I hate mushrooms. Never add them to meal plans please",
     [("preference", "User hates mushrooms"), ("preference", "User prefers: never add mushrooms to meal plans")]),
    ("I'm not a morning person at all, never put anything before 10am on my calendar",
     [("behavior", "User is not a morning person at all"),
      ("preference", "User prefers: never put anything before 10am on the user's calendar")]),
    # Only this time: no rule.
    ("don't add sugar to my coffee this time", []),
])
def test_never_asks_for_good(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    # What the assistant is asked, or told of itself, after the fact: the fact stays.
    ("fyi im red-green colorblind so charts using those colours are useless to me", [("profile", "User is red-green colorblind")]),
    ("type 1 diabetic here, so when u suggest snacks mention the carbs",
     [("profile", "User is type 1 diabetic"), ("preference", "User prefers: when the assistant suggests snacks mention the carbs")]),
    ("type 2 diabetic, diagnosed last year", [("profile", "User is type 2 diabetic, diagnosed last year (2025)")]),
    ("my husband dev is a structural engineer at arup, he'll probably ask u bridge questions lol",
     [("profile", "User's husband Dev is a structural engineer at arup")]),
    ("actually i moved to denver last spring not boulder, u keep saying boulder",
     [("profile", "User moved to denver last spring not boulder (2025-03~2025-05)")]),
    ("for any scripts u write me i prefer python over js",
     [("preference", "User prefers python over js for any scripts the assistant writes for them")]),
    ("lol i hate cilantro, tastes like soap to me. never put it in anything u suggest",
     [("preference", "User hates cilantro, tastes like soap to them"),
      ("preference", "User prefers: never put cilantro in anything the assistant suggests")]),
])
def test_a_fact_then_what_is_said_to_the_assistant(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    # An apostrophe left out: "we're", "wife's", "brother's".
    ("were on aws, everything runs in eks and infra is all terraform",
     [("knowledge", "User's team is on aws, everything runs in eks and infra is all terraform")]),
    ("were on react 18 w typescript strict, no class components allowed",
     [("knowledge", "User's team is on react 18 w typescript strict, no class components allowed")]),
    ("my wifes name is priya btw, she teaches 3rd grade", [("profile", "User's wife's name is priya, she teaches 3rd grade")]),
    ("my brothers getting married in cancun in august",
     [("event", "User's brother is getting married in cancun in august (2027-08)")]),
    # A holiday is no stack; a run tomorrow is no event of the past; many brothers stay many.
    ("we're on holiday", []),
    ("Got a run to Regina tomorrow and the forecast looks ugly.", []),
    ("actually we moved to porto last spring not lisbon, pls fix that",
     [("event", "User and others moved to porto last spring not lisbon (2025-03~2025-05)")]),
])
def test_words_typed_without_their_apostrophe(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    # Read in review: what the rules above must not take.
    ("a doctor here told me to lose weight", []),
    ("a new cafe here opened last week", []),
    ("type 1 diabetic here, need low carb snack ideas", [("profile", "User is type 1 diabetic")]),
    ("never use the word synergy in this email", []),
    ("never suggest that again lol", []),
    ("never put it in anything", []),
    ("i'm pretty frugal, never use my credit card", [("behavior", "User is pretty frugal, never use their credit card")]),
    ("my son is allergic to peanuts, never suggest anything with peanuts",
     [("profile", "User's son is allergic to peanuts"), ("preference", "User prefers: never suggest anything with peanuts")]),
    ("i hate olives and pickles, never add them",
     [("preference", "User hates olives and pickles"), ("preference", "User prefers: never add olives and pickles")]),
    ("we have 30 kids in the program", []),
    ("we have two dogs in the shelter right now that need homes", []),
    ("we have a server named athena", [("profile", "User's team has a server named athena")]),
    ("we have family visiting next week", []),
    ("i've got family coming over this weekend", [("task", "User has family coming over this weekend (2026-12-05~2026-12-06)")]),
    ("my mom always used to nag me", [("behavior", "User's mom always used to nag the user")]),
    ("my dad has dementia and is always forgetting", [("profile", "User's dad has dementia and is always forgetting")]),
    ("i'm dyslexic so walls of text are impossible for me", [("profile", "User is dyslexic so walls of text are impossible for them")]),
    ("my moms bday is next tuesday", [("profile", "User's mom's birthday is next Tuesday (2026-12-08)")]),
    ("remind me that i'm allergic to penicillin if i ask about antibiotics", []),
])
def test_what_review_found_the_rules_took(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("want to pay off my 12k credit card debt this year",
     [("goal", "User wants to pay off their 12k credit card debt this year (2026)")]),
    ("goal for 2027: pay off the last 12k on my student loan. no more excuses",
     [("goal", "User's goal for 2027: pay off the last 12k on their student loan (2027)")]),
    ("we want a kid in the next couple yrs", [("goal", "User and their family want a kid in the next couple years")]),
    ("my perf review is oct 3, help me prep some talking points", [("task", "User's perf review is oct 3 (2027-10-03)")]),
    ("got my driving test next monday morning im so nervous",
     [("task", "User has their driving test next Monday morning (2026-12-07)")]),
    ("next friday im presenting the q4 budget to the board, kinda nervous ngl",
     [("task", "User is presenting the q4 budget to the board next Friday (2026-12-11)")]),
    ("our cat mochi died in january, still miss her", [("event", "User's cat Mochi died in january (2026-01)")]),
    ("我弟九月份要去美国读研了", [("event", "用户的弟弟九月份要去美国读研了（2027-09）")]),
    ("老大数学一直拖后腿，能帮我弄个复习计划不", [("behavior", "用户的老大数学一直拖后腿")]),
    # Paying for someone now is no goal.
    ("I want to pay off the bill for you", []),
])
def test_goals_plans_and_dates_of_others_that_were_missed(text, expected):
    assert stored(text) == expected


@pytest.mark.parametrize("text, expected", [
    # Read as garbled in the judged sample of bench/fresh41 (two readers agreeing).
    ("british spelling please, you've put 'program'", [("preference", "User prefers: british spelling")]),
    ("救命 下周要上区里的公开课", [("task", "用户下周要上区里的公开课（2026-12-07~2026-12-13）")]),
    ("坏消息：入职提前到3月9号了", [("task", "用户入职改到3月9号（2027-03-09）")]),
])
def test_a_cry_or_a_remark_on_the_last_answer_is_no_part_of_the_fact(text, expected):
    assert stored(text) == expected
