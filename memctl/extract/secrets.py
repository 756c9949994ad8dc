"""Finding and masking secrets: API keys and tokens, private keys, passwords, Chinese
resident ID numbers (with their checksum) and bank card numbers (Luhn).

Patterns live in rules/secrets.toml. A clause holding a secret is never extracted, and
every text memctl keeps (source turns) is masked before it reaches the store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from .rules import Rules

MASK = "[secret removed]"

_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"


def luhn_ok(text: str) -> bool:
    digits = [int(c) for c in text if c.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def cn_id_ok(text: str) -> bool:
    body, check = text[:17], text[17:].upper()
    if len(text) != 18 or not body.isdigit():
        return False
    total = sum(int(c) * w for c, w in zip(body, _CN_ID_WEIGHTS))
    return _CN_ID_CHECK[total % 11] == check


_VALIDATORS = {"luhn": luhn_ok, "cn_id": cn_id_ok}


@dataclass
class Found:
    name: str
    start: int
    end: int


# A text with a run of more than _REACH characters without whitespace (a pasted blob, a
# minified file, one endless "word") is searched a window at a time: matches start in a
# window of _WINDOW characters and may run _REACH characters past it. A pattern that
# scans ahead from every position of such a run (`[a-z0-9.-]*://` along a dotted host
# name, `\S*\d` along a token) then costs at most _WINDOW + _REACH steps a position, not
# the length of the run, and masking stays linear. A match that ends within _SLACK
# characters of where its window stops may have been cut short there (a greedy key, a
# lookahead, "$"): it is matched again from its start with twice the room, and again,
# until it ends well inside (or the text ends). Only a match that must look more than
# _REACH characters ahead before it can succeed can be missed: a "scheme://user:pass@"
# whose user:pass runs over 2,000 characters, a KEY=value glued to the end of a token of
# over 2,000 characters. Other texts are searched whole, as they always were: without
# long runs the built-in patterns cannot scan far.
_WINDOW = 4096
_REACH = 2048
_SLACK = 64


def _windowed(text: str) -> bool:
    return len(text) > _WINDOW + _REACH and max(map(len, text.split()), default=0) > _REACH


def _match_whole(pattern: re.Pattern[str], text: str, start: int, room: int) -> re.Match[str] | None:
    n = len(text)
    while True:
        room *= 2
        stop = min(n, start + room)
        m = pattern.match(text, start, stop)
        if m is None or stop == n or m.end() <= stop - _SLACK:
            return m


def _matches(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """What pattern.finditer(text) finds, a window at a time."""
    n = len(text)
    pos = 0
    while pos < n:
        stop = min(n, pos + _WINDOW)
        end = min(n, stop + _REACH)
        resume = stop
        for m in pattern.finditer(text, pos, end):
            if m.start() >= stop:
                break
            cut = end < n and m.end() > end - _SLACK
            if cut:
                whole = _match_whole(pattern, text, m.start(), end - m.start())
                if whole is None:
                    resume = m.start() + 1  # not a match after all: go on from the next position
                    break
                m = whole
            yield m
            if cut or m.end() >= stop:
                resume = max(m.end(), m.start() + 1)
                break
        pos = resume


def find_secrets(text: str, rules: Rules) -> list[Found]:
    found: list[Found] = []
    lowered = text.lower()
    windowed = _windowed(text)
    for pattern in rules.secrets:
        if not pattern.may_match(lowered):
            continue
        check = _VALIDATORS.get(pattern.validate or "")
        for m in _matches(pattern.pattern, text) if windowed else pattern.pattern.finditer(text):
            if check is not None and not check(m.group(0)):
                continue
            found.append(Found(pattern.name, m.start(), m.end()))
    return found


def mask_secrets(text: str, rules: Rules) -> tuple[str, int]:
    """The text with every secret replaced by a fixed mark, and how many were found."""
    spans = sorted((f.start, f.end) for f in find_secrets(text, rules))
    if not spans:
        return text, 0
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, pos = [], 0
    for start, end in merged:
        out.append(text[pos:start])
        out.append(MASK)
        pos = end
    out.append(text[pos:])
    return "".join(out), len(merged)


__all__ = ["MASK", "find_secrets", "mask_secrets", "luhn_ok", "cn_id_ok"]
