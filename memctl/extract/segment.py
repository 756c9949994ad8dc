"""Splitting a user turn into clauses, in Chinese and English.

Sentences end at 。！？!?；; and line breaks (and at '. ' before a capital in English);
clauses split at Chinese commas and at English conjunction boundaries (", but", ", so",
"and I"). Code blocks and inline code are task material, never memories: removed first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..lexical import HAN, LATIN
from ..temporal import ZH_NOT_A_DAY

_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")

_NOT_SENTENCE_END = "".join(
    rf"(?<!\b{a}\.)" for a in ("Mr", "Mrs", "Ms", "Dr", "St", "e\\.g", "i\\.e", "etc", "vs", "U\\.S", "No", "a\\.m", "p\\.m",
                                 "approx", "mins", "hrs", "yo", "ft", "lbs", "mo", "wk")
)
# A sentence ends at a full stop before a capital, and before a lower-case letter too: chat
# is often typed without capitals ("budget around 1900 max. no car, sold it").
_SENTENCE_END = re.compile(
    r"(?<=[。！？；])\s*|(?<=[!?;])\s+|\n+|(?<=\.)(?<!\.\.)" + _NOT_SENTENCE_END + r"\s+(?=[A-Za-z\"“'\u3400-\u9fff])"
    # "its about 5 hrs. my brother dave lives closer": a unit's dot, then a sentence about
    # someone of the user's. (Not "lost 20 lbs. also quit smoking": the user's still.)
    r"|(?:(?<=\bhrs\.)|(?<=\bmins\.)|(?<=\blbs\.)|(?<=\bwk\.)|(?<=\bmo\.)|(?<=\bft\.))\s+"
    r"(?=(?:my|our) [a-z]+)"
    # "our two girls (9 and 13). 6 nights, flying out march 14": a bracket closed, then a new sentence.
    r"|(?<=\)\.)\s+(?=\d)"
    # "what if i just... walked it": an ellipsis before a lower-case word trails off mid-sentence.
    r"|(?<=\.\.)\s+(?=[A-Z\"“'\u3400-\u9fff])"
    r"|(?<=[!?])(?=[\u3400-\u9fff])"
    # "adopted a retired greyhound 🐕 her name is Pepper": an emoji ends what was said before it.
    r"|\s*[\U0001F300-\U0001FAFF\u2600-\u27BF]+\uFE0F?\s*(?=\S)"
)
# Chinese clause commas; an ASCII comma counts when a Chinese character is next to it.
# A whitespace run is tried from its start only ((?<!\s)): tried from inside too, a long
# run (pasted padding) costs its length squared, and never splits anywhere else.
# Chat typed without punctuation puts a space where the comma goes ("已经过了两轮 终面是10月20号").
_ZH_CLAUSE = re.compile(r"[，～~]|(?<=[\u3400-\u9fff]),|,(?=\s*[\u3400-\u9fff])|(?<!\s)\s+[-—–]+\s+|—+"
                        r"|(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])"
                        # "在朝阳租房 4月底要搬到通州": a date opening the next clause.
                        r"|(?<=[\u3400-\u9fff])\s+(?=\d{1,4}(?:月|号|日|点|年)[\u3400-\u9fff])"
                        r"|(?<=[\u3400-\u9fff])[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]+\s+(?=[\u3400-\u9fff])"
                        # "我今年29 住在杭州": a number ending a Chinese clause, then a space.
                        r"|(?:(?<=[\u3400-\u9fff]\d)|(?<=[\u3400-\u9fff]\d\d)|(?<=[\u3400-\u9fff]\d\d\d))\s+(?=[\u3400-\u9fff])"
                        # "我现在天天吃冰淇淋爸爸也不能管我了": typed without a comma, someone else
                        # opens the next clause (not "跟爸爸也…", "是妈妈也…": there they are the object).
                        r"|(?<=[\u3400-\u9fff]{3})(?<![和跟同与的给让叫被把对替向找带见看等请送教是像陪帮问我你他她咱俺])"
                        r"(?=(?:爸爸|妈妈|老婆|老公|儿子|女儿|孩子|老板|老师|同事|朋友)(?:也|都|还|就|又)(?:不|没|会|能|要|是|很|在))")
# English: split before a conjunction that opens a new clause.
_EN_CLAUSE = re.compile(
    r",\s+(?=(?:but|so|and|even though|even if|though|although|because|bc|cuz|since|while|whereas|plus|yet|if|i|i'm|i've|i'd|my|"
    r"he's|she's|he is|she is|now i'm|now im|now i)\b)"
    # "her name is Pepper shes 4": an age said after a name, with no comma between.
    r"|(?<=[A-Z][a-z]) (?=(?:he's|she's|he is|she is) \d{1,2}\b)"
    # "my cat is on kidney meds twice a day now, vet says for life": what someone else said, after the fact.
    r"|,\s+(?=(?:the |my |our |her |his )?(?:vet|doctor|doc|gp|dentist|physio|therapist|nurse|specialist|surgeon|consultant|"
    r"midwife|pediatrician|paediatrician)s? (?:says|said|thinks|reckons|told (?:me|us))\b(?! (?:that )?(?:my|i|i'm|i've|our|we)\b))"
    # "I'm a primary teacher in melbourne, Sam's a physio": someone else's fact, by name.
    r"|,\s+(?=[A-Z][a-z]+'s (?:a|an)\s)"
    # "I hate cilantro, leave it out of anything you suggest", "..., so keep that in mind":
    # what is asked of the assistant is a clause of its own; the fact before it stays.
    r"|(?:,\s+|\s+(?=so\s))(?=(?:so\s+)?(?:pls|please|plz|kindly|leave|keep that|keep this|bear|remember|make sure|don't|do not|dont|never (?:ever )?(?:put|add|include|suggest|recommend|mention|(?:give|send|book|schedule|show|tell) me)|when (?:you|u) |help me |"
    r"avoid|skip|no need|pray for|wish (?:me|us) luck|(?:put|add|include|mention) (?:her|his|their|my|our|its|the|it|them|that|this)|"
    r"factor (?:that|it|this) in|take (?:that|it|this) into account|(?:send|tell|show|give|remind) me)\b)"
    # "my husband dev is a structural engineer, he'll probably ask u bridge questions", "i moved to
    # denver not boulder, u keep saying boulder": what is said of the assistant after the fact.
    r"|,\s+(?=(?:he|she|they)(?:'ll| will| might| may) (?:probably |prob |likely |def |definitely )?(?:ask|message|text|bug|talk to|use) (?:u|you)\b)"
    r"|,\s+(?=(?:u|you) (?:keep|kept) (?:saying|calling|writing|getting|mixing|putting|using)\b)"
    # "she's really into pottery so anything like that would be great": the ask after the fact.
    r"|,?\s+(?=so\s+(?:anything|something|any (?:ideas|tips|suggestions|recs|recommendations)|ideas|suggestions|"
    r"recommendations|recs)\b)"
    # "hannah uses a wheelchair btw so can we avoid the summit", "she's into axolotls so that's the
    # theme": a request, or a remark on the fact, after it.
    r"|,?\s+(?=(?:btw\s+|lol\s+)?so\s+(?:(?:can|could|would|will)\s+(?:we|you|u|i)|(?:that's|that is|it's|it is|this is)\s+(?:the|a|an|why|what|how))\b)"
    # "i'm diabetic so what snacks r ok for a road trip?": the question the fact leads to.
    r"|,?\s+(?=so\s+(?:what|which|how|where|any|should)\b[^.!?]{0,100}\?)"
    # "..., is it bad to do it on an empty stomach": a question tacked on after a comma.
    r"|,\s+(?=(?:is it|is that|is this|should i|can i|do i|would it|will it|does it|any tips|any ideas|"
    r"can you|could you|can u|could u|would you|will you|(?:gift |any )?ideas for|what (?:colou?r|should|would|do|can|kind|type|size)|"
    r"recommend(?: me)?|recs for|suggestions for|thoughts on)\b|any\s[^,.!?]{0,80}\?)"
    # "... since 2019 and on big days i struggle to ...": a second statement after a phrase.
    r"|(?<!\s)\s+(?=and\s+(?:on|in|at|for|during|after|before|these)\s+(?:[\w']+\s+){0,3}(?:i|i'm|i've)\s)"
    r"|(?<!\s)\s+(?=(?:but|and|so|because|bc|cuz|though|although)\s+(?:i|i'm|i've|i'd|i'll|my|we|we're|our|he|she|they|it|it's)\b)"
    # "ava's vegetarian and noah's allergic to nuts": a second person's fact.
    r"|(?<!\s)\s+(?=and\s+[a-z]+'s\s+(?:allergic|vegetarian|vegan|scared|afraid|terrified|into|obsessed|a|an|in|at|from|\d+)\b)"
    r"|\s+(?:lol|lmao|haha+|pls|plz|tbh|ngl)\s+(?=(?:i|im|i'm|i've|we|my)\b)"  # "bday in june lol im a mess"
    # A remark spliced on with a comma: "I love sci-fi movies, the effects are so cool".
    r"|,\s+(?=(?:it's|it is|it was|that's|that is|that was|this is|they're|they are|the \w+ (?:is|are|was|were))\b)"
    # (Not a range of dates: "dec 20 – jan 3".)
    r"|(?<!\s)(?<!\d)\s+[-—–]+\s+|(?<=\d)\s+[-—–]+\s+(?!\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d)|(?<!\d )(?<!\d)—+"
    # "a trip to Rio de Janeiro- we checked out some yoga classes": a dash typed against the word.
    r"|(?<=[a-z])-\s+(?=(?:we|i|i'm|i've|we're|we've|my|our)\b)",
    re.I,
)


# A clause longer than this is no statement to remember (nothing said in chat runs this
# long without a comma or a full stop): a pasted blob, a log line, one endless "word".
# It is dropped before the analysis, whose patterns need not be fast on such input.
MAX_CLAUSE_CHARS = 1000

# "When I was 10" + "my parents gave me a console": a time or condition that belongs to
# the clause after it.
_SUBORDINATE = re.compile(r"^(?:(?:also|and|so|but|oh|ok|okay)\s+)?(?:(?:in general|generally|usually|normally|always),?\s+)?"
                          r"(?:when|whenever|every time|each time|any ?time|while|once|after|before|since|until|as soon as|back when|ever since|"
                          r"if(?! (?:you can|you could|possible|it helps|that helps|that's ok|that's okay|you don't mind|you want|u can|needed)\b))\b", re.I)
# "my girlfriend" + "and I went fishing": a subject of two, not two clauses.
_JOINT_TAIL = re.compile(r"\b(?:my|our)\s+[\w-]+(?:\s+[\w-]+|,\s+[A-Z][a-z]+)?$|^[A-Z][a-z]+$"
                         r"|^(?:\w+\W+){0,3}the (?:gf|bf|wife|husband|hubby|kids|boys|girls|fam|family|dogs|pups)$", re.I)
_JOINT_HEAD = re.compile(r"and (?:i|me)\b", re.I)
# "Yesterday, me" + "and my neighbor ran a class": the same, the other way round.
_ME_TAIL = re.compile(r"(?:^|[\s,])(?:me|i)$", re.I)
_MY_HEAD = re.compile(r"and (?:my|our)\s", re.I)
# "problem-solving, patience" + "and perseverance": the last item of a list, not a clause.
_LIST_END = re.compile(r"and (?!(?:i|i'm|i've|i'd|i'll|me|my|we|we're|we've|our|he|she|they|it|it's|then|so|also|now|still|that|this|"
                       r"that's|there|you)\b)[\w'-]+(?:\s+[\w'-]+){0,7}$", re.I)


# "Also, last weekend" + "I had the opportunity to attend a rock concert": a time said
# before the clause it dates, not a clause of its own.
# Chinese time words that date a clause when said before it ("这周日，我老婆在家做大餐",
# "上个月我被裁了"): one vocabulary for the segmenter and for classify's lead time.
_ZH_N = "(?:\\d{1,3}|[一二三四五六七八九十]{1,3})"
ZH_TIME_WORDS = (
    r"(?:昨天|前天|今天|明天|后天|昨晚|今晚|明晚|明早|今年|去年|前年|明年|周末|月底|年底|最近|前几天|刚才|以前|之前|小时候"
    r"|(?:上|这|下|本)(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]?|(?:上|这|下|本)(?:个)?月(?:底|初|中)?|周[一二三四五六日天末]"
    rf"|{_ZH_N}月份?(?:{_ZH_N}[日号]?)?|{_ZH_N}[号日]|(?:19|20)\d\d年|{_ZH_N}(?:天|周|个月|年)前)"
    r"(?:早上|上午|中午|下午|晚上)?")
# A Chinese clause that is only a time ("这周日", "下个月", "明天晚上"): it dates the next one.
_ZH_LEAD_TIME = re.compile(rf"^(?:那|对了|然后|而且|另外)?{ZH_TIME_WORDS}(?:的时候)?$")
_LEAD_TIME = re.compile(
    r"^(?:那|对了|然后|而且|另外)?(?:(?:这|下|上|本)(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]?|(?:这|下|上|本)(?:个)?月(?:底|初|中)?"
    r"|今天|明天|后天|昨天|前天|今晚|明晚|周末|月底|年底|今年|明年|去年|(?:\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\d{1,2}|[一二三四五六七八九十]{1,3})?[日号]?)"
    r"(?:早上|上午|中午|下午|晚上|的时候)?$")
_LEAD_TIME = re.compile(
    r"^(?:(?:also|and|but|so|then|oh|well|plus|anyway|btw|yeah|yes|ok|okay)\W+)*"
    r"(?:(?:last|this|next|past) (?:week|weekend|month|year|night|summer|winter|spring|fall|autumn|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|yesterday|today|tonight|tomorrow|recently|lately|earlier today|"
    r"the other day|over the weekend|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"(?:a few|a couple of|two|three|four|five|\d+) (?:days|weeks|months|years) ago)$", re.I)
# "Skiing, snowboarding" + "and ice skating are all fun winter activities I enjoy": the
# head of a list whose verb comes after its last item.
_LIST_HEAD = re.compile(r"^[\w'-]+(?: [\w'-]+){0,2}(?:, [\w'-]+(?: [\w'-]+){0,2})+$")
_LIST_LAST = re.compile(r"^and (?!(?:i|me|my|we|our|he|she|they)\b)[\w'-]+(?: [\w'-]+){0,2} (?:are|were) (?:all|both|my|our|some|the)\b", re.I)
# "I had a great hike with some friends" + "and my girlfriend at the spot we found": one
# more of the company, said with where it was, not a clause with a verb of its own.
_COMPANY_TAIL = re.compile(r"^and (?:my|our) [\w-]+(?: [\w-]+)?(?:\s+(?:at|in|on|from|by|near|to)\b(?P<rest>.*))?$", re.I)
_OWN_VERB = re.compile(r"(?<!\bwe )(?<!\bi )(?<!\bthey )(?<!\byou )(?<!\bhe )(?<!\bshe )"
                       r"\b(?:is|are|was|were|has|had|have|will|would|can|loves?|likes?|works?|lives?|wants?|needs?)\b", re.I)


def _company_tail(part: str) -> bool:
    m = _COMPANY_TAIL.match(part)
    return m is not None and not _OWN_VERB.search(m.group("rest") or "")


@dataclass
class Clause:
    text: str
    lang: str
    sentence: int


def language(text: str) -> str:
    # Counted with subn, not findall: no list of a million one-character strings for a long text.
    cjk = HAN.subn("", text)[1]
    if cjk == 0:
        return "en"
    latin = LATIN.subn("", text)[1]
    # Mixed text that opens in Chinese ("帮我prep一下interview questions") reads as Chinese.
    return "zh" if cjk * 4 >= latin or HAN.match(text.lstrip()) else "en"


def strip_code(text: str) -> str:
    return _INLINE_CODE.sub(" ", _CODE_BLOCK.sub(" ", text))


_BECAUSE_THEN_I = re.compile(r"^((?:and |but |so )?(?:since|because|cause|cuz|bc|as) (?:i|i'm|i've|my|we|we're|our)\b.*?[\w)])\s+"
                             r"(?=(?:i|i'm|i've|i'd|i'll)\s)", re.I)


# "exam got moved. april 11 now": the new date said as a sentence of its own belongs to the
# change ("exam got moved to april 11 now"), or the change is kept without its value.
_MOVED_THEN_WHEN = re.compile(
    r"\b(moved|rescheduled|postponed|pushed(?: back)?|delayed|bumped)\s*[.!]+\s+(?:(?:it's|its|it is|now)\s+)?(?:to\s+)?"
    r"(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|(?:next\s+|this\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|tomorrow\b|next (?:week|month|year)\b)", re.I)


# "my mom is a nurse she works nights": two sentences typed as one, the second starting
# with "she" or "he" right after what the first said someone is ("a photo I took" is one).
_RUN_ON = re.compile(r"\b(?:is|was|'s) (?:a|an) (?:[\w-]+ ){0,3}?[\w-]+ "
                     r"(?=(?:she|he)(?:'s)? (?!(?:is|was|and|or|who|that)\b)[a-z]+)", re.I)


def _run_on(part: str) -> list[str]:
    m = _RUN_ON.search(part)
    if m is None:
        return [part]
    return [part[: m.end()].rstrip(), *_run_on(part[m.end():])]


# "叫" waiting for a name typed after a space, and a name: a few Han characters that are not
# a pronoun, or a Latin word.
_ZH_CALLED = re.compile(r"(?:^|[只条个位])(?:叫|名叫|姓)$")
_ZH_NAME_PART = re.compile(r"(?![我你他她它咱俺])[\u4e00-\u9fff]{1,3}|[A-Za-z][\w-]{0,15}")
# What changed ("迁移 deadline 提前了"), then to what ("现在换成明年1月31号").
_ZH_CHANGED = re.compile(r"^[^，。]{1,16}?(?:提前|推迟|延期|延后|改|变|换)了$")
_ZH_NEW_VALUE = re.compile(r"(?:现在|已经|目前)?(?:换成|改成|改为|变成|改到|提前到|推迟到|延期到|延后到|定在|定到)")
# A Chinese part that cannot end a clause: a preposition or a verb still waiting for its place.
_ZH_OPEN_END = re.compile(r"(?:^|我|我们|打算|准备|计划|想|要|会|还|也|都|就|明年|今年)(?:在|去|到|往|跟|和|给|把)$"
                          # "以后给建议的时候 直接给我一句话": when, then the rule.
                          r"|(?:的时候|时候)$"
                          # "现在换成 明年1月31号之前完成": the new value after a space.
                          r"|(?:换成|改成|改为|变成|推迟到|提前到|延期到|改到)$")


_ZH_MONTH_DAY = re.compile(r"(\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\d{1,2}|[一二三四五六七八九十]{1,3})[号日]")
_ZH_BARE_DAY = re.compile(r"(?<![\d月周期拜一二三四五六七八九十])(?=(?:\d{1,2}|[一二三四五六七八九十]{1,3})[号日]" + ZH_NOT_A_DAY + ")")


def _month_carried(parts: list[str]) -> list[str]:
    """"10月1号走，7号回": a day said without its month, in the sentence that just said one,
    is in that month ("10月7号回"), not in the month the message was written."""
    month, out = None, []
    for part in parts:
        said = list(_ZH_MONTH_DAY.finditer(part))
        if said:
            month = said[-1].group(1)
        elif month and "月" not in part:
            part = _ZH_BARE_DAY.sub(month + "月", part, count=1)
        out.append(part)
    return out


# A number opening an answer to one of several numbered questions, typed on one line.
# ("1 of my sons", "1 month ago", "2 weeks ago": counts, not numbers of answers.)
_ANSWER_NUMBER = re.compile(r"(?:^|(?<=\s))([1-9])[.):]?\s+(?=[^\W\d])(?!(?:of|more|less|or|and|to|out|in|at|on|per|x|times?|minutes?|mins?|hours?|hrs?|days?|"
                            r"weeks?|wks?|months?|years?|yrs?|kids?|sons?|daughters?|cats?|dogs?|people|person|other|another)\b|[个只次天周年岁月号])")


def _numbered_answers(text: str) -> str:
    """"1 maybe 400 kanji 2 i'm a shift supervisor ... 3 anki": answers to numbered questions,
    each made a sentence of its own and its number dropped. Only the numbers 1, 2, ... in
    order, the first opening the message, each later one after a word of the answer before
    ("1 dog and 2 cats" is a count)."""
    marks: list[re.Match[str]] = []
    for m in _ANSWER_NUMBER.finditer(text):
        if int(m.group(1)) != len(marks) + 1:
            continue
        before = text[: m.start()].rstrip()
        if not marks and before or marks and (not before or before[-1] in ",，、&+" or
                                              re.search(r"\b(?:and|or|to|of|than|about|maybe|like|the|a|an)$|[和或跟与到]$", before, re.I)
                                              or len(text[marks[-1].end(): m.start()].split()) < 2 and not HAN.search(text[marks[-1].end(): m.start()])):
            continue
        marks.append(m)
    if len(marks) < 2:
        return text
    out, at = [], 0
    for m in marks:
        out.append(text[at: m.start()].rstrip())
        at = m.end()
    out.append(text[at:])
    return ". ".join(p for p in out if p)


# Chinese typed with a space each side of a number ("体重 85 公斤", "约在 3 月 6 号"): the
# spaces set the number off, they end no clause. (Not "租房 4月底要搬到通州", where the
# number holds on to its unit and the space before it is the comma.)
_ZH_SPACED_NUMBER = re.compile(r"(?:(?<=[\u3400-\u9fff])\s+|(?<!\S))(\d+(?:\.\d+)?)\s+(?=(?:岁|公斤|斤|号|日|月|(?<=\d\d\d\d )年|点|万|千|块|元|次|个|分钟|小时|天|周|星期|米|公里|厘米|层|楼|期|级|倍|只|套|本(?![科来地人身])|门)"
                               r"(?:[\u3400-\u9fff\s，。！？,.!?]|$))")


def split_clauses(text: str, spell: Callable[[str], str] | None = None) -> list[Clause]:
    """The clauses of a message; `spell` writes out an English sentence's chat spellings
    ("im", "u", the rule files' [spelling]) before it is split."""
    text = _MOVED_THEN_WHEN.sub(r"\1 to ", strip_code(_numbered_answers(text)))
    if HAN.search(text):
        text = _ZH_SPACED_NUMBER.sub(r"\1", text)
    out: list[Clause] = []
    for s_idx, sentence in enumerate(p for p in _SENTENCE_END.split(text) if p and p.strip()):
        lang = language(sentence)
        if lang == "en" and spell is not None:
            sentence = spell(sentence)
        splitter = _ZH_CLAUSE if lang == "zh" else _EN_CLAUSE
        parts: list[str] = []
        for part in splitter.split(sentence):
            if part is None:
                continue
            part = part.strip(" \t,，、.。")
            # (A clause already too long to keep takes no more: joined on and searched again
            # and again, an endless "my dog and I my dog and I ..." costs its length squared.)
            if parts and len(parts[-1]) <= MAX_CLAUSE_CHARS and (_JOINT_TAIL.search(parts[-1]) and _JOINT_HEAD.match(part)
                                                                 or _ME_TAIL.search(parts[-1]) and _MY_HEAD.match(part)):
                parts[-1] = f"{parts[-1]} {part}"  # "my girlfriend and I went fishing" is one subject
                continue
            if parts and lang == "en" and "," in parts[-1] and len(parts[-1]) <= MAX_CLAUSE_CHARS and _LIST_END.match(part):
                parts[-1] = f"{parts[-1]}, {part}"  # "patience, and perseverance": one list
                continue
            if parts and lang == "zh" and _ZH_OPEN_END.search(parts[-1]) and HAN.match(part or ""):
                parts[-1] = f"{parts[-1]}{part}"  # "明年打算在 江北 开个分店": typed with spaces, one clause
                continue
            if parts and lang == "zh" and _ZH_CALLED.search(parts[-1]) and _ZH_NAME_PART.fullmatch(part):
                parts[-1] = f"{parts[-1]}{part}"  # "养了一只英短 叫 芝麻": a name given after a space
                continue
            if parts and lang == "zh" and _ZH_CHANGED.search(parts[-1]) and _ZH_NEW_VALUE.match(part):
                parts[-1] = f"{parts[-1]}，{part}"  # "迁移 deadline 提前了 现在换成明年1月31号": what changed, then to what
                continue
            if parts and lang == "zh" and _ZH_LEAD_TIME.match(parts[-1]):
                parts[-1] = f"{parts[-1]}{part}"  # "这周日，我老婆在家做大餐": the time of what follows
                continue
            tail = parts and lang == "en" and _company_tail(part)
            if parts and lang == "en" and (tail or _LEAD_TIME.match(parts[-1]) or _LIST_LAST.match(part) and _LIST_HEAD.match(parts[-1])):
                # Split at a comma (or, for the company, at "and"): joined back the same way.
                parts[-1] = f"{parts[-1]}{' ' if tail else ', '}{part}"
                continue
            if parts and lang == "en" and len(parts[-1]) <= 60 and _SUBORDINATE.match(parts[-1]) and "," not in parts[-1]:
                parts[-1] = f"{parts[-1]}, {part}"  # "When I was 10, my parents gave me a console": one statement
                continue
            because = _BECAUSE_THEN_I.match(part) if lang == "en" else None
            if because:
                # "since I'm celiac I always end up cooking": the reason, then what follows from it.
                parts += [because.group(1), part[because.end():]]
                continue
            if part and (HAN.search(part) or LATIN.search(part)):
                parts.append(part)
        if lang == "en":
            parts = [piece for part in parts for piece in _run_on(part)]
        else:
            parts = _month_carried(parts)
        out.extend(Clause(part, language(part), s_idx) for part in parts)
    return out
