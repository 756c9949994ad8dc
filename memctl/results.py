"""What the library's verbs return: plain dataclasses with `to_dict()` for JSON output.

Field names here are the documented, stable JSON names. This module holds data only:
the verbs fill these in; the CLI and agent code read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .schema import Episode, Memory, iso

# -- ingest ---------------------------------------------------------------------------


@dataclass
class IngestChange:
    action: str  # added | reinforced | superseded | forgotten
    memory: Memory
    previous_id: str | None = None
    reason: str = ""

    @property
    def content(self) -> str | None:
        """The memory's text; never for one the user asked to forget (it ends up in logs)."""
        return None if self.action == "forgotten" else self.memory.content

    def to_dict(self) -> dict[str, Any]:
        memory = self.memory.public()
        if self.action == "forgotten":
            memory = {"id": memory["id"], "user": memory.get("user"), "type": memory.get("type"), "content": None}
        return {
            "action": self.action,
            "reason": self.reason,
            "previous_id": self.previous_id,
            "memory": memory,
        }


@dataclass
class IngestReport:
    files: int = 0
    conversations: int = 0
    turns: int = 0
    turns_new: int = 0
    turns_seen: int = 0
    episodes: int = 0
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
    # What the ingest changed in the input to take it in (a message cut to ingest.max_message_chars).
    warnings: list[str] = field(default_factory=list)

    def to_dict(self, changes: bool = True) -> dict[str, Any]:
        """The report as JSON; without `changes`, only the figures (a big ingest's changes
        are written one by one)."""
        return {
            "dry_run": self.dry_run,
            "files": self.files,
            "conversations": self.conversations,
            "users": self.users,
            "turns": self.turns,
            "turns_new": self.turns_new,
            "turns_seen": self.turns_seen,
            "episodes": self.episodes,
            "added": self.added,
            "reinforced": self.reinforced,
            "superseded": self.superseded,
            "forgotten": self.forgotten,
            "secrets_blocked": self.secrets_blocked,
            "dropped": dict(sorted(self.dropped.items())),
            "store_version": self.store_version,
            "warnings": list(self.warnings),
            **({"changes": [c.to_dict() for c in self.changes]} if changes else {}),
        }


# -- recall ---------------------------------------------------------------------------


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
    # 1 when the item was said (or, for a memory, became true) in a period the query names.
    period: float = 0.0
    relevance: float = 0.0
    # For a memory: the score of the most relevant turn it came from, folded into it.
    evidence: float = 0.0
    # For an episode: the score of the user's turn before or after it in the same session
    # (with a question between them); it scores at least `recall.neighbour_weight` of that.
    neighbour: float = 0.0
    score: float = 0.0

    def to_dict(self) -> dict[str, float]:
        return {k: round(v, 4) for k, v in self.__dict__.items()}


@dataclass
class RecallHit:
    """One ranked item: a memory (a curated fact) or an episode (a turn as it was said)."""

    memory: Memory | None
    parts: ScoreParts
    episode: Episode | None = None
    # Where the memory's row is in its table (recall reads listed memories in full by it).
    row: int | None = None

    @property
    def kind(self) -> str:
        return "memory" if self.memory is not None else "episode"

    @property
    def item(self) -> Memory | Episode:
        item = self.memory if self.memory is not None else self.episode
        assert item is not None
        return item

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def type(self) -> str:
        return self.memory.type if self.memory is not None else "episode"

    @property
    def content(self) -> str:
        return self.item.content or ""

    @property
    def status(self) -> str:
        if self.memory is not None:
            return self.memory.status
        return "outdated" if self.episode is not None and self.episode.outdated else "active"

    @property
    def score(self) -> float:
        return self.parts.score

    def to_dict(self) -> dict[str, Any]:
        d = self.item.public()
        d["score"] = round(self.parts.score, 4)
        d["score_parts"] = self.parts.to_dict()
        return d


@dataclass
class RecallResult:
    query: str
    user: str
    hits: list[RecallHit] = field(default_factory=list)
    # Whether the recall was noted (recall counts); `note` says why not (a read-only store).
    recorded: bool = False
    note: str = ""

    @property
    def memories(self) -> list[Memory]:
        return [h.memory for h in self.hits if h.memory is not None]

    @property
    def episodes(self) -> list[Episode]:
        return [h.episode for h in self.hits if h.episode is not None]

    def to_list(self) -> list[dict[str, Any]]:
        return [h.to_dict() for h in self.hits]


# -- list -----------------------------------------------------------------------------


@dataclass
class Listing:
    """What `list` found: the newest `limit` items of `total` that match."""

    items: list[Memory | Episode] = field(default_factory=list)
    total: int = 0

    def to_list(self) -> list[dict[str, Any]]:
        return [item.public() for item in self.items]


# -- profile ------------------------------------------------------------------------------


@dataclass
class ProfileLine:
    """One line of a profile: a memory's text (history lines say "was: ..."), its id."""

    text: str
    ids: list[str]
    type: str
    subject: str = "user"
    confidence: float = 0.8
    created_at: datetime | None = None
    status: str = "active"

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "ids": self.ids, "type": self.type, "subject": self.subject, "status": self.status}


@dataclass
class Profile:
    """A user's profile in three levels (profile.py): `sections` holds work_context,
    personal_context, top_of_mind, recent_months, earlier_context, long_term_background."""

    user: str
    built_at: datetime | None = None
    sections: dict[str, list[ProfileLine]] = field(default_factory=dict)
    facts: list[ProfileLine] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        s = {k: [line.to_dict() for line in v] for k, v in self.sections.items()}
        return {
            "user": self.user,
            "built_at": iso(self.built_at),
            "now": {k: s.get(k, []) for k in ("work_context", "personal_context", "top_of_mind")},
            "history": {k: s.get(k, []) for k in ("recent_months", "earlier_context", "long_term_background")},
            "facts": [{"id": f.ids[0], "content": f.text, "type": f.type, "subject": f.subject,
                       "confidence": round(f.confidence, 3), "created_at": iso(f.created_at)} for f in self.facts],
        }


# -- import -------------------------------------------------------------------------------


@dataclass
class ImportReport:
    """What an import wrote (or, dry run, would write) and what it skipped."""

    dry_run: bool = False
    records: int = 0
    memories: int = 0
    episodes: int = 0
    skipped_existing: int = 0
    skipped_forgotten: int = 0
    users: list[str] = field(default_factory=list)
    store_version: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# -- forget ---------------------------------------------------------------------------


@dataclass
class PurgeStats:
    memories: int = 0
    episodes: int = 0
    turns_cleared: int = 0
    turns_trimmed: int = 0
    files_before: int = 0
    files_after: int = 0


@dataclass
class ForgetReport:
    """A forget's selection (dry_run=True: the plan shown for confirmation) or its result."""

    dry_run: bool
    selector: dict[str, Any]
    memories: list[Memory]
    episodes: list[Episode] = field(default_factory=list)
    # Memories that stay but lose some sayings (a forgotten session): id -> turn keys.
    trimmed: dict[str, list[str]] = field(default_factory=dict)
    stats: PurgeStats | None = None

    @property
    def empty(self) -> bool:
        return not (self.memories or self.episodes or self.trimmed)

    def to_dict(self) -> dict[str, Any]:
        rows = []
        for m in self.memories:
            row = {"id": m.id, "chain_id": m.chain_id, "version": m.version, "status": m.status, "user": m.user_id, "type": m.type}
            if self.dry_run:
                row["content"] = m.content  # shown so it can be checked; never printed once forgotten
            rows.append(row)
        episodes = []
        for e in self.episodes:
            row = {"id": e.id, "user": e.user_id, "session": e.session, "turn": e.turn}
            if self.dry_run:
                row["content"] = e.content
            episodes.append(row)
        out: dict[str, Any] = {"dry_run": self.dry_run, "selector": self.selector, "count": len(self.memories),
                               "memories": rows, "episodes": episodes,
                               "trimmed": [{"id": k, "turns": len(v)} for k, v in sorted(self.trimmed.items())]}
        if self.stats is not None:
            out.update(turns_cleared=self.stats.turns_cleared, turns_trimmed=self.stats.turns_trimmed,
                       files_before=self.stats.files_before, files_after=self.stats.files_after)
        return out


# -- compact --------------------------------------------------------------------------


@dataclass
class Merge:
    user: str
    type: str
    members: list[Memory]
    merged: Memory

    def to_dict(self) -> dict[str, Any]:
        return {"user": self.user, "type": self.type, "merged_id": self.merged.id, "content": self.merged.content,
                "members": [{"id": m.id, "content": m.content} for m in self.members]}


@dataclass
class Retire:
    memory: Memory
    action: str  # superseded | expired | archived
    reason: str
    by: Memory | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.memory.id, "user": self.memory.user_id, "type": self.memory.type, "action": self.action,
                "reason": self.reason, "content": self.memory.content, "by": self.by.id if self.by else None}


@dataclass
class Maintenance:
    """What compaction did to the files: counts and bytes before and after."""

    files_before: int = 0
    bytes_before: int = 0
    files_after: int = 0
    bytes_after: int = 0

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class CompactReport:
    dry_run: bool = False
    users: int = 0
    memories_scanned: int = 0
    merges: list[Merge] = field(default_factory=list)
    retired: list[Retire] = field(default_factory=list)
    skipped: int = 0
    # Episodes whose text the age limit (episodes.max_age_days) dropped.
    episodes_expired: int = 0
    maintenance: Maintenance | None = None
    seconds: float = 0.0

    @property
    def changes(self) -> int:
        return len(self.merges) + len(self.retired)

    def to_dict(self) -> dict[str, Any]:
        count = {a: sum(1 for r in self.retired if r.action == a) for a in ("superseded", "expired", "archived")}
        return {
            "dry_run": self.dry_run, "users": self.users, "memories_scanned": self.memories_scanned,
            "changes": self.changes, "merged_clusters": len(self.merges),
            "merged_members": sum(len(m.members) for m in self.merges), **count,
            "skipped_changed_meanwhile": self.skipped, "episodes_expired": self.episodes_expired,
            "maintenance": self.maintenance.to_dict() if self.maintenance else {}, "seconds": round(self.seconds, 3),
            "merges": [m.to_dict() for m in self.merges], "retired": [r.to_dict() for r in self.retired],
        }


# -- reembed --------------------------------------------------------------------------


@dataclass
class ReembedReport:
    old_model: str
    new_model: str
    dim: int
    memories: int
    contexts: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# -- audit ----------------------------------------------------------------------------


@dataclass
class Figure:
    """One health figure: its value, its limit in memctl.toml ([audit]) and example ids."""

    name: str
    value: float
    limit: float | None
    meaning: str
    examples: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.limit is not None and self.value > self.limit

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "limit": self.limit, "failed": self.failed,
                "meaning": self.meaning, "examples": self.examples}


@dataclass
class AuditReport:
    user: str | None
    store: dict[str, Any]
    counts: dict[str, Any]
    health: list[Figure]
    seconds: float = 0.0

    @property
    def failures(self) -> list[Figure]:
        return [f for f in self.health if f.failed]

    def figure(self, name: str) -> Figure:
        return next(f for f in self.health if f.name == name)

    def to_dict(self) -> dict[str, Any]:
        return {"user": self.user, "store": self.store, "counts": self.counts,
                "health": {f.name: f.to_dict() for f in self.health},
                "failed": [f.name for f in self.failures], "seconds": round(self.seconds, 3)}


# -- history: one memory's lineage, and the store between two points --------------------


@dataclass
class LoggedEvent:
    """An event log entry as shown to people: no text, only ids, times and reasons."""

    time: str | None
    kind: str
    memory_id: str | None
    related: list[str]
    store_version: int | None
    detail: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"time": self.time, "kind": self.kind, "memory_id": self.memory_id, "related": list(self.related),
                "store_version": self.store_version, "detail": self.detail}


@dataclass
class Trace:
    """Everything known about one memory: where it came from and what happened to it."""

    memory: Memory
    chain: list[Memory]
    merged_from: list[Memory]
    merged_into: Memory | None
    recalls: list[str]
    recalls_pending: int
    events: list[LoggedEvent]

    def to_dict(self) -> dict[str, Any]:
        return {
            "memory": self.memory.public(),
            "sources": [s.public() for s in self.memory.sources],
            "chain": [{"id": m.id, "version": m.version, "status": m.status, "cause": m.cause, "content": m.content,
                       "valid_from": iso(m.valid_from), "valid_to": iso(m.valid_to)} for m in self.chain],
            "merged_from": [{"id": m.id, "content": m.content, "status": m.status} for m in self.merged_from],
            "merged_into": None if self.merged_into is None else {"id": self.merged_into.id, "content": self.merged_into.content},
            "recall_count": self.memory.recall_count + self.recalls_pending,
            "last_recalled_at": iso(self.memory.last_recalled_at),
            "recalled_at": self.recalls,
            "events": [e.to_dict() for e in self.events],
        }


@dataclass
class Step:
    """One step of a memory's chain: a version written, or a later change of its status."""

    cause: str
    time: str | None
    id: str
    version: int | None
    status: str
    content: str | None  # None: forgotten
    previous_content: str | None = None
    store_version: int | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    said_at: str | None = None  # when the user said it (the version's valid_from)
    # The edit from previous_content to content as {op, text} runs (op: equal | delete | insert).
    diff: list[dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cause": self.cause, "time": self.time, "said_at": self.said_at, "id": self.id, "version": self.version,
            "status": self.status, "content": self.content, "previous_content": self.previous_content,
            "diff": self.diff, "store_version": self.store_version, "detail": self.detail,
        }


@dataclass
class MemoryHistory:
    chain_id: str
    user: str
    steps: list[Step]

    def to_dict(self) -> dict[str, Any]:
        return {"chain_id": self.chain_id, "user": self.user, "steps": [s.to_dict() for s in self.steps]}


@dataclass
class Point:
    """A point in the store's history: a store version (of the memories table) or a time."""

    version: int | None = None
    time: datetime | None = None

    def label(self) -> str:
        return f"version {self.version}" if self.version is not None else (iso(self.time) or "")


@dataclass
class Change:
    kind: str  # added | updated | corrected | superseded | merged | expired | archived | forgotten | reinforced | reembedded
    time: str | None
    store_version: int | None
    user: str | None
    id: str | None
    content: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "time": self.time, "store_version": self.store_version, "user": self.user,
                "id": self.id, "content": self.content, "detail": self.detail}


@dataclass
class StoreDiff:
    start: Point
    end: Point | None
    user: str | None
    changes: list[Change]
    # Turns kept as episodes, forgotten, and dropped by the age limit in the range.
    episodes: dict[str, int] = field(default_factory=lambda: {"added": 0, "forgotten": 0, "expired": 0})

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.changes:
            out[c.kind] = out.get(c.kind, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.start.label(), "to": self.end.label() if self.end else "now", "user": self.user,
                "counts": self.counts(), "episodes": dict(self.episodes), "changes": [c.to_dict() for c in self.changes]}
