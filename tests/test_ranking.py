"""The recall score's parts, tested directly: what a turn that asks is worth."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memctl.config import RecallConfig
from memctl.ranking import question_share, score_episode
from memctl.schema import Episode

NOW = datetime(2026, 11, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, share", [
    ("I adopted a puppy last week.", 0.0),
    ("What kind of yoga is it?", 1.0),
    ("Wow, that rocks! What's the main idea of your art?", 33 / 49),
    ("", 0.0),
])
def test_question_share_is_the_share_of_the_text_that_asks(text, share):
    assert question_share(text) == pytest.approx(share, abs=0.01)


def _episode(text: str, statement: bool = True) -> Episode:
    return Episode("k", "u", "s", "t1", NOW, text, statement=statement)


def test_a_turn_that_mostly_asks_scores_below_a_statement_as_relevant():
    cfg = RecallConfig()
    told = score_episode(_episode("I practise kundalini yoga every morning."), 0.8, 0.5, NOW, cfg)
    asked = score_episode(_episode("Nice! What kind of yoga do you practise every morning?"), 0.8, 0.5, NOW, cfg)
    only_asked = score_episode(_episode("Which yoga?", statement=False), 0.8, 0.5, NOW, cfg)
    assert told.score > asked.score > only_asked.score
    # The asking share scales the score, never the relevance: both are as relevant.
    assert told.relevance == asked.relevance
    assert only_asked.score == pytest.approx(told.score * cfg.asking_weight)


@pytest.mark.parametrize("query, user, asked", [
    # The user's own name is the user: asked in their own words, "I" and "my".
    ("What did Melanie paint?", "conv-26-Melanie", "What did I paint?"),
    ("What did Melanie's kids make?", "melanie", "What did my kids make?"),
    ("When did Caroline and Melanie go camping?", "melanie", "When did Caroline and I go camping?"),
    ("小林喜欢吃什么", "小林", "我喜欢吃什么"),
    ("小林的女儿几岁", "小林", "我的女儿几岁"),
    # Someone else's name, a lower-case word and a query that is only the name stay.
    ("What did Caroline research?", "melanie", "What did Caroline research?"),
    ("plan my week", "kai", "plan my week"),
    ("Melanie", "melanie", "Melanie"),
])
def test_a_query_naming_the_user_is_asked_as_the_user_would(query, user, asked):
    from memctl.recall import about_the_user

    assert about_the_user(query, user) == asked


def test_a_memory_ranked_by_the_turn_it_came_from_counts_as_that_turn_not_its_type():
    from types import SimpleNamespace

    from memctl.ranking import select
    from memctl.results import RecallHit, ScoreParts

    def memory(i: str, score: float, evidence: float = 0.0) -> RecallHit:
        return RecallHit(SimpleNamespace(id=i, type="event"), ScoreParts(relevance=0.5, score=score, evidence=evidence))

    # Three events outscore a fourth whose turn ranked it: with a cap of three events, the
    # fourth still stands in for its turn, as the episode did before the fact was stored.
    hits = [memory("a", 0.9), memory("b", 0.8), memory("c", 0.7), memory("d", 0.6, evidence=0.6),
            RecallHit(None, ScoreParts(relevance=0.5, score=0.5), SimpleNamespace(id="e", type="episode"))]
    assert [h.id for h in select(hits, 4, max_per_type=3, min_relevance=0.1)] == ["a", "b", "c", "d"]
    # Ranked by its own text, it is a fourth event and waits for the other kinds.
    hits[3] = memory("d", 0.6, evidence=0.2)
    assert [h.id for h in select(hits, 4, max_per_type=3, min_relevance=0.1)] == ["a", "b", "c", "e"]
