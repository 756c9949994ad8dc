"""Deciding what one clause is: a durable fact about the user (which type, how important,
how sure), a forget request, a bare "not anymore", or something to drop (and why).

Order matters and is deliberate: forget requests first (they look like requests),
then what is never about the user's lasting self (chit-chat, questions, hypotheticals,
sarcasm, quotes, other people, requests, passing states), then the type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .normalize import EN_VERB_STARTS
from .rules import LangRules, Rules
from .temporal import TimeRef, find_times

# Contractions typed without the apostrophe ("Im a med student", "dont").
_EN_TYPED_FIX = {"im": "I'm", "ive": "I've", "dont": "don't", "doesnt": "doesn't", "didnt": "didn't",
                 "cant": "can't", "isnt": "isn't", "wasnt": "wasn't", "havent": "haven't", "wouldnt": "wouldn't"}
_EN_TYPED = re.compile(r"\b(?:" + "|".join(_EN_TYPED_FIX) + r")\b", re.I)
# Words that show a durable rule is addressed to the assistant ("from now on, answer in
# Chinese", "以后给我的代码示例都用Python写"): such a statement is a standing preference.
_TO_ASSISTANT = re.compile(
    r"(?<![a-z])(?:you|your|answers?|repl(?:y|ies)|responses?|explanations?|examples?|code|summar(?:y|ies)|suggestions?)(?![a-z])|"
    r"回答|回复|跟我说|给我|你|示例|代码|解释|推荐|建议|注释|输出",
    re.I,
)
# Types tried in this order; the first whose patterns match wins.
_TYPE_ORDER = ("profile", "goal", "task", "event", "behavior", "preference", "knowledge")
_EN_NOT_SUBJECT = re.compile(
    r"^(?:the|a|an|this|that|these|those|it|it's|its|there|there's|here|you|you're|your|he|she|they|his|her|their|"
    r"what|which|who|how|why|when|where|everyone|everybody|someone|somebody|nobody|people|one)\b",
    re.I,
)
_ZH_NOT_SUBJECT = re.compile(
    r"^(?:(?:这|那)(?:个|是|些|种|样|里|边|家|位|款|次|本|篇|段|件|条|就)|它|他|她|你|您|大家|别人|有人|人家|谁|哪|什么|天气|今天天气)"
)
# Drops that a subject-less continuation shares with the clause before it:
# "给我写个周报模板，简单点就行" is all one request.
_CARRIED_DROPS = {
    "request for the current task", "question", "hypothetical", "sarcasm", "quoted speech",
    "about someone else", "reported speech", "passing state",
}


@dataclass
class Analysis:
    clause: str
    lang: str
    keep: bool = False
    reason: str = ""
    type: str | None = None
    subject: str = "none"
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
    inferred: str | None = None  # the content an inference rule words
    # The subject was not said but carried over ("对花生过敏" after "我不吃海鲜").
    inherited: bool = False
    # A request that sets a standing rule ("from now on, keep answers short").
    standing: bool = False
    times: list[TimeRef] = field(default_factory=list)
    valid_from: datetime | None = None
    valid_to: datetime | None = None

    def drop(self, reason: str) -> "Analysis":
        self.keep = False
        self.reason = reason
        return self


@dataclass
class Context:
    """What the analysis of one clause may know beyond the clause itself."""

    reference: datetime | None
    prev_subject: str | None = None
    # Within one sentence: why the previous clause was dropped, and its times.
    prev_drop: str | None = None
    prev_times: list[TimeRef] = field(default_factory=list)
    task_ttl_days: int = 14
    keep_tasks: bool = True
    infer: bool = True


def _strip(r: LangRules, text: str) -> str:
    t = text.strip()
    for _ in range(3):
        new = r.p["discourse"].sub("", t).strip(" ,，、~～!！.") if "discourse" in r.p else t
        if new == t:
            break
        t = new
    if "trailing" in r.p:
        t = r.p["trailing"].sub("", t).strip()
    return t


def _unquoted(text: str, quotes: str) -> str:
    if not quotes:
        return text
    q = re.escape(quotes)
    return re.sub(rf"[{q}][^{q}]*[{q}]", " ", text)


# How a possessive opens a subject ("my wife ...", "我老婆 ...") and how the user joins it.
_POSSESSIVE = {"en": r"^(?:my|our)\s+(?:\w+\s+)?", "zh": r"^(?:我的?|我家的?)?"}
_JOINT = {"en": re.compile(r"\b(?:and i|i and|me and|and me)\b"), "zh": re.compile(r"我和|和我|我跟|跟我一起|我们俩")}


def _people(r: LangRules, text: str, lang: str) -> str | None:
    """'other' for another adult's fact, 'dependent' for a child's or pet's, else None."""
    if _JOINT[lang].search(text):
        return None
    for kind, key in (("other", "other_people"), ("dependent", "dependents")):
        if re.match(_POSSESSIVE[lang] + r.p[key].pattern, text, re.I):
            return kind
    return "other" if r.has("third_person", text) else None


def _subject(r: LangRules, text: str, lang: str, ctx: Context) -> tuple[str, bool]:
    low = text.lower()
    if lang == "zh" and text.startswith("是我"):
        return "self", True  # "是我之前整理的" comments on the clause before it
    people = _people(r, low if lang == "en" else text, lang)
    if people:
        return people, False
    if lang == "en" and re.match(r"^(?:you|you're|you've|you'll|your)\b", low):
        return "none", False  # said to or about the assistant: "you're more useful than my study group"
    if lang == "en":
        if r.has("subject", low):
            return "self", False
        if r.has("group", low):
            return "group", False
        if _EN_NOT_SUBJECT.match(low):
            return "none", False
        first = text.split(" ", 1)[0]
        word = first.lower().strip(",.!")
        if first[:1].isupper() and word not in EN_VERB_STARTS and not word.endswith("ing"):
            return "none", False  # "Berlin's meetups are out": a subject that is not the user
        return ctx.prev_subject or "self", True
    if r.has("group", text):
        return "group", False
    without_objects = r.p["object_only"].sub("", text) if "object_only" in r.p else text
    if r.has("subject", without_objects) or text.startswith("叫我"):
        return "self", False
    if _ZH_NOT_SUBJECT.match(text):
        return "none", False
    return ctx.prev_subject or "self", True


def _is_question(r: LangRules, text: str, lang: str) -> bool:
    if re.search(r"[?？][\"”」』)）]*\s*$", text):
        return True
    if lang == "en":
        return r.has("question_start", text.lower())
    return r.has("question_end", text) or r.has("question", text)


def _slot(r: LangRules, text: str) -> str | None:
    low = text.lower()
    for name, pattern in r.slots.items():
        if pattern.search(low):
            return name
    return None


def _importance(r: LangRules, type_: str, text: str, subject: str) -> float:
    value = r.importance_base.get(type_, 0.4)
    for pattern, delta, _why in r.boosts:
        if pattern.search(text):
            value += delta
    if subject == "dependent":
        value += 0.05
    return round(min(1.0, max(0.05, value)), 3)


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
    if lang == "en":
        text = _EN_TYPED.sub(lambda m: _EN_TYPED_FIX[m.group(0).lower()], text)
    # "Quick context first: I'm a backend engineer" -> the statement after the label; but
    # "翻译成德语：我下周..." is a request whatever follows.
    labelled = re.match(r"^([^:：]{1,30})[:：]\s*(.+)$", text)
    if labelled and r.has("request_start", labelled.group(1).lower()):
        return a.drop("request for the current task")
    if labelled and not r.has("subject", labelled.group(1).lower()) and r.has("subject", labelled.group(2).lower()):
        text = labelled.group(2)
    a.text = text
    tlow = text.lower()
    past_hint = r.has("past", tlow) or bool(r.types["event"].search(tlow))
    a.times = find_times(text, lang, ctx.reference, rules.temporal, past_hint=past_hint) or list(ctx.prev_times)
    if len(text) < 2 or (lang == "en" and len(text.split()) < 2):
        return a.drop("too short")
    if r.has("chit_chat", tlow):
        return a.drop("chit-chat")
    unquoted = _unquoted(text, r.quote_chars)
    if unquoted != text and r.has("reporting", unquoted.lower()):
        return a.drop("quoted speech")
    if ctx.infer and _infer(r, tlow, a, early=True):
        return a
    if _is_question(r, text, lang):
        return a.drop("question")
    if r.has("hypothetical", tlow) and not r.has("hypothetical_exceptions", tlow):
        return a.drop("hypothetical")
    if r.has("sarcasm", tlow) or ("sarcasm_love" in r.p and r.has("sarcasm_love", tlow)):
        return a.drop("sarcasm")
    a.subject, a.inherited = _subject(r, unquoted, lang, ctx)
    if a.inherited and ctx.prev_drop in _CARRIED_DROPS:
        return a.drop(ctx.prev_drop)
    if ctx.prev_drop == "hypothetical" and re.search(r"就|会|可能|\b(?:would|will|might|could)\b|'d\b", tlow):
        return a.drop("hypothetical")  # "假如明年没考上，我可能就去药企了": the consequence is hypothetical too
    if a.subject == "other":
        return a.drop("about someone else")
    if re.search(r"(?:说|讲|表示|觉得|认为|告诉我)(?:他|她|他们|她们)|\b(?:said|says|thinks|told me)(?: that)? (?:he|she|they)\b", tlow):
        return a.drop("reported speech")
    durable = r.has("durable", tlow)
    request = r.has("request_start", tlow) or (lang == "en" and re.search(r"\bplease\b", tlow) is not None)
    request = request or (durable and _TO_ASSISTANT.search(tlow) is not None)
    if request and not durable:
        return a.drop("request for the current task")
    if ctx.infer and _infer(r, tlow, a, early=False):
        return a
    if a.subject == "none" and not (request and durable):
        return a.drop("not about the user")
    if a.subject == "none":
        a.subject, a.inherited = "self", True  # a standing rule the user sets
    if (
        r.has("transient_state", tlow)
        and (r.has("transient_time", tlow) or not any(t.search(tlow) for t in (r.types["profile"], r.types["preference"])))
        and not durable
    ):
        return a.drop("passing state")
    a.standing = request and durable
    a.type = _type(r, tlow, a, ctx, a.standing)
    if a.type is None:
        return a.drop("no durable signal")
    if a.type in ("preference", "behavior") and a.times and all(
        t.direction == 0 and t.precision in ("day", "week") for t in a.times
    ):
        return a.drop("passing state")  # "这周在吃素", "on antibiotics this week": for now, not for good
    if a.type == "task" and not ctx.keep_tasks:
        return a.drop("task (keep_tasks is off)")
    a.keep = True
    a.reason = a.type
    a.negative = r.has("negation", tlow)
    a.slot = _slot(r, text) if a.subject in ("self", "group") else None
    a.importance = _importance(r, a.type, tlow if lang == "en" else text, a.subject)
    hedged = r.has("hedge", tlow)
    a.confidence = 0.65 if hedged else 0.9
    _validity(a, ctx)
    return a


def _infer(r: LangRules, tlow: str, a: Analysis, early: bool) -> bool:
    """Apply the first matching inference rule of this pass; True when one did."""
    for pattern, type_, template, is_early in r.inference:
        if is_early != early:
            continue
        m = pattern.search(tlow)
        if m is None:
            continue
        a.inferred = template.format(**{k: (v or "").strip() for k, v in m.groupdict().items()})
        a.subject, a.type, a.source_type = "self", type_, "inferred"
        a.keep, a.reason = True, "inferred"
        a.importance, a.confidence = 0.35, 0.5
        return True
    return False


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
    past = [t for t in a.times if t.direction < 0]
    if a.subject == "group" and r.types["knowledge"].search(tlow):
        # "We deploy on Tuesdays", "我们组每周一开周会": how the user's team or school works.
        return "knowledge"
    for name in _TYPE_ORDER:
        if not r.types[name].search(tlow):
            continue
        if name == "goal" and near_future and not any(t.deadline for t in a.times):
            return "task"
        if name == "task":
            # "周末基本都会带孩子去公园" is a habit, not a plan for this weekend.
            if near_future and not past and not r.types["behavior"].search(tlow):
                return "task"
            continue
        if name == "event" and (near_future and not past):
            return "task" if r.types["task"].search(tlow) else None
        if name == "knowledge" and a.subject == "dependent":
            continue
        return name
    if near_future and not past and r.types["task"].search(tlow):
        return "task"
    if past and any(t.precision in ("day", "week", "month") or any(c.isdigit() for c in t.phrase) for t in past) \
            and a.subject in ("self", "dependent", "group"):
        # A dated statement about the user's life is an event even without a known verb.
        return "event"
    return _fallback(tlow, a)


_EN_PAST_VERB = re.compile(
    r"\b(?:i|we) (?:\w+ )?(?:(?!need|feed|seed|speed|bleed|breed|proceed|succeed|exceed)\w+ed|went|got|had|made|took|saw|met|ran|began|came|did|found|gave|lost|won|wrote|"
    r"bought|built|spent|left|was|were|chose|drew|flew|drove|sang|swam|grew|felt|kept|heard|taught|brought|caught)\b"
)
_EN_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself|we|we're|we've|our|us)\b")


def _fallback(tlow: str, a: Analysis) -> str | None:
    """A first-person statement that no pattern typed: a dated-looking account of what the
    user did is an event, a description of what they do these days a habit; anything
    else is not kept as a memory (the turn itself is kept as an episode).

    What reaches here already passed every drop rule (question, request, hypothetical,
    sarcasm, other people, passing state).
    """
    if a.subject not in ("self", "dependent", "group"):
        return None
    if a.times and all(t.direction == 0 and t.precision == "day" for t in a.times):
        return None  # "right now", "today": a passing situation
    if re.search(r"\b(?:right now|at the moment|atm)\b|现在|此刻|这会儿", tlow):
        return None
    if a.lang != "en":
        return None
    words = len(tlow.split())
    if a.inherited:
        # "Went camping with the kids last summer": the speaker's own doing.
        starts = tlow.split(" ", 1)[0]
        if words >= 3 and (starts.endswith("ing") or starts in EN_VERB_STARTS) and _EN_PAST_VERB.search("i " + tlow):
            return "event"
        return None
    if words < 4 or not _EN_FIRST_PERSON.search(tlow):
        return None
    if re.match(r"^(?:i|we)(?:'m|'re| am| are) \w+ing\b", tlow):
        # "I'm going through PRs" is passing; "I'm currently reading The Lean Startup" or
        # a long description of what one is doing these days is not.
        if not (re.search(r"\b(?:currently|these days|lately|nowadays|recently)\b", tlow) or words >= 8):
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
