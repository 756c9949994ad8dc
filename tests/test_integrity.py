"""Integrity under real-world order and input: what is true does not depend on which
process or call ingested a statement first, and a negation closes only what it names."""

from __future__ import annotations

import json

import pytest

from conftest import conversation, write_json

pytestmark = pytest.mark.reliability


@pytest.mark.parametrize("a, b, same", [
    ("User doesn't drink coffee anymore", "User drinks coffee every morning", True),
    ("User doesn't drink coffee anymore", "User is allergic to peanuts", False),
    ("用户已经不喝咖啡了", "用户每天喝咖啡", True),
    ("用户已经不喝咖啡了", "用户对花生过敏", False),
    ("用户不吃辣", "用户不吃海鲜", False),
])
def test_a_negation_names_what_it_ends(a, b, same):
    from memctl.judgement import names_same_thing

    assert names_same_thing(a, b) is same


@pytest.mark.parametrize("first, second", [
    (("Actually I moved to Lisbon.", "2026-11-10T10:00:00+00:00"), ("I live in Berlin.", "2026-11-01T10:00:00+00:00")),
    (("我四月份已经搬到杭州了", "2026-05-01T10:00:00+08:00"), ("我住在上海", "2026-03-01T10:00:00+08:00")),
])
def test_statement_time_not_ingest_order_decides_the_current_value(store, tmp_path, first, second):
    """The newer statement ingested first, the older one in a later call: the older one
    becomes history (a closed version), never the current value."""
    (new_text, new_time), (old_text, old_time) = first, second
    write_json(tmp_path / "new.json", conversation("u1", "s2", new_text, time=new_time))
    write_json(tmp_path / "old.json", conversation("u1", "s1", old_text, time=old_time))
    store.ingest([str(tmp_path / "new.json")])
    store.ingest([str(tmp_path / "old.json")])
    active = store.memories("u1")
    assert len(active) == 1 and ("Lisbon" in active[0].content or "杭州" in active[0].content), [m.content for m in active]
    history = [m for m in store.memories("u1", status="superseded")]
    assert len(history) == 1 and history[0].valid_to == active[0].valid_from
    # The same statements in the natural order give the same current value.
    write_json(tmp_path / "old2.json", conversation("u2", "s1", old_text, time=old_time))
    write_json(tmp_path / "new2.json", conversation("u2", "s2", new_text, time=new_time))
    store.ingest([str(tmp_path / "old2.json")])
    store.ingest([str(tmp_path / "new2.json")])
    assert [m.content for m in store.memories("u2")] == [active[0].content]


def test_a_time_outside_sane_years_is_refused_and_the_store_untouched(cli, store, tmp_path):
    from conftest import snapshot

    write_json(tmp_path / "ok.json", conversation("u1", "s1", "I live in Berlin."))
    assert cli("ingest", tmp_path / "ok.json", "--store", store.dir).code == 0
    before = snapshot(store.dir)
    for bad in ("0001-01-01T00:00:00+14:00", "9999-12-31T20:00:00-05:00"):
        write_json(tmp_path / "bad.json", conversation("u1", "s2", "I moved to Lisbon.", time=bad))
        r = cli("ingest", tmp_path / "bad.json", "--store", store.dir)
        assert r.code == 2 and "bad.json" in r.err and r.err.count("\n") == 1, r.err
        assert snapshot(store.dir) == before
    for args in (["compact"], ["recall", "Berlin", "-u", "u1"], ["diff", "--since", "1d"]):
        assert cli(*args, "--store", store.dir).code == 0, args


def test_forget_takes_what_a_compaction_merged_after_the_selection(store):
    """forget selects, a compaction merges two of the selected memories, then forget applies:
    the merged memory, which carries their text, is forgotten too."""
    from conftest import assert_absent, seed

    a, b = seed(store, "u1", [("preference", "User loves the Rosegarden cafe"), ("preference", "User loves the Rosegarden cafe.")])
    plan = store.forget(user="u1", query="Rosegarden cafe", dry_run=True)
    assert {m.id for m in plan.memories} >= {a.id, b.id}
    report = store.compact()
    assert report.merges, "the two must have merged"
    done = store.apply_forget(plan)
    assert not store.memories("u1")
    assert len(done.memories) > len(plan.memories)
    assert_absent(store.dir, "Rosegarden")


@pytest.mark.parametrize("text, fragment", [
    ('{"user": "u1", "messages": ' + "[" * 5000 + "]" * 5000 + "}", "nested"),
    ('{"user": "u1", "messages": [{"role": "user", "content": "I live in \\ud800 Berlin"}]}', "surrogate"),
    ('{"user": "u1", "messages": [{"role": "user", "content": "hi", "n": ' + "9" * 5000 + "}]}", "digits"),
    ('{"user": "u1", "messages": [{"role": "user", "content": "I live in Berlin", "id": true}]}', "'id'"),
])
def test_malformed_json_is_exit_2_naming_the_file(cli, store, tmp_path, text, fragment):
    from conftest import snapshot

    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    before = snapshot(store.dir)
    r = cli("ingest", path, "--store", store.dir)
    assert r.code == 2 and "bad.json" in r.err and fragment in r.err and r.err.count("\n") == 1, r.err
    assert "unexpected" not in r.err and snapshot(store.dir) == before


def test_json_lines_split_on_newlines_only(cli, store, tmp_path):
    line = '{"user": "u1", "session": "s1", "role": "user", "content": "I live in Berlin.\u2028I love hiking.\u0085Really."}'
    (tmp_path / "a.jsonl").write_text(line + "\n", encoding="utf-8")
    r = cli("ingest", tmp_path / "a.jsonl", "--json", "--store", store.dir)
    assert r.code == 0 and r.json()["turns"] == 1, r.err


def test_non_regular_files_broken_links_and_escapes_in_names(cli, store, tmp_path):
    import os

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    r = cli("ingest", fifo, "--store", store.dir)
    assert r.code == 2 and "not a regular file" in r.err
    r = cli("ingest", "/dev/zero", "--store", store.dir)
    assert r.code == 2 and "not a regular file" in r.err
    folder = tmp_path / "logs"
    folder.mkdir()
    write_json(folder / "ok.json", conversation("u1", "s1", "I live in Berlin."))
    (folder / "gone.json").symlink_to(tmp_path / "nowhere.json")
    r = cli("ingest", folder, "--store", store.dir)
    assert r.code == 2 and "broken symbolic link" in r.err
    r = cli("ingest", tmp_path / "evil\x1b[31mname.json", "--store", store.dir)
    assert r.code == 2 and "\x1b" not in r.err and "\\x1b" in r.err


class _Killed(BaseException):
    """A kill -9 at a commit point: nothing after it runs (not even finally blocks that
    matter: the intent file stays where the purge left it)."""


def _kill_after(monkeypatch, commits: int) -> list[int]:
    from memctl.db import Database

    done = [0]
    for name in ("append", "upsert", "delete", "update", "optimize", "overwrite"):
        real = getattr(Database, name)

        def wrapped(self, *a, _real=real, **k):
            if done[0] >= commits:
                raise _Killed()
            done[0] += 1
            return _real(self, *a, **k)

        monkeypatch.setattr(Database, name, wrapped)
    return done


def test_forget_killed_at_every_commit_point_is_finished_by_the_next_run(tmp_path, monkeypatch):
    """kill at each write of a forget, then run the same forget again: the text is gone from
    every row, version and file, nothing else is lost, and the event log has each once."""
    from conftest import FAKE_MODEL, assert_absent, write_json
    from memctl import init_store, open_store

    commits = 0
    while True:
        root = tmp_path / f"k{commits}"
        store = init_store(root, model=FAKE_MODEL)
        write_json(root / "a.json", conversation("u1", "s1", "My address is 12 Rosegarden Lane.", "I love green tea."))
        store.ingest([str(root / "a.json")])
        keep = sorted(m.content for m in store.memories("u1") if "Rosegarden" not in m.content)
        with monkeypatch.context() as m:
            _kill_after(m, commits)
            try:
                store.forget(user="u1", query="Rosegarden address")
                finished = True
            except _Killed:
                finished = False
        again = open_store(root)
        again.forget(user="u1", query="Rosegarden address")
        assert_absent(again.dir, "Rosegarden")
        assert sorted(m.content for m in again.memories("u1")) == keep, commits
        assert not again.audit().failures
        events = again.db.rows("events", columns=["kind", "memory_id"])
        forgotten = [e["memory_id"] for e in events if e["kind"] == "forgotten"]
        assert len(forgotten) == len(set(forgotten)), "an event logged twice"
        if finished:
            break
        commits += 1
    assert commits >= 4  # the purge has at least this many commit points, each tried


@pytest.mark.parametrize("then", ["compact", "ingest"])
@pytest.mark.parametrize("commits", [1, 3, 5])
def test_a_forget_cut_short_is_finished_by_the_next_compact_or_ingest(tmp_path, monkeypatch, then, commits):
    from conftest import FAKE_MODEL, assert_absent, write_json
    from memctl import init_store, open_store

    store = init_store(tmp_path / "p", model=FAKE_MODEL)
    write_json(tmp_path / "a.json", conversation("u1", "s1", "My address is 12 Rosegarden Lane.", "I love green tea."))
    write_json(tmp_path / "b.json", conversation("u2", "s1", "I live in Lisbon."))
    store.ingest([str(tmp_path / "a.json")])
    with monkeypatch.context() as m:
        _kill_after(m, commits)
        with pytest.raises(_Killed):
            store.forget(user="u1", query="Rosegarden address")
    again = open_store(store.dir)
    if then == "compact":
        again.compact()
    else:
        again.ingest([str(tmp_path / "b.json")])
    assert not (again.dir / "forget.pending").exists()
    assert_absent(again.dir, "Rosegarden")
    assert [m.content for m in again.memories("u1")] == ["User loves green tea"]


def _state(store, user):
    rows = store.db.rows("memories", columns=["content", "status"], filter=f"user_id = '{user}'")
    episodes = store.db.rows("episodes", columns=["turn_key", "content"], filter=f"user_id = '{user}'")
    return sorted((r["content"], r["status"]) for r in rows), sorted(bool(e["content"]) for e in episodes)


def test_ingest_killed_at_every_commit_point_is_completed_by_running_it_again(tmp_path, monkeypatch):
    """kill at each write of an ingest, then run the same ingest again: the same memories,
    statuses and episodes as an ingest never interrupted; no memory supersedes itself; every
    memory's ingest is logged once."""
    from conftest import FAKE_MODEL, write_json
    from memctl import init_store, open_store

    write_json(tmp_path / "a.json", conversation("u1", "s1", "I live in Berlin.", "I'm vegetarian.", time="2026-11-01T10:00:00+00:00"))
    write_json(tmp_path / "b.json", conversation("u1", "s2", "Actually I moved to Lisbon.", "I love green tea.",
                                                "我对花生过敏", time="2026-11-10T10:00:00+00:00"))
    clean = init_store(tmp_path / "clean", model=FAKE_MODEL)
    clean.ingest([str(tmp_path / "a.json")])
    clean.ingest([str(tmp_path / "b.json")])
    expected = _state(clean, "u1")
    commits = 0
    while True:
        store = init_store(tmp_path / f"k{commits}", model=FAKE_MODEL)
        store.ingest([str(tmp_path / "a.json")])
        with monkeypatch.context() as m:
            _kill_after(m, commits)
            try:
                store.ingest([str(tmp_path / "b.json")])
                finished = True
            except _Killed:
                finished = False
        again = open_store(store.dir)
        again.ingest([str(tmp_path / "b.json")])
        assert _state(again, "u1") == expected, commits
        events = again.db.rows("events", columns=["kind", "memory_id"])
        ingested = [e["memory_id"] for e in events if e["kind"] == "ingested"]
        assert len(ingested) == len(set(ingested)), ("an ingest logged twice", commits)
        ids = {r["id"] for r in again.db.rows("memories", columns=["id"])}
        assert ids <= set(ingested), ("a memory whose ingest was never logged", commits)
        if finished:
            break
        commits += 1
    assert commits >= 3


def _log(path, *sessions):
    """A JSON Lines log: each session (user, session id, day, user messages) one line a message."""
    with open(path, "w", encoding="utf-8") as f:
        for user, session, day, messages in sessions:
            for n, text in enumerate(messages, 1):
                f.write(json.dumps({"user": user, "session": session, "role": "user", "id": f"t{n}", "content": text,
                                    "time": f"2026-11-{day:02d}T10:00:00+00:00"}) + "\n")
    return path


_SESSIONS = [
    ("u1", "s1", 1, ["I live in Berlin.", "I'm vegetarian."]),
    ("u2", "s1", 2, ["我对花生过敏", "我养了一只猫叫年糕"]),
    ("u1", "s2", 5, ["I love green tea.", "My sister Mia is a nurse."]),
    ("u2", "s2", 6, ["我已经不喝咖啡了", "我在学日语"]),
    ("u1", "s3", 10, ["Actually I moved to Lisbon.", "I'm not vegetarian anymore, I eat fish now."]),
]


@pytest.mark.parametrize("unit_turns", [1, 3])
def test_a_log_taken_in_units_ends_as_one_ingest_of_it(tmp_path, unit_turns):
    """A big log goes in as units written one after the other (bounded memory): the store
    ends the same as when the whole log is one unit, corrections across units included."""
    from conftest import FAKE_MODEL
    from memctl import init_store

    log = _log(tmp_path / "log.jsonl", *_SESSIONS)
    whole = init_store(tmp_path / "whole", model=FAKE_MODEL)
    report = whole.ingest([str(log)])
    units = init_store(tmp_path / "units", model=FAKE_MODEL)
    units.config.ingest.unit_turns = unit_turns
    split = units.ingest([str(log)])
    for user in ("u1", "u2"):
        assert _state(units, user) == _state(whole, user), user
    assert ("User moved to Lisbon", "active") in _state(units, "u1")[0]
    assert (split.turns, split.turns_new, split.episodes, split.added, split.superseded) == \
        (report.turns, report.turns_new, report.episodes, report.added, report.superseded)
    assert [c.memory.vector for c in split.changes] == [None] * len(split.changes)  # the report holds no vectors
    assert not units.audit().failures


def test_a_log_cut_short_between_units_is_completed_by_running_it_again(tmp_path, monkeypatch):
    """kill at each write of an ingest taken in units: the units written stay, and the same
    ingest run again gives the store an uninterrupted one gives."""
    from conftest import FAKE_MODEL
    from memctl import init_store, open_store

    log = _log(tmp_path / "log.jsonl", *_SESSIONS)
    clean = init_store(tmp_path / "clean", model=FAKE_MODEL)
    clean.ingest([str(log)])
    expected = {u: _state(clean, u) for u in ("u1", "u2")}
    commits = 0
    while True:
        store = init_store(tmp_path / f"k{commits}", model=FAKE_MODEL)
        store.config.ingest.unit_turns = 2
        with monkeypatch.context() as m:
            _kill_after(m, commits)
            try:
                store.ingest([str(log)])
                finished = True
            except _Killed:
                finished = False
        again = open_store(store.dir)
        again.config.ingest.unit_turns = 2
        again.ingest([str(log)])
        assert {u: _state(again, u) for u in ("u1", "u2")} == expected, commits
        assert not again.audit().failures, commits
        if finished:
            break
        commits += 1
    assert commits >= 9  # three units of at least three writes each, each cut


# Run memctl with its files unable to grow past a size (EFBIG, as a full disk gives
# ENOSPC): a real failure inside the storage's own writes, at a deterministic point. The
# limit is set by a launcher that then becomes memctl (no fork of the test process).
_LIMITED = ("import os, resource, signal, sys; n = int(sys.argv[1]); signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
            "resource.setrlimit(resource.RLIMIT_FSIZE, (n, n)); "
            "os.execv(sys.executable, [sys.executable, '-m', 'memctl', *sys.argv[2:]])")


def _memctl(*args, max_file_bytes=None):
    import os
    import subprocess
    import sys

    launch = [sys.executable, "-c", _LIMITED, str(max_file_bytes)] if max_file_bytes else [sys.executable, "-m", "memctl"]
    return subprocess.run([*launch, *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})


@pytest.mark.parametrize("command", ["ingest", "compact", "forget"])
def test_a_full_disk_fails_in_one_line_and_the_same_command_completes_later(tmp_path, command):
    """Each command on a disk that fills up mid-write (several sizes: cut at different
    writes): exit 1 with one line naming the table, nothing lost, `audit --check` passes, and
    once there is room the same command gives the store an uninterrupted run gives."""
    import shutil

    from conftest import FAKE_MODEL, assert_absent
    from memctl import init_store, open_store

    first = _log(tmp_path / "first.jsonl", *_SESSIONS[:2])
    second = _log(tmp_path / "second.jsonl", *_SESSIONS[2:], ("u2", "s3", 7, ["My address is 12 Quillfeather Lane."]))
    base = init_store(tmp_path / "base", model=FAKE_MODEL)
    base.ingest([str(first)])
    if command != "ingest":
        base.ingest([str(second)])
    args = {"ingest": ["ingest", second, "--tsv"], "compact": ["compact", "--tsv"],
            "forget": ["forget", "--user", "u2", "--yes", "--tsv"]}[command]
    shutil.copytree(base.dir.parent, tmp_path / "clean")
    clean = tmp_path / "clean"
    assert _memctl(*args, "--store", clean).returncode == 0
    want = {u: _state(open_store(clean), u) for u in ("u1", "u2")}
    failed = 0
    for size in (1_000, 8_000, 30_000):
        trial = tmp_path / f"full-{size}"
        shutil.copytree(base.dir.parent, trial)
        r = _memctl(*args, "--store", trial, max_file_bytes=size)
        if r.returncode != 0:
            failed += 1
            assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
            assert "cannot write" in r.stderr or "File too large" in r.stderr, r.stderr
            assert "Traceback" not in r.stderr and ".rs:" not in r.stderr, r.stderr
        check = _memctl("audit", "--check", "--store", trial)
        assert check.returncode == 0, (size, check.stdout, check.stderr)
        again = _memctl(*args, "--store", trial)
        assert again.returncode == 0, again.stderr
        assert {u: _state(open_store(trial), u) for u in ("u1", "u2")} == want, size
        if command == "forget":
            assert_absent(open_store(trial).dir, "Quillfeather")
    assert failed >= 2  # the limits do cut the command short


def test_compact_killed_at_every_commit_point_is_completed_by_running_it_again(tmp_path, monkeypatch):
    """kill at each write of a compaction, then compact again: the same active memories as a
    compaction never interrupted, each merge done once, the store's audit clean."""
    from conftest import FAKE_MODEL, seed
    from memctl import init_store, open_store

    def build(root):
        s = init_store(root, model=FAKE_MODEL)
        seed(s, "u1", [("preference", "User loves green tea in the morning"), ("preference", "User loves green tea in the morning."),
                       ("profile", "User lives in Lisbon"), ("behavior", "User runs every Sunday"),
                       ("behavior", "User runs every Sunday.")])
        return s

    def facts(s):  # which of two equal wordings represents a merge is a tie broken by random ids
        return sorted(m.content.rstrip(".") for m in s.memories("u1"))

    clean = build(tmp_path / "clean")
    clean.compact()
    expected = facts(clean)
    commits = 0
    while True:
        store = build(tmp_path / f"k{commits}")
        with monkeypatch.context() as m:
            _kill_after(m, commits)
            try:
                store.compact()
                finished = True
            except _Killed:
                finished = False
        again = open_store(store.dir)
        again.compact()
        assert facts(again) == expected, commits
        assert not again.audit().failures, commits
        merged = [e for e in again.db.rows("events", columns=["kind", "memory_id"]) if e["kind"] == "merged"]
        assert len(merged) == len({e["memory_id"] for e in merged}), commits
        if finished:
            break
        commits += 1
    assert commits >= 2


def _malformed(rng):
    """One malformed conversation file (bytes, suffix): a valid document broken one way."""
    good = {"user": "u1", "session": "s1", "time": "2026-11-02T10:00:00+00:00",
            "messages": [{"role": "user", "content": "I live in Berlin.", "id": "t1"},
                         {"role": "assistant", "content": "Nice."}]}
    kind = rng.randrange(14)
    doc = json.loads(json.dumps(good))
    if kind == 0:
        text = json.dumps(good)[: rng.randrange(1, 60)]  # cut short
    elif kind == 1:
        if rng.random() < 0.5:
            doc["user"] = rng.choice([7, True, None, [], {}, "", "bad user!", "x" * 200])
        else:
            doc["session"] = rng.choice([7, True, [], {}])
        text = json.dumps(doc)
    elif kind == 2:
        doc["messages"] = rng.choice([{}, "hi", 5, None, True])
        text = json.dumps(doc)
    elif kind == 3:
        doc["messages"][0]["role"] = rng.choice(["robot", 1, None, "", "USER!"])
        text = json.dumps(doc)
    elif kind == 4:
        doc["messages"][0]["content"] = rng.choice([5, True, {"a": 1}, [1, 2], 3.5])
        text = json.dumps(doc)
    elif kind == 5:
        doc["messages"][0]["time"] = rng.choice(["yesterday", "2026-13-01", "0001-01-01T00:00:00+14:00",
                                                  "9999-12-31T20:00:00-05:00", 12, "2026-02-30T10:00:00"])
        text = json.dumps(doc)
    elif kind == 6:
        doc["time"] = rng.choice(["not a time", "1200-01-01", 3, "2026-11-02T25:00:00"])
        text = json.dumps(doc)
    elif kind == 7:
        text = '{"user": "u1", "messages": ' + "[" * rng.randrange(100, 3000) + "]" * 10
    elif kind == 8:
        text = json.dumps(doc).replace("Berlin", "\\ud800" + "Berlin")
    elif kind == 9:
        text = json.dumps(doc).replace('"t1"', "1" * rng.randrange(4400, 6000))
    elif kind == 10:
        doc["messages"][0]["id"] = rng.choice([True, False, [1], {"x": 1}, 1.5])
        text = json.dumps(doc)
    elif kind == 11:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(10, 200))) + b"\x00", ".json"
    elif kind == 12:
        text = "\n".join(json.dumps({"user": "u1", "role": "user", "content": "hi"}) for _ in range(3)) + "\n{broken"
        return text.encode("utf-8"), ".jsonl"
    else:
        text = rng.choice(["", "   ", "[]", "{}", "null", "42", '"just a string"', "[1, 2, 3]"])
    return text.encode("utf-8", "surrogatepass"), ".json"


def test_generated_malformed_inputs_exit_2_and_leave_the_store_untouched(cli, store, tmp_path):
    """320 malformed files (seeded, so every run tries the same ones): exit 2 with one line
    naming the file, no traceback, the store byte-identical."""
    import random

    from conftest import snapshot

    write_json(tmp_path / "ok.json", conversation("u1", "s1", "I love green tea."))
    assert cli("ingest", tmp_path / "ok.json", "--store", store.dir).code == 0
    before = snapshot(store.dir)
    rng = random.Random(20261130)
    for n in range(320):
        data, suffix = _malformed(rng)
        path = tmp_path / f"bad{n}{suffix}"
        path.write_bytes(data)
        r = cli("ingest", path, "--store", store.dir)
        assert r.code == 2, (n, data[:120], r.err)
        assert r.err.startswith("memctl: error: ") and r.err.count("\n") == 1 and f"bad{n}" in r.err, (n, r.err)
        assert "unexpected" not in r.err and "Traceback" not in r.err, (n, r.err)
    assert snapshot(store.dir) == before


def test_audit_check_fails_on_a_data_file_cut_short(cli, store, tmp_path):
    """A file of the store cut short behind memctl's back (a full disk under another tool, a
    bad copy): `audit --check` names it and exits 1."""
    write_json(tmp_path / "a.json", conversation("u1", "s1", "I live in Berlin.", "I love green tea."))
    store.ingest([str(tmp_path / "a.json")])
    assert cli("audit", "--check", "--store", store.dir).code == 0
    data = sorted((store.dir / "db" / "memories.lance" / "data").glob("*.lance"))[-1]
    data.write_bytes(data.read_bytes()[:-100])
    r = cli("audit", "--check", "--json", "--store", store.dir)
    assert r.code == 1 and r.out == "" and r.err.count("\n") == 1, r.err
    assert "1 data file(s) not on disk whole" in r.err and data.name in r.err, r.err
