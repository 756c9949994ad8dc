"""All access to the store's LanceDB directory goes through `Database`.

The directory is a LanceDB database (one `<table>.lance` dataset per table, readable with
`lancedb.connect(dir)`). We drive it with `lance`, LanceDB's own storage library: it
opens in 0.3 s where `import lancedb` takes 1.8 s on this machine (an HTTP namespace
client that a local tool never uses), and a CLI recall has a 1.5 s budget.

Writers must hold the store lock (see lock.py); readers never wait.
"""

from __future__ import annotations

import functools
import os
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, TypeVar

import numpy as np
import pyarrow as pa

from .errors import MemctlError, StoreWriteError

# Lance logs index-training notes ("many duplicate vectors") and deprecation notices to
# stderr at WARN; memctl's stderr is for its own one-line messages.
os.environ.setdefault("LANCE_LOG", "error")


# "LanceError(IO): No space left on device (os error 28), /path/to/writer.rs:190:9"
_LANCE_ERROR = re.compile(r"LanceError\((\w+)\): (.*?)(?:, /\S+\.rs:\d+:\d+)?\s*$", re.S)
_W = TypeVar("_W", bound=Callable[..., Any])


def _writes(method: _W) -> _W:
    """A storage failure during a write (full disk, a file-size limit, an I/O error) becomes
    one line naming the table and the reason; the store keeps its last commit (each write is
    one), and the same command run again completes what was cut short."""

    @functools.wraps(method)
    def wrapper(self: "Database", name: str, *args: Any, **kwargs: Any) -> Any:
        outermost = name not in self._writing
        before = self.version(name) if outermost and self.exists(name) else None
        self._writing.add(name)
        try:
            result = method(self, name, *args, **kwargs)
            if outermost and self.short_files(name):
                raise _CutShort()
            return result
        except _CutShort:
            if not outermost:
                raise
            self._restore(name, before)
        except (OSError, RuntimeError, ValueError) as exc:
            found = _LANCE_ERROR.search(str(exc))
            if found is None or found.group(1) not in ("IO", "IOError", "Internal"):
                raise
            raise StoreWriteError(f"{self.table_uri(name)}: cannot write: {found.group(2)}") from None
        finally:
            if outermost:
                self._writing.discard(name)

    return wrapper  # type: ignore[return-value]


class _CutShort(Exception):
    """A write committed a data file that did not reach the disk whole."""


def sql_str(value: str) -> str:
    """A SQL string literal for Lance filters."""
    return "'" + str(value).replace("'", "''") + "'"


def sql_time(when: datetime) -> str:
    """A time as an SQL literal, to the microsecond; a naive time is UTC."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return f"TIMESTAMP '{when.astimezone(timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.%f')}'"


def disk_usage(path: str | os.PathLike[str]) -> tuple[int, int]:
    """Files and bytes under a folder; a file a writer removes meanwhile is not counted."""
    files = size = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            try:
                size += os.path.getsize(os.path.join(root, name))
                files += 1
            except FileNotFoundError:
                pass
    return files, size


def vector_matrix(table: pa.Table, column: str = "vector") -> tuple[np.ndarray, np.ndarray]:
    """A vector column as an (n, dim) float32 matrix, without Python lists, and which rows
    have a vector (null rows are zeros)."""
    array = table.column(column).combine_chunks()
    dim = array.type.list_size
    values = array.values.to_numpy(zero_copy_only=False)
    start = array.offset * dim
    matrix = values[start : start + len(array) * dim].reshape(len(array), dim).astype(np.float32)
    present = ~array.is_null().to_numpy(zero_copy_only=False)
    matrix[~present] = 0.0
    return matrix, present


def sql_in(column: str, values: Iterable[str]) -> str:
    vals = sorted(set(values))
    if not vals:
        return "false"
    return f"{column} IN ({', '.join(sql_str(v) for v in vals)})"


class Database:
    def __init__(self, uri: str) -> None:
        self.uri = uri.rstrip("/")
        # One Lance session per opened store: the tables' indexes and metadata are read once
        # and cached across the many opens of a process (a vector index loaded afresh for
        # every query costs more than the search).
        self._session: Any = None
        self._writing: set[str] = set()  # tables inside a write (its outermost call checks the files)

    def _lance_session(self) -> Any:
        if self._session is None:
            import lance

            self._session = lance.Session()
        return self._session

    @property
    def is_local(self) -> bool:
        return "://" not in self.uri

    def table_uri(self, name: str) -> str:
        return f"{self.uri}/{name}.lance"

    def exists(self, name: str) -> bool:
        if self.is_local:
            return Path(self.table_uri(name), "_versions").is_dir()
        try:
            self.open(name)
            return True
        except MemctlError:
            return False

    def open(self, name: str, version: int | None = None) -> Any:
        import lance

        try:
            return lance.dataset(self.table_uri(name), version=version, session=self._lance_session())
        except (ValueError, OSError, RuntimeError) as exc:
            raise MemctlError(f"cannot open table {name} of the store: {exc}") from None

    def create(self, name: str, schema: pa.Schema) -> None:
        import lance

        if self.is_local:
            os.makedirs(self.uri, exist_ok=True)
        lance.write_dataset(schema.empty_table(), self.table_uri(name), schema=schema, mode="create")

    def schema(self, name: str) -> pa.Schema:
        return self.open(name).schema

    def version(self, name: str) -> int:
        return int(self.open(name).version)

    def to_table(self, name: str, version: int | None = None, **kwargs: Any) -> pa.Table:
        ds = self.open(name, version)
        if kwargs.get("nearest") is not None or kwargs.get("full_text_query") is not None:
            kwargs.setdefault("disable_scoring_autoprojection", True)
        return ds.to_table(**kwargs)

    def rows(self, name: str, columns: Sequence[str] | None = None, filter: str | None = None) -> list[dict[str, Any]]:
        return self.to_table(name, columns=list(columns) if columns else None, filter=filter).to_pylist()

    def count(self, name: str, filter: str | None = None) -> int:
        return int(self.open(name).count_rows(filter))

    # -- writes: callers hold the store lock ------------------------------------------

    @_writes
    def append(self, name: str, rows: pa.Table | list[dict[str, Any]]) -> int:
        import lance

        table = self._as_table(name, rows)
        if table.num_rows == 0:
            return self.version(name)
        ds = lance.write_dataset(table, self.table_uri(name), mode="append")
        return int(ds.version)

    @_writes
    def upsert(self, name: str, rows: pa.Table | list[dict[str, Any]], key: str) -> int:
        """Insert new rows and replace rows with the same key, in one commit."""
        table = self._as_table(name, rows)
        ds = self.open(name)
        if table.num_rows == 0:
            return int(ds.version)
        ds.merge_insert(key).when_matched_update_all().when_not_matched_insert_all().execute(table)
        return self.version(name)

    @_writes
    def update(self, name: str, values: dict[str, str], where: str) -> int:
        """Set columns (SQL expressions) of the rows matching `where`, in one commit."""
        ds = self.open(name)
        ds.update(values, where=where)
        return self.version(name)

    @_writes
    def delete(self, name: str, predicate: str) -> int:
        ds = self.open(name)
        ds.delete(predicate)
        return self.version(name)

    def has_index(self, name: str, column: str) -> bool:
        return any(tuple(idx.field_names) == (column,) for idx in _indices(self.open(name)))

    @_writes
    def ensure_index(self, name: str, column: str, kind: str = "BTREE") -> None:
        ds = self.open(name)
        if ds.count_rows() == 0:
            return
        names = {tuple(idx.field_names) for idx in _indices(ds)}
        if (column,) not in names:
            ds.create_scalar_index(column, kind, replace=True)

    @_writes
    def optimize(self, name: str, *, purge: bool) -> dict[str, int]:
        """Compact data files, refresh indexes and drop old table versions.

        With purge=True, rows deleted earlier are rewritten out of every data file and
        all older versions go: the only way found to make deleted text unreadable (see
        forget.py).
        """
        ds = self.open(name)
        before = file_count(ds)
        kwargs: dict[str, Any] = {"materialize_deletions_threshold": 0.0} if purge else {}
        ds.optimize.compact_files(**kwargs)
        ds = self.open(name)
        if purge:
            # A full-text index keeps the words of deleted rows in its posting lists until
            # it is built again.
            for idx in _indices(ds):
                if "Inverted" in idx.type_url:
                    ds.create_scalar_index(idx.field_names[0], "INVERTED", base_tokenizer="icu", replace=True)
                    ds = self.open(name)
        if _indices(ds):
            _refresh_indexes(ds)
            ds = self.open(name)
        self._cleanup(name)
        ds = self.open(name)
        return {"files_before": before, "files_after": file_count(ds), "version": int(ds.version)}

    @_writes
    def tidy(self, name: str, *, vector: str, text: str, labels: str | None = None) -> None:
        """Merge small data files and bring the search indexes up to date, then drop old
        versions.

        The vector index (IVF_FLAT, about sqrt(n) lists) is built when missing, when it
        covers less than half the rows, or when it has gathered many delta segments; else
        new rows get a delta segment of their own (merging segments would let Lance fold
        the lists into a few large ones, and every search would read most of the table).
        The full-text index (ICU words, which split Chinese as well as English) and the
        label index are built when missing and extended otherwise."""
        import math

        ds = self.open(name)
        ds.optimize.compact_files()
        ds = self.open(name)
        rows = ds.count_rows()
        if not rows:
            self._cleanup(name)
            return
        present = {tuple(i.field_names): i for i in _indices(ds)}
        index = present.get((vector,))
        rebuild = index is None or index.num_rows_indexed < rows / 2 or len(
            ds.stats.index_stats(index.name).get("indices", [])) > _MAX_DELTAS
        if rebuild:
            lists = max(8, min(4096, int(math.sqrt(rows))))
            ds.create_index(vector, index_type="IVF_FLAT", num_partitions=lists, metric="cosine", replace=True)
        elif index.num_rows_indexed < rows:
            ds.optimize.optimize_indices(index_names=[index.name], num_indices_to_merge=0)
        ds = self.open(name)
        if (text,) not in present:
            ds.create_scalar_index(text, "INVERTED", base_tokenizer="icu", replace=True)
        if labels is not None and (labels,) not in present:
            ds.create_scalar_index(labels, "LABEL_LIST", replace=True)
        ds = self.open(name)
        others = [i.name for i in _indices(ds) if tuple(i.field_names) != (vector,)]
        if others:
            ds.optimize.optimize_indices(index_names=others)
        self._cleanup(name)

    @_writes
    def drop(self, name: str) -> None:
        """Delete a whole table (every version and file)."""
        import lance

        lance.LanceDataset.drop(self.table_uri(name), ignore_not_found=True)

    @_writes
    def overwrite(self, name: str, table: pa.Table) -> None:
        """Replace the table's rows (and schema) with `table` as a new version."""
        import lance

        lance.write_dataset(table, self.table_uri(name), schema=table.schema, mode="overwrite")

    @_writes
    def cluster(self, name: str, order: list[str] | None) -> dict[str, int]:
        """Rewrite a fragmented table as one data file sorted by `order` (one user's rows
        together: recall reads them from one place), rebuild its indexes, drop old versions.

        A table already in one clean file is left alone (a second run does nothing).
        """
        ds = self.open(name)
        fragments = ds.get_fragments()
        needs = len(fragments) > 1 or any(f.deletion_file() is not None for f in fragments)
        if needs and order and ds.count_rows() > 0:
            indexed = [idx.field_names[0] for idx in _indices(ds) if len(idx.field_names) == 1]
            self.overwrite(name, ds.to_table().sort_by([(column, "ascending") for column in order]))
            for column in indexed:
                self.open(name).create_scalar_index(column, "BTREE", replace=True)
        elif needs:
            self.optimize(name, purge=True)
            return {"rewritten": 1}
        self._cleanup(name)
        return {"rewritten": int(needs)}

    def short_files(self, name: str) -> list[str]:
        """The data files of the table's current version that are not on disk whole.

        On a full disk (or past a file-size limit) Lance can commit a version whose new
        data file was cut short, its manifest recording more bytes than reached the disk:
        the table would fail every later read (seen with files capped at 1,000 bytes)."""
        if not self.is_local or not self.exists(name):
            return []
        data = Path(self.table_uri(name), "data")
        short = []
        for fragment in self.open(name).get_fragments():
            for f in fragment.data_files():
                expected = getattr(f, "file_size_bytes", None)
                try:
                    size = (data / f.path).stat().st_size
                except FileNotFoundError:
                    size = -1
                if expected is not None and size != expected:
                    short.append(f.path)
        return short

    def _restore(self, name: str, before: int | None) -> None:
        """Put the table back at version `before` after a write that left a file cut short;
        then fail the write."""
        where = f"{self.table_uri(name)}: cannot write: a data file reached the disk cut short (is the disk full?)"
        if before is None:
            raise StoreWriteError(where)
        try:
            self.open(name, before).restore()
        except (OSError, RuntimeError, ValueError) as exc:
            raise StoreWriteError(f"{where}; going back to version {before} failed too: {exc}") from None
        raise StoreWriteError(f"{where}; the table is back as it was")

    def _cleanup(self, name: str) -> None:
        """Drop every version but the current one, once its files are known whole (a version
        with a file cut short must still have one to go back to)."""
        if self.short_files(name):
            raise _CutShort()
        self.open(name).cleanup_old_versions(older_than=timedelta(0), delete_unverified=True)

    def _as_table(self, name: str, rows: pa.Table | list[dict[str, Any]]) -> pa.Table:
        schema = self.schema(name)
        if isinstance(rows, pa.Table):
            return rows.select(schema.names).cast(schema)
        return pa.Table.from_pylist(rows, schema=schema)


# Delta segments a vector index may gather before `tidy` builds it again.
_MAX_DELTAS = 8


def _indices(ds: Any) -> list[Any]:
    return list(ds.describe_indices())


def _refresh_indexes(ds: Any) -> None:
    """Bring every index up to date with the rows: vector indexes by a delta segment
    (see Database.tidy), the others by merging."""
    vector = [i.name for i in _indices(ds) if "Vector" in i.type_url]
    others = [i.name for i in _indices(ds) if "Vector" not in i.type_url]
    if vector:
        ds.optimize.optimize_indices(index_names=vector, num_indices_to_merge=0)
    if others:
        ds.optimize.optimize_indices(index_names=others)


def file_count(ds: Any) -> int:
    return sum(len(frag.data_files()) for frag in ds.get_fragments())
