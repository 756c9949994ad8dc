"""Finding and masking secrets: API keys and tokens, private keys, passwords, Chinese
resident ID numbers (with their checksum) and bank card numbers (Luhn).

Patterns live in rules/secrets.toml. A clause holding a secret is never extracted, and
every text memctl keeps (source turns) is masked before it reaches the store.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def find_secrets(text: str, rules: Rules) -> list[Found]:
    found: list[Found] = []
    lowered = text.lower()
    for pattern in rules.secrets:
        if not pattern.may_match(lowered):
            continue
        check = _VALIDATORS.get(pattern.validate or "")
        for m in pattern.pattern.finditer(text):
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
