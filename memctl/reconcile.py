"""Applying extracted items to one user's active memories: the plan of a write.

For each item, in the order the user said them:
  remember   a near-copy of an active memory reinforces it (confidence up, source added);
             a new value for a slot (city, job, name ...), a correction ("actually ...")
             or the opposite of an active memory ("quit coffee" vs "likes coffee")
             supersedes it: a new version in the same chain, the old one closed;
             anything else starts a new chain.
             An event that fulfils a goal ("I finally ran my first marathon") becomes that
             goal's next version; a new date for "it" ("I rescheduled it to November")
             replaces the latest plan.
  negate     a bare "not anymore" closes the memory the assistant had asked about.
  close      "the Japan trip is cancelled" closes the goal or plan it names.
  forget     "forget what I said about my address" selects memories to delete for real.
Pure computation: the store reads the pool and writes the plan, under its lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Callable

import numpy as np

import re

from .extract import Candidate, Closure, ForgetRequest, Item, Negation
from .extract.normalize import negated, without_time
from .judgement import Judge, names_same_thing, same_plan
from .results import IngestChange
from .schema import Event, Memory, Source, new_id
from .temporal import find_times


_USED_TO = re.compile(r"\bused to\b", re.I)
# Sources kept per memory: a fact said a thousand times keeps its first and latest sayings.
MAX_SOURCES = 32


@dataclass
class Plan:
    upserts: dict[str, Memory] = field(default_factory=dict)
    # Memories already in the store that a forget request selected.
    forget_ids: set[str] = field(default_factory=set)
    # Source clauses of memories forgotten before they were ever written: their
    # turns must not keep that text.
    forgotten_clauses: dict[str, list[str]] = field(default_factory=dict)
    # Memories this plan made: forgetting one of them means never writing it.
    created: set[str] = field(default_factory=set)
    changes: list[IngestChange] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    # Memories already written from these very statements by an ingest cut short before
    # it recorded the turns: not applied again (ingest checks their events).
    replayed: list[Memory] = field(default_factory=list)


class Pool:
    """The user's active memories, with their vectors, as the plan changes them.

    Vectors live in one growing matrix (doubling capacity) so that adding a memory does
    not copy all the others: a user's long history ingested at once stays linear.
    """

    def __init__(self, memories: list[Memory], dim: int) -> None:
        self.memories: list[Memory] = []
        self.dim = dim
        # (source turn, text) -> memory: whether a statement is already stored, in one lookup.
        self._said: dict[tuple[str, str], Memory] = {}
        self._rows = np.zeros((max(16, len(memories)), dim), dtype=np.float32)
        for m in memories:
            self.add(m)

    def matrix(self) -> np.ndarray:
        return self._rows[: len(self.memories)]

    def add(self, memory: Memory) -> None:
        n = len(self.memories)
        if n == len(self._rows):
            self._rows = np.vstack([self._rows, np.zeros_like(self._rows)])
        self._rows[n] = np.asarray(memory.vector, dtype=np.float32)
        self.memories.append(memory)
        for source in memory.sources:
            self._said[(source.turn_key, memory.content)] = memory

    def heard(self, memory: Memory, turn_key: str) -> None:
        """A memory already in the pool was said again, in this turn."""
        self._said.setdefault((turn_key, memory.content), memory)

    def said(self, turn_key: str, content: str) -> Memory | None:
        """The memory in the pool with this text from this turn, if any."""
        return self._said.get((turn_key, content))

    def remove(self, memory_id: str) -> None:
        keep = [i for i, m in enumerate(self.memories) if m.id != memory_id]
        if len(keep) == len(self.memories):
            return
        gone = next(m for m in self.memories if m.id == memory_id)
        for source in gone.sources:
            if self._said.get((source.turn_key, gone.content)) is gone:
                del self._said[(source.turn_key, gone.content)]
        self._rows[: len(keep)] = self._rows[keep]
        self.memories = [self.memories[i] for i in keep]


class Reconciler:
    def __init__(
        self,
        judge: Judge,
        hasher: Callable[[str], str],
        forget_similarity: float,
        now: datetime | None = None,
    ) -> None:
        self.judge = judge
        self.rules = judge.rules
        self.hasher = hasher
        self.forget_similarity = forget_similarity
        self.now = now or datetime.now(timezone.utc)

    # -- similarity ---------------------------------------------------------------

    def _negative(self, text: str, lang: str) -> bool:
        return self.judge.negative(text, lang)

    def _matches(self, pool: Pool, vector: np.ndarray, text: str, shortlist: int = 8) -> list[tuple[float, Memory]]:
        """Best matches as (likeness, memory), the most alike first."""
        if not pool.memories:
            return []
        dense = self.judge.same(pool.matrix() @ np.asarray(vector, dtype=np.float32))
        order = np.argsort(-dense)[:shortlist]
        out = [(self.judge.likeness(float(dense[i]), text, pool.memories[int(i)].content), pool.memories[int(i)])
               for i in order]
        out.sort(key=lambda x: -x[0])
        return out

    # -- the plan -----------------------------------------------------------------

    def plan(self, pool: Pool, items: list[Item], vectors: dict[int, np.ndarray],
             context: dict[str, tuple[str, np.ndarray]] | None = None) -> Plan:
        """`context`: per source turn key, its text and embedding (the memory's context)."""
        plan = Plan()
        self._context = context or {}
        for index, item in enumerate(items):
            vector = vectors[index]
            if isinstance(item, Candidate):
                self._remember(plan, pool, item, vector)
            elif isinstance(item, Negation):
                self._negate(plan, pool, item, vector)
            elif isinstance(item, ForgetRequest):
                self._forget(plan, pool, item, vector)
            elif isinstance(item, Closure):
                self._cancel(plan, pool, item)
        return plan

    def _source(self, c: Candidate | Negation) -> Source:
        return Source(c.session, c.turn, c.time, c.clause, c.turn_key)

    def _event(self, plan: Plan, kind: str, memory: Memory, related: list[str] | None = None, **detail: object) -> None:
        plan.events.append(Event.of(kind, memory, self.hasher(memory.content), related, **detail))

    def _replay(self, plan: Plan, pool: Pool, c: Candidate) -> bool:
        """Whether this statement is already applied: a memory not made by this plan says it,
        from this turn (an earlier ingest wrote the memories, then was cut short before
        it recorded the turn)."""
        m = pool.said(c.turn_key, c.content)
        if m is None or m.id in plan.created:
            return False
        plan.replayed.append(m)
        return True

    def _remember(self, plan: Plan, pool: Pool, c: Candidate, vector: np.ndarray) -> None:
        if self._replay(plan, pool, c):
            return
        if c.redates:
            target = self._latest_plan(pool, c.redates_what, c.time or self.now, c.redates_was)
            if target is None and (not c.redates_what or _UNNAMED.fullmatch(c.redates_what) or re.search(r"\b(?:one|ones|it|that|this)$", c.redates_what)
                                   or _WEEKDAY.fullmatch(c.redates.strip().lower())):
                # (nor "家长会改到周四" with no meeting said before: which Thursday, only the plan's week says)
                return  # "it's aug 21 now" with no plan said before: nothing it could be
            if target is None:
                # "my start date got pushed to October 1": the plan it names, alone.
                self._add(plan, pool, c, vector)
                return
            c.content, due = _redated(target.content, c.redates, c.content, self.rules.temporal, c.time or self.now)
            c.valid_to = due or c.valid_to
            self._supersede(plan, pool, target, c, vector, "update")
            return
        if c.reschedules:
            target = self._latest_plan(pool)
            if target is not None:
                c.content = _named(c.content, target, c.lang, self.rules)
                self._supersede(plan, pool, target, c, vector, "update")
                return
        if c.achieves:
            fulfilled = [m for m in pool.memories if m.type == "goal" and m.about == c.subject and same_plan(m.content, c.content)]
            if fulfilled:
                self._supersede(plan, pool, fulfilled[-1], c, vector, "achieved")
                return
        matches = self._matches(pool, vector, c.content)
        negative = c.negative
        # 1. Said again: reinforce, unless the polarity flipped ("likes" vs "no longer likes").
        if matches and not c.correction:
            sim, m = matches[0]
            if self.judge.restates(sim, self._negative(m.content, m.lang), negative):
                self._reinforce(plan, pool, m, c)
                return
        # 2. A new value for a one-at-a-time slot replaces the old one.
        if c.slot:
            same_slot = [m for m in pool.memories if m.slot == c.slot]
            if same_slot:
                self._supersede(plan, pool, same_slot[-1], c, vector, "update")
                return
        # 3. An explicit correction replaces the memory it is about.
        if c.correction:
            # A corrected city replaces a city, never a job that happens to mention it; a
            # correction is about a memory of the same subject, and "not ... anymore" names
            # what it ends ("I don't drink coffee anymore" never closes a peanut allergy).
            # ("We used to rock a song by Tupac" tells of old times: it ends only what it names,
            # never the podcast recorded last month.)
            named_only = negative or _USED_TO.search(c.clause) is not None
            related = [(s, m) for s, m in matches if (m.slot is None or c.slot is None or m.slot == c.slot)
                       and m.about == c.subject
                       and (not named_only or names_same_thing(_USED_TO.sub("", m.content), _USED_TO.sub("", c.content)))]
            target = self._best_related(related, c)
            if target is not None:
                self._supersede(plan, pool, target, c, vector, "correction")
                return
        # 4. The opposite of an active memory on the same subject: the newer one wins.
        for sim, m in matches:
            if sim < self.judge.contradiction:
                break
            if self._negative(m.content, m.lang) != negative and self.judge.opposite(sim, m.content, c.content):
                self._supersede(plan, pool, m, c, vector, "contradiction")
                return
        self._add(plan, pool, c, vector)

    def _latest_plan(self, pool: Pool, what: str = "", now: datetime | None = None, was: int = 0) -> Memory | None:
        """The plan said last: a task, or a dated fact of a thing or event ("surgery in August").
        With `what` (the plan's name in a new date: "the test got moved to the 29th"), the plan
        that names it, a dated event still ahead too ("Esme's test is booked for 22nd may"); with
        no plan, the dated event still ahead said last."""
        plans = [(n, m) for n, m in enumerate(pool.memories) if m.type == "task" or (m.slot or "").endswith(":when")]
        ahead = [(n, m) for n, m in enumerate(pool.memories) if m.type == "event" and _ahead(m.content, now or self.now)]
        if what and not _UNNAMED.fullmatch(what):
            # (A plan named that the store does not have moves no other: "the meeting got moved"
            # with only a dentist appointment stored; "复查是20号不是18号" moves the plan on the 18th.)
            plans = [(n, m) for n, m in plans + ahead if _names(m.content, what)] \
                or [(n, m) for n, m in plans + ahead if was and _day_of(m.content) == was]
        plans = plans or ahead  # ("they moved us to friday the 6th" after "first vet appt is march 5")
        # (Of one conversation's plans, said at one time, the one said last: the later in the pool.)
        return max(plans, key=lambda nm: (nm[1].updated_at or self.now, nm[1].version, nm[0]))[1] if plans else None

    def _cancel(self, plan: Plan, pool: Pool, c: Closure) -> None:
        """Close the goals and plans a cancellation names."""
        for m in [m for m in pool.memories if m.type in ("goal", "task") or (m.slot or "").endswith(":when")]:
            if same_plan(m.content, c.clause):
                self._close(plan, pool, m, c.time or self.now)
                plan.changes.append(IngestChange("superseded", m, reason="cancelled"))
                self._event(plan, "superseded", m, cause="cancelled")

    def _best_related(self, matches: list[tuple[float, Memory]], c: Candidate) -> Memory | None:
        """The best match, counting a shared topic as evidence that two facts are about the same thing."""
        best, best_score = None, 0.0
        for sim, m in matches:
            score = self.judge.related(sim, bool(set(m.topics) & set(c.topics)))
            if score > best_score:
                best, best_score = m, score
        return best if self.judge.corrects(best_score) else None

    def _new_memory(self, c: Candidate, vector: np.ndarray, chain_id: str | None = None, version: int = 1) -> Memory:
        mid = new_id()
        when = c.time or self.now
        return Memory(
            id=mid, chain_id=chain_id or mid, version=version, status="active", user_id=c.user_id,
            type=c.type, content=c.content, lang=c.lang, topics=list(c.topics), slot=c.slot,
            importance=c.importance, confidence=c.confidence, source_type=c.source_type,
            sources=[self._source(c)], created_at=when, updated_at=when,
            valid_from=c.valid_from or when, valid_to=c.valid_to, vector=np.asarray(vector, dtype=np.float32),
            context_vector=_half(self._context[c.turn_key][1]) if c.turn_key in self._context else None,
            context_text=self._context[c.turn_key][0] if c.turn_key in self._context else None,
            subject=None if c.subject == "user" else c.subject,
        )

    def _add(self, plan: Plan, pool: Pool, c: Candidate, vector: np.ndarray) -> None:
        memory = self._new_memory(c, vector)
        memory.cause = "ingest"
        plan.upserts[memory.id] = memory
        plan.created.add(memory.id)
        pool.add(memory)
        plan.changes.append(IngestChange("added", memory, reason=c.type))
        self._event(plan, "ingested", memory, turn=c.turn_key)

    def _reinforce(self, plan: Plan, pool: Pool, m: Memory, c: Candidate) -> None:
        if any(s.turn_key == c.turn_key for s in m.sources):
            return
        m.sources.append(self._source(c))
        pool.heard(m, c.turn_key)
        if len(m.sources) > MAX_SOURCES:
            # The first statement and the latest ones; reinforced_count keeps the total.
            m.sources = m.sources[:1] + m.sources[-(MAX_SOURCES - 1):]
        m.reinforced_count += 1
        m.confidence = round(min(0.99, m.confidence + (1 - m.confidence) * 0.3), 4)
        m.importance = max(m.importance, c.importance)
        m.updated_at = max(m.updated_at or self.now, c.time or self.now)
        plan.upserts[m.id] = m
        plan.changes.append(IngestChange("reinforced", m, reason="said again"))
        self._event(plan, "reinforced", m, turn=c.turn_key)

    def _supersede(self, plan: Plan, pool: Pool, old: Memory, c: Candidate, vector: np.ndarray, cause: str) -> None:
        when = c.time or self.now
        if c.time is not None and old.valid_from is not None and c.time < old.valid_from:
            self._history(plan, old, c, vector, cause)
            return
        new = self._new_memory(c, vector, chain_id=old.chain_id, version=old.version + 1)
        new.cause = cause
        new.supersedes = old.id
        new.importance = max(new.importance, old.importance if cause != "contradiction" else 0.0)
        self._close(plan, pool, old, when)
        plan.upserts[new.id] = new
        plan.created.add(new.id)
        pool.add(new)
        plan.changes.append(IngestChange("superseded", new, previous_id=old.id, reason=cause))
        self._event(plan, "superseded", old, related=[new.id], cause=cause)
        self._event(plan, "ingested", new, related=[old.id], cause=cause, turn=c.turn_key)

    def _history(self, plan: Plan, current: Memory, c: Candidate, vector: np.ndarray, cause: str) -> None:
        """A statement older than the current value of its slot (an old log ingested late,
        or by a slower process): kept as a closed version of the chain, never made current.
        Statement time, not ingest order, decides what is true now."""
        versions = [m.version for m in plan.upserts.values() if m.chain_id == current.chain_id] + [current.version]
        old = self._new_memory(c, vector, chain_id=current.chain_id, version=max(versions) + 1)
        old.cause = cause
        old.status = "superseded"
        old.valid_to = current.valid_from
        plan.upserts[old.id] = old
        plan.created.add(old.id)
        plan.changes.append(IngestChange("added", old, previous_id=current.id, reason=f"older than the current value ({cause})"))
        self._event(plan, "ingested", old, related=[current.id], cause="history", turn=c.turn_key)
        self._event(plan, "superseded", old, related=[current.id], cause="older statement")

    def _close(self, plan: Plan, pool: Pool, old: Memory, when: datetime) -> None:
        old.status = "superseded"
        old.valid_to = when
        old.updated_at = when
        plan.upserts[old.id] = old
        pool.remove(old.id)

    def _negate(self, plan: Plan, pool: Pool, n: Negation, vector: np.ndarray) -> None:
        matches = [(s, m) for s, m in self._matches(pool, vector, n.context) if names_same_thing(m.content, n.context)]
        if not matches or not self.judge.corrects(matches[0][0]):
            return  # a negation of nothing stored is not applied to the nearest memory
        old = matches[0][1]
        if any(s.turn_key == n.turn_key for s in old.sources) and old.id not in plan.created:
            plan.replayed.append(old)  # the negation itself, written by an ingest cut short
            return
        c = Candidate(
            user_id=n.user_id, session=n.session, turn=n.turn, turn_key=n.turn_key, time=n.time,
            clause=n.clause, content=negated(old.content, old.lang), type=old.type, lang=old.lang,
            topics=list(old.topics), slot=None, importance=old.importance, confidence=0.85,
            source_type="user_stated", negative=True, correction=True, valid_from=n.time, valid_to=None,
        )
        self._supersede(plan, pool, old, c, np.asarray(old.vector, dtype=np.float32), "correction")

    def _forget(self, plan: Plan, pool: Pool, f: ForgetRequest, vector: np.ndarray) -> None:
        targets = self._forget_targets(pool, f, vector)
        for m in targets:
            pool.remove(m.id)
            if m.id in plan.created:
                # Never written: drop it from the plan and keep its words out of the turns.
                del plan.upserts[m.id]
                plan.events = [e for e in plan.events if e.memory_id != m.id]
                for s in m.sources:
                    plan.forgotten_clauses.setdefault(s.turn_key, []).append(s.clause)
                plan.changes = [ch for ch in plan.changes if ch.memory.id != m.id]
                # Other memories from that turn lose the turn's text and embedding: they hold
                # the forgotten words.
                for other in plan.upserts.values():
                    if any(s.turn_key in plan.forgotten_clauses for s in other.sources):
                        other.context_vector = None
                        other.context_text = None
            else:
                plan.forget_ids.add(m.id)
                plan.upserts.pop(m.id, None)
            plan.changes.append(IngestChange("forgotten", m, reason="forget request"))

    def _forget_targets(self, pool: Pool, f: ForgetRequest, vector: np.ndarray) -> list[Memory]:
        r = self.rules.lang(f.lang)
        slots = {slot for slot, p in r.slot_words.items() if p.search(f.clause)}
        if slots:
            hits = [m for m in pool.memories if m.slot in slots]
            if hits:
                return hits
        if f.target:
            scored = [(sim, m) for sim, m in self._matches(pool, vector, f.target) if sim >= self.forget_similarity]
            if scored:
                top = scored[0][0]
                return [m for sim, m in scored if sim >= top - 0.05]
        if f.recent:
            # "forget what I just said": the memories from the user's previous turn in this session.
            same = [m for m in pool.memories if any(s.session == f.session and s.turn_key != f.turn_key for s in m.sources)]
            if same:
                # (The last of them in the pool breaks a tie of times: memories of one
                # conversation share its time, and are pooled in the order they were said.)
                last = same[max(range(len(same)), key=lambda i: (same[i].updated_at or self.now, i))]
                last_turn = last.sources[-1].turn_key
                return [m for m in same if any(s.turn_key == last_turn for s in m.sources)]
        return []


def _labelled(content: str) -> datetime | None:
    """The day of a memory's date label ("(2026-05-22)", "（2026-06-18）", a range's first)."""
    m = re.search(r"[(（](\d{4})-(\d{2})-(\d{2})(?:~[\d-]+)?[)）]$", content)
    return datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=timezone.utc) if m else None


def _ahead(content: str, now: datetime) -> bool:
    """Whether a memory's date label is still ahead."""
    day = _labelled(content)
    return day is not None and day >= now - timedelta(days=1)


def _day_of(content: str) -> int:
    """The day of the month of a memory's date label ("（2026-06-18）": 18), or 0."""
    day = _labelled(content)
    return day.day if day else 0


def _names(content: str, what: str) -> bool:
    """Whether a memory names the plan by `what` ("test", "appt" for "appointment", "家长会")."""
    low = content.lower()
    if re.search(r"[\u4e00-\u9fff]", what):
        return any(w in content for w in {"婚期": ("婚期", "结婚", "婚礼"), "航班": ("航班", "机票", "飞"), "会议": ("会议", "开会")}.get(what, (what,)))
    head = re.sub(r"\s+(?:date|day|time|slot)$", "", what).split()[-1]  # "test date" -> "test"
    stem = head[:-1] if head.endswith("s") else head
    short = {"appointment": "appt", "appt": "appointment", "outbound": "flying", "flight": "flying"}.get(stem, stem)
    return re.search(rf"\b(?:{re.escape(stem)}|{re.escape(short)})s?\b", low) is not None


# Words that name no plan of their own: "the date got moved", 时间改到.
_UNNAMED = re.compile(r"(?:the )?(?:date|time|day|plan|thing|it|that|one|时间|日期|日子|安排|事)")


def _redated(old: str, phrase: str, said: str, vocab: dict, now: datetime) -> tuple[str, datetime | None]:
    """ "User's mat leave starts aug 28 (2026-08-28)" given "aug 21" -> "User's mat leave starts
    aug 21 (2026-08-21)": the plan in its own words, with the new date's words and label, and
    the new end of the plan when a bare day takes the plan's month ("actually it's the 21st"
    of a plan in August: the 21st of August, if that is still ahead)."""
    body = without_time(old)
    label = said[len(without_time(said)):]
    weekday = _WEEKDAY.fullmatch(phrase.strip().lower())
    was = _labelled(old)
    if weekday and was is not None:
        # "家长会改到周四" of a meeting on Wednesday the 15th: the Thursday nearest it, the 16th.
        wanted = next(n for n, names in enumerate(_WEEKDAYS) if weekday.group(1) in names)
        when = was + timedelta(days=(wanted - was.weekday() + 3) % 7 - 3)  # (the nearest such day: Saturday to Monday is two days on)
        if when > now:
            label = f"（{when:%Y-%m-%d}）" if label.startswith("（") else f" ({when:%Y-%m-%d})"
            if label.startswith("（"):
                phrase = f"{when.month}月{when.day}号"  # (a weekday goes stale; the day does not)
            return _with_phrase(body, phrase, now, vocab) + label, when + timedelta(days=1)
    day = re.fullmatch(r"(?:on )?(?:the )?(\d{1,2})(?:st|nd|rd|th)?", phrase.lower())
    month = re.search(r"\((\d{4})-(\d{2})(?:-\d{2})?\)$", old)
    due = None
    if day and month:
        try:
            when = datetime(int(month.group(1)), int(month.group(2)), int(day.group(1)), tzinfo=timezone.utc)
        except ValueError:
            when = None
        if when is not None and when > now:
            label, due = f" ({when:%Y-%m-%d})", when + timedelta(days=1)
    return _with_phrase(body, phrase, now, vocab) + label, due


_WEEKDAYS = [("monday", "周一", "星期一", "礼拜一"), ("tuesday", "周二", "星期二", "礼拜二"), ("wednesday", "周三", "星期三", "礼拜三"),
             ("thursday", "周四", "星期四", "礼拜四"), ("friday", "周五", "星期五", "礼拜五"), ("saturday", "周六", "星期六", "礼拜六"),
             ("sunday", "周日", "周天", "星期日", "星期天", "礼拜日", "礼拜天")]
_WEEKDAY = re.compile(r"(?:on )?(" + "|".join(n for names in _WEEKDAYS for n in names) + r")")


def _with_phrase(body: str, phrase: str, now: datetime, vocab: dict) -> str:
    """The plan's words with its day said anew: the old day's words replaced where the plan has
    them ("on friday" -> "on thursday"), else the new day after them."""
    lang = "zh" if body.startswith("用户") else "en"
    times = [t for t in find_times(body, lang, now, vocab) if t.phrase and t.phrase.lower() in body.lower()] \
        if body.startswith(("User", "用户")) else []
    if times and times[0].precision == "day":
        at = body.lower().index(times[0].phrase.lower())
        lead = re.match(r"(?:on|in|at|for|by) ", times[0].phrase, re.I)
        if lead and not re.match(r"(?:on|in|at|for|by) ", phrase, re.I):
            phrase = lead.group(0) + phrase  # "on friday" moved: "on thursday"
        head = body[:at]
        if _WEEKDAY.match(phrase.lower()):
            head = re.sub(r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,? )$", "", head, flags=re.I)  # "Friday the 13th" -> "Sunday the 15th"
        return head + phrase + body[at + len(times[0].phrase):]
    if lang == "zh":
        return f"{body}，改到{phrase}"  # "用户五一想带爸妈去云南玩一周，改到5月3号"
    return f"{body}, now on {phrase}"


def _named(content: str, target: Memory, lang: str, rules: object) -> str:
    """ "User rescheduled it to November" -> "User rescheduled their surgery to November":
    "it" named by the plan it stands for."""
    label = target.subject
    if not label:
        from .extract.subjects import EVENT

        words = [w for w, kind in getattr(rules, "lang")(target.lang).relations.items() if kind == EVENT]
        low = target.content.lower()
        label = next((w for w in words if re.search(rf"\b{re.escape(w)}\b" if target.lang == "en" else re.escape(w), low)), "")
    if lang == "zh":
        return re.sub(r"(?:它|这个|那个)", label or "计划", content, count=1)
    return re.sub(r"\b(?:it|that|this)\b", f"their {label or 'plan'}", content, count=1)


def _half(vector: np.ndarray | None) -> np.ndarray | None:
    return None if vector is None else np.asarray(vector, dtype=np.float16)
