"""Traditional Chinese, read with the simplified rules and written back in the user's own
characters ("我老婆是國小老師" is read as "我老婆是国小老师" and kept as "用戶的老婆是國小老師").

The Chinese rules are written once, in simplified characters. A turn typed in traditional
characters is converted for reading (OpenCC's tables, Apache-2.0); what is kept from it is
converted back, taking each character the user typed as they typed it ("台中" stays "台中",
not the orthodox "臺中") and only the words the memory adds ("用户") from the tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

_HAN = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")  # Japanese: its kanji are not traditional Chinese


@lru_cache(maxsize=None)
def _converter(config: str) -> Any:
    from opencc import OpenCC  # (loaded only when a Chinese turn is read)

    return OpenCC(config)


@dataclass
class Reading:
    """A turn's text as the rules read it, and the way back to the user's characters."""

    text: str
    # Simplified character -> the character the user typed for it, in this turn (empty when
    # the turn is read as it is).
    typed: dict[str, str] = field(default_factory=dict)

    def back(self, text: str) -> str:
        """`text` (read or written from this turn) in the user's own script."""
        if not self.typed or not _HAN.search(text):
            return text
        out = _converter("s2t").convert(text)
        if len(out) != len(text):
            return out
        return "".join(self.typed.get(s, t) for s, t in zip(text, out))


def reading(text: str) -> Reading:
    """How the rules read `text`: as it is, unless it is traditional Chinese."""
    if not _HAN.search(text) or _KANA.search(text):
        return Reading(text)
    simplified = _converter("t2s").convert(text)
    if simplified == text or len(simplified) != len(text):
        return Reading(text)
    traditional = _converter("s2t").convert(text)
    as_traditional = sum(a != b for a, b in zip(text, simplified))
    # A simplified turn has many characters that the traditional tables would change ("孙",
    # "开"); a traditional one has only a few variants ("台" -> "臺").
    as_simplified = sum(a != b for a, b in zip(text, traditional)) if len(traditional) == len(text) else len(text)
    if as_traditional <= as_simplified:
        return Reading(text)
    typed = {s: t for t, s in zip(text, simplified) if _HAN.match(t)}
    return Reading(simplified, typed)
