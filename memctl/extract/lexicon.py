"""What the English lexicon (lemminflect) knows of a word, looked up once per word."""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Mapping


@lru_cache(maxsize=8192)
def lemmas(word: str) -> Mapping[str, tuple[str, ...]]:
    """The word's lemmas by part of speech ({"VERB": ("go",)}); empty for a word the lexicon does not know."""
    from lemminflect import getAllLemmas

    return MappingProxyType(getAllLemmas(word.lower()))


def verb_like(word: str) -> bool:
    """ "works", "is": a word the lexicon knows as a verb or an auxiliary."""
    found = lemmas(word)
    return "VERB" in found or "AUX" in found


def third_person(word: str) -> bool:
    """ "meets", "goes": a verb's third-person form, not a bare verb ending in s ("pass")."""
    verbs = lemmas(word).get("VERB", ())
    return bool(verbs) and word.lower() not in verbs


def plural_noun(word: str) -> bool:
    """ "siblings", "pals": a plural noun, even where the lexicon also knows a verb of it."""
    return any(lemma != word.lower() for lemma in lemmas(word).get("NOUN", ()))
