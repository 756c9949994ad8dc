"""Topics tie a request to the memories it needs when they share no words:
"推荐三亚的餐厅" (food, travel) needs "用户对花生过敏" (food, health).

The lexicon is memctl/extract/rules/topics.toml (extendable per store). This module is
apart from extraction so that recall can use it without loading every extraction rule.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import ConfigError

TOPICS_FILE = Path(__file__).parent / "extract" / "rules" / "topics.toml"


@dataclass
class TopicRules:
    zh: dict[str, re.Pattern[str]]
    en: dict[str, re.Pattern[str]]


@lru_cache(maxsize=8)
def load_topics(extra_dir: str | None = None) -> TopicRules:
    with open(TOPICS_FILE, "rb") as fh:
        data = tomllib.load(fh)
    if extra_dir:
        extra = Path(extra_dir) / TOPICS_FILE.name
        if extra.is_file():
            try:
                with open(extra, "rb") as fh:
                    for topic, words in tomllib.load(fh).items():
                        for lang, items in words.items():
                            data.setdefault(topic, {}).setdefault(lang, []).extend(items)
            except tomllib.TOMLDecodeError as exc:
                raise ConfigError(f"{extra}: invalid TOML: {exc}") from None
    zh: dict[str, re.Pattern[str]] = {}
    en: dict[str, re.Pattern[str]] = {}
    for topic, words in data.items():
        zh_words = words.get("zh", [])
        if zh_words:
            zh[topic] = re.compile("|".join(map(re.escape, sorted(zh_words, key=len, reverse=True))), re.I)
        en_words = words.get("en", [])
        if en_words:
            alts = "|".join(re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in en_words)
            en[topic] = re.compile(rf"\b(?:{alts})\b", re.I)
    return TopicRules(zh, en)


def topics_of(text: str, topics: TopicRules) -> list[str]:
    found = {name for name, p in topics.zh.items() if p.search(text)}
    found |= {name for name, p in topics.en.items() if p.search(text)}
    return sorted(found)
