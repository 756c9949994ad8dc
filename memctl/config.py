"""memctl.toml: every default in one place, read with tomllib, written with tomli-w.

Also the one function that decides which store a command works on.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError, StoreNotFoundError

STORE_DIRNAME = ".memctl"
CONFIG_FILENAME = "memctl.toml"
STORE_ENV = "MEMCTL_STORE"

MEMORY_TYPES = ("preference", "profile", "goal", "behavior", "knowledge", "event", "task")
# What an episode hit is typed as, beside the memory types.
EPISODE_TYPE = "episode"
# Types that stores written by earlier versions may hold: read and shown, never written.
LEGACY_TYPES = ("context",)


@dataclass
class StoreConfig:
    # Where the LanceDB directory lives: a path relative to the .memctl/ folder, or a URI.
    data: str = "db"
    # Seconds a writer waits for another process's write to finish before giving up.
    lock_timeout_seconds: float = 120.0


@dataclass
class EmbeddingConfig:
    # A built-in name (see `memctl.embedding.MODELS`), or "st:<folder>" for any local
    # sentence-transformers model folder. Changing it requires `memctl reembed`.
    model: str = "use-multilingual-v3"
    batch_size: int = 256
    # Cosine values the model gives unrelated / clearly related texts; similarity is
    # rescaled to 0..1 between them so thresholds mean the same for every model.
    similarity_floor: float = 0.0
    similarity_ceiling: float = 0.6

    def use_model(self, name: str) -> None:
        """Switch to a model with the similarity range measured for it."""
        from .embedding import model_info

        info = model_info(name)
        self.model, self.similarity_floor, self.similarity_ceiling = name, info.similarity_floor, info.similarity_ceiling


@dataclass
class EpisodesConfig:
    # Keep every user turn verbatim (secrets masked, with the message it answered and a
    # vector) as an episode: the evidence of what was said, which recall also searches.
    # Off: only the turns that memories came from keep their text (for provenance).
    enabled: bool = True
    # Episodes older than this many days lose their text and vector at compaction (the
    # turn's key stays, so re-ingesting the old log brings nothing back). 0: kept for good.
    max_age_days: int = 0


@dataclass
class IngestConfig:
    # A user message longer than this many characters is cut to it (at the last space
    # before it, if there is one nearby) before extraction, and its episode keeps the cut
    # text; the ingest report warns. 0: no limit.
    max_message_chars: int = 100_000
    # A big ingest is taken in units of about this many user turns (whole conversations),
    # each written before the next is read: memory is bounded by the unit, and a run cut
    # short keeps the units it finished (running it again completes the rest).
    unit_turns: int = 5_000
    # An ingest of at least this many user turns extracts them in a second process
    # (`python -m memctl.extract.worker`), beside the embedding in this one: LoCoMo (5,882
    # user turns) on 2 cores, see bench/bench_locomo.py. 0: always in this process.
    worker_turns: int = 2_000


@dataclass
class ExtractConfig:
    # Candidates scoring below this importance are not stored.
    min_importance: float = 0.2
    # Keep the user's own dated near-term plans as short-lived `task` memories.
    keep_tasks: bool = True
    # Days a task stays valid when its statement gives no end date.
    task_ttl_days: int = 14
    # Apply the inference rules (source_type "inferred"), e.g. an invitation to play
    # basketball suggests the user likes sports.
    infer: bool = True


@dataclass
class ReconcileConfig:
    # Rescaled similarity at or above which a new statement reinforces an active memory.
    duplicate_similarity: float = 0.85
    # Minimum similarity for a correction ("actually ...") to replace an active memory.
    correction_similarity: float = 0.35
    # Minimum similarity for opposite statements on one topic ("likes coffee" / "quit
    # coffee") to count as a contradiction, the newer superseding the older.
    contradiction_similarity: float = 0.5
    # Minimum similarity for an in-conversation forget request to select a memory.
    forget_similarity: float = 0.4


@dataclass
class RecallWeights:
    dense: float = 0.40
    lexical: float = 0.35
    topic: float = 0.15
    importance: float = 0.03
    recency: float = 0.02
    reinforcement: float = 0.02
    user_stated: float = 0.01
    # Said (or true from) within a period the query names ("in May 2023", "last week"): the
    # query asks about that time. Orders relevant items; never makes one relevant.
    period: float = 0.2


def _default_half_lives() -> dict[str, float]:
    return {
        "preference": 730.0,
        "profile": 1095.0,
        "goal": 180.0,
        "behavior": 365.0,
        "knowledge": 365.0,
        "event": 120.0,
        "task": 7.0,
        "episode": 365.0,
    }


@dataclass
class RecallConfig:
    top_k_candidates: int = 20
    top_k_inject: int = 5
    # Share of a memory's meaning taken from its source turn's embedding (its context).
    context_weight: float = 0.5
    # A memory is returned only when its relevance (dense, lexical and topic parts,
    # 0..1) reaches this, however important or recent it is.
    min_relevance: float = 0.05
    # On a shared topic a memory's topic part is importance ** this: a food request
    # lifts the peanut allergy (0.95 -> 0.81), hardly an ordinary food memory (0.6 -> 0.13).
    topic_importance_power: float = 4.0
    # At most this many memories of one type while other types have candidates.
    max_per_type: int = 3
    # An episode (a turn as it was said) scores this share of a memory with the same
    # relevance: the curated fact comes first, the evidence after it.
    episode_weight: float = 0.9
    # ...and an episode that only asked, requested or chatted (a past question is weak
    # evidence of what is true) this share of that.
    asking_weight: float = 0.5
    # A memory about someone or something else in the user's life (their sister's diet)
    # scores this share when the query asks about the user ("what diet am I on") and
    # does not name them.
    other_subject_weight: float = 0.3
    # An episode scores at least this share of the user's turn before or after it in the
    # same session, when the message between them asked something ("Charades mostly" to
    # "What did you play?" after "We had a picnic with friends from church"); 0 turns it
    # off. Applied to users served exactly (see exact_rows).
    neighbour_weight: float = 0.8
    # At most this many episodes while memories have candidates. The default list of five
    # is ranked by score alone: a cap of three put weaker memories in place of the turns
    # that answer (LoCoMo R@5 0.711 with 3, 0.721 with 5; the recall set 0.945 either way).
    max_episodes: int = 5
    # A user with more rows than this in a table (memories or episodes) is searched through
    # the table's vector and full-text indexes (built by `compact`) instead of an exact
    # pass over all their rows, which takes longer as the user grows.
    exact_rows: int = 5000
    weights: RecallWeights = field(default_factory=RecallWeights)
    half_life_days: dict[str, float] = field(default_factory=_default_half_lives)


@dataclass
class PromptConfig:
    # Token budget of `--format prompt` when --budget is not given.
    budget: int = 300


@dataclass
class ForgetConfig:
    # `forget --user U --query Q` selects memories whose relevance to the query (half
    # meaning, half shared words, of the memory itself: 0..1) reaches this, with every
    # version of each.
    min_relevance: float = 0.3


@dataclass
class CompactConfig:
    # Members of a cluster must reach this similarity to its representative (cosine
    # rescaled above embedding.similarity_floor). USE v3: paraphrases 0.75-0.96, different
    # facts on one template ("allergic to peanuts" / "to cats") up to 0.71.
    merge_similarity: float = 0.75
    # ...or this word overlap (0..1) with a similarity of at least merge_similarity - 0.15.
    merge_lexical: float = 0.6
    # Goals without a stated deadline expire this many days after their last update.
    goal_ttl_days: int = 365
    # Tasks without a stated end expire this many days after their last update.
    task_ttl_days: int = 14
    # Archive memories never recalled, below this importance, older than archive_after_days.
    archive_max_importance: float = 0.35
    archive_after_days: int = 180


@dataclass
class AuditConfig:
    # A memory not recalled for this many days counts as stale.
    stale_days: int = 90
    # `audit --check` fails when a figure exceeds its limit.
    max_duplicate_pairs: int = 0
    max_contradicting_pairs: int = 0
    max_expired_active: int = 0
    max_secrets: int = 0
    max_noise_ratio: float = 0.6
    max_low_confidence_inferred: int = 50
    # Inferred memories below this confidence count as low-confidence.
    low_confidence: float = 0.5
    # Never-recalled memories below this importance count as noise.
    noise_max_importance: float = 0.35


@dataclass
class Config:
    store: StoreConfig = field(default_factory=StoreConfig)
    embedding: EmbeddingConfig = field(default_factory=EmbeddingConfig)
    episodes: EpisodesConfig = field(default_factory=EpisodesConfig)
    ingest: IngestConfig = field(default_factory=IngestConfig)
    extract: ExtractConfig = field(default_factory=ExtractConfig)
    reconcile: ReconcileConfig = field(default_factory=ReconcileConfig)
    recall: RecallConfig = field(default_factory=RecallConfig)
    prompt: PromptConfig = field(default_factory=PromptConfig)
    forget: ForgetConfig = field(default_factory=ForgetConfig)
    compact: CompactConfig = field(default_factory=CompactConfig)
    audit: AuditConfig = field(default_factory=AuditConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _coerce(value: Any, annotation: Any, where: str) -> Any:
    if annotation in (float, "float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where} must be a number, got {value!r}")
        return float(value)
    if annotation in (int, "int"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where} must be an integer, got {value!r}")
        return value
    if annotation in (bool, "bool"):
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, got {value!r}")
        return value
    if annotation in (str, "str"):
        if not isinstance(value, str):
            raise ConfigError(f"{where} must be a string, got {value!r}")
        return value
    if annotation in ("dict[str, float]",):
        if not isinstance(value, dict):
            raise ConfigError(f"{where} must be a table")
        return {str(k): _coerce(v, float, f"{where}.{k}") for k, v in value.items()}
    raise ConfigError(f"{where}: unsupported setting type {annotation!r}")


def _build(cls: type, data: dict[str, Any], where: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"[{where}] must be a table")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(f"unknown setting {where + '.' if where else ''}{unknown[0]} in {CONFIG_FILENAME}")
    obj = cls()
    for name, f in fields.items():
        if name not in data:
            continue
        key = f"{where}.{name}" if where else name
        default = getattr(obj, name)
        if dataclasses.is_dataclass(default):
            setattr(obj, name, _build(type(default), data[name], key))
        elif isinstance(default, dict):
            merged = dict(default)
            merged.update(_coerce(data[name], "dict[str, float]", key))
            setattr(obj, name, merged)
        else:
            setattr(obj, name, _coerce(data[name], f.type, key))
    return obj


def _validate(cfg: Config) -> None:
    r = cfg.recall
    if r.top_k_candidates < 1 or r.top_k_inject < 1:
        raise ConfigError("recall.top_k_candidates and recall.top_k_inject must be at least 1")
    if r.exact_rows < 1:
        raise ConfigError("recall.exact_rows must be at least 1")
    if r.max_per_type < 1 or r.max_episodes < 0:
        raise ConfigError("recall.max_per_type must be at least 1 and recall.max_episodes at least 0")
    if not (0 < r.episode_weight <= 1 and 0 < r.asking_weight <= 1 and 0 < r.other_subject_weight <= 1):
        raise ConfigError("recall.episode_weight, recall.asking_weight and recall.other_subject_weight must be above 0 and at most 1")
    if not 0 <= r.neighbour_weight <= 1:
        raise ConfigError("recall.neighbour_weight must be between 0 and 1")
    for t in r.half_life_days:
        if t not in MEMORY_TYPES + (EPISODE_TYPE,) + LEGACY_TYPES:
            raise ConfigError(f"recall.half_life_days.{t}: unknown memory type")
        if r.half_life_days[t] <= 0:
            raise ConfigError(f"recall.half_life_days.{t} must be positive")
    e = cfg.embedding
    if e.similarity_ceiling <= e.similarity_floor:
        raise ConfigError("embedding.similarity_ceiling must be above embedding.similarity_floor")
    if e.batch_size < 1:
        raise ConfigError("embedding.batch_size must be at least 1")
    if cfg.prompt.budget < 1:
        raise ConfigError("prompt.budget must be at least 1")
    if cfg.ingest.max_message_chars < 0:
        raise ConfigError(f"ingest.max_message_chars must be 0 (no limit) or more, got {cfg.ingest.max_message_chars}")
    if cfg.ingest.unit_turns < 1:
        raise ConfigError(f"ingest.unit_turns must be at least 1, got {cfg.ingest.unit_turns}")
    if cfg.ingest.worker_turns < 0:
        raise ConfigError(f"ingest.worker_turns must be 0 (never) or more, got {cfg.ingest.worker_turns}")
    # Day counts: at least one day and at most a century (dates past year 9999 overflow).
    if not 0 <= cfg.episodes.max_age_days <= 36_500:
        raise ConfigError(f"episodes.max_age_days must be between 0 and 36500 days, got {cfg.episodes.max_age_days}")
    for section, names in (("audit", ("stale_days",)),
                           ("compact", ("goal_ttl_days", "task_ttl_days", "archive_after_days"))):
        for name in names:
            value = getattr(getattr(cfg, section), name)
            if not 1 <= value <= 36_500:
                raise ConfigError(f"{section}.{name} must be between 1 and 36500 days, got {value}")
    a = cfg.audit
    for name in ("max_duplicate_pairs", "max_contradicting_pairs", "max_expired_active", "max_secrets",
                 "max_low_confidence_inferred", "max_noise_ratio"):
        if getattr(a, name) < 0:
            raise ConfigError(f"audit.{name} must not be negative")


def config_from_dict(data: dict[str, Any]) -> Config:
    cfg = _build(Config, data, "")
    _validate(cfg)
    return cfg


def load_config(path: Path) -> Config:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path} is missing: the store is incomplete") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    return config_from_dict(data)


def write_config(cfg: Config, path: Path) -> None:
    import tomli_w

    header = (
        "# memctl store settings. Every default is written here; edit and rerun.\n"
        "# Changing embedding.model requires `memctl reembed`.\n\n"
    )
    path.write_text(header + tomli_w.dumps(cfg.to_dict()), encoding="utf-8")


def resolve_store_dir(explicit: str | os.PathLike[str] | None = None, cwd: Path | None = None) -> Path:
    """The store a command works on: --store, then $MEMCTL_STORE, then the nearest .memctl/ upward.

    `explicit` and $MEMCTL_STORE may name the .memctl/ folder itself or the folder holding it.
    """
    for given, origin in ((explicit, "the given path"), (os.environ.get(STORE_ENV) or None, STORE_ENV)):
        if given is None:
            continue
        path = Path(given).expanduser()
        for candidate in (path, path / STORE_DIRNAME):
            if (candidate / CONFIG_FILENAME).is_file():
                return candidate.resolve()
        raise StoreNotFoundError(f"no memctl store at {path} (from {origin}); run `memctl init {path}`")
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / STORE_DIRNAME
        if (candidate / CONFIG_FILENAME).is_file():
            return candidate
    raise StoreNotFoundError("no memctl store found here or in any parent folder; run `memctl init`")
