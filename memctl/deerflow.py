"""DeerFlow's memory.json, both ways.

DeerFlow keeps per user one JSON document: `user` (workContext, personalContext, topOfMind)
and `history` (recentMonths, earlierContext, longTermBackground), each {summary, updatedAt},
and `facts`: [{id, content, category, confidence, createdAt, source}], category one of
preference, knowledge, context, behavior, goal.

Import reads the facts as memories of one user (the summaries are DeerFlow's own LLM
digests of those facts; memctl builds its profile from its memories, so they are counted
but not stored). A fact keeps its DeerFlow id and category in its source (session
"deerflow"), so an export gives back the same ids and categories.

Export writes one user's active memories as facts, and the profile's levels (profile.py)
as the summaries, in the shape DeerFlow's loader reads (`version`, `lastUpdated`, `user`,
`history`, `facts`).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import InputError
from .results import Profile
from .schema import Memory, iso

# DeerFlow category -> memctl type, and back. "context" (what the user is doing, who they
# are) is a profile fact; memctl's events and tasks go out as context and goal.
TO_TYPE = {"preference": "preference", "knowledge": "knowledge", "context": "profile", "behavior": "behavior",
           "goal": "goal", "identity": "profile", "constraint": "preference", "decision": "event",
           "correction": "profile", "cognitive": "preference", "other": "profile"}
TO_CATEGORY = {"preference": "preference", "knowledge": "knowledge", "profile": "context", "behavior": "behavior",
               "goal": "goal", "task": "goal", "event": "context"}
SESSION = "deerflow"
_SUMMARIES = {"user": ("workContext", "personalContext", "topOfMind"),
              "history": ("recentMonths", "earlierContext", "longTermBackground")}
_SECTION = {"workContext": "work_context", "personalContext": "personal_context", "topOfMind": "top_of_mind",
            "recentMonths": "recent_months", "earlierContext": "earlier_context", "longTermBackground": "long_term_background"}


def read_deerflow(path: Path, user: str) -> list[str]:
    """A memory.json, or a folder holding one, as memctl import records, one JSON line each.

    A folder may also be DeerFlow's per-user layout: `users/<id>/memory.json` (summaries)
    with each fact in `agents/<agent>/facts/*.md` (YAML front matter, then "# title" and the
    content); those facts are read too."""
    markdown: list[Path] = []
    if path.is_dir():
        found = [p for p in (path / "memory.json", path / "users" / user / "memory.json") if p.is_file()]
        if not found:
            raise InputError(f"{path}: no memory.json here or under users/{user}/")
        path = found[0]
        markdown = sorted(path.parent.glob("agents/*/facts/*.md"))
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{path}: invalid JSON ({str(exc).split(':')[0]})") from None
    if not isinstance(data, dict) or not isinstance(data.get("facts", []), list):
        raise InputError(f"{path}: not a DeerFlow memory.json (an object with a facts list)")
    facts = [(f"{path}: facts[{n}]", fact) for n, fact in enumerate(data.get("facts", []), 1)]
    facts += [(str(md), _markdown_fact(md)) for md in markdown]
    if "facts" not in data and not markdown:
        raise InputError(f"{path}: no facts list, and no agents/*/facts/*.md beside it")
    lines = []
    for where, fact in facts:
        if not isinstance(fact, dict) or not isinstance(fact.get("content"), str) or not fact["content"].strip():
            raise InputError(f"{where}: a fact needs a non-empty content string")
        category = fact.get("category") or "context"
        if category not in TO_TYPE:
            raise InputError(f"{where}: unknown category {category!r} (use {', '.join(sorted(TO_TYPE))})")
        fact_id = str(fact.get("id") or "")
        if not fact_id:
            raise InputError(f"{where}: a fact needs an id")
        created = fact.get("createdAt") or None
        confidence = fact.get("confidence", 0.8)
        source = fact.get("source")
        source_text = source if isinstance(source, str) else json.dumps(source, ensure_ascii=False) if source else ""
        lines.append(json.dumps({
            "kind": "memory", "id": memory_id(user, fact_id), "user": user, "type": TO_TYPE[category],
            "content": fact["content"].strip(), "confidence": confidence, "importance": 0.6, "status": "active",
            "created_at": created, "updated_at": created, "valid_from": created, "cause": "import",
            "source_type": "user_stated",
            "sources": [{"session": SESSION, "turn": category, "time": created, "clause": source_text, "turn_key": f"{SESSION}:{fact_id}"}],
        }, ensure_ascii=False))
    return lines


def _markdown_fact(path: Path) -> dict[str, Any]:
    """One fact file of DeerFlow's per-user layout: front matter, a "# title" line, the content."""
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
        if not text.startswith("---\n") or "\n---\n" not in text[4:]:
            raise InputError(f"{path}: no YAML front matter")
        front, body = text[4:].split("\n---\n", 1)
        meta = yaml.safe_load(front) or {}
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: invalid YAML front matter ({str(exc).splitlines()[0]})") from None
    if not isinstance(meta, dict):
        raise InputError(f"{path}: the front matter is not a mapping")
    lines = body.lstrip("\n").splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    fact = {k: meta.get(k) for k in ("id", "category", "confidence", "createdAt")}
    fact["content"] = "\n".join(lines).strip()
    source = meta.get("source")
    fact["source"] = (source.get("threadId") or source.get("type")) if isinstance(source, dict) else source
    if isinstance(fact.get("createdAt"), datetime):
        fact["createdAt"] = iso(fact["createdAt"])
    return fact


def memory_id(user: str, fact_id: str) -> str:
    """A stable memctl id for a DeerFlow fact: importing it twice finds it the second time."""
    return hashlib.sha256(f"deerflow\0{user}\0{fact_id}".encode()).hexdigest()[:16]


def to_memory_json(memories: list[Any], now: datetime, profile: Profile | None = None) -> dict[str, Any]:
    """One user's active memories as DeerFlow's memory.json."""
    stamp = iso(now) or ""
    facts = []
    for m in memories:
        if not isinstance(m, Memory) or m.status != "active":
            continue
        origin = next((s for s in m.sources if s.session == SESSION and s.turn_key.startswith(f"{SESSION}:")), None)
        facts.append({
            "id": origin.turn_key[len(SESSION) + 1:] if origin else f"fact_{m.id}",
            "content": m.content,
            "category": origin.turn if origin and origin.turn in TO_TYPE and TO_TYPE[origin.turn] == m.type else TO_CATEGORY[m.type],
            "confidence": round(float(m.confidence), 3),
            "createdAt": iso(m.created_at) or "",
            "source": (origin.clause if origin and origin.clause else "memctl"),
        })
    sections = profile.sections if profile is not None else {}
    doc: dict[str, Any] = {"version": "1.0", "lastUpdated": stamp}
    for part, keys in _SUMMARIES.items():
        doc[part] = {}
        for key in keys:
            lines = sections.get(_SECTION[key]) or []
            doc[part][key] = {"summary": " ".join(line.text.rstrip("。.") + ("。" if _han(line.text) else ".") for line in lines),
                              "updatedAt": stamp if lines else ""}
    doc["facts"] = facts
    return doc


def _han(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)
