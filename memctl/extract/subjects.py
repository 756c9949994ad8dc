"""Whom a clause is about: the user, or a person, pet, thing or event in the user's life.

  "My son Noah has soccer on Saturdays"   -> person, relation "son", name "Noah"
  "我家狗狗特别爱玩水，也很喜欢洗澡"        -> pet "狗狗", and the second clause keeps it
  "He loves goalkeeping" (after Noah)     -> the same person
  "论坛的地点是北京" (after "参加一个论坛")  -> the event the user attends
  "My girlfriend and I went fishing"      -> the user, together with their girlfriend
  "预计下周开业" (asked "你的店什么时候开业？") -> the user's shop

A subject is introduced by its relation to the user ("my wife", "我老公"), or by the
assistant asking about it ("your shop"); later clauses of the conversation may name it,
call it he/she/it, or (in Chinese) leave the subject out. The `Scene` keeps what was
introduced, for the rest of one conversation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .lexicon import lemmas, plural_noun, third_person, verb_like
from .rules import LangRules

# What kind of subject a clause has.
USER = "user"  # the user (also "we": the user's family or team)
PERSON, PET, THING, EVENT = "person", "pet", "thing", "event"
NONE = "none"  # someone or something else: the clause is not about the user's world


@dataclass(frozen=True)
class Subject:
    kind: str
    relation: str = ""  # "son", "儿子", "dog", "店", "论坛"
    name: str = ""  # "Noah", "乐乐"
    plural: bool = False
    group: bool = False  # "we": the user with family or team
    joint: str = ""  # "girlfriend" in "my girlfriend and I": the user together with them
    display: str = ""  # how a Chinese memory names a thing or event: "用户参加的论坛"
    company: str = ""  # whom "we" were, when the conversation said so: "kids" after "my kids and I"

    @property
    def is_user(self) -> bool:
        return self.kind == USER

    @property
    def label(self) -> str:
        """How a memory names whom it is about: "user", "son Noah", "儿子乐乐", "dog"."""
        if self.kind == USER:
            return "user"
        if self.kind == NONE:
            return ""
        if not self.name:
            return self.relation
        if not self.relation:
            return self.name  # "朵朵", "Margaret": named, never placed
        han = re.search(r"[\u3400-\u9fff]", self.relation + self.name) is not None
        return f"{self.relation}{self.name}" if han else f"{self.relation} {self.name}"

    @property
    def key(self) -> str:
        """Identity for one-at-a-time facts: the user's city and their son's are two slots."""
        return "user" if self.kind == USER else f"{self.kind}:{self.relation.lower()}"


THE_USER = Subject(USER)
WE = Subject(USER, group=True, plural=True)
SOMEONE_ELSE = Subject(NONE)

# A diet said alone ("vegetarian, have been for like 8 years", "Vegan btw"): the user's own.
DIET_ALONE = re.compile(r"(?:(?:strictly|mostly|fully|now|still) )?(?:vegetarian|vegan|pescatarian|pescetarian|keto|"
                        r"gluten[- ]free|dairy[- ]free|lactose[- ]intolerant|halal|kosher|teetotal)\b", re.I)


@dataclass(frozen=True)
class Found:
    subject: Subject
    end: int = 0  # length of the subject phrase at the start of the clause ("My son Noah")
    inherited: bool = False  # not said in the clause: carried over, or asked about


@dataclass
class Scene:
    """What a conversation has introduced so far: people by name, things and events, and
    what the assistant's last message asked about."""

    by_name: dict[str, Subject] = field(default_factory=dict)
    # The people the user last said they were with ("my kids", "my husband and I"): who "we" is.
    company: str = ""
    things: dict[str, Subject] = field(default_factory=dict)
    last_person: Subject | None = None
    # The user's person, pet or thing the assistant just asked about ("你的店", "your dog").
    asked: Subject | None = None
    # The end of the assistant's last message, and what its question asked about: the
    # object ("Do you like sushi?" -> "sushi") and, in Chinese, the predicate
    # ("你喜欢吃火锅吗？" -> "喜欢吃火锅").
    asked_text: str = ""
    asked_object: str = ""
    asked_predicate: str = ""
    # The pet or person the user's last message told of, if it told of one (questions that
    # name no one are taken as the pet's only: see note_assistant).
    told_of: Subject | None = None

    def note(self, subject: Subject) -> None:
        if subject.kind in (PERSON, PET):
            if subject.name:
                self.by_name[subject.name.lower()] = subject
            self.last_person = subject
        elif subject.kind in (THING, EVENT):
            self.things[subject.relation.lower()] = subject

    def note_name(self, text: str, subject: Subject) -> None:
        """"（孩子）小名叫朵朵", "(my dog) is called Biscuit": the name a later message uses."""
        if subject.kind not in (PERSON, PET) or subject.name:
            return
        if subject.plural and re.search(r"\b(?:called|named) [A-Z][a-z]+(?: [A-Z][a-z]+)?\W*$", text) and not re.search(r"\band\b", text):
            return  # "They're called Peruvian Lilies": the kind of what was asked about, not the pups' names
        m = re.search(r"(?:小名|大名|名字|乳名)(?:叫|是)([\u3400-\u9fff]{1,4}?)(?=[，。,！\s]|$)|\b(?:named|called) ([A-Z][a-z]+)\b", text)
        if m:
            name = m.group(1) or m.group(2)
            self.by_name.setdefault(name.lower(), Subject(subject.kind, subject.relation, name, plural=subject.plural))

    def capitalised(self, text: str) -> str:
        """English text with the names typed in lower case written as names ("their wife
        priya" -> "their wife Priya"); only words no dictionary knows, never "will" or "rose"."""
        for key, subject in self.by_name.items():
            if subject.name and subject.name != key and subject.name.lower() == key and _unknown_word(key):
                text = re.sub(rf"(?<![\w'-]){re.escape(key)}(?![\w-])", subject.name, text)
        return text

    def note_mentions(self, text: str, r: LangRules, lang: str) -> None:
        """Events and things the user mentions doing or having ("参加一个AI论坛", "my
        sister's wedding"): a later clause may be about them."""
        low = text.lower() if lang == "en" else text
        for word, kind in r.relations_in(low):
            if kind not in (THING, EVENT) or word.lower() in self.things:
                continue
            if lang == "en":
                if re.search(rf"\b(?:my|our)\s+(?:[\w-]+\s+)?{re.escape(word)}s?\b", low):
                    self.things[word] = Subject(kind, word)
            else:
                m = next((m for verb in ("参加", "出席", "举办", "主持", "报名", "办", "开", "准备", "去")
                          if (m := re.search(rf"({verb})[^，。？！]{{0,8}}?{re.escape(word)}", text))), None)
                if m or re.search(rf"我(?:家|的)?{re.escape(word)}", text):
                    display = f"用户{m.group(1)}的{word}" if m else f"用户的{word}"
                    self.things[word] = Subject(kind, word, display=display)

    def note_people(self, text: str, r: LangRules, lang: str) -> None:
        """A pet or close relative the user mentions anywhere ("我给我的小狗起名叫贝贝"): the
        "it"/"he"/"she" of a later clause."""
        low = text.lower() if lang == "en" else text
        named_pet = False  # (a pet named here is the one "she" means, not the breed said before its name)
        if lang == "en":
            with_ = [a or b for a, b in _EN_COMPANY.findall(low)]
            with_ = [w for w in with_ if w in _EN_GROUPS or w in r.relations or w.endswith("s") and w[:-1] in r.relations]
            if with_:
                self.company = with_[-1]
            # "my wife Rachel", "twins, Ava and Noah": each name is that relative later ("noah is scared").
            for m in _EN_NAMED.finditer(text):
                found = _en_relation(m.group(1).lower(), r)
                if not found or found[1] not in (PERSON, PET) or found[0] != m.group(1).lower():
                    continue
                relation = _EN_ONE.get(found[0], found[0][:-1] if found[0] in r.plural and found[0].endswith("s") else found[0])
                for name in (m.group(2), m.group(3)):
                    named = re.search(r"\b(?:named|called)\s", m.group(0)) is not None  # "a cat named Pepper"
                    if name and (named or not verb_like(name)) and name.lower() not in _EN_NOT_NAMES:
                        self.by_name.setdefault(name.lower(), Subject(found[1], relation, name))
            # "I've adopted a rescue dog, a greyhound called Biscuit": the pet's name.
            for word, kind in r.relations_in(low):
                if kind != PET:
                    continue
                at = re.search(rf"\b{re.escape(word)}\b", low)
                # ("we brought home a border collie puppy, her name is juno": named in the same breath.)
                called = re.compile(r"\b(?:named|called|(?:her|his|its) name(?: is|'s)) ([A-Z][a-z]+|[a-z]{3,})\b").search(text, at.end()) if at else None
                if called and called.group(1).islower() and not _unknown_word(called.group(1)):
                    called = None  # "a dog named after ...", "a cat called out": a name typed in lower case is no word
                if called and called.group(0).startswith(("her ", "his ")) and re.search(r"\b(?:my|our|for)\s", low[at.end():called.start()]):
                    called = None  # "a kitten for my daughter, her name is zoe": whose name, the words do not say
                if called and called.start() - at.end() <= 40 and called.group(1).lower() not in _EN_NOT_NAMES:
                    pet = Subject(PET, word, called.group(1).capitalize())
                    self.by_name.setdefault(called.group(1).lower(), pet)
                    self.last_person = pet
                    named_pet = True
                    break
            # "w my wife priya", "my son noah": a name typed in lower case after the relation
            # is a word no dictionary knows ("my wife and I", "my son today" are not names).
            for m in _EN_NAMED_LOWER.finditer(low):
                found = _en_relation(m.group(1), r)
                name = m.group(2)
                if found and found[1] in (PERSON, PET) and found[0] == m.group(1) and _unknown_word(name):
                    relation = _EN_ONE.get(found[0], found[0])
                    self.by_name.setdefault(name, Subject(found[1], relation, name.capitalize()))
        if lang == "zh":
            # "跟老伴老周一起", "我未婚夫阿伟说…": a later "老周没有高血压" is about that person.
            for word, kind in r.relations_in(text):
                if kind not in (PERSON, PET):
                    continue
                for at in re.finditer(rf"(?:(?<=我)|(?<=我的)|(?<=我们)|(?<=我家)|(?<=跟)|(?<=和)|(?<=带)|(?<=陪)){re.escape(word)}", text):
                    found = _zh_possessive("我" + text[at.start():], r)
                    if found and found.subject.name and found.subject.relation == word:
                        self.by_name.setdefault(found.subject.name.lower(), found.subject)
        # In Chinese a close relative is the user's without a 我 too: "让儿子拍。他在成都上班" is the son.
        # ("i just adopted a retired racing greyhound ... her name is Pepper": the user's now.)
        owner = r"\b(?:my|our|(?:adopted|rescued|got|bought|have) (?:a|an))\s+(?:[\w-]+\s+){0,2}" if lang == "en" else r"(?:我的|我家的?|我们家的?|我|让|叫|跟|和|带|陪|给|^)"
        # The one told of last is whom a later "she" means ("my partner jess is away a lot, so
        # i'm solo with the dog ... her name's pickle": the dog).
        last = None
        for word, kind in r.relations_in(low):
            if kind == PET and named_pet:
                continue
            if kind == PET or kind == PERSON and word.lower() in r.close:
                mine = owner + re.escape(word.lower() if lang == "en" else word) + _ZH_PET_PLACE
                if lang == "en" and kind == PET:
                    mine = rf"(?:{owner}|\b(?:with|walk|walking|feed|feeding|keep|keeping) (?:the|a|an)\s+(?:[\w-]+\s+)?){re.escape(word.lower())}\b"
                at = max((m.start() for m in re.finditer(mine, low)), default=None)
                if at is not None and (last is None or at > last[0]):
                    last = (at, word, kind)
        if last is not None:
            _, word, kind = last
            named = [s for s in self.by_name.values() if s.relation == word and not s.plural]
            # "my wife priya ... she's into pottery": the wife by her name, when she has one.
            self.last_person = named[-1] if len(named) == 1 else Subject(kind, word, plural=word.lower() in r.plural)
            if lang == "en" and not self.company:
                self.company = word.lower()  # "my son lives in Denver. we talk on Sundays"

    def note_assistant(self, text: str, r: LangRules, lang: str) -> None:
        """What the assistant's message asked about: "你的店什么时候开业？", "How old is your son?"."""
        self.asked, self.asked_object, self.asked_predicate = None, "", ""
        tail = text[-200:]
        questions = re.findall(r"[^。！？?!.]*[?？]", tail)
        self.asked_text = questions[-1].strip() if questions else ""
        last = re.split(r"[。！？?!.\n]", tail.strip(" 。！？?!.\n"))[-1]
        if not self.asked_text and re.search(r"什么|吗|么|呢|哪|几|多少|\b(?:what|which|how|where|who)\b", last, re.I):
            self.asked_text = last.strip()  # "打什么球": a question without its mark
        for name, subject in self.by_name.items():
            # "朵朵有没有什么过敏？": a question about someone the user named.
            if name and re.search(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", self.asked_text, re.I):
                self.asked = subject
                return
        if lang == "zh":
            pred = re.search(r"(?:你|您)(?:平时|现在|也|还|最)?([^，,。？?！你您]{1,20}?)(?:吗|么|嘛|呢)?[？?]\s*$", self.asked_text)
            self.asked_predicate = pred.group(1) if pred else ""
            for m in re.finditer(r"(?:你|您)(?:们家的?|家里的?|家的?|的|养的)", tail):
                rest = tail[m.end():]
                for word, kind in r.relations.items():
                    if rest.startswith(word):
                        self.asked = Subject(kind, word)
                        return
                for word, kind in r.relations.items():
                    # "你的咖啡店筹备的怎么样了": the user's thing, named with a word or two before it.
                    named = re.match(rf"([\u4e00-\u9fff]{{1,3}}?){re.escape(word)}", rest) if kind == THING else None
                    if named and not re.search(r"[的了是在和跟]", named.group(1)):
                        self.asked = Subject(kind, named.group(0))
                        return
            # "孩子多大了？", "那平时给狗狗洗澡是不是很辛苦呢": a question about the user's
            # child or pet without "your".
            for word, kind in r.relations.items():
                if (kind == PET or kind == PERSON and word in r.close) and word in (self.asked_text or (tail[-60:] if kind == PET else "")):
                    self.asked = Subject(kind, word, plural=word in r.plural)
                    return
            # "多大了？有没有呕吐？" after "我家柯基豆包这两天有点拉稀": questions that name no
            # one, say no 你 and are a vet's ask about the pet the user just told of.
            if self.asked_text and self.told_of is not None and self.told_of.kind == PET and not re.search(r"你|您", tail) \
                    and _ZH_PET_QUESTION.search(tail):
                self.asked = self.told_of
        else:
            obj = re.search(r"\b(?:do|did|would|have|are|were|will)\s+you\s+(?:ever\s+|still\s+|also\s+|really\s+)?"
                            r"(?:like|love|enjoy|prefer|eat|drink|play|watch|use|own|miss|visit|speak|know)\s+"
                            r"([\w' -]{2,40}?)\s*\?\s*$", self.asked_text, re.I)
            self.asked_object = obj.group(1) if obj else ""
            for m in re.finditer(r"\byour\s+", tail.lower()):
                found = _en_relation(tail.lower()[m.end():], r)
                if found:
                    self.asked = Subject(found[1], found[0], plural=found[0] in r.plural)
                    return


# What a vet asks of a pet: its age, sex, breed, health and food ("多大了？公的母的？有没有呕吐？").
_ZH_PET_QUESTION = re.compile(r"多大|几岁|几个月大|公的|母的|品种|绝育|疫苗|驱虫|呕吐|便血|拉稀|腹泻|精神|食欲|换粮|狗粮|猫粮|吃的什么粮")


# -- English ------------------------------------------------------------------------------

_EN_FIRST = re.compile(r"^(?:i|i'm|i've|i'd|i'll|im|ive|me|myself)\b", re.I)
_EN_WE = re.compile(r"^(?:we|we're|we've|we'd|we'll|our|us)\b", re.I)
_EN_HE = re.compile(r"^(?:he|she|he's|she's|his|her)\b", re.I)
_EN_THEY = re.compile(r"^(?:they|they're|they've|their|them)\b", re.I)
_EN_NOT_SUBJECT = re.compile(
    r"^(?:the|a|an|this|that|these|those|it|it's|its|there|there's|here|you|you're|your|"
    r"what|which|who|how|why|when|where|everyone|everybody|someone|somebody|nobody|people|one|some|many|most)\b",
    re.I,
)


_EN_NAMED = re.compile(r"\b([A-Za-z-]+),?\s+(?:(?:named|called)\s+)?([A-Z][a-z]+)\b(?:,?\s+(?:and|&)\s+([A-Z][a-z]+)\b)?")
# "my kids and I", "took my kids": the people a later "we" is, if a relation or a group.
_EN_COMPANY = re.compile(r"\b(?:my|our) ([a-z-]+)(?= (?:and|&) (?:i|me)\b)|\b(?:with|took|take|and) (?:my|our) ([a-z-]+)\b")
_EN_GROUPS = frozenset("family team band crew class".split())
_EN_ONE = {"children": "child", "twins": "child", "grandkids": "grandkid", "in-laws": "in-law", "puppies": "puppy"}
_EN_NAMED_LOWER = re.compile(r"\b(?:my|our) ([a-z-]+),? ([a-z]{3,12})\b(?!-|'(?!s\b))")
# Short words a dictionary of open-class words does not list: never a name typed in lower case.
_EN_FUNCTION = frozenset("""and but the for with from who whom whose that this these those then than when while where
which what she her hers him his they them their its our ours you your yours lol lmao tho though thru also too yet
til till btw idk tbh imo rn pls plz thx ngl haha hehe omg smh bc cuz cos coz abt gonna wanna gotta yeah yep nope
okay was were are has had have did does will would could should can may might must shall not nor any all both
each every some into onto upon over under about after before since until unless because""".split())


def _unknown_word(word: str) -> bool:
    return word not in _EN_FUNCTION and word not in _EN_NOT_NAMES and not lemmas(word)


_EN_NOT_NAMES = frozenset("""i monday tuesday wednesday thursday friday saturday sunday january february march april may
june july august september october november december christmas easter""".split())


# Words that open "<word>'s <event> is on <date>" and name no one ("Tonight's game is on the 5th").
_EN_DAY_WORDS = frozenset("today tonight tomorrow yesterday everyone everybody someone somebody".split())
_EN_PERSON_DATE = re.compile(r"[A-Z][a-z]+'s (?:[\w-]+ ){0,2}(?:play|recital|concert|game|match|party|birthday|appointment|surgery|operation|"
                             r"graduation|wedding|exam|test|interview|flight|tournament|meet|show|checkup|check-up) "
                             r"(?:is|'s) (?:on |this |next )?(?:the )?(?:\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
                             r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)", re.I)
_EN_PLAN = re.compile(
    r"^(?:planning|hoping|trying|aiming|saving(?: up)?|looking) (?:to|for|on)\b|^(?:learning|studying|practicing|practising|training for) [a-z]+\b(?! (?:is|are|was|can|has)\b)|"
    r"^(?:[a-z]+ing)\b.*\b(?:tomorrow|tonight|this weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day|next "
    r"\w+|this (?:mon|tues|wednes|thurs|fri|satur|sun)day|on (?:the )?\d+(?:st|nd|rd|th)?|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|on "
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d+(?:st|nd|rd|th)?|in (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"|(?:at|by) the end of (?:this|next) (?:week|month|year)|end of (?:this|next) (?:week|month)"
    r"|(?:end of|early|mid|late) (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\b")  # "moving to Leeds end of August"


_EN_HABIT = re.compile(r"^[a-z]+ing\b(?!'s| but\b)(?:(?! (?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|can|can't|makes?|helps?|keeps?) ).)*\b(?:usually|always|normally|every (?:day|morning|night|evening|week)|"
                       r"daily|weekly|most (?:days|nights|mornings)|on weekends|after work|before work)\b")


def _en_relation(words: str, r: LangRules) -> tuple[str, str] | None:
    """The relation a possessive phrase opens with, and its kind ("son" -> person)."""
    for relation, kind in r.relations.items():
        if words.startswith(relation) and not re.match(r"[\w-]", words[len(relation):len(relation) + 1]):
            return relation, kind
    return None


def _en_possessive(text: str, r: LangRules) -> Found | None:
    """ "my (older) sister Anna ...", "our cat ...", "my son's ...": the subject and where
    the subject phrase ends."""
    m = re.match(r"(?:my|our)\s+", text, re.I)
    if not m:
        return None
    low = text.lower()
    skip = m.end()
    for _ in range(3):
        found = _en_relation(low[skip:], r)
        if found:
            relation, kind = found
            end = skip + len(relation)
            after = text[end:]
            name = ""
            named = re.match(r",?\s+([A-Z][a-zà-öø-ÿ]+(?:\s[A-Z][a-zà-öø-ÿ]+)?)(?=[\s,.!']|$)", after)
            typed = re.match(r"\s+([a-zà-öø-ÿ]{3,})(?=\s+(?:is|was|has|works|teaches|lives|loves|hates|just|still|turns|gets|needs)\b)", after)
            if named is None and typed and kind in (PERSON, PET) and _unknown_word(typed.group(1)):
                # "my partner jonas works as a sous chef": a name typed in lower case (a word
                # the lexicon does not know, so not "my dog food is ...").
                name = typed.group(1).capitalize()
                return Found(Subject(kind, relation, name, plural=relation in r.plural), end + typed.end(1))
            if named and kind in (PERSON, PET) and not verb_like(named.group(1).split()[0]):
                name = named.group(1).split()[0] if verb_like(named.group(1).split()[-1]) else named.group(1)
                end += named.start(1) + len(name)
                if text[end:end + 1] == ",":
                    end += 1
            elif named is None:
                named = re.match(r",?\s+(?:named|called)\s+([A-Z][a-z]+)", after)
                if named and kind in (PERSON, PET):
                    name = named.group(1)
                    end += named.end()
            return Found(Subject(kind, relation, name, plural=relation in r.plural), end)
        # Up to two describing words before the relation: "my older sister", "my 4-year-old son".
        nxt = re.match(r"[\w-]+\s+", low[skip:])
        if not nxt or nxt.group(0).strip() in ("own", "favorite", "favourite", "new", "first", "last", "next", "dream"):
            return None
        skip += nxt.end()
    return None


def detect_en(text: str, r: LangRules, scene: Scene, previous: Subject | None) -> Found:
    low = text.lower()
    joint = re.match(r"(?:my|our)\s+([\w -]{2,30}?)\s+(?:and|&|n)\s+(?:i|me)\b", low) \
        or re.match(r"the\s+(gf|bf|wife|husband|hubby|kids|fam|family)\s+(?:and|&|n)\s+(?:i|me)\b", low) \
        or re.match(r"(?:me|i)\s+and\s+(?:my|our)\s+([\w-]+(?: [\w-]+)?)(?=\s)", low)
    # "my gf, Toby, and I": the relation with their name.
    # "my gf, Toby, and I": a list (the girlfriend, Toby the dog and the user); the name is
    # not the relation's (that would be "my gf Toby and I").
    named = re.match(r"(?i:my|our)\s+([\w-]{2,20}),\s+([A-Z][a-z]+),?\s+(?:and|&)\s+(?i:i|me)\b", text)
    if named and _en_relation(named.group(1).lower(), r):
        return Found(Subject(USER, joint=f"{_en_relation(named.group(1).lower(), r)[0]} and {named.group(2)}", plural=True),
                     named.end())
    if joint:
        words = joint.group(1)
        found = _en_relation(words, r) or (_en_relation(words[:-1], r) if words.endswith("s") else None)
        if found:
            end = joint.end()
            if low.startswith(("me", "i ")) and len(found[0]) < len(words):
                end = joint.start(1) + len(found[0])  # "me and my neighbor ran": the relation, then the verb
            name = text[joint.start(1) + len(found[0]):joint.end(1)].strip()
            if low.startswith(("my", "our")) and re.fullmatch(r"[A-Z][a-z]+", name):
                return Found(Subject(USER, joint=f"{found[0]} {name}", plural=True), end)  # "my wife Ana and I"
            return Found(Subject(USER, joint=words if words.endswith("s") and end == joint.end() else found[0], plural=True), end)
        if re.fullmatch(r"[a-z]+(?: [a-z]+)?", words) and (not verb_like(words.split()[-1]) or plural_noun(words.split()[-1])):
            return Found(Subject(USER, joint=words, plural=True), joint.end())  # "my girl & I": as the user said it
    owned = _en_possessive(text, r)
    if owned:
        return owned
    if _EN_FIRST.match(low) or re.match(r"^(?:my|mine)\b", low):
        return Found(THE_USER)  # "my favorite quote is ...": the user's own
    if _EN_WE.match(low):
        company = scene.company or ("team" if r.has("team_tools", low) else "")
        return Found(Subject(USER, group=True, plural=True, company=company) if company else WE)
    if r.has("at_work", low) and not re.search(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine)\b", low):
        return Found(WE)  # "the monorepo at work uses pnpm", "in our lab all samples ...": how the user's workplace works
    if _EN_HE.match(low):
        person = _recent_person(previous, scene, plural=False, gender="f" if re.match(r"^(?:she|her)", low) else "m")
        return Found(person, inherited=True) if person else Found(SOMEONE_ELSE)
    if _EN_THEY.match(low):
        person = _recent_person(previous, scene, plural=True)
        return Found(person, inherited=True) if person else Found(SOMEONE_ELSE)
    if re.match(r"[a-z]+ (?:and|&) [a-z]+ (?:really |truly |always |can |could |will |would |should |must |have |has |is |are |was |were |make |makes )", low) \
            and not re.search(r"\b(?:i|i'm|my|me|mine|we|our|us)\b", low):
        return Found(SOMEONE_ELSE)  # "Love and acceptance really can be found everywhere": two nouns, not "I love"
    if re.match(r"(?:the |our |my )?(?:backend |frontend |dev |data |ml |platform |infra |ops |engineering |product )?team(?: rules?)?"
                r"(?:'s| is| uses| runs| does| has| deploys|:)", low):
        return Found(WE)  # "backend team is all go + postgres (pgx)", "team rules: no deploys on fridays"
    kids = re.match(r"(?:the )?(kids|children|twins|boys|girls)(?: are|'re) (?=\d|both|twins)", low)
    if kids and kids.group(1) in r.relations:
        # "kids are 6 and 9 btw": the user's own, said without "my".
        return Found(Subject(r.relations[kids.group(1)], kids.group(1), plural=True), kids.end(1))
    household = re.match(r"the (dogs?|cats?|kids?|baby|puppy|kitten|twins)(?:'s?|s')\s+[a-z]", low)
    if household and household.group(1) in r.relations:
        # "the dog's vet checkup is on the 12th", "the kids' school is Maple Grove": the household's own.
        return Found(Subject(r.relations[household.group(1)], household.group(1), plural=household.group(1) in r.plural),
                     len("the ") + len(household.group(1)))
    if re.match(r"(?:the |my )?(?:goal|target|aim)(?: for (?:the )?[\w ]{2,20})? (?:is|=|:)", low):
        return Found(THE_USER, inherited=True)  # "goal is under 4:30": the user's own target
    if DIET_ALONE.match(low):
        return Found(THE_USER, inherited=True)  # "Vegetarian, but eggs are fine": not someone named Vegetarian
    first = re.match(r"([A-Z][a-z]+)\b", text)
    named = re.match(r"([a-z]+)(?='s\b|\s|$)", low)  # "ava's vegetarian" typed without capitals
    if named and named.group(1) in scene.by_name:
        return Found(scene.by_name[named.group(1)], inherited=True)
    the = re.match(r"(?:the|that|this|my|our)\s+([\w-]+)", low)
    if the and the.group(1) in scene.things:
        return Found(scene.things[the.group(1)], inherited=True)
    if the and the.group(0).startswith("the ") and the.group(1) in r.close and any(
            s.relation in (the.group(1), the.group(1)[:-1], _EN_ONE.get(the.group(1))) for s in scene.by_name.values()):
        # "the twins are 5" after "twins, Ava and Noah": the user's own.
        kind = r.relations[the.group(1)]
        return Found(Subject(kind, the.group(1), plural=the.group(1) in r.plural), the.end())
    if the and the.group(0).startswith("the ") and r.relations.get(the.group(1)) == EVENT \
            and (r.has("reschedule", low) or re.search(r"\b(?:is|are) now (?:on )?(?:the )?\d|, not (?:on )?(?:the )?\d", low)):
        # "the surgery is now the 22nd of May, not the 8th": the user's own plan, given a new date.
        return Found(Subject(EVENT, the.group(1)), the.end())
    bare = re.match(r"([a-z][\w-]+)(?: date)? (?:is|'s) (?:on |this |next )?(?:the )?(?:\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)", low)
    if bare and r.relations.get(bare.group(1)) == EVENT:
        # "exam is 15 aug", "party is saturday 27th june": the date of the user's own event, typed bare.
        return Found(Subject(EVENT, bare.group(1)), len(bare.group(1)))
    moved = re.match(r"the ([a-z][\w-]+)(?:'s| has| is| was| got)? (?:been |now |just )?(?:moved|rescheduled|postponed|pushed back|"
                     r"pushed|delayed|bumped|brought forward)\b", low)
    if moved and moved.group(1) not in r.relations:
        # "the checkride's moved from the 3rd to the 10th": a date the user keeps, moved.
        return Found(Subject(EVENT, moved.group(1)), len("the ") + len(moved.group(1)))
    asked = scene.asked
    if asked is not None and (re.match(r"^(?:it|it's|its)\b", low) and asked.kind in (PET, THING, EVENT)
                              or re.match(r"^(?:they|they're)\b", low) and asked.plural):
        return Found(asked, inherited=True)
    if re.match(r"^(?:honestly |so )?what i (?:really |actually |truly )?(?:want|need)(?: most)? is (?:to|for)\b", low):
        return Found(THE_USER)  # "what i really want is to get my resting heart rate under 60"
    if re.match(r"^(?:(?:every )?(?:mon|tues|wednes|thurs|fri|satur|sun)days?(?: night| morning| evening)? (?:are|is|=)|languages?\s*[:=]|no [\w ]{2,20} (?:after|before) \d{1,2} ?(?:am|pm)?\b|(?:company|team|work|office|lab|school|house|shop|store) (?:rule|rules|policy|policies)\s*[:=]|~?\d+ ?(?:min|mins|minutes|hours?|hrs?) (?:of )?\w+|(?:total |a )?(?:night owl|early bird))\b", low):
        return Found(THE_USER, inherited=True)  # "sundays are meal prep days", "~30 min of piano every morning"
    if re.match(r"^(?:the plan|(?:my )?(?:long[- ]term |lifelong |life |big |biggest |ultimate |real )?(?:plan|goal|target|aim|resolution|priority|dream)s?)\b(?: for [\w ]{1,20}?)?(?: this| next)?"
                r"(?: year| month| week| summer| semester| term)?\s*(?:is|are|=|:)", low):
        return Found(THE_USER)  # "plan is to move apartments end of next month", "Goal for this year: read 30 books"
    if re.match(r"^(?:it's|it is|it has|it's been|it has been) (?:been )?(?:a|my) (?:\w+ )?dream\b", low):
        return Found(THE_USER)  # "it's been a dream to have a family": the user's own dream
    # "When I travel I prefer ...", "At my company we ...", "The app I maintain is ...": the
    # user speaks of themselves after an opening phrase; "It reminded me of ..." is not
    # a statement about them.
    if _EN_OWN_OPENER.match(low):
        return Found(THE_USER, inherited=True)  # "wanna pass the cpa exam next may", "prefer metric units always"
    opener = re.match(r"^(?:when|whenever|while|if|once|after|before|since|as|at|in|on|for|with|during|every|most (?:days|mornings|nights|evenings|weeks)|usually|normally|typically|"
                      r"the [\w-]+(?: [\w-]+)? (?:i|we)\b)", low)
    if opener or not _EN_NOT_SUBJECT.match(low):
        gerund = re.match(r"^[a-z]+ing\b", low) is not None
        if re.search(r"\b(?:i|i'm|i've|i'd|i'll)\b", low) or (not gerund or opener) and re.search(r"\b(?:my|me|mine|myself)\b", low):
            return Found(THE_USER)
        if gerund and re.search(r"\b(?:my|me|mine)\b", low):
            return Found(THE_USER)  # "Playing games is my main hobby"
        if opener and re.search(r"\b(?:we|we're|we've|our|us)\b", low):
            return Found(WE)
        if gerund and (_EN_PLAN.match(low) or _EN_HABIT.match(low)) \
                and not re.search(r"\b(?:is|are|was|were|must|sounds|seems|looks|feels|can|could|would|should|makes|helps)\b", low.split(",")[0]):
            # "flying out of Denver on nov 12", "studying at night after work usually 9-11pm": the user's own plan or habit
            return Found(THE_USER, inherited=True)
        if gerund:
            return Found(SOMEONE_ELSE)  # "Being surrounded by teammates creates a bond": said of anyone
    if _EN_NOT_SUBJECT.match(low):
        return Found(SOMEONE_ELSE)
    if first and _EN_PERSON_DATE.match(text) and not verb_like(first.group(1)) and first.group(1).lower() not in _EN_NOT_NAMES \
            and first.group(1).lower() not in r.relations and first.group(1).lower() not in _EN_DAY_WORDS:
        # "Ava's school play is dec 12 at 6pm": a dated event of someone in the user's life, by name.
        return Found(Subject(PERSON, "", first.group(1)), len(first.group(1)))
    if first and _EN_PERSON_FACT.match(text) and not verb_like(first.group(1)) and first.group(1).lower() not in _EN_NOT_NAMES \
            and not re.search(r"\b(?:i|i'm|my|me)\b", low):
        # "Margaret has a dodgy right knee", "Noor has a peanut allergy": someone of the user's
        # life by the name the conversation uses, with a lasting fact of their health or diet.
        subject = Subject(PERSON, "", first.group(1))
        return Found(subject, len(first.group(1)))
    if first and not verb_like(first.group(1)) and not first.group(1).lower().endswith("ing"):
        # "Berlin's meetups are great", "Melanie is kind": not the user (by the name, so that
        # "she" in the clause after is not someone named earlier: "Maisie will want to help, she's 3").
        return Found(SOMEONE_ELSE if first.group(1).lower() in r.relations else Subject(NONE, "", first.group(1)))
    lower_name = re.match(r"^([a-z]+) (?:(?:only|just|also|still|usually|always|never|often|sometimes) )*([a-z]+s)\b", low)
    if lower_name and not verb_like(lower_name.group(1)) and third_person(lower_name.group(2)) \
            and not re.match(r"^(?:i|im|ive|u|ya|yeah|yep|nope|ok|okay|lol|also|just|still|usually|always|never|often)$", lower_name.group(1)):
        return Found(SOMEONE_ELSE)  # "otieno only meets on wednesdays": a name typed in lower case, not the user
    if re.match(r"^(?:[\w'-]+ ){1,3}(?:is|are|was|were|has|have|must|could|would|can|will|always|never)\b", low) \
            and not re.match(r"^(?:just|also|still|really|totally|definitely|probably|finally|recently|actually)\b", low):
        return Found(SOMEONE_ELSE)  # "Mixed emotions are rough": the subject is a thing said
    if previous is not None and previous.kind == NONE:
        previous = None  # ("Germany, Belize, then Germany again. Finished at Chatham": the user's own)
    return Found(previous or scene.asked or THE_USER, inherited=True)


# A clause opening with the user's own verb or state, the "I" left out.
# A state of the user's said without "I'm": "huge fan of 70s soul" (a fan), "fluent in korean".
_EN_STATE = r"(?:huge|big|massive) (fan) of|fluent in|allergic to|obsessed with|(?:not|really|totally|so|super) into|not (?:a|really a|much of a) fan of"
_EN_OWN_OPENER = re.compile(rf"^(?:(?:still|also|really|totally) )?(?:wanna|gonna|gotta|want to|need to|prefer|can't stand|cannot stand|{_EN_STATE})\b")


def en_state_article(low: str) -> str | None:
    """For a clause opening with such a state, the article its "I'm" takes ("a" before a fan); None otherwise."""
    m = re.match(rf"(?:{_EN_STATE})\b", low)
    return None if m is None else "a " if m.group(1) else ""


# A name, then a lasting fact of health or diet: "Noor has a peanut allergy (carries an epipen)".
_EN_PERSON_FACT = re.compile(
    r"^[A-Z][a-z]+(?:'s| is| has| was diagnosed with| can't| cannot| doesn't| does not| needs| takes)\b(?:(?!\b(?:said|says|told)\b).)*?"
    r"\b(?:allerg\w*|vegetarian|vegan|pescatarian|gluten|coeliac|celiac|lactose|diabet\w*|asthma\w*|(?:dodgy|bad|weak) (?:right |left )?(?:knee|hip|back)|"
    r"epilep\w*|adhd|autis\w*|dementia|kidney disease|heart condition|hearing aids?|wheelchair|insulin|epipen)\b")


def _recent_person(previous: Subject | None, scene: Scene, plural: bool, gender: str = "") -> Subject | None:
    if previous is not None and previous.kind == NONE and previous.name and previous.name.lower() not in scene.by_name:
        return None  # the clause before named someone the conversation does not know
    for candidate in (previous, scene.asked, scene.last_person):
        if candidate is not None and candidate.kind in (PERSON, PET) and candidate.plural == plural \
                and not (gender and gender_of(candidate) not in ("", gender)):
            if not candidate.name:
                # "my partner ... hes called Dev, hes a PE teacher": the partner, by the name given.
                named = [s for s in scene.by_name.values() if s.relation == candidate.relation and s.kind == candidate.kind]
                if len(named) == 1 and named[0].plural == candidate.plural:
                    return named[0]
            return candidate
    if gender:
        # "my son leo ... my mom watches him ... he's allergic to peanuts": the one person
        # named in the conversation whom "he" can be, when the last one mentioned cannot.
        named = {s for s in scene.by_name.values() if s.kind in (PERSON, PET) and s.plural == plural and gender_of(s) == gender}
        if len(named) == 1:
            return named.pop()
    return None


# Relations whose word says the person's sex: "she" is not the father ("我爸……我妹……她今年要值班").
_FEMALE = re.compile(r"妈|孙女|母亲|老婆|妻子|媳妇|太太|女儿|闺女|姐|妹|奶奶|外婆|姥姥|婆婆|丈母娘|岳母|女朋友|女友|闺蜜|阿姨|姑|姨|舅妈|婶|"
                     r"\b(?:mom|mum|mother|wife|daughter|sister|grandma|grandmother|girlfriend|gf|aunt|niece|fiancee|stepmom)\b")
_MALE = re.compile(r"爸|孙子|外孙(?!女)|先生|父亲|老公|丈夫|儿子|哥|弟|爷爷|外公|姥爷|公公|岳父|老丈人|男朋友|男友|叔|舅|伯|"
                   r"\b(?:dad|father|husband|son|brother|grandpa|grandfather|boyfriend|bf|uncle|nephew|fiance|stepdad)\b")


def gender_of(subject: Subject) -> str:
    relation = (subject.relation or "").lower()
    if _FEMALE.search(relation):
        return "f"
    if _MALE.search(relation):
        return "m"
    return ""


# -- Chinese ------------------------------------------------------------------------------

# Words a predicate can start with: what follows a name in "我儿子乐乐对芒果过敏".
_ZH_PREDICATE = (
    "对|在|是|喜欢|爱|每|上|有|很|特别|也|都|最|不|没|会|要|叫|今年|已经|刚|正在|下|去|得|超|挺|比较|总是|经常|"
    "一直|平时|就|才|还|又|和|跟|被|把|从|想|能|可以|做|当|读|住|学|吃|喝|玩|怕|生|考|已|将|明年|去年|现在|目前|说|觉得|一起|"
    "今天|昨天|明天|每天|最近|老是|"
    "他|她|[一二三四五六七八九十两\\d](?:岁|个月|周岁)|，|,|、|。|！|？|\\s|$"
)
_ZH_NAME_END = re.compile(rf"^(?:{_ZH_PREDICATE})")
# 我的X where X is the user's own attribute, not someone: "我的目标", "我的工作".
_ZH_OWN = re.compile(r"我的?(?:目标|梦想|计划|愿望|工作|生日|名字|地址|电话|手机号|邮箱|爱好|专业|老家|家乡)")
_ZH_NOT_SUBJECT = re.compile(
    r"^(?:刚才|刚刚|今天|昨天|之前|上次)?(?:(?:这|那)(?:个(?!月|周末|周|星期|礼拜|季度|学期|假期|寒假|暑假|年)|是|些|种|样|里|边|家|位|款|次|本|篇|段|件|条|就)|它|他|她|你|您|大家|别人|有人|人家|很多人|好多人|不少人|许多人|谁|哪|什么|天气|今天天气)"
)
# People the user meets at work or in passing, opening a clause: "上周张大爷血压到了一百九",
# "日本游客特别爱看" are about them, not the user.
# ("王奶奶" is someone else's grandmother; "想在奶奶……前" is the user's own aim.)
_ZH_OTHERS = re.compile(r"^(?:最近|上周|这周|今天|昨天|前天|现在|平时)?(?:(?:(?![想在跟和给陪带我要去帮替让对等为把被])[\u4e00-\u9fff]){1,2}(?:大爷|大妈|阿姨|大叔|大姐|大哥|奶奶|爷爷)"
                        r"|[\u4e00-\u9fff]{0,3}(?:游客|客人|顾客|(?<!糖尿)病人|患者|家长们|网友|粉丝|旅行团|学生们|孩子们|业主|租客|新郎|新娘|宾客|嘉宾|当事人|"
                        r"会员|乘客|买家|卖家|同行)|楼上|楼下(?!的?我)|隔壁(?!的?我)|邻居)")
# Someone brought into a story: "比如上周有个小伙子半夜把自己锁阳台了" (and what follows is theirs).
_ZH_ANECDOTE = re.compile(r"^(?:比如|像|就像)?[^，。我]{0,6}?有(?:个|一个|位|一位)[\u4e00-\u9fff]{0,4}?(?:小伙子|小姑娘|姑娘|大爷|大妈|阿姨|大叔|"
                          r"大哥|大姐|老太太|老爷子|老头|老人|男的|女的|客人|顾客|客户|病人|患者|家长|游客|大户|哥们|小孩|人)")
# A stranger placed by the user ("超市排我前面那大哥买了四十罐午餐肉"): the story is theirs.
_ZH_STRANGER_BY_ME = re.compile(r"^[^，。我帮跟给和陪替]{0,6}?(?:排|坐|站|停)?在?我(?:前面|后面|旁边|对面|前头|后头)的?(?:那个?|那位|一个|一位)?"
                                r"(?:大哥|大姐|大爷|大妈|阿姨|大叔|小伙子?|姑娘|哥们|老太太|老头|男的|女的|同事|同学|人)")
# Weather ("长沙十月初其实很少下雨"), said with no 我: about the place, not the user.
_ZH_WEATHER = re.compile(r"下雨|下雪|刮风|台风|气温|降温|升温|雾霾|梅雨|回南天")
_ZH_OBJECT_ONLY = re.compile(r"(?:帮|给|让|跟|和|对|陪|带|替|告诉|提醒|问|教|送|请|发|借|找|催|通知|回复|回答|比|喜欢|爱|叫)我"
                             r"(?!们|妈|爸|老|儿子|女儿|孩子|家|哥|姐|弟|妹|爷|奶|外公|外婆|姥|媳妇|对象|男朋友|女朋友)")
# 我 as what someone else does something to ("一直拦着我", "喜欢我才有动力"): a clause with no
# other 我 and no subject of its own is about whoever does it, not the user.
_ZH_DONE_TO_ME = re.compile(r"(?:[着了过]|喜欢|爱|骂|拦|管|逼|劝|烦|怪|骗|夸|批评|支持|鼓励|照顾|嫌|笑|瞒|吼|打)我(?!们|的|家|自己)")


# What follows 宠物 (or 狗, 猫) when it names a place or trade, not the user's pet: "宠物医院说".
_ZH_PET_PLACE_WORDS = r"医院|诊所|店|医生|用品|粮|食品|保险|美容|寄养|乐园|市场"
# What follows a relation without being their name: "我妈身体不好", "我老伴高血压".
_ZH_NOT_NAME = re.compile(r"视频|电话|微信|语音|迷|身体|血压|血糖|血脂|脾气|性格|情况|工作|公司|单位|学校|年纪|岁数|身材|头发|眼睛|心脏|肠胃|腰|腿|胃|肝|病|"
                          r"家里|那边|那里|这边|最近|一直|现在|以前|之前|之后|以后|后来|今天|明天|昨天|倒|"
                          # "老婆天天买", "妈膝盖不好", "老婆怀孕了": a habit, a body part or a happening, not a name
                          r"天天|每天|经常|总是|老是|膝盖|肩|颈|牙|眼|耳|鼻|嗓子|皮肤|骨|怀孕|生病|感冒|发烧|住院|出差|加班|上班|下班|"
                          r"啥|什么|谁|哪|[了的过着吗呢啊吧呀嘛]$|"
                          # "宠物医院说……", "宠物店": a place of the pet's, not the pet's name
                          rf"{_ZH_PET_PLACE_WORDS}|老师|中心")
_ZH_PET_PLACE = rf"(?!{_ZH_PET_PLACE_WORDS})"

# Doubled words that are no name: adverbs, kin words, sounds ("天天加班", "慢慢来", "妈妈说").
_ZH_NOT_TWIN_NAME = re.compile(
    r"(?:天天|常常|刚刚|慢慢|渐渐|往往|默默|好好|偏偏|明明|稍稍|悄悄|早早|久久|统统|仅仅|白白|处处|时时|年年|月月|家家|个个|样样|事事|人人|"
    r"妈妈|爸爸|哥哥|姐姐|弟弟|妹妹|奶奶|爷爷|姥姥|婆婆|公公|叔叔|舅舅|姑姑|宝宝|狗狗|猫猫|星星|娃娃|太太|伯伯|嫂嫂|婶婶|"
    r"谢谢|哈哈|嘻嘻|呵呵|嗯嗯|哦哦|啊啊|好好|多多|大大|小小|每每|点点|试试|看看|想想|走走|聊聊|等等|躺躺|歇歇|问问|说说|尝尝|玩玩|逛逛|转转)"
)


def _zh_possessive(text: str, r: LangRules) -> Found | None:
    m = re.match(r"(?:我们家的?|咱们家的?|我家的?|咱家的?|我们的?|我的?|)", text)
    if m is None or _ZH_OWN.match(text):
        return None
    rest = text[m.end():]
    for relation, kind in r.relations.items():
        if not rest.startswith(relation):
            continue
        if re.match(_ZH_PET_PLACE_WORDS, rest[len(relation):]):
            continue  # "宠物医院说要提前禁食": a place of pets, not the user's pet
        if not m.group(0) and relation not in r.close and kind not in (PET, PERSON):
            continue  # "女儿每天都午睡", "室友在准备考公": the user's daughter, the user's roommate
        if kind in (THING, EVENT) and not text[m.end() + len(relation):][:1] in ("的", "是", "在", "叫", "预", "下", "明", "已", "现", "定", "将", "开", "要"):
            continue
        end = m.end() + len(relation)
        after = text[end:]
        name = ""
        if kind in (PERSON, PET) and not _ZH_NAME_END.match(after):
            for n in (3, 2, 1):
                candidate = after[:n]
                if n == 1 and re.fullmatch(r"[\u3400-\u9fff]", candidate):
                    continue  # "我老婆晒去年……": one character after a relation is a verb, not a name
                if n == 3 and re.match(r"[小老阿]", candidate):
                    continue  # "徒弟小凯拍拖了": 小凯, a name of two (the third is the verb's)
                if len(candidate) == n and re.fullmatch(r"[\u3400-\u9fffA-Za-z]+", candidate) \
                        and not re.search(r"^[第一二三四五六七八九十两几每这那今昨]|[我你您他她它咱]", candidate) \
                        and not re.fullmatch(r"周[一二三四五六日天末]", candidate) \
                        and not _ZH_NOT_NAME.search(candidate) \
                        and _ZH_NAME_END.match(after[n:]) \
                        and not any(_ZH_NAME_END.match(candidate[k:]) for k in range(1, n)):  # not "老周没" before "有"
                    name = candidate
                    break
        return Found(Subject(kind, relation, name, plural=relation in r.plural), end + len(name))
    return None


def detect_zh(text: str, r: LangRules, scene: Scene, previous: Subject | None, first_clause: bool = False) -> Found:
    joint = re.match(r"(?:我和|我跟)(?:我的?)?([\u3400-\u9fff]{1,4}?)(?=一起|去|在|都|也|每|上|周|昨|前|刚)", text) \
        or re.match(r"(?:我的?)([\u3400-\u9fff]{1,4}?)(?:和|跟)我", text)
    if joint and joint.group(1) in r.relations:
        return Found(Subject(USER, joint=joint.group(1), plural=True), joint.end())
    owned = _zh_possessive(text, r)
    if owned is not None and owned.subject.kind == PERSON and re.match(r"的?(?:朋友|同事|同学|邻居|领导|老板|室友|闺蜜|哥们)", text[owned.end:]) \
            and not re.search(r"我(?!们)", text[owned.end:]):  # ("我妈的朋友介绍我去了一家外企": the user's job)
        return Found(SOMEONE_ELSE)  # "我姐的朋友好像买了辆新车": someone the user knows of, not in their life
    if owned is None:
        # "今天孩子第一天上幼儿园": the relative after a time word is still the subject.
        when = re.match(r"(?:今天|昨天|明天|现在|最近|今年|去年|明年|上周|下周|这周|周末|刚才|平时|到时候|那时候|之后|以后|后来)(?=[\u3400-\u9fff])", text)
        if when:
            owned = _zh_possessive(text[when.end():], r)
            if owned and (owned.subject.kind not in (PERSON, PET) or owned.subject.relation not in r.close):
                owned = None
            elif owned:
                owned = Found(owned.subject, owned.end + when.end())
    if owned:
        return owned
    if re.match(r"(?:全家|一家人|一家子|全家人)", text):
        return Found(THE_USER, inherited=True)  # "奶奶过八十大寿，全家要回老家": the user's family, not the one just named
    if re.match(r"(?:他|她)(?:妈|爸|家|老公|老婆|哥|姐|弟|妹|爷爷|奶奶|儿子|女儿)", text):
        return Found(SOMEONE_ELSE)  # "她妈天天给她炖汤": her mother, whom the user did not name
    bare = re.match(r"(车|房子|手机|电脑|笔记本)(?=是|开的是|用的是)", text)
    if bare and first_clause:
        return Found(Subject(THING, bare.group(1)), bare.end())  # "车是19款卡罗拉双擎": the user's car, said bare
    if re.match(r"(?:他|她)(?!们)", text):
        person = _recent_person(previous, scene, plural=False, gender="f" if text.startswith("她") else "m")
        return Found(person, inherited=True) if person else Found(SOMEONE_ELSE)
    if re.match(r"它(?!们)", text):
        for candidate in (previous, scene.asked, scene.last_person):
            if candidate is not None and candidate.kind in (PET, THING, EVENT):
                return Found(candidate, inherited=True)
        return Found(SOMEONE_ELSE)
    for name, subject in scene.by_name.items():
        if text.startswith(name):
            return Found(subject, inherited=True)
    if re.match(r"(?:阿|老|小)[\u4e00-\u9fff](?:不|没|是|在|有|很|也|都|最|喜欢|要|会|说|今年|现在|一直|平时|对|怕|每|刚|已经|得)", text) \
            and not re.match(r"(?:老是|老有|老在|老要|老会|小时|老师|小区|小心|小说)", text):
        return Found(SOMEONE_ELSE)  # "阿伟不吃香菜", "老周没有高血压": someone named, not the user
    if re.match(r"(?:阿|小)[\u4e00-\u9fff](?:下(?:个|周|礼拜|星期)|这(?:周|个月)|明天|明年|后天|上(?:个|周)|最近|昨天|前天)", text) \
            and not re.match(r"(?:小时|小区|小学|小孩|小狗|小猫|小组|小店)", text):
        return Found(SOMEONE_ELSE)  # "小雨下个月要请两周假": the employee named, not the user
    twin = re.match(rf"([\u4e00-\u9fff])\1(?={_ZH_PREDICATE})", text)
    if twin and not _ZH_NOT_TWIN_NAME.match(text) and not re.search(r"我(?!们)", text):
        # "朵朵对鸡蛋过敏": a child or pet by a doubled name the conversation never placed.
        subject = Subject(PERSON, "", twin.group(0))
        return Found(subject, len(twin.group(0)))
    asked = scene.asked
    if previous is None and asked is not None and asked.kind in (PERSON, PET) and not asked.name:
        # "巴爷非常听话" answering a question about the user's dog: the dog, by its name.
        named = re.match(r"([\u3400-\u9fff]{2,3}?)(?=是个|是一|非常|特别|很|也|今年|已经|每天|最)", text)
        if named and not re.search(r"[我你他她它这那]", named.group(1)) and named.group(1) not in r.relations:
            subject = Subject(asked.kind, asked.relation, named.group(1), plural=asked.plural)
            scene.note(subject)
            return Found(subject, len(named.group(1)))
    for word, subject in scene.things.items():
        if re.match(rf"(?:这个|那个|这次|那次)?{re.escape(word)}(?:的|在|是|定在|将|会|要|预计|已经|下周|明天)", text):
            return Found(subject, inherited=True)
    if re.match(r"(?:我们|咱们|我司)", text):
        return Found(WE)
    if _ZH_STRANGER_BY_ME.match(text):
        return Found(SOMEONE_ELSE)
    if re.search(r"我(?!们)", _ZH_OBJECT_ONLY.sub("", _ZH_DONE_TO_ME.sub("", text))) or text.startswith("本人"):
        return Found(THE_USER)
    if _ZH_NOT_SUBJECT.match(text) or _ZH_OTHERS.match(text) or _ZH_ANECDOTE.match(text) or _ZH_WEATHER.search(text):
        return Found(SOMEONE_ELSE)
    if _ZH_DONE_TO_ME.search(text):
        if previous is not None and previous.kind in (PERSON, PET):
            return Found(previous, inherited=True)
        return Found(SOMEONE_ELSE)
    if previous is not None:
        return Found(previous, inherited=True)
    if first_clause and scene.asked is not None:
        return Found(scene.asked, inherited=True)
    return Found(THE_USER, inherited=True)


def detect(text: str, lang: str, r: LangRules, scene: Scene, previous: Subject | None,
           first_clause: bool = False) -> Found:
    if lang == "zh":
        return detect_zh(text, r, scene, previous, first_clause)
    return detect_en(text, r, scene, previous)
