"""Turning a user's clause into a memory's content: third person, in the user's language.

  "I'm allergic to peanuts"        -> "User is allergic to peanuts"
  "I usually code late at night"   -> "User usually codes late at night"
  "我不吃海鲜啊"                    -> "用户不吃海鲜"
  "对花生过敏" (subject inherited)  -> "用户对花生过敏"
The exact clause stays in the memory's provenance; this is the readable form.
"""

from __future__ import annotations

import re

_ADVERBS = {
    "really", "absolutely", "totally", "just", "truly", "also", "still", "only", "mostly", "usually", "always",
    "never", "often", "sometimes", "rarely", "seldom", "generally", "normally", "typically", "definitely",
    "actually", "basically", "currently", "personally", "honestly", "genuinely", "kinda", "even", "already",
    "recently", "finally", "once", "now", "mainly", "primarily", "frequently", "occasionally", "constantly",
    "hardly", "barely", "literally", "seriously", "strongly", "much", "so", "too",
}
_MODALS = {"can", "can't", "cannot", "could", "couldn't", "will", "won't", "would", "wouldn't", "should", "shouldn't",
           "must", "mustn't", "might", "may", "shall", "need", "dare", "used"}
_IRREGULAR_3SG = {"am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "don't": "doesn't",
                  "haven't": "hasn't", "aren't": "isn't", "be": "is", "wasn't": "wasn't"}
_PAST = {
    "was", "were", "went", "got", "had", "made", "took", "saw", "met", "ran", "began", "came", "did", "found",
    "gave", "knew", "left", "lost", "paid", "said", "sent", "spent", "told", "thought", "won", "wrote", "bought",
    "brought", "built", "caught", "felt", "flew", "forgot", "grew", "heard", "held", "kept", "led", "meant",
    "sold", "sat", "slept", "spoke", "stood", "swam", "taught", "understood", "woke", "wore", "drove", "ate",
    "drank", "broke", "chose", "fell", "rode", "sang", "threw", "became", "quit", "put", "cut", "hit", "hurt",
    "let", "set", "shut", "read", "didn't", "wasn't", "weren't", "hadn't", "moved", "learnt", "burnt", "dreamt",
}
_EN_CONTRACTIONS = [
    (r"^i'm\b", "User is"), (r"^im\b", "User is"), (r"^i am\b", "User is"), (r"^i've\b", "User has"),
    (r"^i have\b", "User has"), (r"^i'd\b", "User would"), (r"^i'll\b", "User will"), (r"^i was\b", "User was"),
]
_EN_LATER = [
    (r"\bi'm\b", "they're"), (r"\bi am\b", "they are"), (r"\bi've\b", "they've"), (r"\bi'd\b", "they'd"),
    (r"\bi'll\b", "they'll"), (r"\bi was\b", "they were"), (r"\bmyself\b", "themselves"), (r"\bmine\b", "theirs"),
    (r"\bmy\b", "their"), (r"\bme\b", "them"), (r"\bi\b", "they"),
    (r"\bwe're\b", "they're"), (r"\bwe've\b", "they've"), (r"\bwe\b", "they"), (r"\bour\b", "their"), (r"\bus\b", "them"),
]
_EN_WORK = re.compile(r"\b(?:work|team|company|deploy\w*|code|office|project|client|sprint|release|stack|service|prod|staging|repo|api|backend|frontend|server|cluster|ci)\b")
_EN_FAMILY = re.compile(r"\b(?:kids?|son|daughter|wife|husband|family|baby|children|parents|partner)\b")
_TRAILING_EN = re.compile(r"[\s,]+(?:btw|lol|haha+|tbh|though|fyi|lmao|:\)|:D)[.!]*$", re.I)
_LEAD_CONJ = re.compile(r"^(?:and|but|so|also|plus|then|because|though|although|while|yet|or)\b[\s,]*", re.I)
_ZH_KIN = (
    "老婆|老公|妻子|丈夫|爱人|儿子|女儿|孩子|宝宝|小孩|娃|闺女|爸爸|妈妈|爸|妈|父母|家人|家|公司|团队|同事|朋友|"
    "男朋友|女朋友|对象|老板|领导|哥哥|姐姐|弟弟|妹妹|猫|狗|老家"
)
_ZH_GROUP_WORK = re.compile(r"^(?:我们|咱们|我司)(?:的)?(?=团队|公司|组|部门|项目|后端|前端|服务|系统|产品|架构|数据库|集群|线上|代码|仓库|学校|医院|单位|店|工厂|客户端|接口|网关|测试|生产|实验室|课题组|工作室|技术栈)")


_ZH_FAMILY = re.compile(r"孩子|宝宝|家|老婆|老公|妻子|丈夫|父母|爸|妈|女儿|儿子")
_ZH_WE_FAMILY = "用户一家"
_ZH_OTHER_START = re.compile(r"^(?:(?:这|那)(?:个|是|些|种|样|里|边|家|位|款|次|本|篇|段|件|条)|他|她|它|你|您)")


def third_person_verb(word: str) -> str:
    low = word.lower()
    if low in _IRREGULAR_3SG:
        return _IRREGULAR_3SG[low]
    if low in _MODALS or low in _PAST or low.endswith("ed") or not low.isalpha():
        return word
    if re.search(r"[^aeiou]y$", low):
        return word[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return word + "es"
    return word + "s"


def _conjugate_after_subject(rest: str) -> str:
    """The words after a third-person subject: agree the first verb, skipping adverbs."""
    words = rest.split(" ")
    for i, w in enumerate(words):
        if not w:
            continue
        if w.lower().strip(",") in _ADVERBS:
            continue
        words[i] = third_person_verb(w)
        break
    return " ".join(words)


# Words that open a subject-less statement ("Love hiking!", "Went camping yesterday").
EN_VERB_STARTS = frozenset(
    """love loved like liked hate hated enjoy enjoyed prefer went got get have had has been moved
    just also really always never usually still gonna going trying planning started finished
    bought made took spent used need want wanted think feel felt keen totally absolutely definitely
    probably maybe barely slept ran run play tried try ate eat drink drank visited watched read
    live lived work worked grew joined quit left found took saw met began learned learnt signed""".split()
)


def _verb_first(low: str) -> bool:
    word = low.split(" ", 1)[0].strip(",.!")
    return word in EN_VERB_STARTS or (word.endswith("ed") and len(word) > 4)


def english(text: str, subject: str, zero_subject: bool = False) -> str:
    t = _LEAD_CONJ.sub("", text.strip()).strip()
    t = _TRAILING_EN.sub("", t).strip()
    low = t.lower()
    m = re.match(r"^(?:please )?call me (\S+)", low)
    if m:
        return f"User wants to be called {t[m.start(1):m.end(1)]}"
    out = None
    for pattern, repl in _EN_CONTRACTIONS:
        m = re.match(pattern, low)
        if m:
            out = repl + t[m.end():]
            break
    if out is None:
        if re.match(r"^i\b", low):
            out = "User " + _conjugate_after_subject(t[2:])
        elif re.match(r"^my\b", low):
            out = "User's" + t[2:]
        elif re.match(r"^(?:we|our)\b", low) and subject == "group":
            if low.startswith("our"):
                out = "User's" + t[3:]
            else:
                rest = t[2:].lstrip()
                rest = re.sub(r"^'re\b", "are", rest)
                rest = re.sub(r"^'ve\b", "have", rest)
                if _EN_WORK.search(low):
                    out = "User's team " + _conjugate_after_subject(rest)
                elif _EN_FAMILY.search(low):
                    out = "User's family " + _conjugate_after_subject(rest)
                else:
                    out = "User and others " + rest
        elif re.search(r"\bi\b|\bi'm\b|\bi've\b|\bi'd\b|\bi'll\b", low):
            # "When I travel I prefer ..." -> "When the user travels they prefer ..."
            m = re.search(r"\b(?:i'm|i am|i've|i'd|i'll|i)\b", t, re.I)
            assert m is not None
            word = m.group(0).lower()
            head = t[: m.start()]
            rest = t[m.end():]
            first = {"i'm": "the user is", "i am": "the user is", "i've": "the user has", "i'd": "the user would", "i'll": "the user will"}
            out = head + (first[word] + rest if word in first else "the user " + _conjugate_after_subject(rest.lstrip()))
        elif zero_subject and subject in ("self", "dependent") and _verb_first(low):
            out = "User " + _conjugate_after_subject(t[:1].lower() + t[1:])
        else:
            # "Some close friends kept supporting me": only the pronouns change.
            out = _pronouns(t)
            return _tidy(out)
    head, sep, tail = out.partition(" ")
    out = head + sep + _pronouns(tail)
    return _tidy(out)


def _pronouns(text: str) -> str:
    for pattern, repl in _EN_LATER:
        text = re.sub(pattern, repl, text, flags=re.I)
    return text


def _tidy(out: str) -> str:
    out = re.sub(r"\s+", " ", out).strip(" ,;:-")
    out = re.sub(r"[.!~]+$", "", out)
    return out[:1].upper() + out[1:]


def chinese(text: str, subject: str) -> str:
    t = text.strip()
    said_group = re.search(r"我们|咱们|我司", t) is not None
    t = re.sub(r"(?:我们家|咱们家|我家)", "用户家", t)
    t = _ZH_GROUP_WORK.sub("用户的", t)
    t = re.sub(r"^(?:我们|咱们|我司)", "用户团队", t)
    t = re.sub(r"(?:我们|咱们)", _ZH_WE_FAMILY if _ZH_FAMILY.search(t) else "用户和同伴", t)
    t = re.sub(r"^(?:对了|另外|还有|然后|而且|但是|不过|所以|也就是说)[，,]?", "", t)
    said_self = re.search(r"我(?!们)", t) is not None
    t = re.sub(r"我的", "用户的", t)
    t = re.sub(rf"我(?=(?:{_ZH_KIN}))(?!们)", "用户的", t)
    t = re.sub(r"我(?!们)", "用户", t)
    if not said_self and not said_group and not t.startswith("用户") and subject in ("self", "dependent") and not _ZH_OTHER_START.match(t):
        t = "用户" + t
    t = re.sub(r"[。！!~～]+$", "", t)
    return t.strip(" ，,")


def normalize(text: str, lang: str, subject: str, standing_request: bool = False, zero_subject: bool = False) -> str:
    if standing_request:
        # "From now on, keep answers short" is a rule the user sets for the assistant.
        body = re.sub(r"[.!。！~～]+$", "", text.strip())
        if lang == "zh":
            return "用户希望：" + re.sub(r"我(?!们)", "用户", body)
        body = re.sub(r"\bme\b", "them", re.sub(r"\bmy\b", "their", body, flags=re.I), flags=re.I)
        return f"User prefers: {body[:1].lower() + body[1:]}"
    return chinese(text, subject) if lang == "zh" else english(text, subject, zero_subject)


def pronouns(text: str, lang: str) -> str:
    """Only the pronouns to third person: for text appended to a memory as its elaboration."""
    if lang == "zh":
        t = re.sub(r"我的", "用户的", text)
        t = re.sub(r"(?:我们|咱们)", _ZH_WE_FAMILY if _ZH_FAMILY.search(t) else "用户和同伴", t)
        return re.sub(r"我(?!们)", "用户", t)
    return _pronouns(text)


def with_time(content: str, lang: str, label: str, deadline: bool = False) -> str:
    if lang == "zh":
        return f"{content}（{'截止 ' if deadline else ''}{label}）"
    return f"{content} ({'by ' if deadline else ''}{label})"


def negated(content: str, lang: str) -> str:
    """'User drinks coffee' -> 'User no longer drinks coffee'; '用户喝咖啡' -> '用户不再喝咖啡'."""
    if lang == "zh":
        body = content[2:] if content.startswith("用户") else content
        return "用户不再" + body
    body = content[5:] if content.startswith("User ") else content
    if re.match(r"^(?:is|was)\b", body):
        return "User is no longer" + body[body.index(" "):] if " " in body else "User is no longer " + body
    return "User no longer " + body
