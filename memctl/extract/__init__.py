"""Offline extraction: from a cleaned conversation to memory candidates, in order.

For each user turn: mask secrets (the masked text is all memctl ever keeps), split into
clauses, analyse each (classify.py), normalise kept ones to third person
(normalize.py), attach topics. The result is a time-ordered list of items that
reconcile.py applies against the store: remember, negate ("not anymore") or forget.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Union

from ..conversations import Conversation, Turn
from .classify import _HUMAN_AFFAIRS, _ZH_CHILD, _ZH_HOUSEHOLD_MONEY, Analysis, Context, analyze, avoided, kind_had, slot_of, told_of_in
from .normalize import carried_verbs, dangling_it, normalize, polish, pronouns, readable, standing, with_time, without_time
from ..temporal import TimeRef, find_times
from ..topics import TopicRules, topics_of
from .rules import LangRules, Rules, load_rules
from .script import Reading, reading
from .secrets import MASK, mask_secrets
from .segment import MAX_CLAUSE_CHARS, language, split_clauses
from .subjects import NONE, PERSON, PET, USER, Scene

__all__ = [
    "Candidate", "Negation", "ForgetRequest", "Closure", "Dropped", "TurnRecord", "Extraction",
    "extract", "topics_of", "turn_key", "load_rules",
]


@dataclass
class TurnRecord:
    turn_key: str
    user_id: str
    session: str
    turn: str
    role: str
    time: datetime | None
    content: str  # secrets masked
    context: str | None = None  # the assistant message it answered, secrets masked
    reply: str | None = None  # the start of the assistant message that answered it, masked
    # The turn states something (a fact, an account, an opinion) rather than only asking,
    # requesting or chatting: as evidence of what is true, it counts for more.
    statement: bool = True


@dataclass
class Said:
    """Who said a clause, where and when: what every extracted item carries."""

    user_id: str
    session: str
    turn: str
    turn_key: str
    time: datetime | None
    clause: str


@dataclass
class Candidate(Said):
    """A statement to remember (or to merge into what is remembered)."""

    content: str
    type: str
    lang: str
    topics: list[str]
    slot: str | None
    importance: float
    confidence: float
    source_type: str
    negative: bool
    correction: bool
    valid_from: datetime | None
    valid_to: datetime | None
    # Whom it is about: "user", or the person, pet, thing or event ("son Noah", "店").
    subject: str = "user"
    # The event fulfils a goal said before ("I finally ran my first marathon").
    achieves: bool = False
    # A new date for the latest plan ("I rescheduled it to November").
    reschedules: bool = False
    # "correction: it's aug 21": the new date's words, for the plan said last.
    redates: str = ""
    # What the plan is called, when the new date names it ("the test got moved to the 29th").
    redates_what: str = ""
    # The day it was said to be on, when the new date says so ("复查是20号不是18号": 18).
    redates_was: int = 0


@dataclass
class Closure(Said):
    """ "The Japan trip is cancelled": the goal or plan it names is no longer on."""

    lang: str


@dataclass
class Negation(Said):
    """A bare "not anymore": the memory matching `context` (the question) stops being true."""

    context: str
    lang: str


@dataclass
class ForgetRequest(Said):
    """ "forget what I said about my address": select matching memories and forget them."""

    target: str
    recent: bool
    lang: str


@dataclass
class Dropped:
    user_id: str
    session: str
    turn: str
    clause: str
    reason: str


Item = Union[Candidate, Negation, ForgetRequest, Closure]

# Why clauses that state nothing are dropped: a turn made only of these asks or chats.
ASKING = frozenset({"question", "request for the current task", "chit-chat", "too short", "too long", "forget request"})
# How much of the assistant message after a user turn (its start) is kept as its reply.
_REPLY_CHARS = 300
# How much of the assistant message before a user turn (its end) is kept as the turn's context.
_CONTEXT_CHARS = 600


@dataclass
class Extraction:
    turns: list[TurnRecord] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    secrets_blocked: int = 0


def turn_key(user: str, session: str, turn: str, masked_content: str) -> str:
    """Identity of a user turn: re-ingesting it is recognised, and forgetting it is final."""
    raw = "\x1f".join((user, session, turn, masked_content)).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()[:32]


_FORGET_WORDS = re.compile(
    r"(?:forget|delete|erase|remove|wipe|don't|do not|stop|please|remember|store|keep|save|record|what i (?:just )?(?:said|told you|mentioned)|about|that|this|it|"
    r"忘掉|忘了吧|忘记|删掉|删除|删了|抹掉|清除|别记|不要记|不用记|别存|不要存|把|我刚才说的|我刚刚说的|刚才说的|刚刚说的|我说的|吧|的|了|请|帮我)",
    re.I,
)


def _forget_target(clause: str) -> str:
    return re.sub(r"\s+", " ", _FORGET_WORDS.sub(" ", clause)).strip(" ,，。.!！")


# "一起玩" with what was played left out, and the game or ball the clause before played.
_ZH_PLAY_TOGETHER = re.compile(r"((?:一起|一块儿?)玩(?:了|过)?)(?=[啊呀呢哦吧。！!～~]*$)")
# (The user's own liking or playing, not someone else's, not "我不打篮球".)
_ZH_I_PLAY = re.compile(r"^(?:好啊|是啊|对啊|嗯)?[，,]?我(?:也|都|还|平时|经常|最)?(?:很|挺|特别|超)?(?:喜欢|爱)?(?:打|玩)")
_ZH_PLAYED = re.compile(r"(?:打|玩)((?:电子)?游戏|[篮足排网羽乒][球毛乓]球?|桌游|剧本杀|麻将|扑克|牌|王者|吃鸡|台球|高尔夫)")


def extract(conv: Conversation, turns: list[Turn], *, rules: Rules,
            keep_tasks: bool = True, task_ttl_days: int = 14, infer: bool = True,
            min_importance: float = 0.0) -> Extraction:
    out = Extraction()
    last_assistant = ""
    scene = Scene()
    person_before = None  # whom the scene last told of before the user's latest turn
    traditional = False  # whether the user's last turn that said was in traditional characters
    race = ""  # the race the conversation named last ("the Chicago marathon")
    for turn in turns:
        races = _RACE.findall(turn.content)
        race = races[-1].lower() if races else race
        if turn.role != "user":
            last_assistant = turn.content
            # The pet or person the user's last turn told of ("我家柯基豆包这两天有点拉稀"):
            # the assistant's questions that name no one ("多大了？") ask about them.
            scene.told_of = scene.last_person if scene.last_person is not person_before else None
            said = reading(mask_secrets(turn.content, rules)[0]).text
            scene.note_assistant(said, rules.lang(language(said)), language(said))
            if out.turns and out.turns[-1].reply is None:
                out.turns[-1].reply = mask_secrets(turn.content[:_REPLY_CHARS], rules)[0]
            continue
        person_before = scene.last_person
        scene.company = ""  # "we" is whom this turn says the user was with, not someone from long before
        masked, n_secrets = mask_secrets(turn.content, rules)
        out.secrets_blocked += n_secrets
        # A turn in traditional Chinese is read in simplified characters (a secret the
        # simplified rules know is masked in both), and what is kept from it is written back
        # in the user's own; the episode keeps the turn as typed.
        read = reading(masked, traditional)
        if read.typed:
            unmasked = read.text
            read.text, n_more = mask_secrets(read.text, rules)
            if n_more:
                out.secrets_blocked += n_more
                masked = Reading(unmasked, read.typed).back(read.text)
                read = Reading(read.text, masked) if len(masked) == len(read.text) else Reading(read.text)
        if read.decided:
            traditional = bool(read.typed)
        key = turn_key(conv.user, conv.session, turn.id, masked)
        when = turn.time or conv.time
        # The end of the assistant's message: where the question this turn answers is.
        context = mask_secrets(last_assistant[-_CONTEXT_CHARS:], rules)[0] if last_assistant else None
        record = TurnRecord(key, conv.user, conv.session, turn.id, "user", when, masked, context)
        out.turns.append(record)
        first_drop = len(out.dropped)
        masked = read.text
        if context is not None:
            context = reading(context).text
        ctx = Context(reference=when, scene=scene, task_ttl_days=task_ttl_days, keep_tasks=keep_tasks, infer=infer, turn=masked)
        last_in_sentence: tuple[int, Candidate] | None = None
        sarcastic = _sarcastic(masked, rules)
        sentence = -1
        first_item = len(out.items)
        # Whether someone else has come up in this turn since the user last said 我: a Chinese
        # clause with no subject of its own ("5岁", "天天开无人机打药") after "我儿子豆豆……" or
        # "老谭……" may be about them; the turn keeps it, a memory does not guess.
        others = _names_others(context or "", rules.lang("zh")) if context else False
        # (A turn that speaks of 他 or 她 and never of 我 is about them throughout: "上周复查了
        # 医生给加了个格列美脲 …… 还说他肌酐有点高" after talk of the user's father.)
        them = re.search(r"(?:^|[，,。；\s]|说)[他她](?!们)", masked)
        about_them = them is not None and re.search(r"我(?!们)", masked) is None \
            and not _names_others(re.sub(r"[他她]", "", masked[: them.start()]), rules.lang("zh"))
        named_here: set[str] = set()  # the people and pets this turn names itself
        prev_text = prev2_text = ""  # the clauses before, kept or not: "我还有一只虎皮" before "叫小蓝"
        after_weather = False
        for n, clause in enumerate(split_clauses(masked, rules.lang("en").spell)):
            ctx.first_clause = n == 0
            if n == 0:
                ctx.prev_clause_drop, ctx.prev_avoided = None, ""
            ctx.sentence_first = clause.sentence != sentence
            if ctx.sentence_first:
                sentence, ctx.prev_drop, ctx.prev_times = clause.sentence, None, []
            if MASK in clause.text or sarcastic or ctx.prev_drop == "secret":
                # The clause after a secret ("..., I need it for the form") is about the secret.
                reason = "sarcasm" if sarcastic else "secret"
                out.dropped.append(Dropped(conv.user, conv.session, turn.id, clause.text, reason))
                ctx.prev_drop = "secret"
                continue
            if len(clause.text) > MAX_CLAUSE_CHARS:
                # A pasted blob or an endless run without punctuation states nothing to keep.
                out.dropped.append(Dropped(conv.user, conv.session, turn.id, clause.text, "too long"))
                ctx.prev_drop = "too long"
                continue
            follows_weather, after_weather = after_weather, False
            if clause.lang == "zh" and _ZH_WEATHER_REMARK.fullmatch(clause.text):
                # "8月太热了": the weather, said in passing; whom and when the next clause is about
                # stays as it was ("我们住在西安 8月太热了 打算去青海避暑"), but what follows it is
                # no more of the fact before it ("估计只能在室内": the party, not the home).
                out.dropped.append(Dropped(conv.user, conv.session, turn.id, clause.text, "not about the user"))
                after_weather = True
                continue
            if rules.lang(clause.lang).has("self_correction", clause.text.lower()) and last_in_sentence \
                    and last_in_sentence[0] == clause.sentence and last_in_sentence[1] is out.items[-1]:
                # "我在武汉一所大学教高数 哦不对 ……": the fact just said is taken back.
                taken_back = out.items.pop()
                out.dropped.append(Dropped(conv.user, conv.session, turn.id, taken_back.clause, "taken back"))
                out.dropped.append(Dropped(conv.user, conv.session, turn.id, clause.text, "correction remark"))
                last_in_sentence = None
                ctx.prev_drop = "correction remark"
                continue
            a = analyze(clause.text, clause.lang, rules, ctx)
            played = _ZH_PLAYED.search(prev_text) if clause.lang == "zh" and prev_text and _ZH_PLAY_TOGETHER.search(clause.text) \
                and _ZH_I_PLAY.match(prev_text) else None
            if played and not a.keep:
                # "我也喜欢打游戏，我在宿舍的时候经常跟舍友一起玩": played what, the clause before said.
                said = _ZH_PLAY_TOGETHER.sub(lambda m: m.group(1) + played.group(1), clause.text)
                a = analyze(said, clause.lang, rules, ctx)
                a.clause = clause.text
            if a.keep and ctx.prev_drop == "hypothetical" and not ctx.sentence_first:
                a.drop("hypothetical")  # "要是中了五百万，我立马辞职环游世界": what would follow the supposition
            favourite = (_ZH_FAVOURITE if clause.lang == "zh" else _EN_FAVOURITE).search(clause.text) \
                if not a.keep and a.reason in ("question", "request for the current task") else None
            if favourite:
                # "我可不可带上我最喜欢的米老鼠去呢", "any songs like my favorite band Radiohead?": a
                # question that takes a favourite for granted states it.
                said = f"我最喜欢{favourite.group(1)}" if clause.lang == "zh" else \
                    f"My favorite {favourite.group(1)} is {favourite.group(2)}"
                a = analyze(said, clause.lang, rules, ctx)
                a.clause = clause.text
            if clause.lang == "zh":
                if a.keep and a.inherited and not a.redates and (others or about_them) and a.about.kind == USER and not a.about.group \
                        and not a.about.joint and not a.standing \
                        and not (_HUMAN_AFFAIRS.search(a.text) and (scene.last_person is None or scene.last_person.kind == PET)) \
                        and not (_ZH_HOUSEHOLD_MONEY.search(a.text) and scene.last_person is not None
                                 and _ZH_CHILD.fullmatch(scene.last_person.relation)):
                    # (After talk of the cat, "现在在北京朝阳租房" is still the user's: a cat rents nothing.)
                    a.drop("unclear subject")
                elif a.keep and a.inherited and others and a.about.kind in (PERSON, PET) and re.match(r"[他她]", clause.text) \
                        and a.about.label not in named_here and a.about != scene.asked:
                    # "还有个大的 乐乐 七岁 …… 他每天晚上要写作业": not the husband of the turn before.
                    a.drop("unclear subject")
                if not a.inherited and a.about.kind in (PERSON, PET):
                    named_here.add(a.about.label)
                names = a.about.kind in (PERSON, PET) or _names_others(clause.text, rules.lang("zh"))
                if a.about.kind == USER and not a.inherited and (a.about.joint or not names):
                    others = False  # "我和老婆都喜欢原木风，特别讨厌大理石": the user again
                elif names:
                    others = True
            if clause.lang == "zh" and (a.keep and a.inherited and a.about.kind == USER or a.reason == "unclear subject") \
                    and _ZH_NAMED_IT.fullmatch(clause.text) \
                    and last_in_sentence and last_in_sentence[0] == clause.sentence and last_in_sentence[1] is out.items[-1] \
                    and any(_ZH_INTRODUCED.search(part) for part in re.split(r"[，,]", last_in_sentence[1].clause)):
                # "我在西安开了家小咖啡店 叫慢半拍": the shop's name, not the user's.
                named = last_in_sentence[1]
                body = without_time(named.content)
                named.content = f"{body}，{clause.text}{named.content[len(body):]}"
                named.clause = f"{named.clause}，{clause.text}"
                ctx.prev_drop = None
                continue
            if clause.lang == "zh" and a.keep and a.inherited and a.about.kind == USER \
                    and (_ZH_NAMED_IT.fullmatch(clause.text) or clause.text.startswith("名字")):
                intro = next((t for t in (prev_text, prev2_text) if t and _ZH_INTRODUCED.search(t)), "")
                if intro:
                    # "我还有一只虎皮 叫小蓝", "开了家小面馆，就在大学后门，叫老陈面馆": the name of
                    # what was brought in, said with it.
                    a = analyze(intro + clause.text, clause.lang, rules, ctx)
                    a.clause = f"{intro} {clause.text}"
                elif not (prev_text and re.search(r"我姓|我的?名字|大家叫我|我(?:的)?(?:小名|大名|网名)", prev_text)):
                    # "妹妹叫小米 …… 名字是乐乐取的": a name the clause does not say is the user's.
                    a.drop("unclear subject")
            prev2_text, prev_text = prev_text, clause.text
            ctx.prev_kind = kind_had(clause.text) if clause.lang == "en" else ""
            # (What the user cannot stand holds for the turn: "i hate cilantro, tastes like soap. never put it in anything".)
            ctx.prev_avoided = (avoided(a.text or clause.text) if clause.lang == "en" else "") or ctx.prev_avoided
            topic = re.match(r"^((?:[A-Z][a-z]+|[A-Z][a-z]+ing(?: \w+){0,3})) (?:is|are|was|were|has been)\b", a.text or "")
            ctx.prev_topic = topic.group(1) if topic and topic.group(1).lower() not in ("it", "that", "this", "there", "he", "she", "they") \
                and not re.search(r"\b(?:this|that|it|them|these|those)$", topic.group(1), re.I) else ""  # ("Learning to play this is awesome")
            scene.note_mentions(a.text or clause.text, rules.lang(clause.lang), clause.lang)
            before = scene.last_person
            scene.note_people(clause.text, rules.lang(clause.lang), clause.lang)
            if scene.last_person is not before and scene.last_person is not None:
                named_here.add(scene.last_person.label)  # "让儿子拍。他在成都上班": the son, named here
            scene.note_name(clause.text, a.about)
            if a.about.kind != NONE or a.about.name:
                # (someone named whom the user's world does not know counts too: not "she" of before)
                ctx.prev_subject = a.about
            if a.about.kind != NONE:
                if not a.inherited:
                    scene.note(a.about)
            ctx.prev_drop = ctx.prev_clause_drop = None if a.keep else a.reason
            ctx.prev_times = a.times or ctx.prev_times
            item = _item(a, conv, turn, key, when, context, rules.topics)
            if isinstance(item, Candidate) and item.lang == "en":
                item.content = scene.capitalised(item.content)
                goal = _TIME_GOAL.match(item.content) if race else None
                if goal:
                    # "goal is under 4:30" after the marathon was named: the time is the marathon's.
                    item.content = f"User's {goal.group(1)} for the {race} is {item.content[goal.end():]}"
            unkept = None
            # "我不吃牛羊肉 从小就不吃", "在备考雅思，目标7分，12月考": a leftover that says more of
            # the fact before it, unreadable or pointing back on its own.
            leftover = isinstance(item, Candidate) and clause.lang == "zh" and last_in_sentence is not None \
                and last_in_sentence[0] == clause.sentence and a.inherited and item.subject == last_in_sentence[1].subject \
                and len(a.text) <= 14 and not _ASKS.search(a.text) and not _SECOND_PERSON.search(a.text)
            if isinstance(item, Candidate) and not a.inferred and not readable(item.content, item.lang, item.subject):
                if leftover:
                    _extend(last_in_sentence[1], a, clause.text, clause.lang, rules)
                    continue
                unkept = "garbled"
            elif isinstance(item, Candidate) and leftover and not a.standing and not a.reschedules and not _ZH_POINTER.search(a.text) \
                    and _points_elsewhere(without_time(item.content), item.lang, rules.lang(item.lang)):
                # (Not "闻到那个味儿就受不了", "标题必须过她审": what they point to is elsewhere still.)
                _extend(last_in_sentence[1], a, clause.text, clause.lang, rules)
                continue
            elif isinstance(item, Candidate) and not a.standing and not a.reschedules \
                    and _points_elsewhere(without_time(item.content), item.lang, rules.lang(item.lang),
                                          dated=_says_when(item.content, item.lang, when, rules)):
                named = told_of_in(item.content, _ZH_TA.search(item.content), scene.last_person) if item.lang == "zh" else None
                if named is not None and not _points_elsewhere(without_time(named), item.lang, rules.lang(item.lang),
                                                               dated=_says_when(named, item.lang, when, rules)):
                    # "我奶奶住院了，我下周六去医院看她": 她 is whom the turn told of last.
                    item.content = named
                else:
                    unkept = "unresolved reference"
            elif isinstance(item, Candidate) and item.importance < min_importance:
                unkept = "low importance"
            if isinstance(item, Candidate) and clause.lang == "zh" and _ZH_HOW_LONG.fullmatch(re.sub(r"^我", "", a.text)):
                # "打太极 打了八年了", "把烟戒了 抽了十五年 每天一包": how long or how much of the fact
                # before; alone it says neither what nor whose.
                if last_in_sentence and last_in_sentence[0] == clause.sentence and last_in_sentence[1].subject == "user":
                    _extend(last_in_sentence[1], a, clause.text, clause.lang, rules)
                    continue
                unkept = "fragment"
            if unkept and a.implies is not None and not a.inferred:
                # "I took my 3 dogs somewhere fun": what it says of the user, if not the clause itself.
                item, unkept = _item(a.infer(*a.implies), conv, turn, key, when, context, rules.topics), None
            if unkept:
                out.dropped.append(Dropped(conv.user, conv.session, turn.id, clause.text, unkept))
                continue
            if isinstance(item, Candidate):
                out.items.append(item)
                last_in_sentence = (clause.sentence, item)
                if not a.inferred and a.implies is not None and a.implies_beside and item.type in ("task", "event"):
                    # "明天下午要带孩子去打疫苗": the plan is retired after its day; that the user has
                    # a child stays (and an event is found by its own words, not by that).
                    has = _item(replace(a).infer(*a.implies), conv, turn, key, when, context, rules.topics)
                    if isinstance(has, Candidate):
                        out.items.append(has)
                if a.inferred and not a.redates and any(t.direction > 0 for t in a.times):
                    # "明天要带儿子去打疫苗": the plan with its day as well as what it implies (has a
                    # son): the plan is retired after its day, the other stays.
                    ctx.infer = False
                    plan = analyze(clause.text, clause.lang, rules, ctx)
                    ctx.infer = True
                    planned = _item(plan, conv, turn, key, when, context, rules.topics) if plan.type in ("task", "event") else None
                    if isinstance(planned, Candidate) and planned.importance >= min_importance \
                            and readable(planned.content, planned.lang, planned.subject):
                        out.items.append(planned)
                if a.rest:
                    # "backend eng at a fintech, our team runs go services": the job, then the rest.
                    more = analyze(a.rest, clause.lang, rules, ctx)
                    more.clause = clause.text
                    then = _item(more, conv, turn, key, when, context, rules.topics)
                    if isinstance(then, Candidate) and then.importance >= min_importance \
                            and readable(then.content, then.lang, then.subject) \
                            and not _points_elsewhere(without_time(then.content), then.lang, rules.lang(then.lang)):
                        out.items.append(then)
            elif item is not None:
                out.items.append(item)
            elif last_in_sentence and _continues(a, clause.sentence, last_in_sentence[0]) \
                    and (a.about.kind == USER or a.about.label == last_in_sentence[1].subject) \
                    and not _points_elsewhere(f"{without_time(last_in_sentence[1].content)}, {a.text}", clause.lang, rules.lang(clause.lang),
                                              dated=_says_when(last_in_sentence[1].content, clause.lang, when, rules)) \
                    and len(last_in_sentence[1].clause) <= MAX_CLAUSE_CHARS \
                    and not (last_in_sentence[1].subject != "user" and re.search(r"(?<=.)[他她它]", a.text)) \
                    and not (last_in_sentence[1].subject == "user" and re.search(r"它(?!们)", a.text)) \
                    and not (last_in_sentence[1].subject != "user" and _ZH_SO.match(clause.text)) \
                    and not (last_in_sentence[1].subject != "user" and _ZH_USERS_WISH.match(clause.text)) \
                    and not (last_in_sentence[1].type != "preference" and _ZH_ASKED.search(clause.text)) \
                    and not follows_weather \
                    and not (_ZH_BARE_PROFILE.match(a.text) and last_in_sentence[1].type != "profile") \
                    and not (clause.lang == "zh" and a.about.kind == USER and a.inherited
                             and re.match(r"(?:有个|有一个|有位|有一位|有几个)", clause.text) is not None
                             and _names_others(clause.text, rules.lang("zh"))):
                # (Not "男的 30岁" after "想国庆前减到65": who the user is, no more of the aim.)
                # (Not "有个员工小王老迟到" after "刚升了主管": someone else's doing is no more of the user's fact;
                # nor "夏天太热了它掉毛特别厉害" after "我住成都": it is the pet, not the user.)
                # (Not "想给他做点低糖的面包" after "我爸有糖尿病": he is the object, the one who
                # wants is the user; "她早上七点才起" after "我老婆是老师" is still hers.)
                # A subject-less continuation ("现在在美团" after "我跳槽了") elaborates the fact before it
                # (up to a clause's length: an endless sentence does not make an endless memory).
                _extend(last_in_sentence[1], a, clause.text, clause.lang, rules)
            else:
                out.dropped.append(Dropped(conv.user, conv.session, turn.id, clause.text, a.reason))
                if last_in_sentence and (_THIS_TIME.search(a.text) or a.reason == "unclear subject" or _ZH_SO.match(clause.text)
                                         or clause.lang == "zh" and not a.inherited and a.about.kind == USER
                                         and last_in_sentence[1].subject != "user"
                                         or not a.inherited and a.about.kind in (PERSON, PET)
                                         and a.about.label != last_in_sentence[1].subject):
                    # "我妈膝盖不好 爬山不行 我爸啥都行 就是血压有点高": after 我爸 the next subject-less
                    # clause is no longer about 妈; after "这周数据：……" "播放80万" is no part of the job.
                    # ("我们家吃素的，我跟我老婆都是，鸡蛋牛奶倒是可以": still the user's diet.)
                    # ("乐乐 七岁 上二年级 …… 我一边哄小的一边辅导 头都大了": the last is the user.s, not 乐乐.s.)
                    last_in_sentence = None
        if rules.lang(language(masked)).has("no_store", masked) and any(isinstance(i, Candidate) for i in out.items[first_item:]):
            # "nobody at work knows yet so dont save this", "你千万别记下来": what this turn says
            # is not to be kept, neither as a memory nor as an episode.
            for item in out.items[first_item:]:
                out.dropped.append(Dropped(conv.user, conv.session, turn.id, item.clause, "asked not to keep"))
            del out.items[first_item:]
            out.turns.remove(record)
        if read.typed:
            for item in out.items[first_item:]:
                _write_back(item, read)
            for dropped in out.dropped[first_drop:]:
                dropped.clause = read.back(dropped.clause)
        # The assistant's question is answered by the turn after it, not by every turn until it speaks again.
        scene.asked_text = scene.asked_object = scene.asked_predicate = ""
        record.statement = any(isinstance(i, Candidate) for i in out.items[first_item:]) or any(
            d.reason not in ASKING for d in out.dropped[first_drop:])
    named = {i.subject for i in out.items if isinstance(i, Candidate) and i.source_type != "inferred"}
    for item in [i for i in out.items if isinstance(i, Candidate) and i.source_type == "inferred"
                 and i.subject != "user" and i.subject in named]:
        # "my grandson Cian waters it when I'm away, he's 14": that the user has him is said by
        # what the conversation keeps of him.
        out.items.remove(item)
        out.dropped.append(Dropped(item.user_id, item.session, item.turn, item.clause, "said by another memory"))
    return out


def _write_back(item: Item, read: Reading) -> None:
    """What was kept from a traditional Chinese turn, in the user's own characters."""
    for name in ("content", "clause", "subject", "target", "context"):
        value = getattr(item, name, None)
        if isinstance(value, str):
            setattr(item, name, read.back(value))


def _relative(times: list[TimeRef], text: str) -> list[TimeRef]:
    """The one time word that `text` keeps and that means nothing without the day it was
    said ("预产期是明年1月中", "今年六月中考", "since last year"): a memory says which it was."""
    if _RECURRING.search(text):
        return []  # "每年四五月最严重", "tues and thurs": a time that comes round again is no date
    found = [t for t in times if t.phrase.lower() in text.lower() and not _NOT_A_DATE.search(t.phrase)]
    # ("从11月一直到明年2月", "今年高二，明年高考": two times, and one label would say only one;
    # "今年" and "年底前" of "今年年底前" are one.)
    if len({t.label() for t in found}) != 1 or not any(_RELATIVE.search(t.phrase) or _day_in_full(t, text) for t in found):
        return []
    return [next((t for t in found if t.deadline), found[0])]


# A time said relative to the day ("last year", "明年1月"), not a month alone, whose year the
# time finder can only guess ("keto since january").
_RELATIVE = re.compile(r"\b(?:this|next|last|past|coming|ago|yesterday|tomorrow|tonight)\b|[今明去前后昨][年天]|[上下这本][个一]?(?:月|周|星期|礼拜)|"
                       r"年底|月底|年初|月初", re.I)


def _day_in_full(t: TimeRef, text: str) -> bool:
    """A day named in full ("十月二号结婚", "feb 9", "turns 6 on the 27th"), not an ordinal that
    may be no day at all ("down 10 in the 4th", "money for the 2nd place")."""
    return t.precision == "day" and (re.search(r"[号日]|\d/\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|^on\b", t.phrase, re.I) is not None
                                     or re.search(rf"\bon (?:the )?{re.escape(re.sub(r'^the ', '', t.phrase, flags=re.I))}", text, re.I) is not None)


# A time that comes round again ("每年四五月", "every spring"): no date makes it clearer.
_RECURRING = re.compile(r"每|\b(?:every|each|annually|yearly|monthly|weekly)\b", re.I)

# Words a time finder reads as a time but that no date makes clearer: now, and a weekday
# said alone (mostly a day that comes round again: "works tues thurs and sat").
_NOT_A_DATE = re.compile(r"^(?:now|right now|currently|these days|nowadays|现在|目前|如今|(?:周|星期|礼拜)[一二三四五六日天末]"
                         r"|(?:on )?(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?)$", re.I)


# A race, and a time aimed at with no race named: "goal is under 4:30" said of the race before.
_RACE = re.compile(r"\b(?:half[- ]marathon|ultra[- ]?marathon|marathon|half[- ]ironman|ironman|triathlon|10k|5k)\b", re.I)
_TIME_GOAL = re.compile(r"^User's (goal|target|aim) is (?=(?:(?:sub|under|below)[- ]?\d{1,2}(?::\d\d)?|(?:around |about )?\d{1,2}:\d\d)"
                        r"(?: ?(?:hrs?|hours?))?\W*$)")  # (not "8 hours" of sleep: a race time)


def _says_when(content: str, lang: str, when: datetime | None, rules: Rules) -> bool:
    """Whether a memory says when, by its date label or a date in its words ("User's son's
    birthday is March 3, they'll have a party that weekend"), not one that comes round again
    ("每周六")."""
    body = without_time(content)
    return body != content or (not _RECURRING.search(body) and bool(find_times(body, lang, when, rules.temporal)))


# 他, 她, 它 (not 他们, 其他, 吉他, 他人, 氯雷他定).
_ZH_TA = re.compile(r"(?<![其吉])[他她它](?!们|定|人)")


# This, that, he, she, it: words that point to what another clause named.
_ZH_POINTER = re.compile(r"[这那他她它]")


def _extend(prev: Candidate, a: Analysis, clause: str, lang: str, rules: Rules) -> None:
    """Add a subject-less clause to the memory before it in the same sentence."""
    sep = "，" if lang == "zh" else ", "
    body = without_time(prev.content)  # "用户上个月被裁了，现在在家歇着（2026-10）"
    more = pronouns(a.text, lang, about_other=prev.subject != "user")  # ("..., she cries when I go to bed")
    if lang == "zh" and prev.content.startswith("用户希望") and re.match(r"(?:别|不要|不用|也|都|请|用|多|少)", a.text):
        more = standing(a.text, lang)[len("用户希望"):]  # "用公制单位 别给我英制的": the rule goes on
    if lang == "en" and prev.content.startswith("User "):
        more = carried_verbs(more)  # "..., haven't in a while": the user's verb
    suffix = prev.content[len(body):]
    relative = _relative(a.times, more)
    if relative:
        if not suffix:
            suffix = with_time("", language(body) if lang == "zh" else "en", relative[0].label())
        elif prev.type not in ("event", "task", "goal"):
            suffix = ""  # "今年高二，明年高考": two times now, and the label would say only the first
    prev.content = polish(f"{body}{sep}{more}", lang) + suffix
    prev.clause = f"{prev.clause}{sep}{clause}"
    prev.topics = sorted(set(prev.topics) | set(topics_of(a.text, rules.topics)))
    if prev.slot is None and prev.subject == "user":
        prev.slot = slot_of(rules.lang(lang), prev.clause)


# "叫慢半拍" after "开了家小咖啡店", "叫咪咪" after "我家有只猫": the name of what the clause
# before brought in with a measure word.
_ZH_NAMED_IT = re.compile(r"(?:名字|店名|名)?叫[\u4e00-\u9fffA-Za-z0-9]{1,10}")
_ZH_INTRODUCED = re.compile(r"(?:开了|开|养了|养|有|买了|注册了|创了|成立了|领养了|捡了)(?:一)?(?:家|只|条|个|间|辆|头|匹|所|支)[\u4e00-\u9fffA-Za-z]{0,8}$")


def _names_others(text: str, r: LangRules) -> bool:
    """Whether a Chinese text speaks of another person: a relation (儿子, 同事), he or she, a
    name such as 老谭 or 小凯, or someone met (客人, 老爷子): `others_mentioned` in zh.toml."""
    return r.has("others_mentioned", text) or any(kind in (PERSON, PET) for _word, kind in r.relations_in(text))


# Who the user is, said bare: "男的 30岁", "身高178".
_ZH_BARE_PROFILE = re.compile(r"(?:男|女)(?:的|生|性)?(?:\s|，|,|$)|\d{1,2}\s*岁|(?:月薪|年薪|身高|体重)")
# The weather of a month or season, a clause of its own: "8月太热了", "冬天特别冷".
_ZH_WEATHER_REMARK = re.compile(r"(?:(?:\d{1,2}|[一二三四五六七八九十]{1,3})月份?|夏天|冬天|春天|秋天)(?:的时候)?(?:太|很|特别|超|好|挺|非常|巨|贼)?"
                                r"(?:热|冷|晒|闷|潮|干)(?:死)?[了啊呀]?"
                                # "最近股市好乱": the market, said in passing.
                                r"|(?:最近|这几天|今天|今年)?(?:股市|大盘|A股|美股|港股|基金|币圈|行情|房价|油价|金价)(?:最近|这几天)?"
                                r"(?:太|很|特别|超|好|挺|非常|巨|贼|又)?(?:乱|跌|涨|差|惨|疯|猛|难|绿|红)(?:了|啊|呀|得厉害|得厉害了)*")
# A question tacked on ("…广场舞，有啥推荐的", "…, is sharing a kitchen gonna be a problem").
_ASKS = re.compile(r"[?？]|[吗呢嘛]$|啥|什么|怎么|哪|有没有|是不是|推荐|多久|多少|几点|能不能|可不可以|好不好|行不行|建议|^(?:is|are|am|do|does|did|can|could|should|would|will|"
                   r"what|how|why|where|when|which|who|any)\b", re.I)
_ZH_FAVOURITE = re.compile(r"我最(?:喜欢|爱)的(?![那这哪一])([\u4e00-\u9fffA-Za-z]{2,6}?)(?:那种|这种|那样|的|去|来|一起|了|呢|吗|吧|[，。？！?!]|$)")
_EN_FAVOURITE = re.compile(r"\bmy (?:all-time |absolute )?fav(?:ou?rite|e) ([a-z]+(?: [a-z]+)?),? (?:is |was )?"
                           r"((?:[A-Z][\w'-]*|&)(?: (?:[A-Z][\w'-]*|&|of|the))*)")
_THIS_TIME = re.compile(r"这周|本周|今天|今晚|刚才|这次|这个月的|\b(?:today|tonight|this week|this time)\b", re.I)
# A wish after someone else's fact ("早餐都是他做 厨房也想顺便升级下"): the user's, not theirs.
_ZH_USERS_WISH = re.compile(r"^(?:[^，。他她它]{0,6}?也|还)?想")
# What the user asks for after a fact ("想学做饭，先教我个番茄炒蛋呗", "我乳糖不耐，别拉肚子"): no more of the fact.
# (After a rule for answers, "别……" is more of the rule: "回答尽量简短，别啰嗦".)
_ZH_ASKED = re.compile(r"^(?:先|再|顺便|那)?(?:教我|给我|帮我|给个|来个|列个|写个|出个|发个|做个|别(?!的|人|处|家))|呗[！!~～。]*$")
_SECOND_PERSON = re.compile(r"\b(?:you|your|you're|you've|you'll)\b|你|您", re.I)


# "老婆怀孕了，预产期明年3月，所以甲醛特别在意": what follows from someone's fact is the
# user's own concern, no more of that person's fact.
_ZH_HOW_LONG = re.compile(r"(?:[\u4e00-\u9fff]{1,2}了(?:快|差不多|大概|将近|有)?(?:\d+|[一二两三四五六七八九十几]+)多?(?:年|个月|周|天)多?了?"
                          r"|(?:每天|每周|一天|一周|每个月|一个月)[一二两三四五六七八九十半\d]+(?:包|根|杯|瓶|次|个|支|片|粒|斤|公斤))")
_ZH_SO = re.compile(r"(?:所以|因此|于是|因为这样|这样的话)")


def _continues(a: Analysis, sentence: int, kept_sentence: int) -> bool:
    """Whether a dropped clause elaborates the fact kept just before it in the same turn.

    "现在在美团" after "我跳槽了": a subject-less, short clause of the same sentence adds its
    words to that memory. Reactions ("The kids loved it!") stay in the episode.
    """
    if _SECOND_PERSON.search(a.text) or len(a.text) > 120 or _ASKS.search(a.text) or _THIS_TIME.search(a.text):
        return False  # (nor "这周数据：小红书涨粉1200": this week's numbers are no part of a lasting fact)
    return a.reason == "no durable signal" and a.inherited and sentence == kept_sentence and len(a.text) <= 40


# The turn's sarcasm patterns ("oh great, ... again") scan the rest of the line from every
# cue word: a long turn is searched in windows of this many characters, each overlapping
# the next by half, so that its cost grows with its length, not with its square. A cue and
# its complement up to half a window apart are still found; chat turns are shorter than
# one window and searched whole, as always.
_SARCASM_WINDOW = 4000


def _sarcastic(text: str, rules: Rules) -> bool:
    r = rules.langs[language(text)]
    if _turn_has(r, "sarcasm_turn", text):
        return True
    return "sarcasm_caps" in r.p and r.has("sarcasm_caps", text) and _turn_has(r, "sarcasm_turn", text.lower())


def _turn_has(r: LangRules, name: str, text: str) -> bool:
    pattern = r.p.get(name)
    if pattern is None or len(text) <= _SARCASM_WINDOW:
        return r.has(name, text)
    step = _SARCASM_WINDOW // 2
    return any(pattern.search(text, i, i + _SARCASM_WINDOW) for i in range(0, len(text) - step, step))


def _item(a: Analysis, conv: Conversation, turn: Turn, key: str, when: datetime | None,
          context: str | None, topic_rules: TopicRules) -> Item | None:
    if a.forget:
        return ForgetRequest(conv.user, conv.session, turn.id, key, when, a.clause,
                             _forget_target(a.clause), a.forget_recent, a.lang)
    if a.bare_negation:
        if not context:
            return None
        return Negation(conv.user, conv.session, turn.id, key, when, a.clause, context, a.lang)
    if a.cancels:
        return Closure(conv.user, conv.session, turn.id, key, when, a.clause, a.lang)
    if not a.keep or a.type is None:
        return None
    if a.inferred:
        content = polish(a.inferred, a.lang)
    else:
        content = normalize(a.text, a.lang, a.about, a.found.end, a.inherited, standing_request=a.standing)
    labelled = [t for t in a.times if (a.type == "event" and t.direction <= 0) or (a.type in ("goal", "task") and t.direction >= 0)]
    if a.type == "event" and not labelled and (not a.about.is_user or a.dated_ahead):
        labelled = [t for t in a.times if t.direction > 0]  # "预计下周开业": when the user's thing or event is
    if not (labelled and a.type in ("event", "task", "goal")) and a.type != "knowledge":
        # (How a team or a company works comes round: "the fiscal year starts in april".)
        labelled = _relative(a.times, content)
    if labelled:
        t = labelled[-1] if a.type != "event" else labelled[0]
        content = with_time(content, language(content) if a.lang == "zh" else "en", t.label(), deadline=t.deadline)
    return Candidate(
        user_id=conv.user, session=conv.session, turn=turn.id, turn_key=key, time=when, clause=a.clause,
        content=content, type=a.type, lang=a.lang, topics=topics_of(content + " " + a.clause, topic_rules),
        slot=a.slot, importance=a.importance, confidence=a.confidence, source_type=a.source_type,
        negative=a.negative, correction=a.correction, valid_from=a.valid_from, valid_to=a.valid_to,
        subject=a.about.label or "user", achieves=a.achieves, reschedules=a.reschedules, redates=a.redates, redates_what=a.redates_what, redates_was=a.redates_was,
    )


def _points_elsewhere(text: str, lang: str, r: LangRules, dated: bool = False) -> bool:
    """Whether a finished memory's fact hangs on a word naming something said elsewhere; "that
    week", "by then" only when the memory carries no date of its own ("... off work that week
    (2026-12-14)" says when)."""
    return r.has("points_elsewhere", text) or (not dated and r.has("points_elsewhere_undated", text)) \
        or (lang == "en" and dangling_it(text))
