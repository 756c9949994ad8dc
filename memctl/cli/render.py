"""Every output memctl prints: Rich tables for people; JSON, JSON Lines and the prompt
block for programs. Machine formats carry no colour and nothing but the data.
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO

from ..prompt import prompt_block
from ..results import (
    AuditReport, CompactReport, ForgetReport, IngestReport, Listing, MemoryHistory, Profile, RecallResult, StoreDiff, Trace,
)
from ..schema import iso
from .common import PipeClosed, write



def dump_json(data: Any, out: TextIO | None = None) -> None:
    """One JSON document, written as it is encoded (a Streamed list inside is never held
    whole, as objects or as text)."""
    out = out or sys.stdout
    chunks: list[str] = []
    size = 0
    for chunk in json.JSONEncoder(ensure_ascii=False, indent=2, default=str).iterencode(data):
        chunks.append(chunk)
        size += len(chunk)
        if size >= 1 << 16:
            write(out, "".join(chunks))
            chunks, size = [], 0
    write(out, "".join(chunks) + "\n")


class Streamed(list):  # type: ignore[type-arg]
    """A JSON list whose items are made one at a time as they are written: the encoder
    (with indent) asks only for its length and its items."""

    def __init__(self, items: Sequence[Any], make: Callable[[Any], Any]) -> None:
        super().__init__()
        self._items, self._make = items, make

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[Any]:
        return (self._make(item) for item in self._items)


def dump_jsonl(rows: Iterable[Any], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    for row in rows:
        write(out, json.dumps(row, ensure_ascii=False, default=str) + "\n")


def dump_tsv(rows: Iterable[Iterable[Any]], out: TextIO | None = None) -> None:
    """Tab-separated rows without a header (like gh when piped): a tab, newline or
    backslash inside a value is written as \\t, \\n, \\\\ so every row stays one line."""
    out = out or sys.stdout
    for row in rows:
        write(out, "\t".join(_cell(v) for v in row) + "\n")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = f"{value:.3f}" if isinstance(value, float) else str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def console(stderr: bool = False) -> Any:
    import os

    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            raise PipeClosed  # main() exits 0 quietly (Rich itself would exit 1)

    stream = sys.stderr if stderr else sys.stdout
    # A table asked for on a pipe (--table) is as wide as $COLUMNS says, else 100.
    width = None if stream.isatty() else int(os.environ.get("COLUMNS", "100") or 100)
    return _Console(file=stream, highlight=False, soft_wrap=False, width=width)


def summary(text: str, fmt: str) -> None:
    """A report's summary line: part of a table's output; on stderr when stdout carries rows."""
    if fmt == "table":
        console().print(_esc(text))
    else:
        sys.stderr.write(text + "\n")


def local_time(value: Any) -> str:
    """A time for people: in the local zone ($TZ honoured), to the minute, with its offset."""
    from datetime import datetime

    if value is None or value == "":
        return ""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value
    return value.astimezone().strftime("%Y-%m-%d %H:%M %z")


def _text(value: Any) -> Any:
    """Stored text as a table cell: shown as is, never read as Rich markup ("[/]" in a
    memory must not break or restyle the output)."""
    from rich.text import Text

    return Text("" if value is None else str(value))


def _table(columns: Iterable[str], *, wide: Iterable[str] = (), fixed: Iterable[str] = (), title: str | None = None) -> Any:
    """A table whose `wide` columns share the spare width (folding long text) and whose
    `fixed` columns never wrap."""
    from rich.table import Table

    wide, fixed = set(wide), set(fixed)
    table = Table(title=title, title_justify="left")
    for col in columns:
        table.add_column(col, overflow="fold", ratio=1 if col in wide else None, no_wrap=col in fixed)
    return table


def _fitted(columns: list[tuple[str, str]], rows: Iterable[list[Any]], *, title: str | None = None, width: int = 0) -> Any:
    """A table for any terminal width. Each column has a role: `key` (short, never wraps),
    `content` (the text; wraps), `id` (never cropped) or `aside` (its own column when the
    terminal is 110 columns or wider; below that, a dim line under the content). Content
    cells are Rich Text (or markup strings); the rest plain strings."""
    from rich.table import Table
    from rich.text import Text

    wide = width >= 110
    table = Table(title=title, title_justify="left")
    shown = [(i, name, role) for i, (name, role) in enumerate(columns) if wide or role != "aside"]
    asides = [i for i, (_, role) in enumerate(columns) if role == "aside"]
    for _, name, role in shown:
        if role == "content":
            table.add_column(name, overflow="fold", ratio=1, min_width=12)
        elif role == "id":
            table.add_column(name, style="dim", no_wrap=True, min_width=16)
        else:
            table.add_column(name, no_wrap=role == "key", overflow="fold")
    for row in rows:
        cells: list[Any] = []
        for i, _, role in shown:
            value = row[i]
            if role == "content":
                value = Text.from_markup(value) if isinstance(value, str) else value
                extra = " · ".join(str(row[j]) for j in asides if row[j] not in (None, ""))
                if not wide and extra:
                    value.append("\n" + extra, style="dim")
            cells.append(value)
        table.add_row(*cells)
    return table


def _status_table(title: str, key: str, rows: Iterable[tuple[str, dict[str, int]]], statuses: list[str]) -> Any:
    """Counts by status, one row per `key` (a type, a user)."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column(key)
    for s in statuses:
        table.add_column(s, justify="right")
    for name, row in rows:
        table.add_row(_text(name), *[str(row.get(s, 0)) for s in statuses])
    return table


def _esc(value: Any) -> str:
    from rich.markup import escape

    return escape("" if value is None else str(value))


def _short(ts: Any) -> str:
    text = iso(ts) or ""
    return text[:10]


@contextlib.contextmanager
def progress_bar(what: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr when it is a terminal; a silent callback otherwise (cron, pipes)."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.progress import Progress

    with Progress(console=console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def recall(result: RecallResult, fmt: str, *, explain: bool = False, budget: int | None = None) -> None:
    if fmt == "json":
        dump_json(result.to_list())
    elif fmt == "jsonl":
        dump_jsonl(result.to_list())
    elif fmt == "prompt":
        write(sys.stdout, prompt_block(result, budget or 300) + "\n")
    elif fmt == "tsv":
        # rank, kind, score, type, status, content, id, time (of the memory's update or the turn)
        dump_tsv((n, "memory" if h.memory is not None else "episode", h.parts.score, h.item.type if h.memory is not None else "episode",
                  h.status, h.content, h.id, iso(h.memory.updated_at if h.memory is not None else h.episode.time))
                 for n, h in enumerate(result.hits, 1))
    else:
        _recall_table(result, explain)


def _explanation(p: Any) -> str:
    return (f"relevance {p.relevance:.2f} = dense {p.dense:.2f}, words {p.lexical:.2f}, topic {p.topic:.2f}; "
            f"importance {p.importance:.2f}, recency {p.recency:.2f}")


def _recall_table(result: RecallResult, explain: bool) -> None:
    """Two tables, memories and then episodes, each row numbered by its rank in the one list.
    Content wraps at any width and ids are never cropped: below 110 columns the type, the
    status and the time move under the content, as does --explain's breakdown."""
    from rich.table import Table
    from rich.text import Text

    c = console()
    if not result.hits:
        c.print(f"[dim]Nothing of {_esc(result.user)} matches this query.[/dim]")
        return
    ranked = list(enumerate(result.hits, 1))
    memories = [(n, h) for n, h in ranked if h.memory is not None]
    episodes = [(n, h) for n, h in ranked if h.episode is not None]
    history = any(h.status != "active" for _, h in ranked)
    wide = c.width >= 110
    for title, rows, kind in ((f"Memories of {result.user} for: {result.query}", memories, "memory"),
                              (f"What {result.user} said (episodes) for: {result.query}", episodes, "episode")):
        if not rows:
            continue
        table = Table(title=_text(title), title_justify="left")
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("score", justify="right", no_wrap=True)
        if wide:
            table.add_column("type" if kind == "memory" else "said", no_wrap=True)
            if history:
                table.add_column("status", overflow="fold")
        table.add_column("content", overflow="fold", ratio=1, min_width=12)
        if wide:
            table.add_column("updated" if kind == "memory" else "session", overflow="fold")
        table.add_column("id", style="dim", no_wrap=True, min_width=32 if kind == "episode" else 16)
        for n, hit in rows:
            p = hit.parts
            if hit.memory is not None:
                m = hit.memory
                status = m.status + (f" to {_short(m.valid_to)}" if m.valid_to is not None and m.status != "active" else "")
                label, text, extra = m.type, Text(m.content), local_time(m.updated_at)
            else:
                e = hit.episode
                assert e is not None
                status = hit.status
                label, text, extra = _short(e.time), Text(e.content or ""), f"{e.session} {e.turn}"
            if not wide:
                text.append("\n" + " · ".join([label] + ([status] if history else []) + ([extra] if kind == "memory" else [])), style="dim")
            if explain:
                text.append("\n" + _explanation(p), style="dim")
            cells = [str(n), f"{p.score:.3f}"]
            if wide:
                cells += [label] + ([status] if history else [])
            cells.append(text)
            if wide:
                cells.append(_text(extra))
            table.add_row(*cells, hit.id)
        c.print(table)


# A change to a memory (ingest, compact): what happened, to whose memory of which type, why.
CHANGE_COLUMNS = [("action", "key"), ("user", "aside"), ("type", "aside"), ("content", "content"), ("why", "aside"), ("id", "id")]

# Above this many changes, an ingest's table output is a summary.
TABLE_CHANGES = 200


def ingest(report: IngestReport, fmt: str) -> None:
    if fmt == "json":
        dump_json({**report.to_dict(changes=False), "changes": Streamed(report.changes, lambda ch: ch.to_dict())})
        return
    verb = "Would change" if report.dry_run else "Ingested"
    summary(f"{verb}: {report.files} file(s), {report.conversations} conversation(s), {report.turns} user turn(s) "
            f"({report.turns_new} new, {report.turns_seen} already ingested); memories: {report.added} added, "
            f"{report.reinforced} reinforced, {report.superseded} superseded, {report.forgotten} forgotten; "
            f"secrets blocked: {report.secrets_blocked}"
            + ("; ids are assigned when written" if report.dry_run and report.changes else ""), fmt)
    for warning in getattr(report, "warnings", None) or []:
        sys.stderr.write(f"memctl: warning: {warning}\n")
    if fmt == "jsonl":
        dump_jsonl(ch.to_dict() for ch in report.changes)
        return
    if fmt == "tsv":
        dump_tsv((ch.action, ch.memory.user_id, ch.memory.type, ch.content, ch.reason, None if report.dry_run else ch.memory.id)
                 for ch in report.changes)
        return
    if not report.changes:
        return
    if len(report.changes) > TABLE_CHANGES:
        # A big ingest is a summary on a terminal (the line above counts each action): a
        # table of 200,000 rows helps no one.
        console().print(f"{len(report.changes)} changes; --jsonl or --tsv lists every one.")
        return
    c = console()
    c.print(_fitted(CHANGE_COLUMNS, [[ch.action, ch.memory.user_id, ch.memory.type,
                                      _text(ch.content) if ch.content is not None else "[dim](forgotten)[/]", ch.reason,
                                      "(on write)" if report.dry_run else ch.memory.id] for ch in report.changes], width=c.width))


def forget(report: ForgetReport, fmt: str, stderr: bool = False) -> None:
    if fmt == "json":
        dump_json(report.to_dict())
        return
    if report.empty:
        sys.stderr.write("Nothing to forget: nothing matches.\n")
        return
    d = report.to_dict()
    verb = "Would forget" if report.dry_run else "Forgot"
    line = (f"{verb} {len(report.memories)} memories and {len(report.episodes)} episodes"
            + (f"; {len(report.trimmed)} memories said elsewhere too keep those sayings" if report.trimmed else "") + ".")
    if report.stats is not None:
        line += (f" Episodes cleared: {report.stats.turns_cleared}, trimmed: {report.stats.turns_trimmed}; "
                 f"data files {report.stats.files_before} -> {report.stats.files_after}; older table versions removed.")
    if fmt in ("jsonl", "tsv"):
        sys.stderr.write(line + "\n")
        rows = [{"kind": "memory", **r} for r in d["memories"]] + [{"kind": "episode", **r} for r in d["episodes"]]
        if fmt == "jsonl":
            dump_jsonl(rows)
        else:
            dump_tsv((r["kind"], r["user"], r.get("type", r.get("session")), r["id"], r.get("content")) for r in rows)
        return
    from rich.table import Table

    c = console(stderr=stderr)
    c.print(_esc(line))
    if report.memories:
        table = Table(title="memories", title_justify="left")
        for col in ("user", "type", "status", "version"):
            table.add_column(col, no_wrap=True)
        if report.dry_run:
            table.add_column("content", overflow="fold", ratio=1)
        table.add_column("id", style="dim", no_wrap=True, min_width=16)
        for m in report.memories:
            row = [_text(m.user_id), m.type, m.status, str(m.version)]
            if report.dry_run:
                row.append(_text(m.content))
            table.add_row(*row, m.id)
        c.print(table)
    if report.episodes:
        table = Table(title="episodes", title_justify="left")
        for col in ("user", "said", "session"):
            table.add_column(col, no_wrap=True)
        if report.dry_run:
            table.add_column("content", overflow="fold", ratio=1)
        table.add_column("id", style="dim", no_wrap=True, min_width=16)
        for e in report.episodes:
            row = [_text(e.user_id), _short(e.time), _text(e.session)]
            if report.dry_run:
                row.append(_text(e.content))
            table.add_row(*row, e.id)
        c.print(table)


def compact(report: CompactReport, fmt: str) -> None:
    if fmt == "json":
        dump_json(report.to_dict())
        return
    d = report.to_dict()
    verb = "Plan" if report.dry_run else "Compacted"
    line = (f"{verb}: {d['memories_scanned']} active memories of {d['users']} users; {d['merged_clusters']} clusters merged "
            f"({d['merged_members']} memories), {d['superseded']} superseded, {d['expired']} expired, "
            f"{d['archived']} archived; {d['skipped_changed_meanwhile']} skipped (changed meanwhile).")
    if report.maintenance:
        m = report.maintenance
        line += (f" Store files: {m.files_before} -> {m.files_after}, "
                 f"{m.bytes_before / 1e6:.1f} MB -> {m.bytes_after / 1e6:.1f} MB; took {report.seconds:.1f} s.")
    summary(line, fmt)
    rows = [("merged", m.user, m.type, m.merged.content, "merged from " + " ".join(x.id for x in m.members), m.merged.id)
            for m in report.merges]
    rows += [(r.action, r.memory.user_id, r.memory.type, r.memory.content, r.reason, r.memory.id) for r in report.retired]
    if fmt == "jsonl":
        dump_jsonl([{"action": "merged", **m.to_dict()} for m in report.merges] + [r.to_dict() for r in report.retired])
        return
    if fmt == "tsv":
        dump_tsv(rows)
        return
    c = console()
    if report.merges:
        table = _table(("user", "type", "merged into", "members"), wide=("merged into", "members"), title="merges")
        for m in report.merges:
            table.add_row(_text(m.user), m.type, _text(m.merged.content), _text("\n".join(f"{x.content} ({x.id})" for x in m.members)))
        c.print(table)
    if report.retired:
        c.print(_fitted(CHANGE_COLUMNS, [[r.action, r.memory.user_id, r.memory.type, _text(r.memory.content), r.reason, r.memory.id]
                                         for r in report.retired], title="superseded, expired, archived", width=c.width))


def _diff_markup(ops: list[dict[str, str]]) -> str:
    # git's word-diff marks ([-gone-] {+new+}) stay readable where colour is stripped (pipes, logs).
    style = {"equal": "{}", "delete": "[red]\\[-{}-][/]", "insert": "[green]{{+{}+}}[/]"}
    return "".join(style[o["op"]].format(_esc(o["text"])) for o in ops)


def audit(report: AuditReport, fmt: str) -> None:
    if fmt == "json":
        dump_json(report.to_dict())
        return
    if fmt in ("jsonl", "tsv"):
        # One row per health figure: name, value, limit, ok|FAIL, meaning, example ids.
        if fmt == "jsonl":
            dump_jsonl(f.to_dict() for f in report.health)
        else:
            dump_tsv((f.name, f"{f.value:g}", "" if f.limit is None else f"{f.limit:g}", "FAIL" if f.failed else "ok",
                      f.meaning, " ".join(f.examples[:3])) for f in report.health)
        return
    c = console()
    st, counts = report.store, report.counts
    t = st["tables"]
    c.print(f"Store {_esc(st['path'])}: model {st['model']} ({st['dim']} dims), schema {st['schema_version']}, "
            f"{st['files']} files, {st['bytes'] / 1e6:.1f} MB; table versions: "
            + ", ".join(f"{n} v{x['version']} ({x['rows']} rows, {x['versions_kept']} kept)" for n, x in t.items()))
    scope = f"user {_esc(report.user)}" if report.user else f"{counts['users']} users"
    c.print(f"{counts['memories']} memories of {scope}: "
            + ", ".join(f"{n} {s}" for s, n in counts["by_status"].items())
            + (f"; {counts['recalls_pending']} recalls not yet folded in" if counts.get("recalls_pending") else ""))
    statuses = sorted({s for row in counts["by_type"].values() for s in row})
    c.print(_status_table("by type", "type", counts["by_type"].items(), statuses))
    if not report.user and len(counts["by_user"]) > 1:
        top = sorted(counts["by_user"].items(), key=lambda kv: -sum(kv[1].values()))[:20]
        c.print(_status_table("by user (most memories first, top 20)", "user", top, statuses))
    c.print(_fitted([("figure", "key"), ("value", "key"), ("limit", "key"), ("", "key"), ("meaning", "content"), ("examples", "aside")],
                    [[f.name, f"{f.value:g}", "" if f.limit is None else f"{f.limit:g}", "[red]FAIL[/]" if f.failed else ("ok" if f.limit is not None else ""),
                      _text(f.meaning), " ".join(f.examples[:3])] for f in report.health], title="health", width=c.width))


def trace(t: Trace, fmt: str) -> None:
    if fmt == "json":
        dump_json(t.to_dict())
        return
    if fmt in ("jsonl", "tsv"):
        # One row per event of the memory's log: time, event, store version, detail.
        rows = [{"time": e.time, "event": e.kind, "store_version": e.store_version, "detail": e.detail} for e in t.events]
        if fmt == "jsonl":
            dump_jsonl(rows)
        else:
            dump_tsv((r["time"], r["event"], r["store_version"], json.dumps(r["detail"], ensure_ascii=False)) for r in rows)
        return
    c = console()
    m, d = t.memory, t.to_dict()
    c.print(f"[bold]{_esc(m.content)}[/]")
    c.print(f"id {m.id}  chain {m.chain_id} v{m.version}  user {_esc(m.user_id)}  {m.type}  {m.status}  "
            f"importance {m.importance:.2f}  confidence {m.confidence:.2f}  {m.source_type}  cause {m.cause}")
    c.print(f"valid {_short(m.valid_from) or '-'} .. {_short(m.valid_to) or '-'}; recalled {d['recall_count']} times"
            + (f", last {_short(m.last_recalled_at)}" if m.last_recalled_at else ""))
    sources = _table(("session", "turn", "time", "clause"), wide=("clause",), title="sources")
    for s in m.sources:
        sources.add_row(_text(s.session), _text(s.turn), local_time(s.time), _text(s.clause))
    c.print(sources)
    if len(t.chain) > 1 or t.merged_from or t.merged_into:
        chain = _table(("version", "status", "cause", "content", "id"), wide=("content",), title="versions and merges")
        for v in t.chain:
            chain.add_row(str(v.version), v.status, v.cause, _text(v.content), v.id)
        for v in t.merged_from:
            chain.add_row("", v.status, "merged from", _text(v.content if v.status != "forgotten" else "(forgotten)"), v.id)
        if t.merged_into is not None:
            chain.add_row("", t.merged_into.status, "merged into", _text(t.merged_into.content), t.merged_into.id)
        c.print(chain)
    if t.recalls:
        shown = ", ".join(local_time(x) for x in t.recalls[-10:])
        c.print(f"Recalled at: {shown}" + (f" (last 10 of {len(t.recalls)})" if len(t.recalls) > 10 else ""))
    if t.events:
        events = _table(("time", "event", "store version", "detail"), wide=("detail",), title="event log")
        for e in t.events:
            detail = ", ".join(f"{k}={v}" for k, v in e.detail.items() if k != "members")
            events.add_row(local_time(e.time), e.kind, str(e.store_version), _text(detail))
        c.print(events)


def history(h: MemoryHistory, fmt: str) -> None:
    if fmt == "json":
        dump_json(h.to_dict())
        return
    if fmt == "jsonl":
        dump_jsonl(step.to_dict() for step in h.steps)
        return
    if fmt == "tsv":
        dump_tsv((n, step.said_at or step.time, step.cause, step.version, step.status, step.content, step.id)
                 for n, step in enumerate(h.steps, 1))
        return

    c = console()
    c.print(f"Memory chain {h.chain_id} of user {_esc(h.user)}: {len(h.steps)} steps, oldest first.")
    rows = []
    for n, step in enumerate(h.steps, 1):
        if step.diff:
            change = _diff_markup(step.diff)
        else:
            change = _esc(step.content) if step.content is not None else "[dim](forgotten)[/]"
        for member in step.detail.get("merged_from", []):
            change += f"\n  [dim]merged from {member['id']}: {_esc(member['content'] or '(forgotten)')}[/]"
        if step.detail.get("reason"):
            change += f"\n  [dim]{_esc(step.detail['reason'])}[/]"
        rows.append([str(n), step.cause, local_time(step.said_at or step.time), f"v{step.version}" if step.version else "", step.status,
                     change, step.id])
    c.print(_fitted([("#", "key"), ("cause", "key"), ("when", "aside"), ("version", "aside"), ("status", "aside"), ("change", "content"),
                     ("id", "id")], rows, width=c.width))


def store_diff(d: StoreDiff, fmt: str) -> None:
    if fmt == "json":
        dump_json(d.to_dict())
        return
    counts = d.counts()
    scope = f" for user {d.user}" if d.user else ""
    summary(f"Changes from {d.start.label()} to {d.end.label() if d.end else 'now'}{scope}: "
            + (", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none")
            + "; episodes: " + ", ".join(f"{n} {k}" for k, n in d.episodes.items()), fmt)
    if fmt == "jsonl":
        dump_jsonl(ch.to_dict() for ch in d.changes)
        return
    if fmt == "tsv":
        dump_tsv((ch.time, ch.kind, ch.user, ch.content, ch.id) for ch in d.changes)
        return
    if not d.changes:
        return
    c = console()
    rows = []
    for ch in d.changes:
        if ch.content is not None:
            text = _esc(ch.content)
        else:
            text = "" if ch.kind == "reembedded" else "[dim](forgotten)[/]"
        if ch.kind == "merged":
            text += "".join(f"\n  [dim]<- {m['id']}: {_esc(m['content'] or '(forgotten)')}[/]" for m in ch.detail["members"])
        elif ch.detail.get("reason"):
            text += f"\n  [dim]{_esc(str(ch.detail['reason']))}[/]"
        rows.append([ch.kind, local_time(ch.time), ch.user or "", text, ch.id or ""])
    c.print(_fitted([("change", "key"), ("time", "aside"), ("user", "aside"), ("content", "content"), ("id", "id")], rows, width=c.width))


def listing(found: Listing, fmt: str) -> None:
    if fmt == "json":
        dump_json(found.to_list())
        return
    if fmt == "jsonl":
        dump_jsonl(found.to_list())
        return
    rows = []
    for item in found.items:
        d = item.public()
        when = d.get("updated_at") or d.get("time")
        rows.append((d["kind"], d["user"], d["type"], d["status"], d["subject"], when, d["content"], d["id"]))
    if fmt == "tsv":
        dump_tsv(rows)
        return
    c = console()
    if not rows:
        c.print("[dim]Nothing matches.[/dim]")
        return
    c.print(_fitted([("kind", "aside"), ("user", "aside"), ("type", "key"), ("status", "aside"), ("subject", "aside"), ("updated", "aside"),
                     ("content", "content"), ("id", "id")],
                    [[kind, user, type_, status, "" if subject == "user" else f"about: {subject}", local_time(when), _text(content), id_]
                     for kind, user, type_, status, subject, when, content, id_ in rows], width=c.width))
    if found.total > len(rows):
        c.print(f"[dim]{len(rows)} newest of {found.total}; --limit 0 lists all.[/dim]")


def profile(p: Profile, fmt: str) -> None:
    from ..profile import LEVELS, TITLES

    rows = [(level, TITLES[name], line.text, line.type, line.subject, line.ids[0])
            for level, names in LEVELS for name in names for line in p.sections.get(name) or []]
    rows += [("Facts", "", line.text, line.type, line.subject, line.ids[0]) for line in p.facts]
    if fmt == "json":
        dump_json(p.to_dict())
    elif fmt == "jsonl":
        dump_jsonl({"level": r[0], "section": r[1], "text": r[2], "type": r[3], "subject": r[4], "id": r[5]} for r in rows)
    elif fmt == "tsv":
        dump_tsv(rows)
    else:
        c = console()
        c.print(f"[bold]Profile of {_esc(p.user)}[/bold]")
        for level, names in LEVELS:
            for name in names:
                lines = p.sections.get(name) or []
                c.print(_fitted([("text", "content"), ("type", "aside"), ("id", "id")],
                                [[_text(line.text), line.type, line.ids[0]] for line in lines] or [[_text("(nothing yet)"), "", ""]],
                                title=f"{level}: {TITLES[name]}", width=c.width))
        c.print(f"[dim]{len(p.facts)} facts (--json or --markdown lists them all).[/dim]")
