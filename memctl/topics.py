"""Topics tie a request to the memories it needs when they share no words:
"推荐三亚的餐厅" (food, travel) needs "用户对花生过敏" (food, health).

The lexicon is memctl/extract/rules/topics.toml (extendable per store). This module is
apart from extraction so that recall can use it without loading every extraction rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .lexical import HAN, LATIN
from .rulefiles import read_rule_file


@dataclass
class TopicRules:
    zh: dict[str, re.Pattern[str]]
    en: dict[str, re.Pattern[str]]
    # Chinese-list topics that also hold a word without Han characters ("bug"): the only
    # ones worth searching in a text without Han characters.
    zh_latin: frozenset[str] = frozenset()
    # The English lists as lookups, which give what `en` finds at a tenth of the cost:
    # whole words, prefixes of "word*" entries, and the few phrases kept as patterns.
    en_words: dict[str, frozenset[str]] = field(default_factory=dict)
    en_prefixes: dict[str, frozenset[str]] = field(default_factory=dict)
    en_phrases: dict[str, re.Pattern[str]] = field(default_factory=dict)
    longest_prefix: int = 0


@lru_cache(maxsize=8)
def load_topics(extra_dir: str | None = None) -> TopicRules:
    data = read_rule_file("topics.toml", extra_dir)
    zh: dict[str, re.Pattern[str]] = {}
    en: dict[str, re.Pattern[str]] = {}
    zh_latin = set()
    for topic, words in data.items():
        zh_words = words.get("zh", [])
        if any(not HAN.search(w) for w in zh_words):
            zh_latin.add(topic)
        if zh_words:
            zh[topic] = re.compile("|".join(map(re.escape, sorted(zh_words, key=len, reverse=True))), re.I)
        en_words = words.get("en", [])
        if en_words:
            alts = "|".join(re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in en_words)
            en[topic] = re.compile(rf"\b(?:{alts})\b", re.I)
    words: dict[str, set[str]] = {}
    prefixes: dict[str, set[str]] = {}
    phrases: dict[str, list[str]] = {}
    for topic, lists in data.items():
        for w in lists.get("en", []):
            w = w.lower()
            if not _WORD.fullmatch(w.rstrip("*")):
                phrases.setdefault(topic, []).append(w)
            elif w.endswith("*"):
                prefixes.setdefault(w[:-1], set()).add(topic)
            else:
                words.setdefault(w, set()).add(topic)
    phrase_patterns = {
        t: re.compile(r"\b(?:" + "|".join(re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in ws) + r")\b", re.I)
        for t, ws in phrases.items()
    }
    return TopicRules(
        zh, en, frozenset(zh_latin),
        {w: frozenset(t) for w, t in words.items()}, {p: frozenset(t) for p, t in prefixes.items()},
        phrase_patterns, max(map(len, prefixes), default=0),
    )


_WORD = re.compile(r"\w+")




def topics_of(text: str, topics: TopicRules) -> list[str]:
    # Skipping the lists that cannot match this script is exact and halves the work.
    zh = topics.zh if HAN.search(text) else {t: topics.zh[t] for t in topics.zh_latin}
    found = {name for name, p in zh.items() if p.search(text)}
    if LATIN.search(text):
        found |= _english_topics(text, topics)
    return sorted(found)


def _english_topics(text: str, topics: TopicRules) -> set[str]:
    found: set[str] = set()
    for word in _WORD.findall(text.lower()):
        found |= topics.en_words.get(word, frozenset())
        for k in range(1, min(len(word), topics.longest_prefix) + 1):
            found |= topics.en_prefixes.get(word[:k], frozenset())
    found |= {name for name, p in topics.en_phrases.items() if p.search(text)}
    return found
