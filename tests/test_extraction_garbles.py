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


@pytest.mark.parametrize("text", ["我每周六上午都打", "我不太能吃", "我家里从小就不吃", "我12月就考了", "我要开始学了", "我负责剪"])
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
