"""Traditional Chinese, read with the simplified rules and written back in the user's own
characters ("我老婆是國小老師" is read as "我老婆是国小老师" and kept as "用戶的老婆是國小老師").

The Chinese rules are written once, in simplified characters. A turn typed in traditional
characters is converted for reading (OpenCC's tables, Apache-2.0); what is kept from it is
written back by position: every character that comes from the turn is the one the user typed
there ("台中" stays "台中", "頭髮" and "發現" each keep their own 发), and only the words the
memory adds ("用户", "的") come from the tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

_HAN = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")  # Japanese: its kanji are not traditional Chinese
# Quoted words (a shop sign, a title) are the quote's script, not the writer's.
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|《[^》]*》|\"[^\"]*\"")
# Characters that traditional text uses as they are, though the tables would change them
# (台中, 里長, 皇后, 干城, 准許, 於/于 as a surname, 游泳, 沖/冲): they say nothing of the script.
_BOTH = set("台里后干准于游冲范谷丑斗卷几征采余志咸松系只面周制")


@lru_cache(maxsize=None)
def _converter(config: str) -> Any:
    from opencc import OpenCC  # (loaded only when a Chinese turn is read)

    return OpenCC(config)


@dataclass
class Reading:
    """A turn's text as the rules read it, and the way back to what the user typed."""

    text: str
    typed: str = ""  # the turn as typed, when it was converted ("" when read as it is)
    # Whether its own characters said which script it is in (not "最近生意不太好", which
    # either script writes alike).
    decided: bool = True

    def back(self, out: str) -> str:
        """`out` (a clause, a memory's text or its subject, written from `text`) in the
        user's own characters."""
        if not self.typed or not _HAN.search(out):
            return out
        parts: list[str] = []
        blocks = SequenceMatcher(None, self.text, out, autojunk=False).get_matching_blocks()
        at = 0  # how much of `out` is written
        for read_at, out_at, size in blocks:
            if out_at > at:
                parts.append(_converter("s2t").convert(out[at:out_at]))  # words the memory adds
            parts.append(self.typed[read_at:read_at + size])
            at = out_at + size
        if at < len(out):
            parts.append(_converter("s2t").convert(out[at:]))
        return "".join(parts)


def _script_marks(text: str) -> tuple[int, int]:
    """How many characters only traditional text uses, and how many only simplified text uses."""
    bare = _QUOTED.sub("", text)
    simplified = _converter("t2s").convert(bare)
    traditional = _converter("s2t").convert(bare)
    if len(simplified) != len(bare) or len(traditional) != len(bare):
        return 0, len(bare)
    only_traditional = sum(a != b for a, b in zip(bare, simplified))
    only_simplified = sum(a != b and a not in _BOTH for a, b in zip(bare, traditional))
    return only_traditional, only_simplified


def reading(text: str, traditional_before: bool = False) -> Reading:
    """How the rules read `text`: as it is, unless it is traditional Chinese (or, when it could
    be either, follows a turn of the same writer that was)."""
    if not _HAN.search(text) or _KANA.search(text):
        return Reading(text, decided=False)
    only_traditional, only_simplified = _script_marks(text)
    decided = only_traditional != only_simplified
    if only_traditional < only_simplified or not decided and not traditional_before:
        return Reading(text, decided=decided)
    simplified = _converter("t2s").convert(text)
    if len(simplified) != len(text):
        return Reading(text, decided=decided)
    return Reading(simplified, text, decided)
