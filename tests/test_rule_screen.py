"""A rule pattern tried only on a text holding one of the words every match of it must
contain: the same answers as the pattern itself, only sooner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from memctl.extract import load_rules
from memctl.extract.rules import Screened, _needed_words

DATA = Path(__file__).parent / "data"


def _texts() -> list[str]:
    texts = []
    for path in sorted(DATA.glob("extraction_holdout*.jsonl")):
        texts += [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return texts


@pytest.mark.parametrize("pattern, words", [
    (r"(?:foo|bar)baz", ("baz",)),  # of two sets as selective, the smaller
    (r"a?bcd", ("bcd",)),
    (r"(?:x|yy)zzz", ("zzz",)),  # an alternative too short to test for leaves the rest
    (r"\b(?:lol|haha+)\b", ("hah", "lol")),
    (r"(?:要|想)去", ("去",)),  # one Chinese character is enough
    (r"ab", ()),  # nothing worth a first test
    (r"(?:foo)?bar?", ()),  # nothing the pattern must hold
    (r"\bcafé\b", ()),  # a cased letter outside ASCII: not tested for
    (r"(?:^foo)|(?:^(?:bar|baz))", ()),  # anchored at the start: the pattern fails at once by itself
])
def test_the_words_every_match_holds(pattern, words):
    assert _needed_words(pattern, re.I) == words


def test_a_screened_pattern_answers_as_the_pattern_on_every_labelled_text():
    rules = load_rules()
    texts = _texts()
    assert len(texts) > 5000
    texts += [t.upper() for t in texts[::4]]
    every = [p for r in rules.langs.values()
             for p in [*r.p.values(), *r.types.values(), *r.slots.values(), *(i[0] for i in r.inference),
                       *(a[0] for a in r.answers), *(c[0] for c in r.in_context)]]
    screened = [p for p in every if isinstance(p, Screened)]
    assert len(screened) > 120
    for p in screened:
        raw = p._re
        for t in texts:
            assert (p.search(t) is None) == (raw.search(t) is None), (raw.pattern[:80], t)
            assert p.sub("", t) == raw.sub("", t)


def test_case_folds_that_are_not_lower_case():
    # Python's case-insensitive matching takes the Kelvin sign for k and the long s for s.
    p = re.compile(r"\bkelvin|\bthis\b", re.I)
    screened = Screened(p, _needed_words(p.pattern, p.flags))
    for text in ("\u212aelvin", "thi\u017f", "THIS", "KELVIN", "TH\u0130S"):
        assert screened.search(text) is not None and p.search(text) is not None
    assert screened.search("nothing here") is None
    assert screened.sub("", "keep this") == p.sub("", "keep this")
    assert screened.pattern == p.pattern  # what is not screened is the pattern's own
    long = "x" * 5_000 + " this"
    assert screened.search(long) is not None  # a long text goes to the pattern at once
