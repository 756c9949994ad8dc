"""Resolving relative time expressions ("昨天", "last week", "三个月前", "by March") against
the session's time, so that events keep their dates and goals and tasks their deadlines.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from functools import lru_cache
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable

_EN_NUM = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a few": 3, "few": 3, "a couple of": 2, "couple of": 2, "several": 3,
}
_CN_DIGIT = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(_MONTHS)}
_WEEKDAYS_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAYS_ZH = "一二三四五六日"
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "fall": (9, 11), "autumn": (9, 11), "winter": (12, 2)}


@dataclass
class TimeRef:
    phrase: str
    start: date
    end: date  # inclusive
    precision: str  # day | week | month | year
    direction: int  # -1 past, 0 around the reference, +1 future
    deadline: bool = False  # "by March", "年底前": the end of a goal

    def label(self) -> str:
        if self.precision == "day":
            return self.start.isoformat()
        if self.precision == "week":
            return f"{self.start.isoformat()}~{self.end.isoformat()}"
        if self.precision == "month":
            if (self.start.year, self.start.month) < (self.end.year, self.end.month):
                return f"{self.start:%Y-%m}~{self.end:%Y-%m}"  # "next summer": 2024-06~2024-08, not June
            return self.start.strftime("%Y-%m")
        if self.start.year < self.end.year:
            return f"{self.start.year}~{self.end.year}"  # "a few years ago": a span, not one year
        return str(self.start.year)

    def start_dt(self) -> datetime:
        return datetime(self.start.year, self.start.month, self.start.day, tzinfo=timezone.utc)

    def end_dt(self) -> datetime:
        """The first instant after the period: a deadline or an expiry."""
        e = self.end + timedelta(days=1)
        return datetime(e.year, e.month, e.day, tzinfo=timezone.utc)


def cn_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if text == "半":
        return None
    if text == "十":
        return 10
    if "十" in text:
        tens, _, ones = text.partition("十")
        t = _CN_DIGIT.get(tens, 1) if tens else 1
        o = _CN_DIGIT.get(ones, 0) if ones else 0
        return t * 10 + o
    if len(text) == 1 and text in _CN_DIGIT:
        return _CN_DIGIT[text]
    return None


def _month_range(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _shift_month(d: date, months: int) -> tuple[int, int]:
    m = d.month - 1 + months
    return d.year + m // 12, m % 12 + 1


def _unit_range(ref: date, unit: str, offset: int) -> tuple[date, date, str]:
    if unit == "day":
        d = ref + timedelta(days=offset)
        return d, d, "day"
    if unit == "week":
        monday = ref - timedelta(days=ref.weekday()) + timedelta(weeks=offset)
        return monday, monday + timedelta(days=6), "week"
    if unit == "weekend":
        saturday = ref - timedelta(days=ref.weekday()) + timedelta(days=5, weeks=offset)
        return saturday, saturday + timedelta(days=1), "week"
    if unit == "month":
        y, m = _shift_month(ref, offset)
        s, e = _month_range(y, m)
        return s, e, "month"
    y = ref.year + offset
    return date(y, 1, 1), date(y, 12, 31), "year"


def _ref(ref: date, phrase: str, unit: str, offset: int, deadline: bool = False) -> TimeRef | None:
    try:
        start, end, precision = _unit_range(ref, unit, offset)
    except (ValueError, OverflowError):
        return None  # "5000 years ago", "100000000天后": no date a calendar holds
    direction = -1 if end < ref else (1 if start > ref else 0)
    return TimeRef(phrase, start, end, precision, direction, deadline)


# "a few years ago", "a couple of weeks ago": a stretch of units back or ahead, not one of them.
_VAGUE_EN = {"a few": (2, 5), "few": (2, 5), "several": (2, 7), "a couple of": (2, 3), "couple of": (2, 3)}


def _vague(ref: date, phrase: str, unit: str, sign: int, count: str) -> TimeRef:
    near, far = _VAGUE_EN[count]
    first, last = (far, near) if sign < 0 else (near, far)
    start, _, precision = _unit_range(ref, unit, sign * first)
    _, end, _ = _unit_range(ref, unit, sign * last)
    return TimeRef(phrase, start, end, "week" if unit in ("day", "week") else precision, sign)


def _weekday(ref: date, phrase: str, weekday: int, which: str, past_hint: bool,
             past_verb: Callable[[], bool] | None = None) -> TimeRef:
    this_monday = ref - timedelta(days=ref.weekday())
    if which in ("last", "上"):
        d = this_monday - timedelta(weeks=1) + timedelta(days=weekday)
    elif which in ("next", "下"):
        d = this_monday + timedelta(weeks=1) + timedelta(days=weekday)
    elif which in ("this", "这", "本"):
        d = this_monday + timedelta(days=weekday)
    else:
        delta = (weekday - ref.weekday()) % 7
        d = ref - timedelta(days=(ref.weekday() - weekday) % 7) if past_hint else ref + timedelta(days=delta)
        if d == ref and which in ("", "on", "coming") and past_verb is not None:
            # "grades are due by monday", said on a Monday: an English day said by name is not
            # today (today is "today") but the coming one, or last week's when both the clause's
            # words and its verb say past ("I went to the gym on monday"); when only one does
            # ("i'm starting my new job monday", "i already scheduled the vet for monday"), today.
            past, verb = past_hint, past_verb()
            if past == verb:
                d += timedelta(weeks=-1 if past else 1)
    direction = -1 if d < ref else (1 if d > ref else 0)
    return TimeRef(phrase, d, d, "day", direction)


# After a Chinese number and 号, what makes it no day of the month: "11号线", "3号楼", "7号店".
ZH_NOT_A_DAY = "(?![线楼栋店院房机位子])"
# A holiday's name in a place's name is no time: "长沙五一广场", "国庆路".
_NOT_A_TIME_ZH = re.compile(r"(?:五一|国庆|元旦|七一|八一|五四|十一)(?=广场|路|大道|大街|街|公园|桥|村|小区|中学|小学|商场|站)")


def find_times(text: str, lang: str, reference: datetime | None, vocab: dict[str, Any], past_hint: bool = False,
               past_in: Callable[[str], bool] | None = None, past_verb: Callable[[], bool] | None = None) -> list[TimeRef]:
    """Every time expression in `text`, resolved against `reference` (the session time).
    A bare month, day or weekday is taken as past when the clause is in the past tense
    (`past_hint`); for Chinese, where one clause often strings several together
    ("已经过了两轮 终面是10月20号"), `past_in` decides it on the stretch around the date.
    An English verb in the simple past (`past_verb`, asked only when a date needs it) puts
    "in <month>" behind, not ahead:
    "she moved in with me in January" (but "booked it for January" stays ahead)."""
    if reference is None:
        return []
    ref = reference.date()
    if lang != "en":
        text = _NOT_A_TIME_ZH.sub(lambda m: "□" * len(m.group(0)), text)  # (the same length: positions hold)
    text = _TITLE_NUMBER.sub(lambda m: m.group(1) + " " * len(m.group(2))
                             if m.group(1).strip().lower() not in _BEFORE_A_YEAR and int(m.group(2)) > ref.year + 10
                             else m.group(0), text)
    low = text.lower()
    found: list[tuple[int, TimeRef]] = []
    taken: list[tuple[int, int]] = []

    def add(m_start: int, m_end: int, tr: TimeRef | None) -> None:
        if tr is None or any(s < m_end and m_start < e for s, e in taken):
            return
        taken.append((m_start, m_end))
        found.append((m_start, tr))

    if lang == "en":
        _find_en(low, ref, past_hint, add, past_verb)
    else:
        _find_zh(text, ref, past_hint, add, past_in)
        if re.search(r"[a-z]{3}", low):
            _find_en(low, ref, past_hint, add)  # "next Monday 我要去..." in mixed text
    table = vocab.get(lang, {})
    if table:
        for m in _vocab_pattern(lang, tuple(table)).finditer(low if lang == "en" else text):
            phrase = m.group(0)
            spec = table[phrase]
            deadline = phrase.startswith("end of") or phrase.endswith(("年底", "月底")) or phrase == "年内"
            offset = int(spec["offset"])
            if spec.get("bare") and lang != "en" and _habitual_zh(text, m.start(), m.end()):
                continue  # "只有周末回杭州", "周末一有空就去钓鱼": every weekend, not this one
            if spec.get("bare") and _told_as_past(text, m.start(), lang, past_hint, past_in):
                offset = _just_past(ref, spec["unit"], offset)
            add(m.start(), m.end(), _ref(ref, phrase, spec["unit"], offset, deadline))
    holidays = vocab.get("holidays", {}).get(lang, {})
    if holidays:
        for m in _vocab_pattern(lang, tuple(holidays)).finditer(low if lang == "en" else text):
            year = _HOLIDAY_YEAR.search(low if lang == "en" else text)
            # ("tore my ACL over xmas", said in January: the verb's past puts it behind.)
            past = _told_as_past(text, m.start(), lang, past_hint, past_in) or lang == "en" and past_verb is not None \
                and re.search(r"\b(?:over|at|on|for|during|around|since|after)\s+(?:the\s+)?$", low[:m.start()]) is not None and past_verb()
            tr = _holiday(ref, m.group(0), holidays[m.group(0)], past, ref.year + _YEAR_SHIFT[year.group(0)] if year else None)
            if tr is not None:
                # "by christmas", "春节前": the end of a goal.
                before = re.match(r"之?前", text[m.end():]) is not None or \
                    re.search(r"\bbefore\s+(?:the\s+)?$", low[:m.start()]) is not None
                tr.deadline = before or re.search(r"\b(?:by|until)\s+(?:the\s+)?$", low[:m.start()]) is not None
                if before:
                    tr.end, tr.precision = tr.start, "day"  # before it starts
                add(m.start(), m.end(), tr)
    return [tr for _, tr in sorted(found, key=lambda x: x[0])]


# A year named beside a holiday ("今年春节", "last christmas") is the holiday's.
_YEAR_SHIFT = {"今年": 0, "明年": 1, "去年": -1, "this year": 0, "next year": 1, "last year": -1, "last": -1, "next": 1, "this": 0}
_HOLIDAY_YEAR = re.compile(r"今年|明年|去年|\b(?:this|next|last) year\b|\b(?:this|next|last)(?= (?:christmas|xmas|halloween|easter))")


def _holiday(ref: date, phrase: str, spec: dict[str, Any], past: bool, year: int | None = None) -> TimeRef | None:
    """A holiday's days: in the year named, else the next ones from `ref` (or those under
    way), or the last ones when told of in the past; None when its date is not known."""
    days = int(spec.get("days", 1))
    found = []
    for year in (ref.year - 1, ref.year, ref.year + 1) if year is None else (year,):
        when = spec["date"] if isinstance(spec["date"], str) else spec["date"].get(str(year))
        if when:
            month, day = (int(x) for x in when.split("-"))
            start = date(year, month, day)
            found.append((start, start + timedelta(days=days - 1)))
    if len(found) == 1:
        chosen = found
    else:
        chosen = [p for p in found if p[0] <= ref] if past else [p for p in found if p[1] >= ref]
    if not chosen:
        return None
    start, end = max(chosen) if past else min(chosen)
    direction = -1 if end < ref else (1 if start > ref else 0)
    return TimeRef(phrase, start, end, "day" if days == 1 else "week", direction)


# A bare time word said of a routine: "只有周末回杭州", "只有晚上和周末能学", "周末一有空就去钓".
_ZH_ROUTINE_BEFORE = re.compile(r"(?:只有|只在|每个?|平时|平常|通常|一般)[^，。,；;！？!?]{0,12}$")
_ZH_ROUTINE_AFTER = re.compile(r"^(?:都|一般|通常|基本|一有空|有空就)")


def _habitual_zh(text: str, start: int, end: int) -> bool:
    return bool(_ZH_ROUTINE_BEFORE.search(text[:start]) or _ZH_ROUTINE_AFTER.match(text[end:]))


# A plan, not a past: "周末要去爬山了" (要 ... 了 is about to).
# ("只能考12月的了", "7月那场报不上了": what can only be done then, or no more, is still ahead.)
_ZH_AHEAD = re.compile(r"要|会|打算|准备|想|计划|将|得|只能|不上了|不了了")


def _told_as_past(text: str, at: int, lang: str, past_hint: bool, past_in: Callable[[str], bool] | None) -> bool:
    """Whether the words around a time word tell of the past: for Chinese, a past marker in
    its stretch ("我们周末去爬山了") and no word of a plan; else the clause's tense."""
    if lang == "en" or past_in is None:
        return past_hint
    return any(past_in(s.group(0)) and not _ZH_AHEAD.search(s.group(0))
               for s in _ZH_STRETCH.finditer(text) if s.start() <= at < s.end())


def _just_past(ref: date, unit: str, offset: int) -> int:
    """The offset of the last `unit` up to the session's day: a weekend told of on a Monday
    is the one before; on a Saturday or Sunday, this one."""
    if unit == "weekend":
        return 0 if ref.weekday() >= 5 else -1
    return min(offset, 0)


@lru_cache(maxsize=16)
def _vocab_pattern(lang: str, phrases: tuple[str, ...]) -> re.Pattern[str]:
    alts = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"\b(?:{alts})\b" if lang == "en" else f"(?:{alts})")


_NUM_EN = r"(\d+|a couple of|couple of|a few|few|several|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_MONTH_ALT = "|".join(_MONTHS + ["sept"] + [a for a in _MONTH_ABBR if a != "may"])  # "sept 27" as typed
_AGO_EN = re.compile(_NUM_EN + r" (day|week|month|year)s? ago\b")
_IN_EN = re.compile(r"\bin " + _NUM_EN + r" (day|week|month|year)s?\b")
# "within two years", "in the next 3 months": a deadline that far ahead.
_WITHIN_EN = re.compile(r"\b(?:within|in the next) " + _NUM_EN + r" (day|week|month|year)s?\b")
# ("another monday", "a monday", "monday mornings": no one day.)
_WEEKDAY_EN = re.compile(r"(?<!another )(?<!\ba )\b(?:(last|next|this|on|coming) )?(" + "|".join(_WEEKDAYS_EN) + r")\b"
                         r"(?!\s+(?:mornings|afternoons|evenings|nights)\b)")
_WEEKDAY_SHORT_ALONE_EN = re.compile(r"(?<!last )(?<!next )(?<!this )(?<!on )(?<!coming )\b(tues|weds|thurs|thur)\b\.?(?!')")
_WEEKDAY_SHORT_EN = re.compile(r"\b(last|next|this|on|coming) (mon|tues?|wed|weds|thu|thurs?|fri|sat|sun)\b\.?(?!')")
# "the 19th of September", "September 19th", "19 Sept 2027": a day in a named month.
_DAY_OF_MONTH_EN = re.compile(
    r"(?:\b(?:the )?(\d{1,2})(?:st|nd|rd|th)? of (" + _MONTH_ALT + r")\b|\b(\d{1,2})(?:st|nd|rd|th)? (" + _MONTH_ALT + r")\b"
    r"|\b(" + _MONTH_ALT + r")\.? (?:the )?(\d{1,2})(?:st|nd|rd|th)?\b(?!:))(?:,? ((?:19|20)\d\d))?")
_MONTH_EN = re.compile(r"\b(by|before|until|in|since|back in|last|next|this)?\s*(?:the end of |end of |mid-?|early |late )?("
                       + _MONTH_ALT + r")\.?(?:\s+(\d{4}))?\b")
# "on the 20th of next month": a day of the month named by its distance.
_DAY_OF_NAMED_MONTH_EN = re.compile(r"\b(?:on )?the (\d{1,2})(?:st|nd|rd|th)? of (next|last|this) month\b")
_YEAR_EN = re.compile(r"\b(by|before|until|in|since|back in|mid-?|end of|the end of)?\s*((?:19|20)\d\d)\b")
# "Cyberpunk 2077", "Blade Runner 2049": a number in a name is no year; it follows a capitalised
# word that is none of a time's own ("May 2023", "Summer 2022", "In 2020") and lies more than ten
# years ahead ("World Cup 2026", "WWDC 2025", "Born 1990" stay years).
_TITLE_NUMBER = re.compile(r"(\b[A-Z][A-Za-z]+ )((?:19|20)\d\d)\b(?!\s*[-–~/]\s*\d)")
_BEFORE_A_YEAR = {*_MONTHS, *_MONTH_ABBR, "sept", *_SEASONS, *("christmas xmas easter halloween thanksgiving new year years in since "
                                                              "by before until till back of from early late mid end during after "
                                                              "around circa class").split()}


# Words that look like times and are none: a range of weekdays is a schedule ("Monday to
# Friday", "mon-fri"), and "the first time in six years" looks back over them, not ahead.
_NOT_A_TIME_EN = re.compile(
    r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*(?:to|through|thru|till|until|-|–|—)\s*(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b"
    r"|\b(?:first|only|second) time (?:ever )?in (?:\w+ )?(?:years?|months?|weeks?|days?|decades?)\b"
    # "friday the 17th": the day of the month says the date; the weekday only names it.
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day(?=,? (?:the )?\d{1,2}(?:st|nd|rd|th)\b)")


# The day one was born ("juno's 11 weeks, born april 15"): behind, whatever the tense of the
# clause, unless the birth is still to come ("due to be born on january 12").
_BORN_EN = re.compile(r"(?<!\bbe )\bborn\s+(?:on\s+)?$")


def _find_en(low: str, ref: date, past_hint: bool, add: Any, past_verb: Callable[[], bool] | None = None) -> None:
    low = _NOT_A_TIME_EN.sub(lambda m: " " * len(m.group(0)), low)  # (the same length: positions hold)
    for m in _DAY_OF_NAMED_MONTH_EN.finditer(low):
        # "on the 20th of next month": that day of that month, not the next 20th.
        shift = {"next": 1, "last": -1, "this": 0}[m.group(2)]
        month = (ref.month - 1 + shift) % 12 + 1
        _add_date(add, m, ref, ref.year + (ref.month - 1 + shift) // 12, month, int(m.group(1)))
    # "3 weeks ago", "within two years" (a deadline), "in 3 weeks": that many units back or ahead.
    for pattern, sign, deadline in ((_AGO_EN, -1, False), (_WITHIN_EN, 1, True), (_IN_EN, 1, False)):
        for m in pattern.finditer(low):
            if m.group(1) in _VAGUE_EN and not deadline:
                add(m.start(), m.end(), _vague(ref, m.group(0), m.group(2), sign, m.group(1)))
                continue
            n = int(m.group(1)) if m.group(1).isdigit() else _EN_NUM[m.group(1)]
            add(m.start(), m.end(), _ref(ref, m.group(0), m.group(2), sign * n, deadline))
    told_past = past_verb or (lambda: False)
    for m in _WEEKDAY_EN.finditer(low):
        # ("it's sunday and i have to ...": today, named.)
        today = re.search(r"\b(?:it's|its|it is|today is|today's)\s+$", low[:m.start()]) is not None
        add(m.start(), m.end(), _weekday(ref, m.group(0), _WEEKDAYS_EN.index(m.group(2)), m.group(1) or "", past_hint,
                                         None if today else told_past))
    for m in _WEEKDAY_SHORT_ALONE_EN.finditer(low):
        # "dentist thurs at 3pm": a short day that is no other word, typed alone.
        day = next(i for i, d in enumerate(_WEEKDAYS_EN) if d.startswith(m.group(1)[:3]))
        add(m.start(), m.end(), _weekday(ref, m.group(0), day, "", past_hint, told_past))
    for m in _WEEKDAY_SHORT_EN.finditer(low):
        # "last Fri", "next tues": a day typed short, only after a word that makes it one ("sat", "sun" alone are words).
        day = next(i for i, d in enumerate(_WEEKDAYS_EN) if d.startswith(m.group(2)[:3]))
        add(m.start(), m.end(), _weekday(ref, m.group(0), day, m.group(1), past_hint, told_past))
    named: list[tuple[int, date]] = []  # the dates with a month said, where they end: "the 16th" after one is in its month
    for m in _DAY_OF_MONTH_EN.finditer(low):
        day = int(m.group(1) or m.group(3) or m.group(6))
        word = m.group(2) or m.group(4) or m.group(5)
        month = _MONTH_ABBR[word[:3]]
        if not 1 <= day <= 31:
            continue
        year = int(m.group(7)) if m.group(7) else ref.year
        past = (past_hint or (past_verb is not None and re.search(r"\b(?:on|since)\s*$", low[: m.start()]) is not None
                              and past_verb()) or _BORN_EN.search(low[: m.start()]) is not None
                and not re.search(r"\b(?:due|will|going to|gonna|expected|expecting)\b", low[: m.start()])) \
            and not _moved_ahead(low, m.start())
        if not m.group(7) and past != ((month, day) < (ref.month, ref.day)):
            year += -1 if past else 1  # ahead unless the clause is past, and then behind
        if _add_date(add, m, ref, year, month, day) is not None:
            named.append((m.end(), date(year, month, day)))
    for m in _MONTH_EN.finditer(low):
        word = m.group(2)
        month = _MONTHS.index(word) + 1 if word in _MONTHS else _MONTH_ABBR[word[:3]]
        if m.group(3):
            year = int(m.group(3))
        elif m.group(1) == "this" and month < ref.month and past_verb is not None and past_verb():
            year = ref.year  # "started school this September" said in November: this year's, behind
        elif m.group(1) == "last" or (past_hint and m.group(1) in (None, "in", "since", "back in")) \
                or (past_verb is not None and m.group(1) in ("in", "since", "back in") and past_verb()):
            year = ref.year if month < ref.month else ref.year - 1
        else:
            year = ref.year if month >= ref.month else ref.year + 1
        start, end = _month_range(year, month)
        deadline = m.group(1) in ("by", "before", "until")
        if m.group(1) == "before":
            end = start - timedelta(days=1)
        direction = -1 if end < ref else (1 if start > ref else 0)
        add(m.start(), m.end(), TimeRef(m.group(0).strip(), start, end, "month", direction, deadline))
    for m in _YEAR_EN.finditer(low):
        if not m.group(1) and re.search(r"\b(?:a|an|the|my|our|his|her|their|this|that)\s*$", low[:m.start()]) \
                and re.match(r"\s+[a-z]", low[m.end():]):
            continue  # "restoring a 1972 honda cb350": the model's year, not a time
        year = int(m.group(2))
        start, end = date(year, 1, 1), date(year, 12, 31)
        if m.group(1) and m.group(1).startswith("mid"):
            end = date(year, 6, 30)
        deadline = (m.group(1) or "") in ("by", "before", "until", "mid", "mid-", "end of", "the end of")
        direction = -1 if end < ref else (1 if start > ref else 0)
        add(m.start(), m.end(), TimeRef(m.group(0).strip(), start, end, "year", direction, deadline))
    for m in re.finditer(r"\b(?:(last|next|this) )(spring|summer|fall|autumn|winter)\b", low):
        first, last = _SEASONS[m.group(2)]
        year = ref.year + {"last": -1, "next": 1, "this": 0}[m.group(1)]
        if m.group(1) == "next" and first > ref.month:
            year = ref.year
        end_year = year + 1 if last < first else year
        start, _ = _month_range(year, first)
        _, end = _month_range(end_year, last)
        direction = -1 if end < ref else (1 if start > ref else 0)
        add(m.start(), m.end(), TimeRef(m.group(0), start, end, "month", direction))
    for m in re.finditer(r"\b(?:on )?the (\d{1,2})(?:st|nd|rd|th)\b", low):
        # ("Mum had her hip replaced on the 2nd": a verb in the past puts "on the 2nd" behind.)
        said_on = 3 if m.group(0).startswith("on ") else 0
        before = [d for end, d in named if end <= m.start() and m.start() - end <= 40]
        if before:
            # "on the 9th of May and back on the 16th", "now it's on the 14th": the month just said;
            # the one after it only for the end of a span ("from the 28th to the 3rd").
            first, day = before[-1], int(m.group(1))
            span_end = re.search(r"(?:\bto|\buntil|\btill|\bthrough|[-–]|\bback on)\s*(?:the\s+)?$", low[:m.start() + said_on])
            year, month = _shift_month(first, 1) if day < first.day and span_end else (first.year, first.month)
            if _add_date(add, m, ref, year, month, day) is not None:
                continue  # (else "the 31st" of a month without one: read on its own below)
        past = (past_hint or (past_verb is not None and m.group(0).startswith("on ") and past_verb())) \
            and not _moved_ahead(low, m.start() + said_on)
        _add_day_of_month(add, m, ref, int(m.group(1)), past)


# A plan moved to a new date: 改到, 改成, 换成, 推迟到, 提前到, 延期到, 挪到 ...
_ZH_MOVED_TO = re.compile(r"(?:改|换|推迟|推|提前|延期|延|挪|调|定)(?:到|成|在|至)$")
# A plan moved to a new date, or a trip said in the present: "pushed to 17 march", "we fly out
# on the 9th of May" (ahead, however past the rest of the clause is: "she told me I had it wrong").
_EN_AHEAD = re.compile(r"\b(?:(?:pushed|moved|rescheduled|postponed|delayed|changed|switched|brought forward)(?: back| up)?"
                       r" (?:to|till|until)|(?:(?<!\bto )fly|flying|(?<!\bto )head|heading|(?<!\bto )drive|driving)(?: out| back| home| off) (?:on|in)"
                       r"|\band back (?:on|in))\s+(?:the\s+)?$")
# ("i had to fly home on the 3rd", "was supposed to fly back on the 8th": told of as past.)
_PAST_TO = re.compile(r"\b(?:had|was supposed|were supposed|was meant|were meant|was going|were going|needed|tried|wanted|got|used) to\s+\S+(?:\s+\S+)?\s+(?:on|in)\s+(?:the\s+)?$")
_ZH_STRETCH = re.compile(r"[^，。！？；,!?;\s]+")


def _moved_ahead(low: str, at: int) -> bool:
    """Whether the date at `at` is one a plan was moved to or a trip leaves on, not told of as past."""
    return _EN_AHEAD.search(low, max(0, at - 40), at) is not None and _PAST_TO.search(low, max(0, at - 60), at) is None


def _find_zh(text: str, ref: date, past_hint: bool, add: Any, past_in: Callable[[str], bool] | None = None) -> None:
    def past(m: re.Match[str]) -> bool:
        if _ZH_MOVED_TO.search(text[max(0, m.start() - 4):m.start()]):
            return False  # "婚礼改到十月十八号了": the new date of a plan is ahead, whatever 了 says
        if re.search(r"(?<![回去来])到$", text[max(0, m.start() - 2):m.start()]) \
                and re.match(r"[^，。！？；,!?;\s]{0,8}就[^，。！？；,!?;\s]{0,3}(?:结束|到期)", text[m.end():]):
            # "产假到4月底就结束了": a term that runs out then, the nearest such month: ahead
            # while it is still to come this year, behind once it has passed.
            month = re.search(r"(\d{1,2}|[一二三四五六七八九十]{1,3})月", m.group(0))
            n = cn_number(month.group(1)) if month else None
            return n is not None and n < ref.month
        # ("9月中旬要回银行上班了": 要 ... 了 is about to, not a past September.)
        return _told_as_past(text, m.start(), "zh", past_hint, past_in)

    cn = r"(\d+|[一二两三四五六七八九十]+)"
    # "下个月十五号": a day of the month before or after this one.
    for m in re.finditer(r"(上|下|这|本)个?月" + cn + r"[日号]", text):
        day = cn_number(m.group(2))
        if day is not None:
            year, month = _shift_month(ref, {"上": -1, "下": 1}.get(m.group(1), 0))
            _add_date(add, m, ref, year, month, day)
    # "三个月前" is three months ago; "六月前" is before June (handled below); "三年内攒够五十万"
    # is a deadline that many units ahead (the period it ends in).
    for m in re.finditer(cn + r"(?:个?(天|周|星期|礼拜|年)|个(月))(前|以前|之前|后|以后|之后|内|之内|以内)", text):
        n = cn_number(m.group(1))
        if n is None:
            continue
        word = m.group(2) or m.group(3)
        if word == "年" and n >= 1000:
            continue  # "目标是2027年前攒够": before the year 2027, not 2027 years ago
        unit = {"天": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month", "年": "year"}[word]
        sign = -1 if m.group(4) in ("前", "以前", "之前") else 1
        add(m.start(), m.end(), _ref(ref, m.group(0), unit, sign * n, deadline=m.group(4).endswith("内")))
    # "想半年内能拉十个引体向上": six months ahead, not this year ("年内").
    for m in re.finditer(r"(?<![过这近])半年(内|之内|以内|后|以后|之后)", text):
        add(m.start(), m.end(), _ref(ref, m.group(0), "month", 6, deadline=m.group(1).endswith("内")))
    for m in re.finditer(r"(上|下|这|本)?(?:个)?(?:周|星期|礼拜)([一二三四五六日天])", text):
        wd = _WEEKDAYS_ZH.index("日" if m.group(2) == "天" else m.group(2))
        add(m.start(), m.end(), _weekday(ref, m.group(0), wd, m.group(1) or "", past(m)))
    for m in re.finditer(r"((?:19|20)\d\d)年(?:" + cn + r"月(?:" + cn + r"[日号])?)?", text):
        year = int(m.group(1))
        month = cn_number(m.group(2)) if m.group(2) else None
        day = cn_number(m.group(3)) if m.group(3) else None
        _add_date(add, m, ref, year, month, day)
    year_words = {"前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}

    def month_year(m: re.Match[str], month: int) -> int:
        """The year of a month: named ("去年8月"), else the nearest one looking back or ahead."""
        if m.group(1):
            return ref.year + year_words[m.group(1)]
        if past(m):
            return ref.year if month <= ref.month else ref.year - 1
        return ref.year if month >= ref.month else ref.year + 1

    # "8月10到17号": days of one month, from one to the other.
    for m in re.finditer(r"(?:(前年|去年|今年|明年|后年)|(?<![\d年]))" + cn + r"月" + cn + r"[日号]?\s*(?:到|至|~|～|-|—)\s*"
                         + cn + r"[日号]", text):
        month, first, last = (cn_number(m.group(i)) for i in (2, 3, 4))
        if month is None or first is None or last is None or not 1 <= month <= 12:
            continue
        year = month_year(m, month)
        try:
            start, end = date(year, month, first), date(year, month, last)
        except ValueError:
            continue
        if start < end:
            add(m.start(), m.end(), TimeRef(m.group(0), start, end, "week", -1 if end < ref else (1 if start > ref else 0)))
    for m in re.finditer(r"(?:(前年|去年|今年|明年|后年)|(?<![\d年]))" + cn + r"月(?:份)?(?:" + cn + r"[日号])?(底|初|中旬)?(前|之前|以前)?", text):
        month = cn_number(m.group(2))
        day = cn_number(m.group(3)) if m.group(3) else None
        if month is None or not 1 <= month <= 12:
            continue
        year = month_year(m, month)
        tr = _add_date(add, m, ref, year, month, day, record=False)
        if tr is None:
            continue
        if m.group(5):
            tr.deadline = True
            if m.group(4) != "底":
                tr.end = tr.start - timedelta(days=1)
        add(m.start(), m.end(), tr)
    for m in re.finditer(r"(?<![\d月周期拜一二三四五六七八九十])(\d{1,2}|[一二三四五六七八九十]{1,3})[号日]" + ZH_NOT_A_DAY, text):
        day = cn_number(m.group(1))
        if day is not None:
            _add_day_of_month(add, m, ref, day, past(m))
    for m in re.finditer(r"(今年|明年|年底|月底|年内)(?:之)?前", text):
        unit = "month" if m.group(1) == "月底" else "year"
        offset = 1 if m.group(1) == "明年" else 0
        add(m.start(), m.end(), _ref(ref, m.group(0), unit, offset, deadline=True))


def _add_day_of_month(add: Any, m: re.Match[str], ref: date, day: int, past_hint: bool) -> None:
    """"the 12th", "15号": this month's, or next month's when it has passed (unless past tense)."""
    step = -1 if past_hint else 1
    shift = 0 if day >= ref.day or past_hint else 1
    # ("the 31st" in a month of 30 days: the nearest month that has one, ahead or, if past, behind.)
    for _ in range(3):
        year, month = _shift_month(ref, shift)
        try:
            d = date(year, month, day)
            break
        except ValueError:
            shift += step
    else:
        return
    add(m.start(), m.end(), TimeRef(m.group(0), d, d, "day", -1 if d < ref else (1 if d > ref else 0)))


def _add_date(add: Any, m: re.Match[str], ref: date, year: int, month: int | None, day: int | None, record: bool = True) -> TimeRef | None:
    try:
        if month and day:
            start = end = date(year, month, day)
            precision = "day"
        elif month:
            start, end = _month_range(year, month)
            precision = "month"
        else:
            start, end, precision = date(year, 1, 1), date(year, 12, 31), "year"
    except ValueError:
        return None
    tr = TimeRef(m.group(0), start, end, precision, -1 if end < ref else (1 if start > ref else 0))
    if record:
        add(m.start(), m.end(), tr)
    return tr
