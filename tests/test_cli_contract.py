"""The command-line contract, command by command: exit codes, where output goes, pipes,
terminals of any width, NO_COLOR, read-only stores. In-process through main() (memctl's
own error handling), except where only a real process can tell (aborts, closed pipes)."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FAKE_MODEL, SAMPLES, conversation, write_json

ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A colour (foreground or background), as opposed to bold or dim, which NO_COLOR allows.
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-7]|4[0-7]|9[0-7]|38|48)[;m]")


@pytest.fixture
def loaded(tmp_path):
    from memctl import init_store

    s = init_store(tmp_path / "proj", model=FAKE_MODEL)
    s.ingest([str(SAMPLES)])
    return s


def _an_id(store, user="sam"):
    return store.browse(user=user, limit=1).items[0].id


# Each command: a successful run, a usage error (exit 2), a data or runtime error.
def _cases(store, tmp_path):
    mid = _an_id(store)
    bad = write_json(tmp_path / "bad.json", {"messages": "not a list"})
    return {
        "init": (["init", str(tmp_path / "new")], ["init", "--model"], ["init", str(tmp_path / "new2"), "--model", "no-such-model"]),
        "path": (["path"], ["path", "--nope"], ["path", "--store", str(tmp_path / "nowhere")]),
        "ingest": (["ingest", str(SAMPLES)], ["ingest"], ["ingest", str(bad)]),
        "recall": (["recall", "Rust", "-u", "sam"], ["recall", "", "-u", "sam"], ["recall", "Rust", "-u", "sam", "--store", str(tmp_path / "nowhere")]),
        "list": (["list", "-u", "sam"], ["list", "--limit", "-1"], ["list", "--store", str(tmp_path / "nowhere")]),
        "forget": (["forget", "--id", mid, "--yes"], ["forget", "--id", mid, "--user", "sam", "--yes"], ["forget", "--id", "0123456789abcdef", "--yes"]),
        "compact": (["compact"], ["compact", "--user"], ["compact", "--store", str(tmp_path / "nowhere")]),
        "reembed": (["reembed", "--yes"], ["reembed", "--bogus"], ["reembed", "--yes", "--store", str(tmp_path / "nowhere")]),
        "audit": (["audit"], ["audit", "--id", mid, "--check"], ["audit", "--id", "0123456789abcdef"]),
        "diff": (["diff", mid], ["diff"], ["diff", "0123456789abcdef"]),
        "profile": (["profile", "-u", "sam"], ["profile"], ["profile", "-u", "bad user!"]),
        "export": (["export", "-u", "sam"], ["export", "--to", "xml"], ["export", "--store", str(tmp_path / "nowhere")]),
        "import": (["import", str(_fixture(tmp_path))], ["import"], ["import", str(bad)]),
    }


def _fixture(tmp_path):
    path = tmp_path / "fixture.jsonl"
    path.write_text(json.dumps({"id": "fx1", "user": "u9", "type": "profile", "content": "User is a nurse"}) + "\n")
    return path


def test_every_command_is_in_the_contract(loaded, tmp_path):
    from test_docs import _commands

    assert set(_commands()) == set(_cases(loaded, tmp_path))


@pytest.mark.parametrize("name", ["init", "path", "ingest", "recall", "list", "forget", "compact", "reembed", "audit", "diff",
                                  "profile", "export", "import"])
def test_success_usage_error_and_data_error(cli, loaded, tmp_path, name):
    ok, usage, data = _cases(loaded, tmp_path)[name]
    store = [] if name == "init" else ["--store", str(loaded.dir)]
    r = cli(*ok, *([] if "--store" in ok else store))
    assert r.code == 0, (name, r.err)
    assert "Traceback" not in r.err
    r = cli(*usage, *([] if "--store" in usage else store))
    assert r.code == 2 and r.out == "" and r.err.startswith("memctl: error: ") and r.err.count("\n") == 1, (name, r)
    r = cli(*data, *([] if "--store" in data or name == "init" else store))
    assert r.code in (1, 2) and r.out == "" and r.err.startswith("memctl: error: ") and r.err.count("\n") == 1, (name, r)
    assert "unexpected" not in r.err and ": \n" not in r.err and r.err.strip() != "memctl: error:", (name, r.err)


class _Closed(io.StringIO):
    """A stdout whose reader went away (`| head -1`)."""

    def write(self, text):
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    def isatty(self):
        return False


@pytest.mark.parametrize("args", [
    ["recall", "Rust", "-u", "sam"], ["recall", "Rust", "-u", "sam", "--jsonl"], ["recall", "Rust", "-u", "sam", "--format", "prompt"],
    ["list"], ["list", "--json"], ["audit"], ["audit", "--table"], ["diff", "--since", "1d"], ["compact", "--dry-run", "--jsonl"],
])
def test_a_closed_pipe_exits_0_quietly(loaded, monkeypatch, capsys, args):
    from memctl.cli import main

    monkeypatch.setattr(sys, "stdout", _Closed())
    with pytest.raises(SystemExit) as done:
        main([*args, "--store", str(loaded.dir)])
    assert done.value.code == 0
    assert "error" not in capsys.readouterr().err


def test_a_closed_pipe_in_a_real_pipeline_exits_0(loaded):
    """The whole program, as `set -o pipefail` scripts run it."""
    memctl = str(Path(sys.executable).parent / "memctl")
    for args in (["list", "--limit", "0"], ["audit"], ["recall", "Rust", "-u", "sam", "--jsonl"]):
        cmd = " ".join(map(_quote, [memctl, *args, "--store", str(loaded.dir)])) + " | head -c 1 >/dev/null"
        r = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd], capture_output=True, text=True,
                           env={**os.environ, "HF_HUB_OFFLINE": "1"})
        assert r.returncode == 0 and r.stderr == "", (args, r)


def _quote(s):
    import shlex

    return shlex.quote(s)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _on_terminal(monkeypatch, width, args, color=True):
    from memctl.cli import main

    out = _Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("TERM", "xterm-256color")
    if color:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", "1")
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue()


@pytest.mark.parametrize("width", [80, 200])
@pytest.mark.parametrize("args", [
    ["recall", "Rust", "-u", "sam", "--explain"], ["recall", "三亚 餐厅 海鲜", "-u", "xiaolin", "--explain", "--include-history"],
    ["list", "-u", "xiaolin"], ["list", "--kind", "episode", "--limit", "5"], ["audit"], ["diff", "--since", "1d"],
])
def test_tables_fit_the_terminal_and_never_crop_ids(loaded, monkeypatch, width, args):
    code, out = _on_terminal(monkeypatch, width, [*args, "--store", str(loaded.dir)], color=False)
    assert code == 0
    plain = [ANSI.sub("", line) for line in out.splitlines()]
    assert plain and all(len(line) <= width for line in plain), max(len(x) for x in plain)
    assert not COLOUR.search(out)
    out = ANSI.sub("", out)
    ids = set(re.findall(r"\b[0-9a-f]{16}(?:[0-9a-f]{16})?\b", out))
    if args[0] in ("recall", "list"):
        assert ids, out
        for i in ids:
            assert len(i) in (16, 32)
        # Every id of the JSON output appears whole in the table.
        from memctl.cli import main

        capture = io.StringIO()
        monkeypatch.setattr(sys, "stdout", capture)
        with pytest.raises(SystemExit):
            main([*args, "--json", "--store", str(loaded.dir)])
        for row in json.loads(capture.getvalue()):
            assert row["id"] in out, (row["id"], out)


def test_no_color_and_colour_on_a_terminal(store, monkeypatch, tmp_path):
    write_json(tmp_path / "a.json", conversation("u1", "s1", "I live in Berlin."))
    write_json(tmp_path / "b.json", conversation("u1", "s2", "Actually I moved to Lisbon.", time="2026-11-10T10:00:00+08:00"))
    store.ingest([str(tmp_path / "a.json")])
    store.ingest([str(tmp_path / "b.json")])
    (now,) = store.browse(user="u1").items
    args = ["diff", now.id, "--store", str(store.dir)]
    code, coloured = _on_terminal(monkeypatch, 120, args, color=True)
    assert code == 0 and COLOUR.search(coloured)  # the word diff: red gone, green new
    code, plain = _on_terminal(monkeypatch, 120, args, color=False)
    assert code == 0 and not COLOUR.search(plain) and "{+Lisbon+}" in ANSI.sub("", plain)


def test_without_a_terminal_rows_are_tab_separated_without_colour(cli, loaded):
    r = cli("recall", "Rust", "-u", "sam", "--store", loaded.dir)
    assert r.code == 0 and r.out and not ANSI.search(r.out)
    for line in r.out.splitlines():
        rank, kind, score, type_, status, content, id_, when = line.split("\t")
        assert kind in ("memory", "episode") and float(score) > 0 and re.fullmatch(r"[0-9a-f]{16}|[0-9a-f]{32}", id_)
    listed = cli("list", "-u", "sam", "--store", loaded.dir)
    assert listed.code == 0 and all(len(line.split("\t")) == 8 for line in listed.out.splitlines())
    # One set of output flags everywhere.
    for args in (["recall", "Rust", "-u", "sam"], ["list"], ["audit"], ["diff", "--since", "1d"], ["compact", "--dry-run"]):
        for flag, check in (("--json", json.loads), ("--jsonl", lambda o: [json.loads(x) for x in o.splitlines()]),
                            ("--nl", lambda o: [json.loads(x) for x in o.splitlines()]), ("--tsv", str), ("--table", str)):
            r = cli(*args, flag, "--store", loaded.dir)
            assert r.code == 0, (args, flag, r.err)
            check(r.out)
        assert cli(*args, "--json", "--tsv", "--store", loaded.dir).code == 2


def test_a_value_with_a_tab_or_newline_stays_on_its_row(cli, store, tmp_path):
    write_json(tmp_path / "t.json", conversation("u1", "s1", "I live in Berlin.\tI love\nhiking in the Alps."))
    assert cli("ingest", tmp_path / "t.json", "--store", store.dir).code == 0
    r = cli("list", "-u", "u1", "--kind", "episode", "--store", store.dir)
    assert r.code == 0 and len(r.out.splitlines()) == 1 and "\\t" in r.out and "\\n" in r.out


@pytest.mark.reliability
def test_read_only_store_recall_still_answers(cli, loaded, monkeypatch):
    from memctl import spool

    def refuse(self, *a, **k):
        raise PermissionError(errno.EROFS, "Read-only file system", str(self.path))

    monkeypatch.setattr(spool.RecallSpool, "record", refuse)
    r = cli("recall", "Rust", "-u", "sam", "--json", "--store", loaded.dir)
    assert r.code == 0 and r.json() and r.err == ""
    r = cli("-v", "recall", "Rust", "-u", "sam", "--json", "--store", loaded.dir)
    assert r.code == 0 and r.err.count("\n") == 1 and "not recorded" in r.err and "recalls.jsonl" in r.err
    for args in (["list"], ["audit"], ["diff", "--since", "1d"], ["path"]):
        assert cli(*args, "--store", loaded.dir).code == 0, args


def test_no_record_leaves_no_trace(cli, loaded):
    from conftest import snapshot

    before = snapshot(loaded.dir)
    assert cli("recall", "Rust", "-u", "sam", "--no-record", "--store", loaded.dir).code == 0
    assert snapshot(loaded.dir) == before


@pytest.mark.reliability
def test_a_write_on_a_read_only_store_is_one_line_naming_the_path(cli, loaded, monkeypatch):
    import filelock

    def refuse(self, *a, **k):
        raise PermissionError(errno.EACCES, "Permission denied", self.lock_file)

    monkeypatch.setattr(filelock.BaseFileLock, "acquire", refuse)
    r = cli("compact", "--store", loaded.dir)
    assert r.code == 1 and r.err.count("\n") == 1 and re.search(r"\.memctl/\w+\.lock: Permission denied$", r.err), r.err


def test_version_help_and_no_arguments(cli):
    r = cli("--version")
    assert r.code == 0 and re.fullmatch(r"memctl \d+\.\d+\.\d+\S*\n", r.out)
    r = cli()
    assert r.code == 0 and "Usage" in r.out and r.err == ""


def test_init_honours_store_and_the_environment(cli, tmp_path, monkeypatch):
    r = cli("init", "--store", tmp_path / "a", "--model", FAKE_MODEL)
    assert r.code == 0 and (tmp_path / "a" / ".memctl" / "memctl.toml").is_file()
    monkeypatch.setenv("MEMCTL_STORE", str(tmp_path / "b"))
    assert cli("init", "--model", FAKE_MODEL).code == 0 and (tmp_path / "b" / ".memctl" / "memctl.toml").is_file()
    assert cli("path").out.strip() == str((tmp_path / "b" / ".memctl").resolve())
    assert cli("init", str(tmp_path / "c"), "--store", tmp_path / "d").code == 2


def test_forget_is_idempotent_and_never_prints_forgotten_text(cli, store, tmp_path):
    write_json(tmp_path / "a.json", conversation("u1", "s1", "My address is 221B Baker Street."))
    assert cli("ingest", tmp_path / "a.json", "--store", store.dir).code == 0
    (m,) = store.browse(user="u1").items
    done = cli("forget", "--id", m.id, "--yes", "--store", store.dir)
    assert done.code == 0 and "Baker" not in done.out + done.err
    again = cli("forget", "--id", m.id, "--yes", "--store", store.dir)
    assert again.code == 0 and "Nothing to forget" in again.err
    assert cli("forget", "--id", "0123456789abcdef", "--yes", "--store", store.dir).code == 1


def test_ingest_output_never_carries_text_the_user_asked_to_forget(cli, store, tmp_path):
    write_json(tmp_path / "a.json", conversation("u1", "s1", "My address is 12 Rosegarden Lane."))
    write_json(tmp_path / "b.json", conversation("u1", "s2", "Forget my address.", time="2026-11-05T10:00:00+08:00"))
    assert cli("ingest", tmp_path / "a.json", "--store", store.dir).code == 0
    for flag in ("--json", "--jsonl", "--tsv", "--table"):
        r = cli("ingest", tmp_path / "b.json", "--dry-run", flag, "--store", store.dir)
        assert r.code == 0 and "Rosegarden" not in r.out + r.err, (flag, r.out)
    r = cli("ingest", tmp_path / "b.json", "--json", "--store", store.dir)
    assert r.code == 0 and r.json()["forgotten"] == 1 and "Rosegarden" not in r.out


def test_dry_run_says_ids_are_assigned_on_write(cli, store):
    r = cli("ingest", SAMPLES / "travel_zh.json", "--dry-run", "--table", "--store", store.dir)
    assert r.code == 0 and "(on write)" in r.out and "assigned when written" in r.out
    t = cli("ingest", SAMPLES / "travel_zh.json", "--dry-run", "--tsv", "--store", store.dir)
    assert all(line.split("\t")[-1] == "" for line in t.out.splitlines())


def test_library_takes_iso_strings_and_errors_name_no_flags(loaded):
    from memctl.errors import MemctlError

    assert loaded.recall("Rust", "sam", as_of="2026-12-31").hits
    assert loaded.browse(user="sam", since="2026-11-01T00:00:00Z").items
    for call in (lambda: loaded.recall("Rust", "sam", as_of="2026-13-01"), lambda: loaded.recall("Rust", "bad user!"),
                 lambda: loaded.recall("Rust", "sam", top_k=0), lambda: loaded.forget(ids=["x"], user="sam"),
                 lambda: loaded.browse(statuses=["gone"])):
        with pytest.raises(MemctlError) as err:
            call()
        assert "--" not in str(err.value), str(err.value)


def test_include_history_puts_what_is_true_first(store, tmp_path):
    write_json(tmp_path / "a.json", conversation("u1", "s1", "I live in Berlin."))
    write_json(tmp_path / "b.json", conversation("u1", "s2", "Actually I moved to Lisbon.", time="2026-11-10T10:00:00+08:00"))
    store.ingest([str(tmp_path / "a.json")])
    store.ingest([str(tmp_path / "b.json")])
    hits = store.recall("Berlin Lisbon where do I live", "u1", include_history=True, kinds=["memory"]).hits
    statuses = [h.status for h in hits]
    assert "superseded" in statuses and statuses == sorted(statuses, key=lambda s: s != "active")


USAGE_ERRORS = [
    ["recall", "", "-u", "alice"], ["recall", "x", "-u", "alice", "--top-k", "0"],
    ["recall", "x", "-u", "alice", "--as-of", "2026-13-01"], ["recall", "x", "-u", "alice", "-t", "bogus"],
]


def test_usage_errors_exit_2_every_time_in_a_real_process(loaded):
    """A model loading in the background must never abort the process (exit 134)."""
    memctl = str(Path(sys.executable).parent / "memctl")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    for args in USAGE_ERRORS:
        codes = set()
        for _ in range(50):
            r = subprocess.run([memctl, *args, "--store", str(loaded.dir)], capture_output=True, text=True, env=env)
            codes.add(r.returncode)
            assert r.stderr.startswith("memctl: error: ") and r.stderr.count("\n") == 1, r.stderr
        assert codes == {2}, (args, codes)


def test_a_big_ingest_is_a_summary_on_a_terminal(cli, store, monkeypatch):
    from memctl.cli import render

    monkeypatch.setattr(render, "TABLE_CHANGES", 3)
    r = cli("ingest", SAMPLES, "--table", "--store", store.dir)
    assert r.code == 0 and "--jsonl or --tsv lists every one" in r.out and "┃" not in r.out
    every = cli("ingest", SAMPLES, "--dry-run", "--jsonl", "--store", store.dir)
    assert every.code == 0


def test_ingest_reports_progress_per_conversation(store):
    calls = []
    report = store.ingest([str(SAMPLES)], progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (report.conversations, report.conversations)
    assert [d for d, _ in calls] == list(range(1, report.conversations + 1))


# Every command under every condition of the contract. Commands that only read succeed on a
# read-only store; commands that write say so in one line naming the path (exit 1).
READS = {"path", "recall", "list", "audit", "diff", "profile", "export"}
ALL = ["init", "path", "ingest", "recall", "list", "forget", "compact", "reembed", "audit", "diff", "profile", "export", "import"]


def _ok_args(name, loaded, tmp_path):
    ok, _, _ = _cases(loaded, tmp_path)[name]
    return [*ok, *([] if name == "init" or "--store" in ok else ["--store", str(loaded.dir)])]


@pytest.mark.parametrize("name", ALL)
def test_contract_matrix_closed_pipe(loaded, tmp_path, monkeypatch, capsys, name):
    from memctl.cli import main

    args = _ok_args(name, loaded, tmp_path)
    monkeypatch.setattr(sys, "stdout", _Closed())
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 0, capsys.readouterr().err
    assert "error" not in capsys.readouterr().err


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("width, color", [(80, False), (200, True)])
def test_contract_matrix_terminal_widths_and_no_color(loaded, tmp_path, monkeypatch, name, width, color):
    code, out = _on_terminal(monkeypatch, width, _ok_args(name, loaded, tmp_path), color=color)
    assert code == 0
    if name != "export":  # JSON Lines are data, one record a line, whatever the terminal
        assert all(len(ANSI.sub("", line)) <= width for line in out.splitlines()), (name, width)
    if not color:
        assert not COLOUR.search(out), name


@pytest.mark.reliability
@pytest.mark.parametrize("name", ALL)
def test_contract_matrix_read_only_store(cli, loaded, tmp_path, monkeypatch, name):
    import filelock

    from memctl import spool

    args = _ok_args(name, loaded, tmp_path)

    def refuse_spool(self, *a, **k):
        raise PermissionError(errno.EROFS, "Read-only file system", str(self.path))

    def refuse_lock(self, *a, **k):
        raise PermissionError(errno.EROFS, "Read-only file system", self.lock_file)

    monkeypatch.setattr(spool.RecallSpool, "record", refuse_spool)
    monkeypatch.setattr(filelock.BaseFileLock, "acquire", refuse_lock)
    r = cli(*args)
    if name in READS:
        assert r.code == 0 and "Traceback" not in r.err, (name, r.err)
    else:
        assert r.code == 1 and r.err.count("\n") == 1 and "Read-only file system" in r.err and ".lock" in r.err, (name, r.err)
