"""Lexical matching that works for Chinese and English: tokens, overlap and BM25.

Chinese has no spaces, so a run of Chinese characters gives its characters and its
character bigrams ("不吃海鲜" -> 吃 海 鲜 不吃 吃海 海鲜); English gives lower-cased words
with a light suffix stem. Words every memory shares ("user", "用户") and function words
carry no signal and are dropped.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Sequence

_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9][a-z0-9+#.\-']*", re.I)
_EN_STOP = frozenset(
    """a an the and or but if then so of to in on at by for with from as is are was were be been being am
    i me my mine myself you your yours he him his she her hers it its we us our ours they them their theirs
    this that these those there here what which who whom whose when where why how do does did doing done
    have has had having will would shall should can could may might must not no yes user user's users also
    just very really too than more most some any all each every other such only own same into about over
    after before again further once up down out off under until while because what's i'm i've i'd i'll
    it's that's don't doesn't didn't can't won't isn't aren't wasn't weren't let's like get got go going
    want know think make please tell give help need much many one two thing things something anything""".split()
)
_LATIN_WORD = re.compile(r"[a-z0-9]+")
# One Han character (CJK unified ideographs, extension A, compatibility), one Latin letter.
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[A-Za-z]")
_ZH_STOP = frozenset("的了是在和也都就很我你他她它们这那吗呢吧啊呀哦嘛么有个一把被给让对跟与及或而且用户还要会")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                return word
            return word[: -len(suffix)] + keep
    return word


def tokens(text: str) -> list[str]:
    out: list[str] = []
    for m in _TOKEN.finditer(text.lower()):
        run = m.group(0)
        if "\u3400" <= run[0] <= "\u9fff" or "\uf900" <= run[0] <= "\ufaff":
            out.extend(c for c in run if c not in _ZH_STOP)
            # Bigrams with a function character ("用户不", "的东") say nothing about the content.
            out.extend(run[i : i + 2] for i in range(len(run) - 1) if run[i] not in _ZH_STOP and run[i + 1] not in _ZH_STOP)
        else:
            word = run.strip(".-'")
            if word and word not in _EN_STOP and len(word) > 1:
                out.append(_stem(word))
    return out


# Texts compared again soon (a user's memories while their batch is reconciled); bounded
# well below a big ingest's count of texts, whose sets would otherwise stay (about 1 KB each).
@lru_cache(maxsize=8192)
def token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def overlap(a: str, b: str) -> float:
    """Dice overlap of the two texts' token sets, 0..1."""
    return dice(token_set(a), token_set(b))


def dice(ta: frozenset[str], tb: frozenset[str]) -> float:
    if not ta or not tb:
        return 0.0
    return 2 * len(ta & tb) / (len(ta) + len(tb))


@lru_cache(maxsize=1)
def other_forms() -> dict[str, tuple[str, ...]]:
    """For an English term (a stem, as `tokens` gives it), the forms of its word that do
    not begin with it ("win" -> "won", "won" -> "win", "bought" -> "buy"), from the rule
    file forms.toml."""
    from .rulefiles import read_rule_file

    out: dict[str, set[str]] = {}
    for lemma, forms in read_rule_file("forms.toml", None).get("en", {}).items():
        group = {lemma, *forms}
        for word in group:
            stem = _stem(word)
            out.setdefault(stem, set()).update(w for w in group if w != word and not w.startswith(stem))
    return {stem: tuple(sorted(words)) for stem, words in out.items() if words}


class BM25:
    """Okapi BM25 over a small document set (one user's memories).

    Documents are not tokenised up front: only the query's terms are counted in them
    (a Chinese token by substring, an English stem with its endings), and a document's
    length is estimated from its word and character counts. Scoring a query against a
    few hundred memories with their source turns then takes a few milliseconds.
    """

    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.docs = [d.lower() for d in docs]
        self.lengths = [len(_LATIN_WORD.findall(d)) + 2 * len(HAN.findall(d)) for d in self.docs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0

    def _counts(self, term: str) -> list[int]:
        if "\u3400" <= term[0] <= "\u9fff" or "\uf900" <= term[0] <= "\ufaff":
            return [d.count(term) for d in self.docs]
        others = other_forms().get(term, ())
        if others:
            # "win" counts "won" too, "went" counts "go": the word's other forms, whole.
            pattern = re.compile(rf"\b(?:{re.escape(term)}\w{{0,3}}|{'|'.join(map(re.escape, others))})\b")
            return [len(pattern.findall(d)) if term in d or any(o in d for o in others) else 0 for d in self.docs]
        pattern = re.compile(rf"\b{re.escape(term)}\w{{0,3}}\b")
        return [len(pattern.findall(d)) if term in d else 0 for d in self.docs]

    def scores(self, query: str) -> list[float]:
        return self._score(query)[0]

    def match(self, query: str) -> list[float]:
        """Scores as the share (0..1) of the query's weighted terms a document matches.

        Every query term counts in the denominator, found in the documents or not, so a
        document that shares one common character with a long Chinese query scores low.
        """
        raw, ideal = self._score(query)
        return [min(1.0, s / ideal) if ideal else 0.0 for s in raw]

    def _score(self, query: str) -> tuple[list[float], float]:
        terms = set(tokens(query))
        out = [0.0] * len(self.docs)
        if not terms or not self.docs:
            return out, 0.0
        n = len(self.docs)
        unseen = math.log(1 + (n - 1 + 0.5) / 1.5)
        ideal = 0.0
        norm = [self.k1 * (1 - self.b + self.b * length / (self.avg or 1)) for length in self.lengths]
        for term in terms:
            # A lone Chinese character is weak evidence next to a two-character word.
            weight = 0.5 if len(term) == 1 and not term.isascii() else 1.0
            counts = self._counts(term)
            df = sum(1 for c in counts if c)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5)) if df else unseen
            ideal += weight * idf
            if not df:
                continue
            for i, f in enumerate(counts):
                if f:
                    out[i] += weight * idf * f * (self.k1 + 1) / (f + norm[i])
        return out, ideal


# What stands where forgotten words were cut out of a turn.
GAP = " … "


def remove_clauses(text: str, clauses: Sequence[str]) -> str | None:
    """The text without these clauses (each cut where it stands, a gap mark left); None
    when nothing worth keeping is left or a clause cannot be found in it."""
    out = text
    for clause in sorted(set(clauses), key=len, reverse=True):
        if not clause:
            continue
        if clause not in out:
            return None
        out = out.replace(clause, GAP)
    out = re.sub(r"(?:\s*…\s*)+", GAP, out).strip(" ,，。.;；!！?？…")
    return out if re.search(r"\w", out) else None
