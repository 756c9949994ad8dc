"""memctl: an offline, local-first long-term memory engine for AI agents.

    from memctl import init_store, open_store
    store = open_store()                      # --store / $MEMCTL_STORE / nearest .memctl/
    store.ingest(["conversations/"])
    for hit in store.recall("推荐三亚的餐厅", user="xiaolin").hits:
        print(hit.score, hit.memory.content)
"""

__version__ = "0.1.0"

from .errors import (  # noqa: E402
    ConfigError,
    InputError,
    LockTimeoutError,
    MemctlError,
    ModelMismatchError,
    ModelUnavailableError,
    NotFoundError,
    SchemaError,
    StoreExistsError,
    StoreNotFoundError,
    UsageError,
)
# The rest loads on first use, so that `memctl --help` and light commands do not pay
# for NumPy, Arrow and Lance before they need them.
_LAZY = {
    "MemoryStore": "store", "init_store": "store", "open_store": "store",
    "Memory": "schema", "Source": "schema",
    "prompt_block": "prompt",
    **{name: "results" for name in (
        "IngestReport", "IngestChange", "RecallResult", "RecallHit", "ScoreParts", "ForgetReport", "CompactReport",
        "ReembedReport", "AuditReport", "Figure", "Trace", "MemoryHistory", "Step", "StoreDiff", "Change", "Point",
    )},
}


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memctl' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "__version__",
    "MemoryStore",
    "init_store",
    "open_store",
    "Memory",
    "Source",
    "prompt_block",
    "IngestReport",
    "IngestChange",
    "RecallResult",
    "RecallHit",
    "ScoreParts",
    "ForgetReport",
    "CompactReport",
    "ReembedReport",
    "AuditReport",
    "Figure",
    "Trace",
    "MemoryHistory",
    "Step",
    "StoreDiff",
    "Change",
    "Point",
    "MemctlError",
    "UsageError",
    "InputError",
    "ConfigError",
    "StoreNotFoundError",
    "StoreExistsError",
    "ModelMismatchError",
    "ModelUnavailableError",
    "LockTimeoutError",
    "NotFoundError",
    "SchemaError",
]
