"""Deciding what one clause is: a durable fact (which type, about whom, how important,
how sure), a forget request, a bare "not anymore", a cancellation, or something to drop
(and why).

Order matters and is deliberate: forget requests first (they look like requests), then
what never states a lasting fact (chit-chat, questions, hypotheticals, sarcasm, quotes,
remarks to the other speaker, requests, passing states), then whom the clause is about
(subjects.py), then the type. A clause about someone in the user's life is typed as if
the user had said it of themselves ("My son has soccer on Saturdays" is typed as "I have
soccer on Saturdays"): one set of type rules serves every subject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache

from .lexicon import lemmas, plural_noun
from .normalize import EMOJI_CHARS, INTRODUCING, KIN_AND_PETS, NOTE_LABELS, article, contracted_is, past_tense, pronouns, verbless, we_named_en
from .rules import LangRules, Rules
from .segment import ZH_TIME_WORDS
from .subjects import DIET_ALONE as _DIET_ALONE, EVENT, NONE, PERSON, PET, THE_USER, THING, USER, Found, Scene, Subject, detect, en_state_article, gender_of
from ..temporal import TimeRef, find_times

# Words that show a durable rule is addressed to the assistant ("from now on, answer in
# Chinese", "以后给我的代码示例都用Python写"): such a statement is a standing preference.
_TO_ASSISTANT = re.compile(
    r"(?<![a-z])(?:you|your|answers?|repl(?:y|ies)|responses?|explanations?|examples?|code|summar(?:y|ies)|suggestions?)(?![a-z])|"
    r"回答|回复|跟我说|给我|你|示例|代码|解释|推荐|建议|注释|输出",
    re.I,
)
# Types tried in this order; the first whose patterns match wins.
_TYPE_ORDER = ("profile", "goal", "task", "event", "behavior", "preference", "knowledge")
# Drops that a subject-less continuation shares with the clause before it:
# "给我写个周报模板，简单点就行" is all one request.
_CARRIED_DROPS = {
    "request for the current task", "question", "hypothetical", "sarcasm", "quoted speech",
    "about someone else", "reported speech", "passing state", "said to the other speaker", "correction remark",
}
# A time said before the subject ("Last weekend my girlfriend and I went fishing"): moved
# out of the way of finding the subject, and put back after it.
_EN_LEAD_TIME = re.compile(
    r"^(?:(?:last|this|next|every|on|in|since|over the|early|late|back in)\s+(?!time\b)[\w-]+(?:\s+(?:morning|night|evening|afternoon|weekend))?"
    r"|(?:from|starting) (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"|yesterday|today|tonight|recently|lately|earlier today|the other day|these days|nowadays|a while ago|"
    r"(?:a few|a couple of|two|three|\d+)\s+\w+\s+ago|at the moment|right now)\s*,?\s+(?=(?:my|our|me|i|i'm|i've|we|we're)\b)",
    re.I,
)
# A clause that is only a span of time ("早八点到晚六点", "五月一号开始到九月十六"): what
# runs then is the clause before it.
_ZH_TIME_SPAN = re.compile(r"^(?=.*(?:到|至|~|～|-|—|开始))[\d一二三四五六七八九十零两百年月日号点分半刻早晚上下午中周星期礼拜天每"
                           r"开始到至从~～\-—，、:：底初旬的]+$")
# "my wife is Priya", "our dog is biscuit, 4yo beagle": a name after "is", alone or before an aside.
_NAMED_IS = re.compile(r"^(?i:my|our) (?:[\w-]+ ){0,2}?[\w-]+(?:'s(?= [A-Za-z][a-z]+\W*$)| is) ([A-Za-z][a-z]+)"
                       r"(?=\W*$|,(?! (?:which|that|who)\b)| and\b(?! (?:i|me)\b)| \(| who\b)")
# Nouns said of a pet or person with no article that are no name ("my dog is family", "my
# wife's Mom"): relations among them.
_NO_NAME = frozenset("family everything home love life trouble bae goals king queen boss mother father parents friend".split()) \
    | frozenset(KIN_AND_PETS)
# Where one is from or one's faith ("my wife is Japanese"): no name, but who they are. The
# lexicon knows few of these words.
_ORIGINS = frozenset("""irish scottish welsh english british french german dutch swiss swedish danish finnish norwegian polish czech
greek italian spanish portuguese russian ukrainian turkish jewish muslim hindu sikh buddhist christian mormon
american canadian mexican brazilian argentinian chilean colombian peruvian cuban australian kiwi indian
pakistani bangladeshi nepali chinese japanese korean vietnamese thai filipino filipina indonesian malaysian
singaporean taiwanese iranian persian arab egyptian moroccan nigerian kenyan ghanaian ethiopian african
european asian latina latino hispanic""".split())


def _named_is(text: str, pet: bool) -> bool:
    """Whether the clause gives the person's or pet's name after "is" (a capitalised word
    that is no adjective, or for a pet also a lowercase noun, as pets are named in chat:
    "biscuit"), or where they are from ("Japanese")."""
    m = _NAMED_IS.match(text)
    if not m:
        return False
    word = m.group(1)
    kinds = frozenset(lemmas(word))
    if word.lower() in _ORIGINS:
        return not pet
    if word.lower() in _NO_NAME:
        return False
    if word[0].isupper():
        return "NOUN" in kinds or not kinds & {"ADJ", "ADV", "AUX", "PRON", "DET", "ADP", "NUM", "VERB"}  # ("Pepper")
    return pet and bool(kinds) and kinds <= {"NOUN", "PROPN"}


# A thing that fails ("接口一直报错", "我们收银后台老是卡"): the problem of the task at hand.
_ZH_BROKEN = re.compile(r"^(?:我们|咱们|我的|我家|我们的|我们家)?[^，。我]{0,6}?(?:接口|代码|程序|服务器|服务|系统|页面|后台|数据库|网站|小程序|[Aa][Pp][Pp]|软件|电脑|手机|网络|网速|"
                        r"插件|脚本|函数|模块|打印机|路由器|网页)(?:也|又|还|就|总|一直|老是|总是|经常|突然|动不动就?)?"
                        r"(?:报错|卡|崩|挂|打不开|连不上|出错|没反应|闪退|很慢|特别慢|慢|死机|黑屏|白屏|超时)")
# "上个月我被裁了", "周六下午三点我要去面试": a time before the subject, moved after it.
_ZH_LEAD_TIME = re.compile(rf"^(?:{ZH_TIME_WORDS}(?:[一二三四五六七八九十两\d]{{1,2}}点(?:半|钟)?)?[，,]?(?=我|咱)"
                           rf"|(?:{ZH_TIME_WORDS}|白天|晚上|平时|每天|早上|中午|下午)[，,]?(?=[他她它](?!们)))")


_ASKED_RULE = re.compile(r"^(?:can|could|would|will) (?:you|u) (?:please |pls |always |just |maybe )*(?:give|keep|write|send|use|answer|reply|make|format|do)\b")
_ZH_CHILD = re.compile(r"孩子|儿子|女儿|宝宝|娃|闺女|小孩|大宝|二宝|老大|老二")
_ZH_HOUSEHOLD_MONEY = re.compile(r"存钱|每月存|每个月存|房贷|车贷|贷款|月供|工资|理财|买房|买车|保险|还款|教育金")
_ZH_SPOUSE = re.compile(r"老婆|老公|妻子|丈夫|爱人|媳妇")
# What a couple owes together: "（老婆一万五，）每月房贷6800" is the household's, said by the user.
_ZH_SHARED_DEBT = re.compile(r"房贷|车贷|月供|房租")
# "（猫……）下周六带它去打疫苗": the pet or person is the object; the user does it.
# Today's errand: "我下午要去接闺女放学".
_ZH_TODAY = re.compile(r"^我?(?:今天|今晚|下午|晚上|一会儿?|待会儿?|等会儿?|马上|现在)")
_ZH_CARED_FOR = re.compile(r"(?:带|给|帮|陪|喂|让|送|抱|把|领|接|找|看望)(它|他|她)(?!们)")


@dataclass
class Analysis:
    clause: str
    lang: str
    keep: bool = False
    reason: str = ""
    type: str | None = None
    # Whom it is about, in the words the rules use: self, group, dependent (a close
    # relative or pet), other (another person), none.
    subject: str = "none"
    found: Found = field(default_factory=lambda: Found(THE_USER))
    text: str = ""
    importance: float = 0.0
    confidence: float = 0.0
    source_type: str = "user_stated"
    slot: str | None = None
    negative: bool = False
    correction: bool = False
    forget: bool = False
    forget_recent: bool = False
    bare_negation: bool = False
    inferred: str | None = None  # the content an inference or answer rule words
    # An event of the user's dated ahead: when something the user has runs out ("my lease ends
    # in June"), a family's date ("we're expecting our first baby in August").
    dated_ahead: bool = False
    rest: str = ""  # what follows a bare-phrase fact in its clause ("backend eng at a fintech, our team runs go")
    # The subject was not said but carried over ("对花生过敏" after "我不吃海鲜").
    inherited: bool = False
    # A request that sets a standing rule ("from now on, keep answers short").
    standing: bool = False
    # "The Japan trip is cancelled", "杭州出差取消了": closes the plan it names.
    cancels: bool = False
    # "I finally ran my first marathon": the event closes the goal it fulfils.
    achieves: bool = False
    # "I rescheduled it to November": a new date for the latest plan, whatever it is.
    reschedules: bool = False
    # "correction: it's aug 21": the new date's words, for the plan said last.
    redates: str = ""
    redates_what: str = ""  # what the plan is called, when the new date names it ("the test", "家长会")
    redates_was: int = 0  # the day it was said to be on, when the new date says so ("是20号不是18号": 18)
    times: list[TimeRef] = field(default_factory=list)
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    # What the clause implies about the user, kept only if the clause itself is not ("I took my
    # three dogs to the beach yesterday" -> "User has three dogs"; "I walk my dog every
    # morning" stays itself): the content and type an inference rule words.
    implies: tuple[str, str] | None = None
    # Whether that is kept beside the clause when the clause is kept too (not "User has a wife"
    # beside "User is planning a trip with their wife Priya").
    implies_beside: bool = True

    @property
    def about(self) -> Subject:
        return self.found.subject

    def infer(self, content: str, type_: str) -> "Analysis":
        """Keep what the clause implies about the user in its place, at low confidence."""
        self.inferred, self.type = content, type_
        self.subject, self.source_type, self.keep, self.reason = "self", "inferred", True, "inferred"
        self.importance, self.confidence = 0.35, 0.5
        self.slot, self.standing, self.dated_ahead = None, False, False
        self.cancels = self.achieves = self.reschedules = False
        return self

    def drop(self, reason: str) -> "Analysis":
        if self.implies is not None and reason != "task (keep_tasks is off)":
            return self.infer(*self.implies)
        self.keep = False
        self.reason = reason
        return self


@dataclass
class Context:
    """What the analysis of one clause may know beyond the clause itself."""

    reference: datetime | None
    scene: Scene = field(default_factory=Scene)
    prev_subject: Subject | None = None
    # The first clause of a turn may answer the assistant's question.
    first_clause: bool = True
    # Whether the clause opens its sentence ("like meditating" after a dash is a simile).
    sentence_first: bool = True
    # What the previous clause of the turn was about, when it opened with it ("Pottery is ..."):
    # a clause opening with "it" is about that.
    prev_topic: str = ""
    # The kind of thing the previous clause of the turn said the user has or has not ("I don't
    # have a dog"): "one" after it is one of those ("but I really want one").
    prev_kind: str = ""
    # What a clause before in the turn said the user cannot have ("I hate cilantro"): "it" in
    # a rule after it is that ("never put it in any recipe").
    prev_avoided: str = ""
    # Within one sentence: why the previous clause was dropped, and its times.
    prev_drop: str | None = None
    prev_times: list[TimeRef] = field(default_factory=list)
    # Across the sentences of one turn: why the previous clause was dropped.
    prev_clause_drop: str | None = None
    # The whole turn the clause is from.
    turn: str = ""
    task_ttl_days: int = 14
    keep_tasks: bool = True
    infer: bool = True


_PASTED = re.compile(r"\s*[\[［【](?:pastes?|pasted|pasting|attach\w*|screenshot|image|photo|file|粘贴|贴了|附件|截图)\b[^\]］】]*[\]］】].*$", re.I)


# Asked to be reminded of something to do: the user has it to do.
_REMIND_TO = re.compile(r"^(?:(?:pls|please|can (?:you|u)|could (?:you|u))\s+)?remind me to (?=[a-z])"
                        r"(?![^.!?]*\b(?:the|a) (?:day|week|night|month|morning|evening) (?:before|after)\b)", re.I)  # (not "... the week before": before what)


_AVOIDED = re.compile(r"\b(?:hate|hates|can't stand|cant stand|dislike|detest|don't like|dont like|do not like|don't eat|dont eat|can't eat|"
                      r"cant eat|do not eat|allergic to|intolerant to)\s+([a-z][\w-]*(?: [a-z][\w-]*){0,2}?(?: (?:and|or|&) [a-z][\w-]*(?: [a-z][\w-]*)?)?)(?=\s+(?:with|so|and|but|because|too)\b|\s*[,.;!?]|\W*$)", re.I)


def avoided(text: str) -> str:
    """What a clause says the user cannot have or stand ("I hate cilantro" -> "cilantro")."""
    m = _AVOIDED.search(text)
    return m.group(1) if m and m.group(1).lower() not in ("it", "them", "that", "this", "those", "these") else ""


def _strip(r: LangRules, text: str) -> str:
    t = text.strip()
    for _ in range(3):
        new = r.p["discourse"].sub("", t).strip(" ,，、~～!！.：:") if "discourse" in r.p else t
        if new == t:
            break
        t = new
    if "preamble" in r.p:
        t = r.p["preamble"].sub("", t)
    # "... GPS tags. [pastes abstract] Background ...": what follows a pasted blob's marker is the blob.
    t = _PASTED.sub("", t)
    if "aside" in r.p:
        t = r.p["aside"].sub("", t)
    if r.lang == "en" and "remind me to" in t.lower():
        t = _REMIND_TO.sub("I have to ", t)  # "remind me to call my mom on sunday": what the user has to do
    if "trailing" in r.p:
        for _ in range(2):  # (a second pass only when the first cut something: it would find what the first did)
            new = r.p["trailing"].sub("", t).strip()
            if new == t:
                break
            t = new
    return t


def _unquoted(text: str, quotes: str) -> str:
    if not quotes:
        return text
    q = re.escape(quotes)
    return re.sub(rf"[{q}][^{q}]*[{q}]", " ", text)


def _who(s: Subject, r: LangRules) -> str:
    """The legacy subject word of a Subject: what the type rules were written against."""
    if s.kind == USER:
        return "group" if s.group else "self"
    if s.kind in (PERSON, PET):
        return "dependent" if s.kind == PET or s.relation.lower() in r.close else "other"
    return "none" if s.kind == NONE else "self"


_TRAILING_EMOJI = re.compile(f"[{EMOJI_CHARS}\\s]+$")


def _is_question(r: LangRules, text: str, lang: str) -> bool:
    bare = _TRAILING_EMOJI.sub("", text)
    if bare != text and re.search(r"[吗么?？]$", bare):
        return True  # "高铁能带吗😂" (but "还差一半呢😭" is no question)
    if re.search(r"[?？][\"”」』)）]*\s*$", text):
        return True
    if lang == "en":
        return r.has("question_start", text.lower())
    return r.has("question_end", text) or r.has("question", text)


def slot_of(r: LangRules, text: str) -> str | None:
    """The one-at-a-time attribute a first-person statement sets: city, employer, diet,
    the team's message queue ..."""
    low = text.lower()
    for name, pattern in r.slots.items():
        if pattern.search(low):
            return name
    found = {category for category, pattern in r.stack.items() if pattern.search(low)}
    if len(found) == 1:
        return "stack:" + found.pop()
    return None


def _importance(r: LangRules, type_: str, text: str, subject: str) -> float:
    value = r.importance_base.get(type_, 0.4)
    for pattern, delta, _why in r.boosts:
        if pattern.search(text):
            value += delta
    if subject == "dependent":
        value += 0.05
    return round(min(1.0, max(0.05, value)), 3)


# -- first person, for typing -------------------------------------------------------------

_BASE = {"is": "am", "'s": "am", "has": "have", "does": "do", "doesn't": "don't", "isn't": "am not",
         "hasn't": "haven't", "was": "was", "wasn't": "wasn't"}


@lru_cache(maxsize=4096)
def _base_verb(word: str) -> str:
    from lemminflect import getAllLemmas

    low = word.lower()
    if low in _BASE:
        return _BASE[low]
    if low.endswith("s") and not low.endswith("ss"):
        lemma = getAllLemmas(low).get("VERB")
        if lemma and lemma[0] != low:
            return lemma[0]
    return word


def _unagree(rest: str) -> str:
    words = rest.split(" ")
    for i, w in enumerate(words):
        if not w:
            continue
        if w.lower() in ("also", "still", "just", "really", "always", "usually", "never", "often", "sometimes",
                         "totally", "absolutely", "even", "only", "mostly", "now", "already", "finally"):
            continue
        words[i] = _base_verb(w)
        break
    return " ".join(words)


# Chat leaves the "I" out: "broke my wrist skiing in february", "gonna do my tax return this
# weekend", "need to renew my passport": the clause starts with the user's verb. (A gerund
# may be the subject: "Working on cars helps me relax".)
_SUBJECTLESS = re.compile(
    r"^(?:(?:still|also|just|finally|recently|really|currently) )?(?:gonna|gotta|wanna|going to|need to|have to|got to|want to|"
    # "planning japan trip w my wife": a plan in the making, not a gerund subject.
    r"(?:planning|organi[sz]ing|preparing for|prepping for|training for|studying for|saving up for|flying|heading|visiting|moving|relocating) (?!(?:[\w']+ ){0,3}(?:is|are|was|helps?|makes?)\b)|"
    r"(?:been|haven't|havent|hadn't|didn't|didnt|wasn't)\b|"
    r"(?:broke|went|had|took|got|started|finished|moved|bought|made|lost|won|saw|tried|spent|switched|quit|adopted|ran|joined|"
    r"visited|booked|signed|passed|failed|hurt|injured|sprained|tore|fractured|sold|left|retired|graduated|dropped)\b)", re.I)


# What the user is to do about a term running out ("visa expires in march, must apply by january").
_TO_DO_AFTER = re.compile(r"\b(?:need|needs|must|have to|has to|gotta|got to|going to|gonna|will|moving|flying|plan|planning|apply|renew)\b"
                          r"|要|得|打算|准备|需要|计划|想")
# A list of what the clause before said: "计划去云南 主要是大理和洱海".
_ZH_MORE_OF = re.compile(r"(?:主要|尤其|特别)是(?![在吃做去想要学准])|比如|例如|包括|像是")
# What only a person does: the clause after talk of a pet is the user's.
_HUMAN_AFFAIRS = re.compile(r"租房|房租|搬到|上班|下班|公司|工作|工资|加班|通勤|面试|跳槽|考试|准考证|报名|论文|作业|出差|机票|\b(?:rent|renting|lease|commute|office|salary|job|work)\b", re.I)
_ARRANGED_FOR = re.compile(r"\b(?:signed up|registered|enrolled|entered|booked|reserved|got tickets|bought tickets|got a place|got a spot)"
                           r"(?: [\w'-]+){0,6} (?:on|for) (?:the )?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                           r"|\bexpecting (?:a|our|my|her|their) (?:[\w-]+ )?(?:baby|child|kid|son|daughter|boy|girl|twins)\b")
# What the user has joined: done, whatever comes of it this week.
_JOINED = re.compile(r"(?:i|we) (?:just |finally |recently |also )?(?:joined|signed up|enrolled|registered)\b")
_USERS_OWN_VERB = re.compile(r"(?:just |also |finally |already )?(?:saved|paid|spent|bought|booked|sold|moved|started|finished|"
                             r"got|had|went|made|took|need|want|have|gotta|gonna)\b", re.I)


def first_person(text: str, found: Found, lang: str) -> str:
    """The clause as if the user said it of themselves: the type rules are written that way."""
    s = found.subject
    if s.kind == USER:
        if s.joint:
            rest = text[found.end:]
            return ("我" if lang == "zh" else "I ") + rest.lstrip()
        if found.inherited or (lang == "en" and not s.group and _SUBJECTLESS.match(text)):
            if lang == "zh":
                return ("我们" if s.group else "我") + text
            low = text[:1].lower() + text[1:]
            if re.match(r"^been\b", low):
                return ("we've " if s.group else "I've ") + low  # "Been rehearsing hard"
            if _DIET_ALONE.match(low):
                return ("we're " if s.group else "I'm ") + low  # "vegetarian, have been for like 8 years"
            article = en_state_article(low)
            if article is not None:
                return ("we're " if s.group else "I'm " + article) + low  # "huge fan of 70s soul", "fluent in korean"
            if re.match(r"^(?:(?:still|also|just|really|currently) )?(?:[a-z]+ing|gonna|going to)\b", low):
                return ("we're " if s.group else "I'm ") + low  # "Still working on opening a studio"
            return ("we " if s.group else "I ") + low
        return text
    if found.end and s.kind in (THING, EVENT):
        return text  # "my surgery is in August": the user's own plan, said as the rules expect
    if found.end:
        rest = text[found.end:]
    elif lang == "zh":
        rest = re.sub(r"^(?:他|她|它)(?!们)", "", text)
        for word in (s.name, s.relation):
            if word and rest.startswith(word):
                rest = rest[len(word):]
                break
    else:
        rest = re.sub(r"^(?:he|she|they|it)(?:'s|'re)?\b", lambda m: " is" if m.group(0).endswith("'s") else "", text, flags=re.I)
        for word in (s.name, "the " + s.relation, "that " + s.relation, "this " + s.relation):
            if word and rest.lower().startswith(word.lower()):
                rest = rest[len(word):]
                break
    if lang == "zh":
        return "我" + rest.lstrip("，, ")
    owned = re.match(r"'s (?=(?:name|birthday|bday|car|house|job|work|school|wife|husband|partner|dog|cat|doctor|surgery|wedding)\b)", rest)
    if owned:
        return "my " + rest[owned.end():]  # "my dad's name is Tom": as the user would say their own
    rest = contracted_is(rest.lstrip(" ,"))
    return "I " + _unagree(rest.strip())


_NOTE_LABEL = re.compile(rf"^({'|'.join(w.capitalize() for w in (*NOTE_LABELS, 'languages', 'language'))})(?=\s*[:=]\s)")
# ("Partner has approved the budget" is a firm's partner as often as the user's.)
_BARE_RELATION = re.compile(
    rf"^(?i:note:\s*|fyi,?\s+|btw,?\s+)?((?i:(?:mother|father|sister|brother)[- ]in[- ]law|{'|'.join(w for w in KIN_AND_PETS if w != 'partner')})(?:'s)?)"
    r"(?=(?<='s)\s(?![A-Z])|\s+(?i:is|was|has|had|just|calls|called|starts|started|got|gets|works|lives|loves|hates|turned|turns|"
    r"passed|died|moved|moves|wants|needs|can't|won't|will|always|never|still|staying|visiting|coming|arriving|flying)\b)"
    # (not "Dog is my favorite animal", "Dog is always better", "Cat's Cradle", "Dad's Army")
    r"(?!\s+(?i:is) (?i:my|the|a|an|always|better|so|such)\b)")


def _lead_time(text: str, lang: str) -> tuple[str, str]:
    m = (_ZH_LEAD_TIME if lang == "zh" else _EN_LEAD_TIME).match(text)
    if not m:
        return "", text
    return m.group(0), text[m.end():]


def _put_back(body: str, lead: str, found: Found, lang: str) -> str:
    """The clause with its leading time after the subject: "my girlfriend and I went fishing last weekend"."""
    if lang == "zh":
        lead = lead.rstrip("，,")
        if found.end:
            return body[:found.end] + lead + body[found.end:]
        if body.startswith("我的"):
            # "前天我的麻辣烫店刚开业": the time goes after what is the user's, not after 我.
            m = re.match(r"我的[^，。的]{1,8}?(?=刚|已经|正式|终于|才|就|又|也|都|还|要|会|在|是|被|开业|开张|已|搬|换)", body)
            return body[:m.end()] + lead + body[m.end():] if m else lead + body
        if body.startswith("我") and not body.startswith("我们"):
            return "我" + lead + body[1:]
        if re.match(r"[他她它](?!们)", body):
            return body[:1] + lead + body[1:]  # "白天她都是一个人在家" -> "她白天都是一个人在家"
        return lead + body
    aside = re.search(r"(?:, |(?<=\w)- )(?:they|he|she|it|we|and|but|which|who)\b| (?=(?:which|who) )", body)
    if aside and re.match(r"\W*(?:which|who)\b", body[aside.start():]):
        return lead + body  # "Last month I got hurt and had to stop pottery, which I use ...": "which" is the pottery
    if aside:
        # "I met three new friends in my course last Tuesday, they share ...": the time stays with its fact.
        return f"{body[:aside.start()]} {lead.strip(' ,').lower()}{body[aside.start():].rstrip('.!')}"
    return f"{body.rstrip('.!')} {lead.strip(' ,').lower()}"


# -- answers to the assistant's question ------------------------------------------------------


def _answer(r: LangRules, text: str, scene: Scene, a: Analysis) -> bool:
    """A short answer with no subject, worded with the question it answers: "Just peanuts."
    after "Any food allergies?" -> "User is allergic to peanuts"."""
    asked = scene.asked_text
    if not asked or len(text) > 40:
        return False
    body = r.p["answer_filler"].sub("", text.strip(" .!。！")).strip(" ,，") if "answer_filler" in r.p else text
    if not body or (a.lang == "en" and (len(body.split()) > 4 or re.search(r"\b(?:i|i'm|my|me|you|no|not|none|nope|yes|yeah|it|its|it's|that|this|really|so|very|pretty|quite|"
                                                                       r"bad|good|great|fine|ok|okay|wow|aww+|thanks?|haha|lol)\b", body.lower()))):
        return False
    if a.lang == "zh" and (len(body) > 10 or re.search(r"[我你他她它不没会要在有了着过]|的时候", body)):
        return False
    if _named_answer(r, body, scene, a):
        return True
    last = _last_question(asked)
    if _ASKED_ABOUT_ANOTHER.search(last) or scene.asked is not None and scene.asked.kind in (PERSON, PET) \
            and scene.asked.relation and scene.asked.relation.lower() in last.lower():
        # "Does she have any allergies?" -> "penicillin": hers, not the user's; "猫几岁、平时吃什么？"
        # -> "橘猫": the cat's breed, not the user's food.
        return False
    for question, template, type_, slot in r.answers:
        m = question.search(asked)
        if m:
            verb = re.search(r"(打|玩|踢|弹|学|练|养|喝|吃|看|听)什么", m.group(0))
            a.inferred = template.format(answer=body, verb=verb.group(1) if verb else "")
            a.type, a.slot = type_, slot or None
            a.keep, a.reason = True, "answer"
            a.importance, a.confidence = r.importance_base.get(type_, 0.5), 0.8
            for pattern, delta, _why in r.boosts:
                if pattern.search(a.inferred.lower()):
                    a.importance = round(min(1.0, a.importance + delta), 3)
            return True
    return False


def _fragment(r: LangRules, text: str, a: Analysis, ctx: "Context") -> bool:
    """A fact said as a bare phrase, worded whole by its rule's template: "34m, corporate
    lawyer in dublin" -> "User is a corporate lawyer in dublin". Only while the user has named
    no one else (then "software engineer at amazon" is the sister's), never in a question, a
    choice or a job advert, and only a phrase with no verb ("doctor at the clinic told me ..."
    is about the doctor)."""
    if ctx.scene.last_person is not None:
        return False
    for pattern, template, type_, slot in r.fragments:
        m = pattern.search(text)
        if m is None:
            continue
        if _BARE_NOT_MINE.search(text) or _OFFERED.search(ctx.turn) or "question" in (ctx.prev_drop, ctx.prev_clause_drop) \
                or _ASKED_ABOUT_ANOTHER.search(ctx.scene.asked_text) \
                or _is_question(r, text, a.lang) or r.has("hypothetical", text.lower()):
            return False
        groups = {k: (v or "").strip() for k, v in m.groupdict().items()}
        job, where = groups.get("job", ""), groups.get("where", "")
        if job and (_NOT_THE_JOB.search(job) or sum(w[:1].isupper() for w in job.split()) >= 2
                    or len(where.split()) > 7 or not verbless(where) or _NOT_A_PLACE.search(where)):
            return False  # ("Senior Engineer at Google (2019-2022)" is a line of a CV, "designated driver" no job)
        said = {k: pronouns(v, a.lang) for k, v in groups.items()}
        for k, v in said.items():
            if re.fullmatch(r"[A-Z][a-z]+(?: .*)?", v) and not text[:m.start(k)].strip(" .,!:;-"):
                said[k] = v[0].lower() + v[1:]  # ("Accountant at a small firm": capital only as the message's first word)
        # "{a} {job}": the article the word after it takes.
        after = re.search(r"\{a\} \{(\w+)\}", template)
        said["a"] = article(said.get(after.group(1), "x").split(" ", 1)[0]) if after else "a"
        a.inferred = template.format(**said)
        a.type, a.slot = type_, slot or None
        a.keep, a.reason = True, "stated"
        a.importance, a.confidence = r.importance_base.get(type_, 0.5), 0.8
        if text[m.end():m.end() + 1] == ",":
            a.rest = text[m.end() + 1:].strip()
        return True
    return False


# A bare job phrase that is no job of the user's: a choice or a wish in its clause ...
_BARE_NOT_MINE = re.compile(r"\b(?:or|maybe|should i|dream|hired|like to be|want to be|wanna be)\b|\d{4}|\?", re.I)
# ... or a turn that weighs a job up, asks about one or pastes an advert ("senior engineer at
# stripe, should i take the offer").
_OFFERED = re.compile(r"\b(?:dream job|offer|offered|apply(?:ing)?|applied|hiring|job (?:ad|post|posting|description)|interview(?:ing|ed)?"
                      r"|switch(?:ing)? careers?|should i (?:take|accept|go for|apply|join)|vs\.?|versus|cv|resume|résumé)\b", re.I)
# Words before the job that say it is not the one the user has now.
_NOT_THE_JOB = re.compile(r"\b(?:designated|volunteer|amateur|aspiring|wannabe|future|former|ex|dream|new|hobby|retired|part-time|weekend|permanent)\b", re.I)
# Where-phrases that place the speaker this minute or tell of a hobby: "in a meeting", "at the door", "for fun".
_NOT_A_PLACE = re.compile(r"\b(?:progress|training|the house|a meeting|the door|fault|waiting|charge|rn|brb|lol|tonight|today|right now"
                          r"|for fun|on the side|spare time|weekends?|evenings|saturdays?|sundays?|the kids)\b", re.I)


# A question about someone else: "Does she have any allergies?", "他对什么过敏？".
_ASKED_ABOUT_ANOTHER = re.compile(r"\b(?:she|he|her|his|they|their|them)\b|[她他](?!们)", re.I)


def _last_question(asked: str) -> str:
    """The last question of the assistant's message (where the answer's subject is)."""
    questions = re.findall(r"[^.!?。！？]*[?？]", asked)
    return questions[-1] if questions else asked


def _named_answer(r: LangRules, body: str, scene: Scene, a: Analysis) -> bool:
    """"橘子" after "猫叫什么名字？", "Biscuit" after "What's your dog's name?": the name of
    the person or pet asked about, not the user's."""
    asked = scene.asked
    if asked is None or asked.kind not in (PERSON, PET) or asked.name \
            or not re.search(r"叫什么|什么名字|\bname\b|\bcalled\b", scene.asked_text, re.I):
        return False
    name = re.fullmatch(r"[\u3400-\u9fff]{1,4}|[A-Z][a-z]+(?: [A-Z][a-z]+)?", body)
    if name is None or body in r.relations:
        return False
    subject = Subject(asked.kind, asked.relation, body, plural=asked.plural)
    scene.note(subject)
    a.found = Found(subject)
    a.subject = _who(subject, r)
    a.inferred = f"用户的{asked.relation}叫{body}" if a.lang == "zh" else f"User's {asked.relation} is named {body}"
    a.type, a.slot = "profile", None
    a.keep, a.reason = True, "answer"
    a.importance, a.confidence = r.importance_base.get("profile", 0.5), 0.8
    return True


def _completed(text: str, scene: Scene, lang: str) -> str:
    """A clause completed by the question it answers: "I love it!" after "Do you like
    sushi?" -> "I love sushi"; "特别喜欢" after "你喜欢吃火锅吗？" -> "特别喜欢吃火锅"."""
    if lang == "zh":
        pred = scene.asked_predicate
        if not pred or len(text) > 8 or "我" in text:
            return text
        for n in (3, 2, 1):
            verb = text[-n:]
            at = pred.find(verb)
            if len(text) >= n and at >= 0 and pred[at + n:]:
                return text + pred[at + n:]
        return text
    obj = scene.asked_object
    if not obj:
        return text
    return re.sub(r"\b(?:it|them|that)\b(?=[\s!.,]*(?:too|so much|a lot|very much)?[\s!.,]*$)", obj, text, count=1)


def _dangling(text: str, lang: str) -> bool:
    """Whether the clause's fact hangs on a word that points elsewhere ("I love it there",
    "我很喜欢那里"): without what it points to, the memory says nothing."""
    if lang == "zh":
        if re.search(r"^(?:但是|不过|可是)?(?:这|那)(?:类|种|些|样)|^(?:但是|不过|可是)?(?:这|那)个(?!周|月|星期|礼拜|季度|学期|假期|冬天|夏天|春天|秋天|年)"
                     r"|(?:得|要|会|想|能|没办法|不能)去[了啊呀吧的]*$", text):
            return True  # "这类的我比较喜欢……", "我每周都得去": what it points to was said before
        if re.match(r"^(?:那时|那时候|当时|那会儿?)(?!.*(?:\d|[一二三四五六七八九十]+)(?:岁|年))", text):
            return True  # "那时我上初二": when "then" was is in another turn
        return re.search(r"(?:那里|那边|这里|这边|它|这个|那个)[啊呀了的吧！!。]*$|^(?:这个|那个|这|那|它)(?=我)", text) is not None \
            and len(text) <= 12
    if len(text.split()) <= 14 and re.search(
            r"\b(?:try|tried|trying|look into|looking into|make|making|made) (?:it|one|them)\b(?! (?:up|out|off|work|happen)\b)"
            r"|\b(?:taking|sitting) (?:it|them)\b(?! (?:easy|slow|seriously|personally)\b)"
            r"|\bgo(?:ing)? for a (?:ride|spin)\b(?! (?:on|in|with)\b)"
            r"|\b(?:felt|feel|feeling) it\W*$|\bforget (?:a (?:second|minute|moment|bit) of )?it\b"
            r"|\bworking on (?:a|some|my) (?:new |little |side |fun |big )?projects?\W*$"
            r"|\b(?:take|took|taking|bring|brought|sit|sat|sitting|hang out|hanging out|stay|stayed|staying)\b(?: [\w']+){0,3} there\b",
            text, re.I):
        return True  # "I'd love to try it sometime", "take the dogs there": named in the other turn
    if len(text.split()) <= 14 and re.search(
            r"\b(?:saw|see|seen|got|get|had|have)(?: a| the)? (?:potential|idea|point|vibe)\b(?! (?:of|for|to|that|behind|about)\b)"
            r"|\bgot (?:a|some) (?:great|good|nice|cool|amazing|awesome) (?:shot|shots|pic|pics|picture|pictures|photo|photos)\b(?! (?:of|from)\b)", text, re.I):
        return True  # "but I saw the potential", "and got a great shot": of what, the clause before said
    if len(text.split()) <= 12 and re.search(r"\b(?:made|did|tried|got|bought|used|love|loved|like|liked|finished|painted|"
                                           r"cooked|baked|took|saw|read|watched|enjoyed|gave) (?:it|them)\b(?! (?:up|out|off))", text, re.I):
        return True  # "I made it with coconut milk": what "it" is was said by the other speaker
    if re.search(r"\b(?:go|goes|going|went|gone|head|heading|headed|move|moving|moved|fly|flying|flew|travel\w*|been|get|getting) there\b"
                 r"|\bcheck (?:it|them|that) out\b", text, re.I) or (len(text.split()) <= 40 and re.search(
                 r"\b(?:this|these|those) (?!(?:[\w-]+ ){0,3}(?:called|named)\b)(?!(?:who|whom|whose)\b)(?!(?:year|month|week|weekend|morning|afternoon|evening|night|time|summer|winter|spring|fall|"
                 r"autumn|semester|season|quarter|term|sprint|days?|way|much|many|kind|sort|one|past|coming|weekends|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|"
                 r"january|february|march|april|may|june|july|august|september|october|november|december|"
                 + INTRODUCING + r"|really|so)\b)[a-z]+",  # "I just adopted this cute pup": an introduction, not a reference
                 # The main clause, not a request tacked on ("..., so help me keep these invoices simple").
                 text if len(text.split()) <= 10 else re.split(r",? (?:so|because|but|and|which|that's why) ", text, flags=re.I)[0],
                 re.I)):
        return True  # "I'm heading there next month", "I'm learning this instrument": named by the other turn
    if re.search(r"\b(?:go|goes|going|went|gone|come|comes|coming|came|get|getting|got|head|heading|headed) back\b"
                 r"(?!\s+(?:to|into|in|home|there|and|for|from|with|on (?:the|my|our|a)|up|down|out|over|inside|outside|"
                 r"at|after|through|again and)\b)"
                 r"|\b(?:i|we|i'll|we'll|will|to|gonna|should|might|can|could|would|then|i'm|we're|am|are)\s+"
                 r"(?:call|calling|text|texting|ring|visit|visiting|return|returning)\b(?=[\s,]*(?:(?:again|back|soon|later|"
                 r"tomorrow|today|tonight|next \w+|this \w+|on (?:the \d+(?:st|nd|rd|th)?|[a-z]+day|[A-Za-z]+ \d+(?:st|nd|rd|th)?)\b)[\s,]*)*[.!]*$)"
                 r"|\bplay(?:s|ed|ing)? (?:for (?:bets|money|fun|hours)|together)\b|\b(?:go|goes|went|going) to relax\b", text, re.I):
        return True  # "Every time I go back", "I think I'll call tomorrow", "we often play for bets": where, whom, what, said before
    if re.search(r"\babout (?:him|her|them|it)\b|\b(?:this|that|these|those)(?=\s+(?:at|in|on|to|for|with|as|and|but|so|"
                 r"again|too|now|today|here|there|up|off|out|down|over|last|yesterday|earlier)\b|\W*$)", text, re.I):
        return True
    if len(text.split()) <= 7 and re.search(r"\b(?:it|that|this|there|them|those)\b(?:\s+(?:there|here|too|so much|a lot|very much))?[\s!.]*$",
                                          text, re.I):
        return True
    return _orphan_pronoun(text)


# An object "it / him / her" (after a verb or preposition, not "it's", not an idiom) and
# "there" as a place (not "there is"): what they name must come earlier in the clause.
_NOT_BEFORE_OBJECT = r"that|and|but|so|if|when|because|as|than|is|was|are|were|be|been"
_OBJECT_IT = re.compile(rf"\b(?!(?:{_NOT_BEFORE_OBJECT}|make|made|making|makes|worth|of|call|take|took|taking|fake|nail|"
                        r"nailed|get|got|getting)\b)[a-z']+ (?-i:it|It)\b(?!'s| is\b| was\b)", re.I)  # ("my IT job": not "it")
_OBJECT_PERSON = re.compile(r"\b(?!(?:that|if|when|because|as|than|is|was|are|were|be|been)\b)[a-z']+ (?:him|her)\b", re.I)
_SUBJECT_IT = re.compile(r"\b(?:and|but|so) (?:it's|its|it is|it was|it will be)\b", re.I)
_PLACE_THERE = re.compile(r"\b(?!(?:is|are|was|were|been|be|'s)\b)[a-z']+ there\b(?! (?:is|are|was|were|has|have|had|will|'s)\b)", re.I)
_NAME = r"(?<!^)(?<![.!?] )\b[A-Z][a-z]+"
_OBJECT_THEM = re.compile(r"(?:^|\b(?!(?:that|if|when|because|as|than|of|is|was|are|were|be|been)\b)[a-z']+ )them\b", re.I)
_SUBJECT_THEY = re.compile(r"(?<!^)\b(?:they|they're|they've|they'll)\b", re.I)
# "I love their design and engineering": whose, the other message said.
_THEIR = re.compile(r"\btheir\b", re.I)
_MANY_BEFORE = re.compile(r"\b(?i:kids|children|parents|friends|pets|dogs|cats|twins|family|folks|guys|girls|boys|people|"
                          r"team|class|students|(?!(?:always|sometimes|perhaps|nowadays|afterwards|towards|besides|was|has|does|"
                          r"goes|yes|less|unless|across|thus|lots|plus)\b)[a-z]{3,}(?<!ss)(?<!'s)(?<!us)(?<!is)s)\b|" + _NAME)
_THAT_THING = re.compile(
    r"(?i)\b(?:to|with|on|in|at|from|about|of|for|using|use|used|love|loved|like|liked|tried|bought|saw|watched|read|"
    r"visited|met|meeting|got|made|took|taken|shared|posted|sent|found|showed|painted|drew) that (?!(?:is|was|are|were|i|we|you|he|she|they|it|my|our|the|a|an|one|much|many|long|"
    r"far|way|time|day|week|month|year|kind|sort|point|moment|morning|night|evening|weekend|summer|winter|spring|fall|"
    r"too|so|very|really|all|same|last|next|first)\b)[a-z]+\b")
_VAGUE = re.compile(r"(?i)\bsaw another\b|"
                    r"\b(?:organi[sz]ing|organi[sz]ed|planning|planned|preparing|prepared|cooking|cooked|building|built) something\b"
                    r"(?!\s+(?:for|like|called|about|that|which|to|new|special|big)\b)|"
                    r"\b(?:organi[sz]ing|organi[sz]e|create|creating|made|make|making|working on|bought|built|building|painted|"
                    r"painting|started|starting) one\b(?! of (?:the|these|those)\b)|^(?:doing|seeing|hearing|reading|having) (?:that|this|it|those|these)\b|\b(?:a few|some|one|two|several) more\b\W*(?:last|this|yesterday|today|too|$)|"
                    r"\b(?:working on|doing|planning|made|make|tried|try|trying|tackled|started|starting) something "
                    r"(?:exciting|new|cool|big|special|fun|great|awesome|amazing|interesting)\b\W*(?:too|as well)?\W*$")
# Whom a "them" later in a clause of the user's can be.
_THEM_BEFORE = re.compile(r"\b(?i:kids|children|parents|friends|pets|dogs|cats|pups|puppies|kittens|twins|family|folks|guys|girls|boys|"
                          r"people|team|class|students|seniors|grandparents|grandkids|clients|customers|patients|neighbou?rs|colleagues|"
                          r"coworkers|teammates|members|fans|followers|volunteers|sons|daughters|brothers|sisters|cousins|plants|flowers|chickens|horses|fish)\b|" + _NAME)
_PERSON_BEFORE = re.compile(
    r"\b(?i:he|she|mom|mum|mother|dad|father|sister|brother|son|daughter|wife|husband|girlfriend|boyfriend|partner|"
    r"friend|aunt|uncle|grandma|grandpa|grandmother|grandfather|niece|nephew|cousin|boss|coworker|colleague|kid|child|"
    r"baby|dog|cat|puppy|kitten|pet|horse|greyhound|rescue|pup|parrot|rabbit|bunny|hamster|teacher|doctor|neighbou?r|roommate|girl|boy|guy|lady|man|woman)s?\b|" + _NAME)
_THING_BEFORE = re.compile(r"\b(?i:a|an|the|my|our|this|that|his|her|their|its|some|one)\s+(?:[a-z]|\d{4} [a-z])|\b[a-z]+ing\b(?= (?:and|but|so)\b)|"
                           r"\b(?i:on|using|used|use|bought|tried|downloaded|installed|subscribed to)\s+[a-z]{3,}|"
                           + _NAME)
_PLACE_BEFORE = re.compile(r"\b(?i:in|at|from|near|around|visit|visited|visiting)\s+[A-Za-z]|\b(?i:to|into)\s+(?i:the|a|an|my|our|their)\s|"
                           + _NAME)


# A clause that opens with the day and what the user is going to do then, going somewhere,
# taking or seeing someone ("明天要带儿子去打疫苗", "下周三得去北京出差"): the user's own plan, though
# said after a request.
_ZH_OWN_PLAN = re.compile(r"^(?:明天|后天|大后天|下周[一二三四五六日天末]?|下个?星期[一二三四五六日天]?|这周[一二三四五六日天末]|下个?月|"
                          r"周[一二三四五六日天末]|\d{1,2}[号日]|[一二三四五六七八九十]{1,3}[号日])(?:还|也|就|一早|早上|上午|中午|下午|晚上)?"
                          r"(?:要|得|准备|打算)"
                          r"(?:去|带|陪|见|参加|回|飞|出差|考|面试|体检|复查|搬|接|送)")


def _orphan_pronoun(text: str) -> bool:
    """"I tried debugging it for hours", "I got her last year", "make a positive impact
    there", "I checked again and it's June 21": the pronoun's noun was in the other speaker's message. A part before a comma
    may hold it ("…is gluten-free, he gets sick from it")."""
    if re.search(r"(?i)\b(?:that|this|the (?:wrong|right|other|same|old|last|first|second|third|cheaper|bigger|smaller|better)) one\b", text) \
            and not re.search(r"(?i)\bone (?:of|in|at|with|from|by|that|which|who|i|we|called|named)\b", text):
        return True  # "my wife hated that one", "I looked at the wrong one": which one was in the other message
    if re.search(r"(?i)\b(?:similar|the same|matching) ones\b|\bones like (?:that|those|these|yours)\b", text):
        return True  # "I'm thinking of ordering myself some similar ones": like what, the other message said
    if re.match(r"(?i)(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+it\b", text):
        return True  # "my wedding it was amazing": the wedding's story is in the other message
    if _THAT_THING.search(text):
        return True  # "I've been using that app", "escaping to that world": which, the other message said
    if _VAGUE.search(text):
        return True  # "I saw another at a pet store", "I've been working on something exciting too"
    for pattern, named in ((_OBJECT_IT, _THING_BEFORE), (_SUBJECT_IT, _THING_BEFORE), (_OBJECT_PERSON, _PERSON_BEFORE),
                           (_OBJECT_THEM, _MANY_BEFORE), (_SUBJECT_THEY, _MANY_BEFORE), (_PLACE_THERE, _PLACE_BEFORE)):
        for m in pattern.finditer(text):
            before = text[: m.start()]
            if not named.search(before) and not re.search(r"\w+\W+\w+[^,]*,", before):
                return True
    return False


# -- the analysis ------------------------------------------------------------------------------


def analyze(clause: str, lang: str, rules: Rules, ctx: Context) -> Analysis:
    r = rules.langs[lang]
    a = Analysis(clause=clause, lang=lang)
    low = clause.lower()
    if r.has("forget", low) and not r.has("forget_exceptions", low):
        a.forget = True
        a.forget_recent = r.has("forget_recent", low)
        return a.drop("forget request")
    if r.has("bare_negation", low.strip()):
        a.bare_negation = True
        a.correction = True
        return a.drop("bare negation")
    a.correction = r.has("correction", low)
    text = _strip(r, clause)
    if lang == "zh":
        text = text.replace("俺", "我")  # "俺闺女在青岛上大学": the northern word for 我 (and 俺们 for 我们)
        text = re.sub(r"^本人(?=[\u4e00-\u9fff])", "我", text)  # "本人左撇子"
    if lang == "en":
        text = re.sub(r"(?<=\w)`(?=\w)", "'", text.replace("’", "'").replace("‘", "'"))  # "I`m"
        # "Nate, after finishing my screenplay I ...": said to them; not "Skiing, snowboarding, and ...", a list.
        if not re.match(r"^[A-Z][a-z]+ing,|^[A-Z][a-z]+,\s+[\w' -]+,?\s+(?:and|or)\b", text):
            # ("Yesterday, we started on a road trip": a time, not whom it is said to.)
            text = re.sub(r"^(?!(?:Yesterday|Today|Tonight|Tomorrow|Recently|Lately|Now|Then|Later|Earlier|Sometimes|Usually|Normally|"
                          r"Currently|Finally|Eventually|Originally|Meanwhile|Afterwards|Nowadays|Lastly|Also|Plus|Anyway|Honestly|"
                          r"Actually|Luckily|Sadly|Unfortunately|Fortunately|Basically|Otherwise|However|Still|Overall|Personally),)"
                          r"[A-Z][a-z]+,\s+(?=[a-z])", "", text)
    # "Quick context first: I'm a backend engineer" -> the statement after the label; but
    # "翻译成德语：我下周..." is a request whatever follows.
    labelled = re.match(r"^([^:：]{1,30})[:：]\s*(.+)$", text)
    if labelled and re.search(r"\d$", labelled.group(1)) and re.match(r"\d", labelled.group(2)):
        labelled = None  # "lessons are mon-thu 3:30-7pm, ...": a time, not a label
    if labelled and r.has("request_start", labelled.group(1).lower()):
        return a.drop("request for the current task")
    if labelled and not r.has("subject", labelled.group(1).lower()) and r.has("subject", labelled.group(2).lower()) \
            and not r.has("goal_marker", text.lower()):  # ("goal for this year: pay off my loan" keeps its label)
        text = labelled.group(2)
    a.text = text
    if lang == "zh" and re.match(r"说(?![过了好实真白起完])", text) \
            and ctx.prev_drop in ("said to the other speaker", "request for the current task", "advice or request"):
        return a.drop("request for the current task")  # "你给改改 说俺家种了十几年": what the assistant is to write
    if ctx.first_clause and _answer(r, text, ctx.scene, a):
        return a
    if lang == "en" and _fragment(r, text, a, ctx):
        return a
    if ctx.first_clause:
        text = _completed(text, ctx.scene, lang)
        a.text = text
    if lang == "en" and ctx.prev_avoided and re.match(r"(?:pls |please |and |so )?never\b", text, re.I):
        # "i hate cilantro, never put it in any recipe": what the rule keeps out, by name.
        text = a.text = re.sub(r"\b(put|add|include|suggest|recommend|give me) (?:it|them)\b", rf"\1 {ctx.prev_avoided}", text, count=1)
    tlow = text.lower()
    # ("broke my ankle in march": the "I" left out, as the type rules will read it; "got a vet
    # appointment Thursday" is one the user has.)
    said_past = lang == "en" and _SUBJECTLESS.match(tlow) is not None and not re.match(r"(?:just )?got (?:a|an|my)\b", tlow)
    past_hint = r.has("past", tlow) or bool(r.types["event"].search("i " + tlow if said_past else tlow))
    # A Chinese date is past by a past marker next to it, not by the clause's event pattern
    # ("10月我要去日本" has a month before 我 and is ahead).
    # "I signed up for the Berlin Marathon on September 27": the date is the event's, ahead,
    # though signing up is past.
    arranged = lang == "en" and _ARRANGED_FOR.search(tlow) is not None
    a.times = find_times(text, lang, ctx.reference, rules.temporal, past_hint=past_hint and not arranged,
                         past_in=(lambda stretch: r.has("past", stretch)) if lang != "en" else None,
                         past_verb=(lambda: past_tense("i " + tlow if said_past else tlow)) if lang == "en" and not arranged else None)
    times_carried = not a.times
    if times_carried:
        a.times = [] if _NOW.search(tlow) or r.has("timeless", tlow) else _carried_times(ctx.prev_times, tlow, lang)  # "上个月被裁了，现在在家歇着": now is not last month
    # "I have yoga every Monday", "每周三": a day that comes round again is no date of the clause.
    # ("周二周四晚上要去做家教", "ballet Tuesdays and Thursdays": days named together come round every week.)
    # ("walks on tues and thurs": two weekdays named together are a week's routine, when the
    # clause tells of no one time: not "I was sick on thurs and fri", "going on fri and sat".)
    weekly = lang == "en" and _WEEKDAY_PAIR.search(text) is not None and not _ONE_TIME_EN.search(tlow)
    if re.search(r"\bevery\b|\beach\b|每|周[一二三四五六日天](?:[、和跟到至~-]|\s)?周[一二三四五六日天]|(?:mon|tues|wednes|thurs|fri|satur|sun)days\b", text, re.I) or weekly:
        a.times = [t for t in a.times if not _WEEKDAY_PHRASE.search(t.phrase)]
    # "the surgery is now the 22nd of May, not the 8th": the old date is not the clause's.
    a.times = [t for t in a.times if not re.search(rf"(?:\bnot|\binstead of|\brather than|不是|而不是|原来是)\s*(?:on\s+|the\s+)?{re.escape(t.phrase)}",
                                                 text, re.I)]
    if lang == "en" and re.match(r"got (?:a|an|my) ", text, re.I) and a.times and all(t.direction > 0 for t in a.times) \
            and not re.search(r"\b(?:her|him|them|it)\b", text, re.I):
        text = a.text = "I've " + text  # "got my driving test next monday": one the user has, ahead
    if len(text) < 2 or (lang == "en" and len(text.split()) < 2 and not _DIET_ALONE.fullmatch(text.strip(" ,.!"))):
        return a.drop("too short")
    if lang == "en" and not ctx.sentence_first and re.match(r"(?:just |kind of |sort of |almost |a bit )?like\b(?! i\b)", text, re.I):
        return a.drop("fragment")  # "Fixing cars calms me down - like meditating": a likeness, not a liking
    if r.has("chit_chat", tlow):
        return a.drop("chit-chat")
    unquoted = _unquoted(text, r.quote_chars)
    if unquoted != text and r.has("reporting", unquoted.lower()):
        return a.drop("quoted speech")
    implied = _implied(r, text, early=True) if ctx.infer else None
    if implied is not None and lang == "en" and _LEFT_OFF.search(ctx.turn):
        implied = None  # "The spin class has been awesome but I quit last week": no more
    if implied is not None:
        return a.infer(*implied[:2])
    hypothetical = r.has("hypothetical", tlow) and not r.has("hypothetical_exceptions", tlow)
    if _is_question(r, text, lang) and not hypothetical:
        if not (lang == "en" and _ASKED_RULE.match(tlow) and r.has("standing", tlow)):
            return a.drop("question")
        # "can you give me answers in plain text no bold or headers?": a rule, asked politely.
    if hypothetical:
        return a.drop("hypothetical")  # "what if i just..." too: what follows is the supposition
    if r.has("sarcasm", tlow) or ("sarcasm_love" in r.p and r.has("sarcasm_love", tlow)):
        return a.drop("sarcasm")
    if r.has("cancelled", tlow):
        a.cancels = True
        return a.drop("cancellation")
    standing_in: dict[str, bool] = {}  # (a rule for every answer is looked for in each form of the text once)

    def is_standing(t: str) -> bool:
        if t not in standing_in:
            standing_in[t] = r.has("standing", t)
        return standing_in[t]

    addressed = is_standing(tlow) or (r.has("durable", tlow) and (r.has("addressed", tlow) or r.has("request_start", tlow)))
    if r.has("remark", _unquoted(tlow, r.quote_chars)) and (not addressed or r.has("offer", tlow)):
        return a.drop("said to the other speaker")
    for name, reason in (("shared", "shared a photo or link"), ("misspoke", "correction remark"), ("fragment", "fragment"),
                         ("unhappened", "did not happen"), ("reaction", "reaction"), ("resolve", "encouragement"),
                         ("sentiment", "a feeling about something"), ("platitude", "an aim with no object"),
                         ("past_aim", "a past aim")):
        if r.has(name, tlow) and not (name in ("sentiment", "reaction", "platitude") and (is_standing(tlow) or re.match(r"(?:from now on|going forward|from here on)\b", tlow))) \
                and not (name == "fragment" and lang == "en" and "," in tlow and is_standing(tlow)):
            # ("even if i write in french, answer in english pls": a rule with its condition, whole.)
            if name == "sentiment":
                # Whom the warm words were about is who the next clause goes on about: "我妈做的饺子
                # 特别好吃，每年过年都包" (she makes them every new year).
                found = detect(_lead_time(text, lang)[1], lang, r, ctx.scene, ctx.prev_subject, ctx.first_clause)
                a.found, a.inherited = found, found.inherited
            return a.drop(reason)  # ("when u give me recipes just list ingredients" is a rule, not "gives me" joy)
    if lang == "en" and ctx.prev_topic and re.match(r"^it(?:'s| is| was| has|\s)", text, re.I):
        # "Pottery is a huge part of my life - it helps me ...": "it" is what the clause before was about.
        text = ctx.prev_topic + text[2:]
    if lang == "en" and _AS_A_FAN.match(text) and re.search(re.escape(text) + r"\W*\s*(?:i|i'm|i've|i'd|i was|i am)\b", ctx.turn, re.I):
        text = "I'm " + text[3:]  # "As a Manchester City fan, I ...": what the user is, said as the sentence's lead
    if lang == "en" and ctx.prev_kind and _ONE_OF_KIND.search(text):
        text = _ONE_OF_KIND.sub(lambda m: f"{m.group(1)} a {ctx.prev_kind}", text, count=1)  # "... but I still really want one": a dog
    lead, body = _lead_time(text, lang)
    if lang == "en":
        # "Allergies: shellfish and tree nuts": a note's label, not someone's name.
        body = _NOTE_LABEL.sub(lambda m: m.group(1).lower(), body, count=1)
    if lang == "en" and ctx.sentence_first:
        # "mum was diagnosed in march", "cat's name is Mochi", "note: mom's bday is july 9": the
        # user's own, typed without "my".
        body = _BARE_RELATION.sub(lambda m: "my " + m.group(1), body, count=1)
    previous = ctx.prev_subject
    if lang == "en" and ctx.sentence_first and previous is not None and previous.kind in (PERSON, PET) \
            and _USERS_OWN_VERB.match(body):
        # "nursery for our daughter zofia is 900 a month, shes 3. saved about 4k so far": a new
        # sentence opening with a past or bare verb is the user's doing, not the daughter's.
        previous = None
    found = detect(_unquoted(body, r.quote_chars) if lang == "en" else body, lang, r, ctx.scene, previous,
                   ctx.first_clause)
    if lang == "en" and found.inherited and found.subject is ctx.scene.asked and not ctx.first_clause \
            and ctx.prev_clause_drop == "not about the user" and re.match(r"it\b", body, re.I):
        return a.drop("unresolved reference")  # "This is a new yoga pose we tried. It is a tree pose": "it" is that, not the retreat asked about
    if found.inherited and found.subject.kind == PET and _HUMAN_AFFAIRS.search(body):
        found = Found(THE_USER, inherited=True)  # "（猫……）现在在北京朝阳租房 4月底要搬到通州": a pet rents nothing
    if lang == "zh" and found.inherited and found.subject.kind == PERSON and _ZH_CHILD.fullmatch(found.subject.relation) \
            and _ZH_HOUSEHOLD_MONEY.search(body):
        found = Found(THE_USER, inherited=True)  # "（孩子今年两岁）打算每月存2000 存到18岁": the parent saves, not the child
    cared_for = False
    if lang == "zh" and found.inherited and found.subject.kind in (PERSON, PET) \
            and (_ZH_SPOUSE.fullmatch(found.subject.relation) and _ZH_SHARED_DEBT.search(body)
                 or _ZH_CARED_FOR.search(body) and not re.match(r"(?:他|她|它)(?!们)", body)):
        # (Not carried over: the words say it is the user, so talk of others before does not unsettle it.)
        cared = found.subject
        found, cared_for = Found(THE_USER), True
        body = _ZH_CARED_FOR.sub(lambda m: m.group(0)[:-1] + (cared.name or cared.relation), body, count=1)
    cared_pronoun = _ZH_CARED_FOR.search(body) if lang == "zh" and found.subject.kind == USER and not cared_for else None
    if cared_pronoun:
        # "我妈高血压好几年了" … (next message) "周末带她去复查": the one told of last, when the
        # word fits (她 a woman, 他 a man, 它 a pet).
        body = told_of_in(body, cared_pronoun, ctx.scene.last_person, group=1) or body
    if lead:
        body = _put_back(body, lead, found, lang)
    text = a.text = body
    tlow = text.lower()
    a.found, a.inherited = found, found.inherited
    s = found.subject
    a.subject = _who(s, r)
    moved = _REDATE_ZH.match(text) if lang == "zh" and s.kind not in (PERSON, PET) and not re.match(r"[他她它]", text) else None
    if moved and (moved.group("changed") or re.search(r"记错|搞错|看错|说错|弄错", ctx.turn)):
        days_zh = [t for t in a.times if t.precision == "day" and t.direction >= 0]
        if len(days_zh) == 1 and not _ZH_NOT_MOVED.search(text) \
                and "的" not in (moved.group("what") or ""):  # ("阿凯的婚期": someone else's plan)
            # "家长会改到周四晚上了", "婚期改到4月19号了", "复查是6月20号不是18号，我记错了": a new
            # date for the plan it names, or for the plan said last.
            what = re.sub(r"(?:我们|我)$", "", moved.group("what") or "")  # "考试我改到5月30号了": the exam
            phrase = days_zh[0].phrase
            bare = re.fullmatch(r"((?:周|星期|礼拜)[一二三四五六日天])(?:上午|下午|晚上|早上|中午)?", phrase)
            if bare:
                phrase = bare.group(1)  # "改到周四": that weekday of the plan's week, found with the plan
            elif re.search(r"下|这|本|明|后|周|星期|礼拜|今", phrase):
                phrase = f"{days_zh[0].start.month}月{days_zh[0].start.day}号"  # "下下周二": the day itself, not words that go stale
            a.redates, a.redates_what, a.type, a.keep, a.reason = phrase, what, "task", True, "task"
            was = re.search(r"不是(?:\d{1,2}月)?(\d{1,2})[号日]", text)
            a.redates_was = int(was.group(1)) if was else 0
            a.found, a.subject, a.inherited = Found(THE_USER, inherited=True), "self", True
            # ("飞大阪是12号不是21号": the correction in its own words; the plan's, when the store has it)
            owner = "用户的" if not what or re.search(r"(?:会|礼|期|日|课|试|查|术|班|约|检|业|线|宴|赛|展|典|式|票)$", what) else "用户"
            a.inferred = f"{owner}{what or '安排'}改到{phrase}" if moved.group("changed") else "用户" + re.sub(r"^我", "", text)
            a.importance, a.confidence = r.importance_base.get("task", 0.5), 0.8
            a.times = days_zh
            _validity(a, ctx)
            return a
    if a.inherited and (ctx.prev_drop in _CARRIED_DROPS or (lang == "zh" and ctx.prev_drop == "not about the user")) \
            and not (is_standing(tlow) and not r.has("this_time", tlow)) \
            and not (ctx.prev_drop == "correction remark" and re.search(r"是[^，。]{1,12}不是", tlow)) \
            and not (ctx.prev_drop == "request for the current task" and lang == "zh" and any(t.direction > 0 for t in a.times)
                     and _ZH_OWN_PLAN.match(tlow)):
        # ("跟你说下哈 以后别给我写长篇大论" is a rule for every answer; after "说错了", "飞大阪是12号不是21号"
        # says the fact set right, whole; after "帮我写个请假条", "明天要带儿子去打疫苗" is the user's own plan.)
        return a.drop(ctx.prev_drop or "")
    if lang == "zh" and _ZH_TIME_SPAN.match(text):
        return a.drop("no durable signal")  # "换白班，早八点到晚六点": the hours of the clause before
    if lang == "zh" and a.inherited and not ctx.first_clause and ctx.prev_drop is None and _ZH_MORE_OF.match(text):
        return a.drop("no durable signal")  # "计划去云南 主要是大理和洱海": more of the clause before, not a fact alone
    if lang == "zh" and _ZH_BROKEN.match(text):
        return a.drop("passing state")  # "接口一直报错", "我们收银后台老是卡": a fault of the task at hand
    if lang == "zh" and found.inherited and s.kind == USER and r.has("thing_fragment", tlow):
        return a.drop("unclear subject")  # "开的比亚迪秦 最近续航感觉掉得厉害": the car's, not the user's
    if lang == "zh" and found.inherited and s.kind == USER and r.has("place_fragment", tlow):
        return a.drop("unclear subject")  # "房子都看好了，在左京区，离学校近": where the house is
    if lang == "en" and found.inherited and s.plural and re.match(r"^it\b", text, re.I):
        return a.drop("unresolved reference")  # "My pets ... It was a training class": "it" is not the pets
    if ctx.prev_drop == "hypothetical" and (re.search(r"就|会|可能|\b(?:would|will|might|could)\b|'d\b", tlow) or a.inherited
                                            or (lang == "en" and not re.match(r"(?:i|i'm|i've|i'd|my|we|our|he|she|they)\b", tlow))):
        return a.drop("hypothetical")  # "假如明年没考上，我可能就去药企了": the consequence is hypothetical too
    if re.search(r"(?:说|讲|表示|觉得|认为|告诉我)(?:他|她|他们|她们)|\b(?:said|says|thinks|told me)(?: that)? (?:he|she|they)\b", tlow) \
            or (s.kind in (PERSON, PET) and r.has("reporting", tlow)) or r.has("others_say", tlow):
        return a.drop("reported speech")
    if lang == "en" and s.kind == USER and found.inherited and not s.group and _imperative(text) \
            and not is_standing(tlow) and not r.has("durable", tlow) and not (_PAST_AS_BARE.match(tlow) and any(t.direction < 0 for t in a.times)) \
            and not _HABITUAL.search(tlow) and not re.match(r"(?:have|need) to\b", tlow):
        # ("quit smoking 8 months ago", "walk to the office most days": what the user did or does;
        # "have to book the vet next week": what the user must do)
        return a.drop("advice or request")  # "Stay motivated and remember ...": said to the other speaker
    if lang == "zh" and found.inherited and s.kind == USER and r.has("bare_job", text):
        text = a.text = "是" + text  # "减到75 程序员 天天坐着": what the user is, said as a bare noun
        tlow = text.lower()
    if found.inherited and s.kind in (PERSON, PET) and is_standing(tlow) and not r.has("this_time", tlow):
        # "孙女给我装了这个……先说好，回答别太长", "my son is allergic to peanuts, never suggest
        # anything with peanuts": a rule the user sets, whoever the clause before was about.
        found = a.found = Found(THE_USER, inherited=True)
        s = found.subject
        a.subject = _who(s, r)
    canonical = first_person(text, found, lang) if s.kind != NONE else text
    clow = canonical.lower()
    # ("我一到家就会给你发消息": a promise to the assistant, no rule for it nor habit kept as one.)
    durable = r.has("durable", tlow) or (r.has("whenever", tlow) and not re.search(r"你|您", tlow))
    standing = s.kind != PERSON and is_standing(tlow) and not r.has("this_time", tlow)
    request = r.has("request_start", tlow) or (lang == "en" and re.search(r"\bplease\b", tlow) is not None)
    request = request or (durable and _TO_ASSISTANT.search(tlow) is not None)
    if request and not (durable or standing) and not (lang == "en" and _REDATE_EN.match(tlow) and not _REDATE_DOUBT.search(tlow)
                                                        and any(t.precision == "day" and t.direction > 0 for t in a.times)):
        # ("the test got moved to the 29th" is a plan's new date, not "test this for me")
        return a.drop("request for the current task")
    # What a clause implies about the user ("遛狗" -> has a dog) is read from the user's own
    # doings, not from someone else's ("她不太会遛狗").
    # (Not where the child was just named and is now the one cared for: "我女儿才3岁 晚上想陪陪她".)
    if ctx.infer and s.kind == USER and not cared_for:
        implied = _implied(r, text, early=False)
    elif ctx.infer and lang == "en" and s.kind in (PERSON, PET) and not found.inherited:
        # "My four fur babies are more important to me than anything": what the user has, said
        # of them ("my sister walks the dog" says nothing of the user's own).
        implied = _implied(r, text, early=False, own=True)
    else:
        implied = None
    if implied is None and ctx.infer and lang == "en" and s.kind in (PET, PERSON) and not found.inherited and s.name and s.relation \
            and not s.plural and re.search(rf"\b(?:my|our) {re.escape(s.relation)},? {re.escape(s.name)}\b", text, re.I) \
            and (s.kind == PET or _CLOSE_FAMILY.fullmatch(s.relation)) and not re.search(r"\b(?:ex|late|former)\b", s.relation, re.I):
        # "my bearded dragon gerald is staring at me", "our shiba mochi keeps sniffing the nursery
        # door": whom the user has, by name, when the clause itself is a moment.
        name = s.name[:1].upper() + s.name[1:]
        implied = (f"User has a {s.relation} named {name}" if s.kind == PET else f"User's {s.relation} is {name}", "profile", False)
    if implied is not None and lang == "en" and _GONE.search(ctx.turn):
        implied = None  # "I still buy treats for my cats even though they're gone": had, not has
    if implied is not None:
        a.implies, a.implies_beside = implied[:2], implied[2]
    a.standing = (request and durable) or standing
    redate = _REDATE_EN.match(tlow) if lang == "en" and not a.standing else None
    if redate and s.kind not in (NONE, USER) and not redate.group("moved3"):
        redate = None  # ("my son moved it to friday" is his doing; "the test got moved" is the plan's)
    days = [t for t in a.times if t.precision == "day" and t.direction >= 0
            and (ctx.reference is None or t.start > ctx.reference.date() or re.fullmatch(r"(?:on )?(?:the )?\d{1,2}(?:st|nd|rd|th)?", t.phrase.lower())
                 and t.start == ctx.reference.date())]  # (a bare day is the plan's month's, found when the plan is)
    rest = re.sub(r"^(?:on|for|to) ", "", tlow[redate.end():]) if redate else ""
    said_day = re.sub(r"^(?:on|for|to) ", "", days[0].phrase.lower()) if len(days) == 1 else "\x00"
    # ("friday the 6th": the weekday said before the day the date is read from)
    weekday = re.match(r"((?:mon|tues|wednes|thurs|fri|satur|sun)day),? ", rest) if not rest.startswith(said_day) else None
    if redate and len(days) == 1 and (rest.startswith(said_day) or weekday and rest[weekday.end():].startswith(said_day)) \
            and (redate.group("moved") or redate.group("moved2") or redate.group("moved3") or (marker := _REDATE_MARKER.match(a.clause.lower())) is not None and (
                marker.group(1).endswith("correction") or re.search(r"\bnot\b|\bmisread\b|\bmeant\b|\bwrong\b|\bmoved\b|\bchanged\b", tlow))) \
            and not re.search(r"\b(?:or|maybe|i think|not sure|can't remember|cant remember)\b", re.sub(r",? or (?:whatever|something)\W*$", "", tlow)) \
            and not _REDATE_DOUBT.search(tlow) and not _REDATE_DOUBT.search(ctx.turn.lower()) \
            and not re.match(r"\s+(?:time|times|place|one|floor|grade|round|attempt|try)\b", tlow[tlow.find(days[0].phrase.lower()) + len(days[0].phrase):]) \
            and not re.match(r"\s+(?!(?:because|bc|cause|at|for|and|now|so|instead|in|of|on|from|by|with|then|lol|haha|too|as|since|due|or|but|which|after|before|this|next|ugh|yay|thank|thanks|not|right|actually|sorry|wait|hopefully|finally|apparently|btw|fyi|yet|again|anyway|maybe|she|they|you|which|when|where|hope|cos|coz|haha|lmao|omg|fml)\b)[a-z]{3,}",
                             tlow[tlow.find(days[0].phrase.lower()) + len(days[0].phrase):]):  # ("the 3rd kennel": a place, not a day)
        # "correction its aug 21, hr just emailed", "it got moved to the 14th": a new date for the
        # plan said last, worded from that plan when the store has it.
        phrase = days[0].phrase if not re.search(r"\b(?:today|tonight|tomorrow|next|this)\b", days[0].phrase, re.I) \
            else f"{days[0].start:%b} {days[0].start.day}"  # ("it's tomorrow now": the day, not a word that goes stale)
        if weekday and not re.match(r"(?:mon|tues|wednes|thurs|fri|satur|sun)day", phrase, re.I):
            phrase = weekday.group(1).capitalize() + " " + phrase  # "friday the 6th"
        a.redates, a.type, a.keep, a.reason = phrase, "task", True, "task"
        a.redates_what = re.sub(r"\s+(?:just|now|already|finally)$", "", (redate.group("what") or redate.group("what2") or "").lower())  # "the trip just got moved"
        a.found, a.subject, a.inherited = Found(THE_USER, inherited=True), "self", True
        # (With no plan in the store, the plan it names stands alone: "User's start date is now on October 1".)
        be = "are" if a.redates_what.endswith("s") and not a.redates_what.endswith("ss") else "is"
        a.inferred = f"User's {a.redates_what or 'plan'} {be} now on {phrase}"
        a.importance, a.confidence = r.importance_base.get("task", 0.5), 0.8
        a.times = days
        _validity(a, ctx)
        return a
    if s.kind == NONE and not a.standing:
        return a.drop("not about the user")
    if s.kind == NONE:
        a.found, a.subject, a.inherited = Found(THE_USER, inherited=True), "self", True
        s = THE_USER
    if not a.standing and _dangling(canonical, lang) and lang == "en" and ctx.prev_topic:
        # "Dance is just me - I can't picture life without it": "it" is what was just named.
        topic = ctx.prev_topic if ctx.prev_topic[:2].isupper() else ctx.prev_topic.lower()
        text = re.sub(r"\bit\b(?=\W*$)", topic, text)
        canonical = re.sub(r"\bit\b(?=\W*$)", topic, canonical)
        clow, tlow = canonical.lower(), text.lower()
    his = re.search(r"\bhis\b", tlow) if lang == "en" and s.kind == USER else None
    if his and not _PERSON_BEFORE.search(text[: his.start()]):
        return a.drop("unresolved reference")  # "I love his skills and leadership": whose, the other message said
    them = re.search(r"\b(?:for|of|give|gives|gave|giving|with|to) them\b", text) if lang == "en" and s.kind == USER and not s.group and not s.joint else None
    if them and not _THEM_BEFORE.search(text[: them.start()]) \
            and not (a.standing and any(plural_noun(w) for w in re.findall(r"[a-z]+", text[: them.start()].lower()))):
        # ("keep your answers short and skip the bullet points unless I ask for them": named before.)
        return a.drop("unresolved reference")  # "I got some new beds for them": whom, the other message said
    their = _THEIR.search(text) if lang == "en" and s.kind == USER and not s.group and not s.joint else None
    if their and not _MANY_BEFORE.search(text[: their.start()]):
        return a.drop("unresolved reference")  # "I love their design and engineering": whose, the other message said
    # (In someone else's clause "her" may be them: "my wife ... so her shifts ...".)
    # ("my mom is visiting next week": someone else visits the user.)
    if not a.standing and _dangling(canonical, lang) and not (
            s.kind in (PERSON, PET) and re.search(r"\b(?:he|she|him|her|his|hers)\b", canonical, re.I) and not _dangling(text, lang)) \
            and not (s.kind == PERSON and re.search(r"\b(?:is|are|'s|'re) (?:coming to )?visiting\b", text, re.I) and not _dangling(
                re.sub(r"\bvisiting\b", "visiting us", text, flags=re.I), lang)):
        if r.has("reschedule", clow):
            a.reschedules = True
        else:
            return a.drop("unresolved reference")
    if (
        r.has("transient_state", clow)
        and not _felt_after(r, clow)
        and (r.has("transient_time", clow) or not any(r.types[t].search(clow) for t in ("profile", "preference", "goal")))
        and not durable
        # ("our dog pepper is a rescue greyhound, terrified of stairs": what the pet is, and how it is.)
        and not (s.kind in (PERSON, PET) and not r.has("transient_time", clow) and re.search(r"\b(?:is|'s) an? \w", clow))
    ):
        return a.drop("passing state")
    if not a.times and r.has("momentary", clow):
        return a.drop("passing plan")  # "I'm going to get coffee", "gonna head out"
    a.slot = slot_of(r, canonical)
    a.type = _type(r, clow, a, ctx, a.standing)
    if a.type is None and lang == "en" and _ADVERB_AFTER_I.search(clow):
        a.type = _type(r, _ADVERB_AFTER_I.sub("i ", clow), a, ctx, a.standing)  # "I still work in Hamilton" is "I work in Hamilton"
    if a.type is None and canonical != text:
        a.type = _type(r, tlow, a, ctx, a.standing)  # "goal for this year: ...": patterns anchored at the start
    if a.type == "event" and lang == "en" and re.match(r"(?:whenever|every time|each time|any ?time)\b", tlow):
        return a.drop("no durable signal")  # "Every time I tried, I failed": what comes time and again is no one event
    if a.type is None and r.has("whenever", tlow) and not re.search(r"你|您", tlow):
        a.type = "behavior"  # "我一喝酒就脸红": what comes to the user time and again
    if a.type is None and a.slot:
        a.type = r.slot_types.get(a.slot.split(":")[0], "profile")
    if a.type is None and s.kind in (PERSON, PET) and re.search(
            r"是(?:个|一个|一只|一条|一位|一名)|\b(?:is a|is an)\b|'s an? "
            r"|^[^，。]{0,7}?(?:今年)?(?:\d{1,2}|[一二三四五六七八九十两]{1,3})(?:岁|个月)(?:半|多)?了?$"
            r"|^(?:我的?)?(?:爸|妈|爸爸|妈妈|老爸|老妈|爷爷|奶奶|外公|外婆|姥姥|姥爷|公公|婆婆|岳父|岳母|老公|老婆|哥|姐|哥哥|姐姐)"
            r"(?:今年|都|已经|也)?\s*(?:\d{2}|[二三四五六七八九]十[一二三四五六七八九]?)\s*(?:多)?了$"
            r"|\b(?:lives?|living|works?|working|studies|studying|attends|goes to school) (?:in|at|for|from home)\b"
            r"|\b(?:doing|finishing|starting|started|in) (?:her|his|their|a|the) (?:residency|phd|masters|master's|degree|apprenticeship|fellowship|internship)\b"
            r"|住在|在[^，。]{1,12}(?:工作|上班|上学|读书|读大学|上大学)"
            r"|\b(?:is|are|'s|'re) (?:now )?(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
            r"(?: (?:years?|months?) old)?\b(?! (?:minutes|hours|days|weeks|km|miles|percent|%))", tlow):
        a.type = "profile"  # "它是一只小母狗", "豆豆四岁了", "my son lives in Denver": what the pet or person is
    if a.type is None and lang == "en" and s.kind in (PERSON, PET) and _named_is(text, s.kind == PET):
        a.type = "profile"  # "my wife is Priya", "our dog is biscuit, 4yo beagle": who they are by name
    if a.type is None and lang == "zh" and (ctx.first_clause or not a.inherited) and _ZH_DUE_DATE.match(text) and a.times:
        a.type = "event"  # "预产期八月初", "老婆预产期是3月12号": when the baby is due (said after 怀孕了, it says more of that)
    if a.type is None and s.kind in (THING, EVENT) and _THING_FACT.search(tlow):
        # "论坛的地点是北京", "预计下周开业": where, when or what the user's thing or event is;
        # "my appointment is next Wednesday": a plan of the user's.
        future = any(t.direction > 0 for t in a.times)
        a.type = "task" if s.kind == EVENT and future and found.end else "event" if s.kind == EVENT or a.times else "profile"
    if a.type is None:
        return a.drop("no durable signal")
    if a.type == "event" and lang == "en" and r.has("family_date", clow) and any(t.direction > 0 for t in a.times):
        a.dated_ahead = True  # "we're expecting our first baby in early August": when it will be
    if a.type == "event" and a.times and all(t.direction > 0 for t in a.times) and re.search(
            r"\b(?:booked|scheduled|signed up|registered|arranged|reserved|bought (?:the |our |my )?tickets?)\b|订了|约了|约在|约的|报了名|买了[^，。]{0,6}票", clow):
        a.type = "task"  # "I booked a trip to the mountains for next month": what is arranged lies ahead
    if a.type in ("preference", "behavior") and a.times and not a.standing and all(
        t.direction == 0 and t.precision in ("day", "week") for t in a.times
    ):
        return a.drop("passing state")  # "这周在吃素", "on antibiotics this week": for now, not for good
    if a.type in ("profile", "behavior", "preference") and a.times and not a.standing and not a.slot and all(
        t.direction < 0 and t.precision in ("day", "week") and t not in ctx.prev_times for t in a.times
    ):
        # "My friends were mocking my weight last Friday": what happened that day (not "还有二型
        # 糖尿病" after "我妈上周做了手术": the week was the clause before's).
        a.type = "event"
    if weekly and a.type in ("event", "task", "goal") and not a.times:
        a.type = "behavior"  # "I've been going to physio tues and thurs": what the user's weeks hold
    if lang == "en" and a.type == "event" and s.kind == USER and _ongoing(tlow) and not r.has("milestone", clow) \
            and not any(t.precision == "day" for t in a.times):
        a.type = "behavior"  # "I've been learning guitar", "lately I've been teaching my siblings coding": what the user does these days
    if a.type == "event" and a.times and all(t.direction == 0 and t.precision == "day" for t in a.times) \
            and not r.has("milestone", clow):
        return a.drop("passing moment")  # "女儿下午午睡醒了在喊饿": what happens today passes
    if a.type in ("event", "behavior", "profile", "preference", "knowledge") and r.has("just_now", clow) and not r.has("milestone", clow) \
            and not r.has("lasting_event", clow) and not any(t.direction > 0 or t.direction < 0 and t.precision != "day" for t in a.times):
        return a.drop("passing moment")  # "my son just spilled juice all over the couch", "娃刚把饭打翻了"
    if lang == "en" and a.type == "event" and s.kind == USER and not r.has("milestone", clow) \
            and (not a.times or r.has("outing", clow) and all(t.direction < 0 and t.precision in ("day", "week") for t in a.times)) \
            and not r.has("lasting_event", clow) and not _NAMED_THING.search(_DAY_NAMES.sub("", canonical)):
        # "I went on some awesome roller coasters", "I tried a new pose": with no time, no
        # name and nothing that changed, an outing of the moment (the turn stays an episode).
        return a.drop("passing moment")
    if lang == "zh" and a.type == "event" and s.kind == USER and not a.times and not r.has("milestone", clow) \
            and _ZH_OFF_TO.fullmatch(re.sub(r"^(?:用户|我)", "", clow)):
        return a.drop("passing moment")  # "下班打球去了": off to do something this evening
    if a.type == "event" and s.kind == PERSON and a.subject == "other" and a.times and not r.has("milestone", clow) \
            and all(t.direction < 0 and t.precision == "day" for t in a.times) \
            and not r.has("life_event", clow):
        return a.drop("about someone else")  # "我舅舅昨天钓了条十斤的鱼": someone else's day, told in passing
    if a.type == "event" and s.kind == PET and not r.has("milestone", clow) and not r.has("lasting_event", clow) \
            and not r.has("life_event", clow) and not r.has("pet_care", clow) \
            and not any(t.direction > 0 for t in a.times):
        # "User's dogs were able to run around and get some fresh air", "Daisy came and lay down
        # next to me": a pet's moment; its health, adoption or training stays.
        return a.drop("passing moment")
    if lang == "en" and a.type == "event" and s.kind == USER and a.times and r.has("pastime", clow) \
            and all(t.direction < 0 and t.precision in ("day", "week") for t in a.times) \
            and not r.has("milestone", clow) and not r.has("lasting_event", clow) and not s.joint \
            and not re.search(r"\b(?:in|to|from) (?!(?:the|a|an|my|our)\b)[A-Z]|\b(?:first|new)\b", canonical):
        # "Went bowling and got 2 strikes yesterday", "watched The Godfather last night": a
        # pastime of the last days is a moment; the episode keeps it ("went to Tokyo last week",
        # "our first gig", "my girlfriend and I went fishing" stay).
        return a.drop("passing moment")
    if s.kind != USER:
        if a.type == "task" and not (s.kind == EVENT and found.end):
            a.type = "event"  # someone else's plan, or a date of a thing: an event to know about
        involves_user = lang == "en" and re.search(r"\b(?:me|us|my|our)\b", tlow[found.end:]) is not None \
            or lang == "zh" and "我" in text[found.end:]
        if a.subject == "other" and a.type in ("event", "task") and not _dated(a) and not involves_user:
            return a.drop("about someone else")  # "My coworker was late again": a passing remark
        if a.subject == "other" and s.kind == PERSON and r.has("transient_time", clow) and a.type != "profile":
            return a.drop("about someone else")
        if s.kind == PERSON and a.type == "behavior" and r.has("past_routine", tlow):
            return a.drop("about someone else")
    if lang == "en" and s.kind == USER and s.group and a.type in ("event", "behavior", "preference", "goal") \
            and re.match(r"^we\b", tlow) \
            and not we_named_en(tlow, s.company) and not r.has("milestone", clow) and not r.has("lasting_event", clow):
        # "We went biking and saw some pretty cool stuff": with no word of who "we" were, an
        # outing of "User and others" (how a team works, a family fact, a dated plan or "we
        # adopted a puppy" is kept).
        return a.drop("unclear subject")
    if a.type == "task" and not ctx.keep_tasks:
        return a.drop("task (keep_tasks is off)")
    if a.implies is not None and a.implies_beside and (a.type == "event" or a.type == "task" and times_carried and a.times or a.type in ("task", "goal") and _ZH_TODAY.search(text)) \
            and not r.has("milestone", clow) and not r.has("lasting_event", clow) \
            and not (lang == "en" and (re.search(r"\b(?:first|new)\b", canonical) or _NAMED_THING.search(_DAY_NAMES.sub("", canonical)))):
        # "Yesterday I walked my dog in the rain", "媳妇这周出差 我一个人带闺女", "我下午要去接闺女放学":
        # that the user has a dog or a child outlasts the walk, the week or the errand ("took my
        # two kids to their first concert, Taylor Swift" stays, with what it implies beside it).
        return a.infer(*a.implies)
    a.keep = True
    a.reason = a.type
    a.negative = r.has("negation", tlow)
    if s.kind != USER:
        future = any(t.direction > 0 for t in a.times)
        a.slot = f"{s.key}:{a.slot}" if a.slot else (f"{s.key}:when" if future and s.kind in (EVENT, THING) else None)
    if r.has("reschedule", clow) and not (lang == "zh" and (_ZH_NOT_MOVED.search(text) or re.search(r"^[^，。]{1,6}的[^，。]{0,4}(?:改|推迟|提前)", text))):
        a.reschedules = True
    a.achieves = a.type == "event" and r.has("achieved", clow)
    a.importance = _importance(r, a.type, clow if lang == "en" else canonical, a.subject)
    if a.subject == "other":
        a.importance = round(max(0.05, a.importance - 0.1), 3)
    hedged = r.has("hedge", tlow)
    a.confidence = 0.65 if hedged else 0.9
    _validity(a, ctx)
    return a


_NOW = re.compile(r"现在|目前|如今|最近|目标|平时|一般|每天|经常|\b(?:now|currently|these days|nowadays|lately|usually|my goal)\b")
# "I've been learning guitar": an activity kept up these days (not a thought, feeling or wait of
# the moment: "I've been thinking", "I've been missing our chats", "I've been keeping busy").
# A thing of a kind the user has, has not or wants ("I don't have a dog", "I want a cat").
KIND_HAD = re.compile(
    r"\b(?:have|has|got|gotten|own|owned|want|wants|get|adopt|adopted|buy|bought)\s+(?:(?:a|an|any|no|never)\s+)?(?:(?:new|little|second|real)\s+)?"
    r"(dog|cat|puppy|kitten|pet|car|house|horse|baby|bike|boat|puppies|babies)s?\b", re.I)


def kind_had(text: str) -> str:
    """The kind of thing a clause says the user has, has not or wants, in the singular."""
    m = KIND_HAD.search(text)
    return "" if m is None else {"puppies": "puppy", "babies": "baby"}.get(m.group(1).lower(), m.group(1).lower())


# What the user no longer does: a class or an outlet of before ("but I quit last week", "but I
# haven't done it in years").
_LEFT_OFF = re.compile(r"\b(?:quit|quitting|anymore|any more|dropping|dropped|stopped|not taking|gave up|giving up|"
                       r"haven't done|in years|used to)\b", re.I)
# Whom a user's name for them is worth keeping from a passing remark (a partner or a child,
# not "my friend Tom got a parking ticket").
_CLOSE_FAMILY = re.compile(r"(?:wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|son|daughter|kid|baby|mother|father|mom|mum|dad|"
                           r"sister|brother|grandson|granddaughter|stepson|stepdaughter|twin)", re.I)
# Whom the user has lost: what a clause says of them is of before.
_GONE = re.compile(r"\b(?:(?:they|she|he)(?:'re|'s| are| is) gone|died|passed away|put (?:him|her|them) down|put down|rainbow bridge|"
                   r"lost (?:him|her|them)|miss (?:him|her|them) so)\b", re.I)
# "As a die-hard Manchester City fan": the lead of a sentence that says what the user is (not
# "As a kid", which is when).
_AS_A_FAN = re.compile(
    r"as (?:a|an) (?:(?:huge|big|die-?hard|lifelong|life-long|longtime|long-time|massive|proud) )?"
    r"(?!(?:kid|child|teen|teenager|boy|girl|baby|result|reminder|rule|whole|team|family)\b)(?-i:[A-Z])[\w.'&-]*(?: [\w.'&-]+){0,3} (?:fan|supporter)\W*$", re.I)


# "one" standing for such a thing: "but I really want one", "I'll definitely get one someday".
_ONE_OF_KIND = re.compile(
    r"\b(want|wants|get|adopt|buy|own|have) one\b(?=(?: (?:someday|some day|one day|eventually|too|soon|of (?:my|our) own))?\W*$)", re.I)

_ONGOING = re.compile(
    r"^(?:(?:lately|recently|these days|for a while now),? )?i(?:'ve| have) (?:\w+ly |also |still |really |actually |just )?been "
    r"(?!(?:thinking|feeling|wondering|meaning|waiting|missing|wanting|dreaming|staring|decompressing|struggling|dealing|slogging|"
    r"keeping busy|doing (?:great|well|good|fine|ok|okay|alright|better|awesome)|having|going through|looking forward|hoping|worrying|"
    r"stressing|freaking|crying|laughing|chilling|relaxing|resting|sleeping|sitting|lying|hanging out|catching up|busy|"
    r"cleaning|napping|googling|getting ready|killing time|running around|coughing|sneezing|watching|looking for|searching for|driving|"
    r"chasing|packing|cooking|shopping|texting|scrolling|procrastinating|putting off|"
    # (nor what is left unsaid: "I've been working on a project lately")
    r"working on (?:a|some|my) (?:new |little |side |fun |big )?projects?\b(?! (?:called|named|about|for|with)\b)|"
    # (nor an idiom: "running late", "swimming in paperwork", "drawing a blank")
    r"running (?:late|on|behind|low|out|around)|swimming in|drawing a blank|dancing around|skating by|boxing up|hearing|ignoring|"
    r"training|practicing|practising)\b)"
    r"[a-z]+ing\b(?! (?:on|at|with|for|to|about|in) (?:for|since|lately|now|forever|ages|a while|so long)\b)"
    # (not a stretch of today: "for like 20 minutes", "since 6am", "all day")
    r"(?!.*\b(?:for (?:like |about |almost |nearly )?(?:\d+|an?|one|two|three|four|five) (?:minutes?|mins?|hours?|hrs?)|since (?:\d|this morning|lunch|breakfast|dawn)|"
    r"all (?:day|morning|afternoon|evening|night)|today|tonight|this (?:morning|afternoon|evening|week)|in the (?:past|last) (?:week|few days|couple (?:of )?days))\b)")
# What the activity is done to or in, said after its verb: "I've been playing for a month now",
# "I've been working hard", "I've been networking lately" name nothing a reader can keep.
_ONGOING_ALONE = frozenset((
    "running", "hiking", "swimming", "cycling", "biking", "climbing", "journaling", "meditating", "volunteering", "painting",
    "drawing", "writing", "reading", "baking", "gardening", "knitting", "dancing", "singing", "traveling", "travelling", "surfing",
    "skating", "skiing", "lifting", "boxing", "fostering", "teaching", "tutoring"))
_ONGOING_NO_OBJECT = re.compile(r"(?:for|since|ever|lately|recently|hard|a lot|so much|non-?stop|too|again|more|now|these days|"
                                r"on and off|like crazy|around|out|up|and|but|so)\b|$")
_ONGOING_VAGUE = re.compile(r"\b(?:options?|a new hobby|new hobbies|information|stuff|things|it|something|some people|me-time|"
                            r"different places|what \w+|about \w+ing)\b|\b(?:networking|remembering|gathering|checking out|exploring options|"
                            r"squeeze|picturing)\b")


def _ongoing(tlow: str) -> bool:
    """"I've been learning guitar": an activity kept up these days, named with what it is of."""
    m = _ONGOING.match(tlow)
    if m is None:
        return False
    last = tlow[:m.end()].split()[-1]
    rest = tlow[m.end():].lstrip(" ,")
    if last not in _ONGOING_ALONE and _ONGOING_NO_OBJECT.match(rest):
        return False
    return not _ONGOING_VAGUE.search(re.split(r"[,;]| - ", rest)[0])


# A new date for "it", the plan said last: "correction its aug 21", "it got moved to the 14th",
# "they moved it to friday", "actually it's the 21st".
# Said as a correction (a marker, a move, or "not <the old one>"); never a bare "it's friday",
# which is as often a new event's date or an answer about something else.
_REDATE_EN = re.compile(
    r"^(?:(?:actually|sorry|wait|oh|ok|okay)[\s,]+)?(?:(?:it|that)(?:'s|’s|s| is| will be| got| has been)?(?: now)?"
    r"(?: (?P<moved>moved|changed|pushed|bumped|rescheduled|postponed|brought forward)(?: back| up| forward)?)?"
    r"|(?:they|hr|he|she|the \w+|work|my \w+)(?: just)? (?P<moved2>moved|changed|pushed|bumped|rescheduled)(?: it| that| us| them| the (?P<what2>[\w-]+))(?: back| up| forward)?"
    # "the test got moved to the 29th", "the outbound has been moved to the 4th": the plan by its name.
    r"|(?:the|my|our) (?P<what>(?:[\w-]+ ){0,2}?[\w-]+)(?:'s|’s| is| has been| got| was| were| have been)(?: now| just)?"
    r" (?P<moved3>moved|changed|pushed|bumped|rescheduled|postponed|brought forward)(?: back| up| forward)?)"
    r"(?: to| for)? ")
# What says a Chinese new date is not sure, not so, of before, a request, or of a seat or room.
_ZH_NOT_MOVED = re.compile(r"还是|或者|可能|好像|不确定|也许|帮我|帮忙|请|你|把|能不能|可以吗|吗|没|不会|说不定|应该|打算|准备|"
                           r"听说|确定|差点|去年|上次|以前|要是|如果|座位|房间|会议室|教室|车厢|号线|号楼|号门|[排层楼座]")
# What says a new date is not sure, not so, or of before ("nobody said ...", "but i don't believe
# him", "last year").
_REDATE_DOUBT = re.compile(r"\b(?:but|not sure|don't believe|dont believe|not true|if true|i think|last (?:year|time|month)|ago|missed|"
                           r"nobody|no one|someone said|supposedly|apparently|rumou?r)\b")
# A new date in Chinese, by what moved ("家长会改到周四晚上了", "改成5月3号走") or said right
# ("复查是6月20号不是18号", with 记错 in the turn).
_REDATE_ZH = re.compile(
    r"^(?:那|所以|结果)?(?P<what>[\u4e00-\u9fff]{0,5}?)(?:的时间|的日期|时间|日期)?(?:已经|又|临时|也|就)?"
    r"(?:(?P<changed>改到|改成|改在|改为|推迟到|推到|延期到|延到|提前到|挪到|换到)了?(?=[^，。]*(?:\d|[一二三四五六七八九十]+[号日]|周|星期|礼拜))"
    r"|(?:是|在)(?=[^，。]{1,10}不是))")
# How a correction is announced (read on the clause as said, before its opener is stripped).
_REDATE_MARKER = re.compile(r"^\W*(?:(?:oh|ok|okay|ugh|hey|update)\b[\s,:;!-]*)*((?:quick |small )?correction|sorry|my bad|oops|wait no|no wait|wait|actually)\b")
_HABITUAL = re.compile(r"\b(?:most (?:days|mornings|nights|evenings|weekends)|every (?:day|morning|night|evening|week|weekday|weekend)|daily)\b")
# Verbs whose past is their bare form: "quit smoking 8 months ago" is a past doing, not advice.
_PAST_AS_BARE = re.compile(r"(?:quit|cut|hurt|put|set|hit|shut|split|read) ")


# A name in an English clause: a capitalised word not opening it (not "I"), a word in
# capitals ("CS:GO"), or a number.
_NAMED_THING = re.compile(r"(?<!^)(?<![.!?] )\b(?!I\b|I'[a-z]+\b)[A-Z][\w'-]*|\b[A-Z]{2,}|\d")
_DAY_NAMES = re.compile(r"\b(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs)?|Fri|Sat(?:ur)?|Sun)(?:day)?\b|\b(?:January|February|March|April|May|June|July|"
                        r"August|September|October|November|December)\b")
_THING_FACT = re.compile(r"是|在|叫|位于|定在|预计|将|开业|开幕|举行|举办|改到|推迟|\b(?:is|are|will be|called|named|located|opens|starts|takes place|moved|rescheduled|postponed|pushed back|delayed)\b")


# Verbs a first-person statement may start with, the "I" left out ("Love hiking!").
_FEELING_VERBS = frozenset("""love like enjoy hate prefer adore miss need want wish hope think feel guess know
can't cannot gotta wanna gonna been used""".split())


# "I still work in Hamilton" is typed as "I work in Hamilton".
_ADVERB_AFTER_I = re.compile(r"\bi (?:still|also|now|actually|really|even) (?=[a-z]+\b)")


# An English weekday as typed: "tuesday", "tues", "thurs", "sat".
_WEEKDAY_EN = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)"
_WEEKDAY_PAIR = re.compile(rf"\b{_WEEKDAY_EN}\s*(?:and|&|/|,)\s*{_WEEKDAY_EN}\b", re.I)
_WEEKDAY_PHRASE = re.compile(rf"周[一二三四五六日天]|星期|礼拜|\b{_WEEKDAY_EN}\b", re.I)
# Words that tell of one time, not a week's routine: "I was sick on thurs and fri", "going on fri and sat".
_ONE_TIME_EN = re.compile(r"\b(?:was|were|did|went|got|had|missed|will|won't|gonna|this|next|last|tomorrow|yesterday)\b|'ll\b"
                          r"|(?:'m|\bam|'re|\bare|\bis|'s) going\b")


def _carried_times(times: list[TimeRef], tlow: str, lang: str) -> list[TimeRef]:
    """The times of the clause before that a clause with none of its own shares: not a past
    one for what will be ("she ran Berlin in 2019, so she'll be my coach"), nor any for what
    still is ("moved to Auckland in March, I still work in Hamilton though")."""
    if lang == "en" and re.search(r"\bstill\b", tlow):
        return []
    # ("diagnosed last fall, and my wife keeps telling me to walk", "还是做硬件": what goes on is not dated by it.)
    if lang == "en" and re.search(r"\b(?:keeps?|kept|always|usually|every|trying to|tries to|try to|tends? to|often|never)\b", tlow) \
            and not re.search(r"\b(?:then|by then|before then|until then|till then)\b", tlow):
        return []
    # ("上个月差点换了工作，最后还是留下来了": how it ended, not a dated step of its own.)
    if lang == "zh" and re.search(r"一直|总是|每天|平时|经常|老是|向来|从来|只有周末|一有空|周末都|(?:最后|后来|结果|最终)(?:想想)?还是", tlow) \
            and not re.search(r"到时候|那时", tlow):
        return []
    if lang == "zh" and re.search(r"(?:毕业|退休|结婚|生完|出院|回国|搬家|考完|读完|升学|转正)(?:之后|以后|后)", tlow):
        return []  # "签证2027年3月到期 我想毕业后申请485工签": the clause says its own when
    # ("想国庆前减到65 男的 30岁": by when the aim is set is no time of what the user is.)
    times = [t for t in times if not t.deadline]
    if lang == "en" and re.search(r"\b(?:will|won't|gonna|going to)\b|'ll\b", tlow):
        return [t for t in times if t.direction > 0]
    return times


def _imperative(text: str) -> bool:
    """Whether a subject-less English clause opens with a bare verb that is not a feeling:
    advice or a request ("Keep going!", "Stay motivated"), not a statement ("Went camping")."""
    from lemminflect import getAllLemmas

    if re.match(r"type (?:1|2|one|two|i|ii)\b", text, re.I):
        return False  # "type 1 diabetic": a kind, not an order to type
    first = text.split(" ", 1)[0].lower().strip(",.!")
    if first in _FEELING_VERBS or first in ("don't", "do", "let's", "lets", "let"):
        return first in ("don't", "let's", "lets", "let")
    verb = getAllLemmas(first).get("VERB")
    return bool(verb) and first in verb and not first.endswith("ed")


def _dated(a: Analysis) -> bool:
    return any(t.precision not in ("day",) or t.direction != 0 for t in a.times)


def _told_of(pronoun: str, last: Subject | None) -> Subject | None:
    """Whom 他/她/它 names: the person or pet told of last, if the word fits them."""
    if last is None or last.plural or last.kind not in (PERSON, PET):
        return None
    if pronoun == "它":
        return last if last.kind == PET else None
    if last.kind != PERSON:
        return None
    return last if gender_of(last) == {"她": "f", "他": "m"}[pronoun] else None


def told_of_in(text: str, m: re.Match[str] | None, last: Subject | None, group: int = 0) -> str | None:
    """`text` with the 他/她/它 that `m` found (its `group`) written as whom it names (`_told_of`),
    or None when it names no one."""
    who = _told_of(m.group(group), last) if m else None
    return None if who is None else text[:m.start(group)] + (who.name or who.relation) + text[m.end(group):]


def _implied(r: LangRules, text: str, early: bool, own: bool = False) -> tuple[str, str, bool] | None:
    """The content and type of the first inference rule of this pass that matches, and whether it
    is kept beside a kept clause (with `own`, only a rule that names them as the user's: "my
    three dogs"). A `place` is written as the user wrote it, a capital at least ("Sweden")."""
    tlow = text.lower()
    for pattern, type_, template, is_early, beside in r.inference:
        m = pattern.search(tlow) if is_early == early else None
        if m is not None and own and not re.search(r"\bmy (?:two|three|four|five|six|\d) ", tlow[m.start():m.end()]):
            continue
        if m is not None:
            said = {k: (v or "").strip() for k, v in m.groupdict().items()}
            if said.get("place") and len(tlow) == len(text):
                said["place"] = " ".join(w[:1].upper() + w[1:] for w in text[m.start("place"):m.end("place")].strip().split())
            return template.format(**said), type_, beside
    return None


def _felt_after(r: LangRules, clow: str) -> bool:
    """Whether the clause tells of something that lasts, and its feeling only after it ("I got the
    offer and was ecstatic")."""
    fact = r.p["milestone"].search(clow) if "milestone" in r.p else None
    felt = list(r.p["transient_state"].finditer(clow)) if fact else []
    # (Not where more follows the feeling: "I got the offer and was ecstatic, start date is April 6".)
    return fact is not None and all(m.start() >= fact.end() for m in felt) and not re.search(r"[,;:(-]", clow[felt[-1].end():] if felt else "")


def _type(r: LangRules, tlow: str, a: Analysis, ctx: Context, standing_request: bool) -> str | None:
    if standing_request:
        return "preference"
    # A plan for today or tonight is a detail of the current task, not something to remember.
    future = [
        t for t in a.times
        if t.direction >= 0 and not (t.direction == 0 and t.precision in ("year", "day"))
    ]
    near_future = [
        t for t in future
        if ctx.reference is not None and t.start <= (ctx.reference + timedelta(days=max(ctx.task_ttl_days, 31))).date()
    ]
    if r.has("goal_marker", tlow):
        # ("plan is to move apartments end of next month": a plan of the coming weeks is a task.)
        return "task" if near_future and re.match(r"(?:the |my )?plan (?:is|was) to\b", tlow) else "goal"
    past = [t for t in a.times if t.direction < 0]
    ends = r.p["term_ends"].search(tlow) if future and "term_ends" in r.p else None
    # (Not "visa expires in march, must apply for the new one by january": what the user must
    # do about it, by its own date, is a task.)
    if ends and ends.start() <= 12 and len(a.times) == 1 and not _TO_DO_AFTER.search(tlow, ends.end()):
        a.dated_ahead = True
        return "event"  # "签证2027年3月到期", "my lease ends in June": when something the user has runs out
    if a.subject == "group" and r.types["knowledge"].search(tlow):
        # "We deploy on Tuesdays", "我们组每周一开周会": how the user's team or school works;
        # "公司年会在三亚开，一月十八号": a dated event of it.
        dated = any(t.direction > 0 and t.precision == "day" for t in a.times) and not re.search(r"\bevery\b|\w+days\b|每|周[一二三四五六日末]", tlow) \
            or bool(past) and r.has("milestone", tlow)  # "我们公司去年被一家大厂收购了": what happened to it
        return "event" if dated else "knowledge"
    for name in _TYPE_ORDER:
        found_type = r.types[name].search(tlow)
        if not found_type:
            continue
        if r.lang == "zh" and name == "event" and not past and re.search(r"(?:以前|之前|原来|过去)(?:一直|都|总是|经常|常常|天天)", tlow):
            return "behavior"  # "之前一直练瑜伽": a habit of the user's, not an event
        if r.lang == "zh" and name == "behavior" and not past \
                and re.match(r"^(?:用户|我)?(?:平时|一般|从小)?(?:就)?(?:很|特别|超|挺|最)?(?:喜欢|爱|讨厌|不喜欢)(?!上)", tlow):
            return "preference"  # "平时喜欢拍照": what the user likes, however often
        if name == "profile" and re.search(r"\b(?:job|work|role|position|company)\b", found_type.group(0)) \
                and r.types["event"].search(tlow) and [t for t in past if t.precision in ("day", "week", "month")]:
            return "event"  # "I lost my job last month": what happened to the job, when
        if name == "behavior" and re.match(r"(?:i|we)(?:'ll| will| am going to|'m going to|'m gonna| are going to)\b", tlow) \
                and not re.search(r"\b(?:usually|always|often)\b", tlow):
            return "goal"  # "I will go to the gym and exercise regularly": a resolution, not yet a habit
        if name == "goal" and near_future and not any(t.deadline for t in a.times):
            return "task"
        if name == "goal" and r.lang == "zh" and not any(t.deadline for t in a.times) \
                and not re.search(r"想|希望|争取|力争|目标|梦想|愿望", tlow) \
                and [t for t in future if t.precision in ("day", "week", "month") and _exam_on(tlow, t)]:
            return "task"  # "五月份要考跆拳道黑带": a dated step, not an aim
        if name == "goal" and r.has("planning", tlow) and not any(t.deadline for t in a.times) \
                and [t for t in future if t.precision in ("day", "week", "month")]:
            return "task"  # "planning to repaint the kids room over the may bank holiday": a plan with its date
        if name == "task" and r.has("term_ends", tlow) and r.types["event"].search(tlow):
            continue  # "产假到4月底就结束了": when something the user has runs out, an event
        if name == "task":
            # "周末基本都会带孩子去公园" is a habit, not a plan for this weekend.
            # "on the 19th of September", "in March", "before end of april": a plan with its date or deadline.
            # (Chinese month alone stays near-term only: its task words are loose, "看不进去" has 去.)
            # (A week further ahead than the near term is a holiday: "清明节我会回老家", "home for Christmas".)
            # (A Chinese month counts where the clause names a dated step: "五月份考跆拳道黑带".)
            dated = near_future or [t for t in future if t.precision in ("day", "week") or t.deadline or (
                t.precision == "month" and (r.lang == "en" or _exam_on(tlow, t)))]
            if dated and not past and not r.types["behavior"].search(tlow):
                return "task"
            continue
        if name == "event" and not past and a.subject == "self" and re.search(r"打算|计划|准备|\b(?:plan|planning) to\b", tlow) \
                and not future:
            return "goal"  # "我跟对象打算辞职去大理开个小咖啡店": a plan with no date yet
        if name == "event" and not past and a.subject == "self" and _planned(r, tlow) and not (r.lang == "en" and r.has("family_date", tlow)) \
                and [t for t in future if t.direction > 0 and t.precision in ("day", "week", "month")]:
            return "task"  # "9月中旬要回银行上班了": the user's own dated plan
        if name == "event" and re.match(r"^i used to (?!be\b|live\b|work\b)", tlow) and not past:
            continue  # "I used to play drums when I was younger": a habit of old, not a dated event
        if name == "event" and (near_future and not past):
            # (Someone else's coming event is an event to know: "my sister starts her new job on the 20th".)
            # ("下个月15号是我们结婚十周年": the user's family's own date, an event to know.)
            # ("产假到4月底就结束了", "my lease ends in June": when something the user has runs out.)
            # ("we're expecting our second baby in november": a family's date, not a to-do; "i joined a
            # volleyball league, first game this week": what the user did.)
            if r.has("term_ends", tlow) or r.lang == "en" and (r.has("family_date", tlow) or _JOINED.match(tlow) and not any(t.direction > 0 for t in a.times)):
                return "event"
            return "task" if r.types["task"].search(tlow) else None if a.subject == "self" and not (re.search(r"结婚|纪念日", tlow) and not re.search(r"我们|咱们", tlow)) \
                or a.subject == "group" and not r.has("milestone", tlow) and not r.has("family_date", tlow) else "event"
        if name == "event" and not past and r.has("lasting_form", tlow):
            return "profile"  # "I've been a freelance translator for eight years": what the user is
        if name == "knowledge" and a.subject == "dependent":
            continue
        if name == "behavior" and r.has("workplace", tlow):
            return "knowledge"  # "On-call rotation on my team is weekly": how the user's team works
        if name == "behavior" and re.search(r"不吃|忌口|\b(?:don't|do not|never|won't) eat\b", tlow) \
                and not re.search(r"\b(?:on|every|after|before) (?:mon|tue|wed|thu|fri|sat|sun|week|night|work)|周[一二三四五六日末]|每|晚上|早上", tlow):
            return "preference"  # "我平时不吃香菜": a food the user avoids, not a habit (never drinking stays one)
        if name == "behavior" and r.has("liking", tlow):
            return "preference"  # "I've always loved eagles", "I'm always drawn to animals": a lasting like, not a habit
        if name == "behavior" and r.has("aim", tlow):
            return "goal"  # "I'm looking to add more vegetables to my meals"
        return name
    if r.has("lasting_form", tlow) and a.subject in ("self", "dependent", "other"):
        return "profile"  # "I've played cello in a community orchestra for about ten years": kept up for years
    if near_future and not past and (r.types["task"].search(tlow) or r.has("organising", tlow)):
        return "task"  # "I'm putting together an art show next month": a dated plan of the user's
    if a.subject in ("other", "dependent") and not past \
            and [t for t in future if t.direction > 0 and (t.precision == "day" or t.precision == "month" and _PLAN_OF_MONTHS.search(tlow))
                 and (_planned(r, tlow) or re.search(rf"\b(?:is|'s) (?:on )?(?:the )?{re.escape(t.phrase.lower())}(?! (?:floor|level|grade|place|row))", tlow))]:
        return "event"  # "my partner Devi defends her PhD at Edinburgh on june 12": a date in their life
    if a.subject == "self" and not past and any(t.deadline for t in future):
        # "trying to pay off my 8k credit card debt by the end of next year"; "renewing my
        # passport before the end of this month" is a plan of the next weeks.
        return "task" if any(t.deadline for t in near_future) else "goal"
    if a.subject == "self" and not past and _planned(r, tlow) \
            and [t for t in future if t.direction > 0 and (t.precision in ("day", "week") or t.precision == "month"
                                                           and re.search(_PLAN_OF_MONTHS, tlow))]:
        return "task"  # "Taking the GRE on August 19th", "明晚要给客户做方案演示": the user's own dated plan
    if past and any(t.precision in ("day", "week", "month") or any(c.isdigit() for c in t.phrase) for t in past) \
            and a.subject in ("self", "dependent", "group"):
        # A dated statement about the user's life is an event even without a known verb.
        return "event"
    return _fallback(r, tlow, a)


# "下班打球去了", "吃完饭散步去了": off to something of the moment.
_ZH_OFF_TO = re.compile(r"(?:下班|放学|吃完饭|刚刚?|今晚|晚上|现在)?(?:打球|打篮球|打羽毛球|踢球|跑步|游泳|健身|逛街|吃饭|喝酒|唱歌|散步|遛狗|"
                        r"购物|买菜|看电影|睡觉|洗澡|出车|钓鱼|上班|接孩子|接娃|做饭|发出)去了[啊呀哈~～!！。]*")
# "预产期八月初", "我老婆预产期是3月12号": a due date, said with whose it is or first.
_ZH_DUE_DATE = re.compile(r"^(?:我的?|我们的?|用户的?)?(?:(?:老婆|媳妇|爱人|太太|妻子|女儿|儿媳|儿媳妇|姐姐|妹妹|姐|妹|嫂子|表姐|表妹|堂姐|堂妹)的?)?预产期")
# An exam said to fall in a month, in Chinese ("五月份考跆拳道黑带"): a dated step, not a loose plan.
_ZH_DATED_STEP = re.compile(r"(?<![备参思报])考(?!虑|察|验|究|核|试|完)[\u4e00-\u9fffA-Za-z0-9]{2}")


def _exam_on(tlow: str, t: TimeRef) -> bool:
    """Whether a Chinese clause takes an exam on a date it names itself (not one carried over)."""
    return _ZH_DATED_STEP.search(tlow) is not None and t.phrase.lower() in tlow


# What is planned for a month ahead, however loose the words: "打算……", "九月份去英国读研", "明年一月开始报个陶艺班".
_PLAN_OF_MONTHS = re.compile(r"打算|计划|准备|要(?:回|去|搬|开始|入职|上班|出发|考|飞)|去[^，。]{1,6}(?:读研|读博|留学|读本科|读大学|进修)"
                             r"|报(?:个|一个|了)[^，。]{0,6}(?:班|课|培训)|\b(?:plan|planning|going to|gonna)\b")


def _planned(r: LangRules, tlow: str) -> bool:
    """Whether a dated statement says what someone will do (the rule files' planned words),
    not how the time will be."""
    return r.has("planned", tlow) and not r.has("not_planned", tlow)


_EN_PAST_VERB = re.compile(
    r"\b(?:i|we) (?:\w+ )?(?:(?!need|feed|seed|speed|bleed|breed|proceed|succeed|exceed)\w+ed|went|got|had|made|took|saw|met|ran|began|came|did|found|gave|lost|won|wrote|"
    r"bought|built|spent|left|was|were|chose|drew|flew|drove|sang|swam|grew|felt|kept|heard|taught|brought|caught)\b"
)
_EN_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself|we|we're|we've|our|us)\b")


def _fallback(r: LangRules, tlow: str, a: Analysis) -> str | None:
    """A first-person statement that no pattern typed: a dated-looking account of what the
    user did is an event, a description of what they do these days a habit; anything
    else is not kept as a memory (the turn itself is kept as an episode).

    What reaches here already passed every drop rule (question, request, hypothetical,
    sarcasm, other people, passing state).
    """
    if a.subject not in ("self", "dependent", "group", "other"):
        return None
    if a.times and all(t.direction == 0 and t.precision == "day" for t in a.times):
        return None  # "right now", "today": a passing situation
    if re.search(r"\b(?:right now|at the moment|atm)\b|现在|此刻|这会儿", tlow):
        return None
    if a.lang != "en":
        return None
    words = len(tlow.split())
    if words < 4 or not _EN_FIRST_PERSON.search(tlow):
        return None
    if re.match(r"^(?:i|we)(?:'m|'re| am| are) (?:\w+ly )?\w+ing\b", tlow):
        # "I'm going through PRs" and "I'm contacting landlords" are passing; "I'm currently
        # reading The Lean Startup" is what the user does these days.
        if any(t.direction > 0 for t in a.times):
            return "task"  # "I'm actually going to Tokyo next month": a plan with its date
        if r.has("planning", tlow) or r.has("aim", tlow) or re.search(r"\b(?:looking|searching) for\b", tlow):
            return "goal"  # "I'm planning a trip to the East Coast", "I'm looking for a place near a park"
        if not re.search(r"\b(?:currently|these days|lately|nowadays|recently)\b", tlow):
            return None
        return "behavior"
    return "event" if _EN_PAST_VERB.search(tlow) else None


def _validity(a: Analysis, ctx: Context) -> None:
    ref = ctx.reference
    if a.type == "event":
        past = [t for t in a.times if t.direction <= 0]
        if past:
            a.valid_from = past[0].start_dt()
    elif a.type == "goal":
        deadlines = [t for t in a.times if t.deadline or t.direction > 0]
        if deadlines:
            a.valid_to = deadlines[-1].end_dt()
    elif a.type == "task":
        future = [t for t in a.times if t.direction >= 0]
        if future:
            a.valid_from = ref
            a.valid_to = future[-1].end_dt()
        elif ref is not None:
            a.valid_to = ref + timedelta(days=ctx.task_ttl_days)
