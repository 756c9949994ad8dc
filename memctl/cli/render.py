"""Every output memctl prints: Rich tables for people; JSON, JSON Lines and the prompt
block for programs. Machine formats carry no colour and nothing but the data.
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any, Callable, Iterable, Iterator, TextIO

from ..prompt import prompt_block
from ..results import (
    AuditReport, CompactReport, ForgetReport, IngestReport, MemoryHistory, RecallResult, StoreDiff, Trace,
)
from ..schema import iso



def dump_json(data: Any, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    json.dump(data, out, ensure_ascii=False, indent=2, default=str)
    out.write("\n")


def dump_jsonl(rows: Iterable[Any], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")


def console(stderr: bool = False) -> Any:
    import os

    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    # Piped tables (less, a log file) are still read by people: do not squeeze them to 80.
    width = None if stream.isatty() else int(os.environ.get("COLUMNS", "140"))
    return Console(file=stream, highlight=False, soft_wrap=False, width=width)


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
        sys.stdout.write(prompt_block(result, budget or 300) + "\n")
    else:
        _recall_table(result, explain)


def _recall_table(result: RecallResult, explain: bool) -> None:
    """Two tables, memories and then episodes, each row numbered by its rank in the one list."""
    from rich.table import Table

    c = console()
    if not result.hits:
        c.print(f"[dim]Nothing of {_esc(result.user)} matches this query.[/dim]")
        return
    ranked = list(enumerate(result.hits, 1))
    memories = [(n, h) for n, h in ranked if h.memory is not None]
    episodes = [(n, h) for n, h in ranked if h.episode is not None]
    history = any(h.status != "active" for _, h in ranked)
    for title, rows, kind in ((f"Memories of {result.user} for: {result.query}", memories, "memory"),
                              (f"What {result.user} said (episodes) for: {result.query}", episodes, "episode")):
        if not rows:
            continue
        table = Table(title=_text(title), title_justify="left")
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("score", justify="right", no_wrap=True)
        table.add_column("type" if kind == "memory" else "said", no_wrap=True)
        if history:
            table.add_column("status", no_wrap=True)
        table.add_column("content", overflow="fold", ratio=1, min_width=20)
        if explain:
            for name in ("dense", "lex", "topic", "imp", "recency"):
                table.add_column(name, justify="right", no_wrap=True)
        elif kind == "memory":
            table.add_column("imp", justify="right", no_wrap=True)
            table.add_column("updated", no_wrap=True)
        else:
            table.add_column("session", overflow="fold")
        table.add_column("id", style="dim", no_wrap=True, min_width=16)
        for n, hit in rows:
            p = hit.parts
            if hit.memory is not None:
                m = hit.memory
                row = [str(n), f"{p.score:.3f}", m.type] + ([m.status] if history else []) + [_text(m.content)]
                tail = [f"{m.importance:.2f}", _short(m.updated_at)]
            else:
                e = hit.episode
                assert e is not None
                row = [str(n), f"{p.score:.3f}", _short(e.time)] + ([hit.status] if history else []) + [_text(e.content)]
                tail = [_text(f"{e.session} {e.turn}")]
            if explain:
                tail = [f"{p.dense:.2f}", f"{p.lexical:.2f}", f"{p.topic:.0f}", f"{p.importance:.2f}", f"{p.recency:.2f}"]
            table.add_row(*row, *tail, hit.id)
        c.print(table)


def ingest(report: IngestReport, as_json: bool) -> None:
    if as_json:
        dump_json(report.to_dict())
        return
    from rich.table import Table

    c = console()
    verb = "Would change" if report.dry_run else "Ingested"
    c.print(
        f"{verb}: {report.files} file(s), {report.conversations} conversation(s), {report.turns} user turn(s) "
        f"({report.turns_new} new, {report.turns_seen} already ingested)"
    )
    c.print(
        f"memories: {report.added} added, {report.reinforced} reinforced, {report.superseded} superseded, "
        f"{report.forgotten} forgotten; secrets blocked: {report.secrets_blocked}"
    )
    if not report.changes:
        return
    table = Table(show_header=True)
    for col in ("action", "user", "type", "content", "why", "id"):
        if col == "id":
            table.add_column(col, style="dim", no_wrap=True, min_width=16)
        elif col == "content":
            table.add_column(col, overflow="fold", ratio=1)
        else:
            table.add_column(col, no_wrap=True)
    for ch in report.changes:
        table.add_row(ch.action, _text(ch.memory.user_id), ch.memory.type, _text(ch.memory.content), _text(ch.reason), ch.memory.id)
    c.print(table)


def forget(report: ForgetReport, as_json: bool, stderr: bool = False) -> None:
    if as_json:
        dump_json(report.to_dict())
        return
    from rich.table import Table

    c = console(stderr=stderr)
    if report.empty:
        c.print("Nothing matches: nothing forgotten.")
        return
    verb = "Would forget" if report.dry_run else "Forgot"
    c.print(f"{verb} {len(report.memories)} memories and {len(report.episodes)} episodes"
            + (f"; {len(report.trimmed)} memories said elsewhere too keep those sayings" if report.trimmed else "") + ".")
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
    if report.stats is not None:
        c.print(f"Episodes cleared: {report.stats.turns_cleared}, trimmed: {report.stats.turns_trimmed}; "
                f"data files {report.stats.files_before} -> {report.stats.files_after}; older table versions removed.")


def compact(report: CompactReport, as_json: bool) -> None:
    if as_json:
        dump_json(report.to_dict())
        return

    c = console()
    d = report.to_dict()
    verb = "Plan" if report.dry_run else "Compacted"
    c.print(f"{verb}: {d['memories_scanned']} active memories of {d['users']} users; {d['merged_clusters']} clusters merged "
            f"({d['merged_members']} memories), {d['superseded']} superseded, {d['expired']} expired, "
            f"{d['archived']} archived; {d['skipped_changed_meanwhile']} skipped (changed meanwhile).")
    if report.merges:
        table = _table(("user", "type", "merged into", "members"), wide=("merged into", "members"), title="merges")
        for m in report.merges:
            table.add_row(_text(m.user), m.type, _text(m.merged.content), _text("\n".join(f"{x.content} ({x.id})" for x in m.members)))
        c.print(table)
    if report.retired:
        table = _table(("action", "user", "type", "content", "why", "id"), wide=("content",), title="superseded, expired, archived")
        for r in report.retired:
            table.add_row(r.action, _text(r.memory.user_id), r.memory.type, _text(r.memory.content), _text(r.reason), r.memory.id)
        c.print(table)
    if report.maintenance:
        m = report.maintenance
        c.print(f"Store files: {m.files_before} -> {m.files_after}, "
                f"{m.bytes_before / 1e6:.1f} MB -> {m.bytes_after / 1e6:.1f} MB; took {report.seconds:.1f} s.")


def _diff_markup(ops: list[dict[str, str]]) -> str:
    # git's word-diff marks ([-gone-] {+new+}) stay readable where colour is stripped (pipes, logs).
    style = {"equal": "{}", "delete": "[red]\\[-{}-][/]", "insert": "[green]{{+{}+}}[/]"}
    return "".join(style[o["op"]].format(_esc(o["text"])) for o in ops)


def audit(report: AuditReport, as_json: bool) -> None:
    if as_json:
        dump_json(report.to_dict())
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
    health = _table(("figure", "value", "limit", "", "meaning", "examples"), wide=("meaning", "examples"), title="health")
    for f in report.health:
        mark = "[red]FAIL[/]" if f.failed else ("ok" if f.limit is not None else "")
        health.add_row(f.name, f"{f.value:g}", "" if f.limit is None else f"{f.limit:g}", mark, _text(f.meaning),
                       " ".join(f.examples[:3]))
    c.print(health)


def trace(t: Trace, as_json: bool) -> None:
    if as_json:
        dump_json(t.to_dict())
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
        sources.add_row(_text(s.session), _text(s.turn), iso(s.time) or "", _text(s.clause))
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
        shown = ", ".join(x[:19] for x in t.recalls[-10:])
        c.print(f"Recalled at: {shown}" + (f" (last 10 of {len(t.recalls)})" if len(t.recalls) > 10 else ""))
    if t.events:
        events = _table(("time", "event", "store version", "detail"), wide=("detail",), title="event log")
        for e in t.events:
            detail = ", ".join(f"{k}={v}" for k, v in e.detail.items() if k != "members")
            events.add_row((e.time or "")[:19], e.kind, str(e.store_version), _text(detail))
        c.print(events)


def history(h: MemoryHistory, as_json: bool) -> None:
    if as_json:
        dump_json(h.to_dict())
        return

    c = console()
    c.print(f"Memory chain {h.chain_id} of user {_esc(h.user)}: {len(h.steps)} steps, oldest first.")
    table = _table(("#", "when", "cause", "version", "status", "change", "id"), wide=("change",), fixed=("when", "id"))
    for n, step in enumerate(h.steps, 1):
        if step.diff:
            change = _diff_markup(step.diff)
        else:
            change = _esc(step.content) if step.content is not None else "[dim](forgotten)[/]"
        for member in step.detail.get("merged_from", []):
            change += f"\n  [dim]merged from {member['id']}: {_esc(member['content'] or '(forgotten)')}[/]"
        if step.detail.get("reason"):
            change += f"\n  [dim]{_esc(step.detail['reason'])}[/]"
        table.add_row(str(n), (step.said_at or step.time or "")[:19], step.cause, str(step.version or ""), step.status, change, step.id)
    c.print(table)


def store_diff(d: StoreDiff, as_json: bool) -> None:
    if as_json:
        dump_json(d.to_dict())
        return
    c = console()
    counts = d.counts()
    scope = f" for user {_esc(d.user)}" if d.user else ""
    c.print(f"Changes from {d.start.label()} to {d.end.label() if d.end else 'now'}{scope}: "
            + (", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none")
            + "; episodes: " + ", ".join(f"{n} {k}" for k, n in d.episodes.items()))
    if not d.changes:
        return
    table = _table(("time", "change", "user", "content", "id"), wide=("content",), fixed=("time", "id"))
    for ch in d.changes:
        if ch.content is not None:
            text = _esc(ch.content)
        else:
            text = "" if ch.kind == "reembedded" else "[dim](forgotten)[/]"
        if ch.kind == "merged":
            text += "".join(f"\n  [dim]<- {m['id']}: {_esc(m['content'] or '(forgotten)')}[/]" for m in ch.detail["members"])
        elif ch.detail.get("reason"):
            text += f"\n  [dim]{_esc(str(ch.detail['reason']))}[/]"
        table.add_row((ch.time or "")[:19], ch.kind, _text(ch.user), text, ch.id or "")
    c.print(table)
