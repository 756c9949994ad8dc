"""LoCoMo (snap-research/LoCoMo, CC BY-NC 4.0), read from ../shared/data/locomo.

Each conversation has two speakers; for speaker A's memory, A's turns are the user's
and B's the assistant's (and the reverse for B). Turn ids are LoCoMo's `dia_id`, so a
memory's source turns can be checked against a question's evidence.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone
from typing import Any

from common import SHARED_DATA, need
from memctl.conversations import Conversation, Turn

_TOKEN = re.compile(r"[a-z0-9]+")


def load() -> list[dict[str, Any]]:
    return json.loads(need(SHARED_DATA / "locomo" / "locomo10.json").read_text(encoding="utf-8"))


def _time(text: str) -> datetime:
    # "1:56 pm on 8 May, 2023"
    return datetime.strptime(text.replace(" on ", " ").replace(",", ""), "%I:%M %p %d %B %Y").replace(tzinfo=timezone.utc)


def turn_text(turn: dict[str, Any]) -> str:
    """The turn's text; a shared image is described by its caption, as the speaker's act."""
    text = turn["text"]
    if turn.get("blip_caption"):
        caption = re.sub(r"^a (?:photo|photography|picture) of ", "", turn["blip_caption"])
        text += f" I shared a photo of {caption}."
    return text


def sessions(sample: dict[str, Any]) -> list[tuple[int, datetime, list[dict[str, Any]]]]:
    conv = sample["conversation"]
    out = []
    for key in conv:
        m = re.fullmatch(r"session_(\d+)", key)
        if m and conv[key]:
            out.append((int(m.group(1)), _time(conv[f"{key}_date_time"]), conv[key]))
    return sorted(out)


def user_id(sample: dict[str, Any], speaker: str) -> str:
    return f"{sample['sample_id']}-{speaker}".replace(" ", "_")


def conversations_for(sample: dict[str, Any], speaker: str) -> list[Conversation]:
    convs = []
    for n, when, turns in sessions(sample):
        msgs = [Turn(t["dia_id"], "user" if t["speaker"] == speaker else "assistant", turn_text(t), when) for t in turns]
        convs.append(Conversation(user_id(sample, speaker), f"{sample['sample_id']}-s{n}", when, msgs, origin="locomo"))
    return convs


def speakers(sample: dict[str, Any]) -> tuple[str, str]:
    return sample["conversation"]["speaker_a"], sample["conversation"]["speaker_b"]


def observed_turns(sample: dict[str, Any], speaker: str) -> set[str]:
    """The speaker's turns that carry one of the dataset's per-session observations
    (the facts about the speaker that the annotators noted, each with its turn)."""
    out: set[str] = set()
    for per_session in sample.get("observation", {}).values():
        for text, evidence in per_session.get(speaker, []):
            for item in evidence if isinstance(evidence, list) else [evidence]:
                out.update(x.strip() for x in re.split(r"[;,]\s*", str(item)) if x.strip())
    return out


def questions(sample: dict[str, Any]) -> list[dict[str, Any]]:
    """Answerable questions (category 5 is adversarial) with their evidence turn ids."""
    out = []
    for q in sample["qa"]:
        if q.get("category") == 5 or not q.get("evidence"):
            continue
        evidence = {e.strip() for ev in q["evidence"] for e in re.split(r"[;,]\s*", ev) if e.strip()}
        out.append({"question": q["question"], "evidence": evidence, "category": q["category"]})
    return out


def about(sample: dict[str, Any], question: str) -> list[str]:
    """Which speaker(s) a question names; both when it names neither or both."""
    named = [s for s in speakers(sample) if re.search(rf"\b{re.escape(s.split()[0])}\b", question, re.I)]
    return named if len(named) == 1 else list(speakers(sample))


def _tokens(text: str) -> list[str]:
    # Plain lower-cased words, no stemming or stop words: the tokenisation that gives the
    # documented raw-turn BM25 figure (R@5 about 0.41 on all ten conversations).
    return _TOKEN.findall(text.lower())


class RawTurnBM25:
    """The baseline: Okapi BM25 (k1 1.5, b 0.75) over every raw turn of a conversation."""

    def __init__(self, sample: dict[str, Any], k1: float = 1.5, b: float = 0.75, text=lambda t: t["text"]) -> None:
        self.ids, docs = [], []
        for _, _, turns in sessions(sample):
            for t in turns:
                self.ids.append(t["dia_id"])
                docs.append(Counter(_tokens(text(t))))
        self.docs, self.k1, self.b = docs, k1, b
        self.lengths = [sum(d.values()) for d in docs]
        self.avg = sum(self.lengths) / len(self.lengths)
        df: Counter[str] = Counter()
        for d in docs:
            df.update(d.keys())
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def top(self, query: str, k: int = 5) -> list[str]:
        q = _tokens(query)
        scores = []
        for i, (d, length) in enumerate(zip(self.docs, self.lengths)):
            s = sum(self.idf[t] * d[t] * (self.k1 + 1) / (d[t] + self.k1 * (1 - self.b + self.b * length / self.avg)) for t in q if t in d)
            scores.append((s, i))
        scores.sort(key=lambda x: (-x[0], x[1]))
        return [self.ids[i] for _, i in scores[:k]]


def recall_at(evidence: set[str], retrieved: list[str]) -> float:
    return len(evidence & set(retrieved)) / len(evidence)
