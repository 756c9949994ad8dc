"""The rule files in extract/rules/ (and a store's own extensions, see rulefiles.py)
compiled into regexes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import ConfigError
from .lexicon import lemmas
from ..rulefiles import read_rule_file as _read
from ..topics import TopicRules, load_topics

LANGS = ("en", "zh")


def _words_re(words: list[str], lang: str) -> str:
    alts = "|".join(sorted(map(_plain, words), key=len, reverse=True))
    if lang == "en":
        return rf"\b(?:{alts})(?:'s)?(?![\w'])"
    return f"(?:{alts})"


# "my " put before a sentence's capitalised first word.
_SENTENCE_NOUN_AFTER_MY = re.compile(r"(?:^|(?<=[.!?] ))my ([A-Z][a-z]+)\b")


def _compile(patterns: list[str], subs: dict[str, str], flags: int = re.I) -> re.Pattern[str]:
    if not patterns:
        return re.compile(r"(?!x)x")
    expanded = []
    for p in patterns:
        for name, alt in subs.items():
            p = p.replace(name, alt)
        expanded.append(f"(?:{p})")
    try:
        compiled = re.compile("|".join(expanded), flags)
    except re.error as exc:
        raise ConfigError(f"invalid rule pattern: {exc}") from None
    needs = _needed_words(compiled.pattern, compiled.flags)
    return Screened(compiled, needs) if needs else compiled  # type: ignore[return-value]


class Screened:
    """A rule pattern that is tried only on a text holding one of the strings every match
    of it must contain (found by _needed_words; a cheap substring test first). It answers
    search, match, sub ... as the pattern would: where none of the strings occurs, the
    pattern cannot match. (Rule patterns are long alternations that Python's engine tries
    at every position of a clause: most clauses hold none of their words.)"""

    __slots__ = ("_re", "_needs")

    def __init__(self, compiled: re.Pattern[str], needs: tuple[str, ...]) -> None:
        self._re = compiled
        self._needs = needs

    def may_match(self, text: str) -> bool:
        if len(text) > _SCREENED_CHARS:
            return True  # (a long text is searched by the pattern alone: one pass, not one per word)
        low = text.lower() if text.isascii() else text.translate(_CASE_FOLDS).lower()
        for word in self._needs:
            if word in low:
                return True
        return False

    def search(self, text: str, *args: Any) -> re.Match[str] | None:
        return self._re.search(text, *args) if self.may_match(text) else None

    def match(self, text: str, *args: Any) -> re.Match[str] | None:
        return self._re.match(text, *args) if self.may_match(text) else None

    def fullmatch(self, text: str, *args: Any) -> re.Match[str] | None:
        return self._re.fullmatch(text, *args) if self.may_match(text) else None

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        return self._re.sub(repl, text, count) if self.may_match(text) else text

    def subn(self, repl: Any, text: str, count: int = 0) -> tuple[str, int]:
        return self._re.subn(repl, text, count) if self.may_match(text) else (text, 0)

    def finditer(self, text: str, *args: Any) -> Any:
        return self._re.finditer(text, *args) if self.may_match(text) else iter(())

    def findall(self, text: str, *args: Any) -> list[Any]:
        return self._re.findall(text, *args) if self.may_match(text) else []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._re, name)  # pattern, flags, groupindex, split ...


_SCREENED_CHARS = 2_000

# Characters that Python's case-insensitive matching takes for an ASCII letter although
# lower() does not make them one (the dotless i, the long s, the Kelvin sign, the dotted I).
_CASE_FOLDS = str.maketrans({"ı": "i", "ſ": "s", "\u212a": "k", "\u0130": "i"})


@lru_cache(maxsize=4096)
def _needed_words(pattern: str, flags: int) -> tuple[str, ...]:
    """Lower-case strings one of which occurs (case aside) in every match of the pattern,
    when each is selective enough to be worth testing for first (three characters or more;
    one Chinese character is enough); () when there is no such set. (Kept for the next
    loading of the rules: a store's own rule files load them again.)"""
    try:
        from re import _constants as C, _parser as P  # (the parser of the standard library's re)

        tree = P.parse(pattern, flags)
    except Exception:  # another Python's re: no screening, the pattern as it is
        return ()

    def need(seq: Any) -> list[str] | None:
        found: list[list[str]] = []
        run: list[str] = []
        for op, av in list(seq) + [(None, None)]:
            if op is C.LITERAL:
                run.append(chr(av))
                continue
            if run:
                found.append(["".join(run)])
                run = []
            inner: list[str] | None = None
            if op is C.SUBPATTERN:
                inner = need(av[3])
            elif op is C.ATOMIC_GROUP:
                inner = need(av)
            elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and av[0] >= 1:
                inner = need(av[2])
            elif op is C.BRANCH:
                alternatives: list[str] = []
                for alt in av[1]:
                    got = need(alt)
                    if not got:
                        alternatives = []
                        break
                    alternatives += got
                inner = alternatives or None
            if inner:
                found.append(inner)
        usable = [f for f in found if all(_selective(w) for w in f)]
        return max(usable, key=lambda f: (min(map(len, f)), -len(f))) if usable else None

    def anchored(seq: Any) -> bool:
        """Whether every match starts at the text's start: such a pattern fails at once."""
        items = list(seq)
        if not items:
            return False
        op, av = items[0]
        if op is C.AT:
            return av in (C.AT_BEGINNING, C.AT_BEGINNING_STRING)
        if op is C.SUBPATTERN:
            return anchored(av[3])
        if op is C.BRANCH:
            return all(anchored(alt) for alt in av[1])
        return False

    if anchored(tree):
        return ()
    words = need(tree)
    if not words:
        return ()
    return tuple(sorted({w.lower() for w in words}))


def _selective(word: str) -> bool:
    if any(c.lower() != c.upper() and not c.isascii() for c in word):
        return False  # a cased letter outside ASCII: left to the pattern itself
    return len(word) >= 3 or any("\u4e00" <= c <= "\u9fff" for c in word)


@dataclass
class LangRules:
    lang: str
    p: dict[str, re.Pattern[str]] = field(default_factory=dict)
    types: dict[str, re.Pattern[str]] = field(default_factory=dict)
    slots: dict[str, re.Pattern[str]] = field(default_factory=dict)
    slot_words: dict[str, re.Pattern[str]] = field(default_factory=dict)
    inference: list[tuple[re.Pattern[str], str, str, bool, bool]] = field(default_factory=list)
    importance_base: dict[str, float] = field(default_factory=dict)
    boosts: list[tuple[re.Pattern[str], float, str]] = field(default_factory=list)
    quote_chars: str = ""
    # Whom a statement can be about: relation -> kind (person | pet | thing | event), the
    # plural and close relations, longest first for matching.
    relations: dict[str, str] = field(default_factory=dict)
    plural: frozenset[str] = frozenset()
    close: frozenset[str] = frozenset()
    # Kinds of tool a team has one of at a time (queue -> Kafka, Pulsar ...).
    stack: dict[str, re.Pattern[str]] = field(default_factory=dict)
    # The type a statement of a slot has when no type pattern says otherwise.
    slot_types: dict[str, str] = field(default_factory=dict)
    # Short answers worded with the question: (question, content template, type, slot).
    answers: list[tuple[re.Pattern[str], str, str, str]] = field(default_factory=list)
    # Facts said as a bare phrase with no subject or verb ("corporate lawyer in dublin"),
    # worded by a template: (pattern, content template, type, slot).
    fragments: list[tuple[re.Pattern[str], str, str, str]] = field(default_factory=list)

    # Any relation word, for finding the few a text contains without trying them all.
    relation_words: re.Pattern[str] | None = None
    # Chat spellings ("im", "u", "ill be") and what they are written out as.
    spellings: dict[str, str] = field(default_factory=dict)
    spelled: re.Pattern[str] | None = None
    # [pattern, replacement] or [pattern, replacement, [words]]: with words, the pattern is
    # tried only on text holding one of them (lower case), as a cheap first test.
    in_context: list[tuple[re.Pattern[str], str, tuple[str, ...]]] = field(default_factory=list)

    def spell(self, text: str) -> str:
        """The text with its chat spellings written out ("im gonna" -> "i'm gonna")."""
        if self.spelled is not None:
            # (A word in capitals among lower-case words is an acronym, not chat: "im an RN" is a
            # nurse, not "right now"; "IM SO EXCITED" is shouted chat.)
            shouted = not any(c.islower() for c in text)
            # ("İm": a letter whose lower case is two is no chat spelling of ours; it stays.)
            text = self.spelled.sub(lambda m: m.group(0) if m.group(0).isupper() and len(m.group(0)) == 2 and not shouted
                                    or m.group(0).lower() not in self.spellings
                                    else _same_case(m.group(0), self.spellings[m.group(0).lower()]), text)
        low = text.lower()
        owner_added = False
        for pattern, word, needs in self.in_context:
            if needs and not any(n in low for n in needs):
                continue
            # (A replacement with a group, "my \\2 \\1", is expanded; a word keeps the case it replaces.)
            text, n = pattern.subn(lambda m: m.expand(word) if "\\" in word else _same_case(m.group(0), word), text)
            owner_added = owner_added or (n > 0 and word == "my ")
        if owner_added:
            # "Thesis due friday" -> "my thesis ...": the noun was capitalised only as the sentence's first word.
            text = _SENTENCE_NOUN_AFTER_MY.sub(lambda m: m.group(0) if not lemmas(m.group(1)).get("NOUN")
                                               else "my " + m.group(1).lower(), text)
        return text

    def relations_in(self, text: str) -> list[tuple[str, str]]:
        """The relations whose word occurs in `text` (lowercased for English), longest first."""
        if self.relation_words is None or not self.relation_words.search(text):
            return []
        return [(word, kind) for word, kind in self.relations.items() if word in text]

    def has(self, name: str, text: str) -> bool:
        pattern = self.p.get(name)
        return pattern is not None and pattern.search(text) is not None


def _lang_rules(lang: str, extra_dir: str | None) -> LangRules:
    data = _read(f"{lang}.toml", extra_dir)
    subs = {
        # (Before OCCUPATIONS, whose name is in this one's.)
        "MORE_OCCUPATIONS": "|".join(sorted(map(_plain, data["types"]["profile"].get("more_occupations", [])), key=len, reverse=True))
        or r"(?!x)x",
        "OCCUPATIONS": "|".join(sorted(map(_plain, data["types"]["profile"].get("occupations", [])), key=len, reverse=True)),
        "TECH": "|".join(data["types"]["knowledge"].get("tech", [])),
        "WORKPLACES": "|".join(sorted(map(_plain, data["types"]["knowledge"].get("workplaces", [])), key=len, reverse=True)),
        "UNPLEASANT": "|".join(map(_plain, data["drop"].get("unpleasant", []))),
        "HABIT_WHEN": data["types"].get("behavior", {}).get("habit_when", r"(?!x)x"),
    }
    rules = LangRules(lang)
    for section in ("clean", "self", "drop", "markers", "answers"):
        for key, value in data.get(section, {}).items():
            if key.endswith("_re"):
                # Shouted irony ("I just LOVE it") is told apart by case.
                flags = 0 if key == "sarcasm_caps_re" else re.I
                rules.p[key[:-3]] = _compile(value, subs, flags)
            elif key in ("other_people", "dependents"):
                rules.p[key] = re.compile(_words_re(value, lang), re.I)
            elif key == "discourse":
                rules.p["discourse"] = re.compile(rf"^(?:{_words_re(value, lang)}[\s,.!;:~-]*)+", re.I)
            elif key == "quote_chars":
                rules.quote_chars = "".join(value)
    if lang == "en":
        # "I'm a huge fan of Mondays" is sarcasm; "I love traffic" too.
        rules.p["sarcasm_love"] = re.compile(
            r"\b(?:love|adore|enjoy|favou?rite)\b.*" + _words_re(data["drop"].get("unpleasant", []), lang), re.I
        )
    for tname, tdata in data["types"].items():
        rules.types[tname] = _compile(tdata.get("patterns_re", []), subs)
        if "past_re" in tdata:
            rules.p["past"] = _compile(tdata["past_re"], subs)
    # Kept apart, each with what it implies and how to word it.
    rules.inference = [
        (_compile([rule["re"]], subs), rule["type"], rule["content"], bool(rule.get("early")), bool(rule.get("beside", True)))
        for rule in data.get("inference", [])
    ]
    rules.slots = {key[:-3]: _compile(value, subs) for key, value in data.get("slots", {}).items()}
    rules.stack = {name: re.compile(_words_re(words, lang), re.I) for name, words in data.get("stack", {}).items()}
    rules.slot_types = dict(data.get("slot_types", {}))
    rules.answers = [
        (_compile([a["question_re"]], subs), a["content"], a["type"], a.get("slot", ""))
        for a in data.get("answer", [])
    ]
    rules.fragments = [(_compile([f["re"]], subs), f["content"], f["type"], f.get("slot", "")) for f in data.get("fragment", [])]
    rules.slot_words = {
        slot: re.compile(_words_re(words, lang), re.I) for slot, words in data.get("slot_words", {}).items()
    }
    subjects = data.get("subjects", {})
    for kind, key in (("person", "people"), ("pet", "pets"), ("thing", "things"), ("event", "events")):
        for word in subjects.get(key, []):
            rules.relations.setdefault(word.lower() if lang == "en" else word, kind)
    rules.relations = dict(sorted(rules.relations.items(), key=lambda kv: -len(kv[0])))
    if rules.relations:
        rules.relation_words = re.compile("|".join(map(re.escape, rules.relations)))
    rules.plural = frozenset(w.lower() for w in subjects.get("plural", []))
    rules.close = frozenset(w.lower() for w in subjects.get("close", []))
    spelling = data.get("spelling", {})
    rules.spellings = {k.lower(): v for k, v in spelling.get("words", {}).items()}
    if rules.spellings:
        alts = "|".join(sorted((rf"(?i:{re.escape(w)})" if len(w) > 1 else re.escape(w) for w in rules.spellings),
                               key=len, reverse=True))
        rules.spelled = re.compile(rf"(?<![\w'/-])(?:{alts})(?![\w'/-])")  # (not "NCLEX-RN")
    rules.in_context = [(_compile([row[0]], subs), row[1], tuple(w.lower() for w in row[2]) if len(row) > 2 else ())
                        for row in spelling.get("in_context", [])]
    imp = data.get("importance", {})
    rules.importance_base = {k: float(v) for k, v in imp.get("base", {}).items()}
    rules.boosts = [(re.compile(b["re"], re.I), float(b["delta"]), b.get("why", "")) for b in imp.get("boosts", [])]
    return rules


def _same_case(said: str, word: str) -> str:
    return word[:1].upper() + word[1:] if said[:1].isupper() else word  # (a word spelled out as nothing stays nothing)


def _plain(word: str) -> str:
    return re.escape(word) if "\\" not in word else word


@dataclass
class SecretPattern:
    name: str
    pattern: re.Pattern[str]
    validate: str | None
    # A cheap pre-check: the pattern is tried only on a text that holds one of these
    # (lower-cased) strings; "0-9" stands for any digit. Empty: always tried.
    requires: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        alts = "|".join("[0-9]" if r == "0-9" else re.escape(r) for r in self.requires)
        self._pre = re.compile(alts) if alts else None

    def may_match(self, lowered: str) -> bool:
        return self._pre is None or self._pre.search(lowered) is not None


@dataclass
class Rules:
    langs: dict[str, LangRules]
    secrets: list[SecretPattern]
    topics: TopicRules
    temporal: dict[str, dict[str, dict[str, Any]]]

    def lang(self, code: str | None) -> LangRules:
        """The rules of a language; English for a language memctl has no rules for."""
        return self.langs.get(code or "en") or self.langs["en"]

    def negative(self, text: str, lang: str | None) -> bool:
        """Whether a statement is negated ("doesn't eat", "不吃", "no longer")."""
        return self.lang(lang).has("negation", text.lower())


@lru_cache(maxsize=8)
def load_rules(extra_dir: str | None = None) -> Rules:
    secrets = []
    for p in _read("secrets.toml", extra_dir).get("pattern", []):
        try:
            # ASCII \\b: "密码是sk-..." must match although 是 counts as a word character in Unicode.
            secrets.append(SecretPattern(p["name"], re.compile(p["re"], re.ASCII), p.get("validate"),
                                         tuple(r.lower() for r in p.get("requires", []))))
        except re.error as exc:
            raise ConfigError(f"invalid secret pattern {p.get('name')}: {exc}") from None
    return Rules(
        langs={lang: _lang_rules(lang, extra_dir) for lang in LANGS},
        secrets=secrets,
        topics=load_topics(extra_dir),
        temporal=_read("temporal.toml", extra_dir),
    )
