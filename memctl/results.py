"""What the library's verbs return. Plain dataclasses with `to_dict()` for JSON output;
field names here are the documented, stable JSON names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .schema import Memory


@dataclass
class IngestChange:
    action: str  # added | reinforced | superseded | forgotten
    memory: Memory
    previous_id: str | None = None
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "reason": self.reason,
            "previous_id": self.previous_id,
            "memory": self.memory.public(),
        }


@dataclass
class IngestReport:
    files: int = 0
    conversations: int = 0
    turns: int = 0
    turns_new: int = 0
    turns_seen: int = 0
    added: int = 0
    reinforced: int = 0
    superseded: int = 0
    forgotten: int = 0
    secrets_blocked: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    users: list[str] = field(default_factory=list)
    dry_run: bool = False
    changes: list[IngestChange] = field(default_factory=list)
    store_version: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "files": self.files,
            "conversations": self.conversations,
            "users": self.users,
            "turns": self.turns,
            "turns_new": self.turns_new,
            "turns_seen": self.turns_seen,
            "added": self.added,
            "reinforced": self.reinforced,
            "superseded": self.superseded,
            "forgotten": self.forgotten,
            "secrets_blocked": self.secrets_blocked,
            "dropped": dict(sorted(self.dropped.items())),
            "store_version": self.store_version,
            "changes": [c.to_dict() for c in self.changes],
        }


@dataclass
class ScoreParts:
    """The parts of a recall score; `score` is their weighted sum."""

    dense: float = 0.0
    lexical: float = 0.0
    topic: float = 0.0
    importance: float = 0.0
    recency: float = 0.0
    reinforcement: float = 0.0
    user_stated: float = 0.0
    relevance: float = 0.0
    score: float = 0.0

    def to_dict(self) -> dict[str, float]:
        return {k: round(v, 4) for k, v in self.__dict__.items()}


@dataclass
class RecallHit:
    memory: Memory
    parts: ScoreParts

    @property
    def score(self) -> float:
        return self.parts.score

    def to_dict(self) -> dict[str, Any]:
        d = self.memory.public()
        d["score"] = round(self.parts.score, 4)
        d["score_parts"] = self.parts.to_dict()
        return d


@dataclass
class RecallResult:
    query: str
    user: str
    hits: list[RecallHit] = field(default_factory=list)

    def to_list(self) -> list[dict[str, Any]]:
        return [h.to_dict() for h in self.hits]
