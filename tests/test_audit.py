"""audit and diff: health figures and --check, one memory's trace, version chains with
word diffs, and what changed in the store between two points."""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta, timezone

import pytest

from conftest import conversation, seed, write_json
from memctl import MemoryStore
from memctl.errors import UsageError
from memctl.history import parse_point, word_diff
from memctl.results import Point

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)

DUPLICATES = [("preference", "User likes short answers with code first"),
              ("preference", "User likes short answers with the code first"),
              ("preference", "用户喜欢简短的回答，先给代码"),
              ("preference", "用户喜欢简短的回答，先给代码。"),
              ("preference", "User likes hiking in the Alps")]


def _at(store, when=NOW):
    return MemoryStore(store.dir, clock=lambda: when)


def _corrected(tmp_path, store):
    write_json(tmp_path / "s1.json", conversation("u1", "s1", "我不吃海鲜，也对花生过敏。", time="2026-11-01T10:00:00+08:00"))
    write_json(tmp_path / "s2.json", conversation("u1", "s2", "其实我只是不吃带壳的海鲜，鱼可以吃。", time="2026-11-08T10:00:00+08:00"))
    store.ingest([str(tmp_path / "s1.json")])
    store.ingest([str(tmp_path / "s2.json")])
    return next(m for m in store.memories("u1") if "海鲜" in m.content)


def test_word_diff_is_by_word_in_english_and_by_character_in_chinese():
    ops = word_diff("User lives in Paris", "User lives in Berlin now")
    assert ops == [{"op": "equal", "text": "User lives in "}, {"op": "delete", "text": "Paris"},
                   {"op": "insert", "text": "Berlin now"}]
    ops = word_diff("用户不吃海鲜", "用户只是不吃带壳的海鲜")
    assert [o for o in ops if o["op"] != "equal"] == [{"op": "insert", "text": "只是"}, {"op": "insert", "text": "带壳的"}]
    assert "".join(o["text"] for o in ops if o["op"] != "delete") == "用户只是不吃带壳的海鲜"


def test_diff_of_a_correction_lists_both_versions_with_cause_and_older_content(tmp_path, store, cli):
    current = _corrected(tmp_path, store)
    r = cli("diff", current.id, "--json", "--store", store.dir)
    assert r.code == 0, r.err
    steps = r.json()["steps"]
    assert [s["version"] for s in steps] == [1, 2]
    assert steps[0]["cause"] == "ingest" and steps[0]["content"] == "用户不吃海鲜" and steps[0]["status"] == "superseded"
    assert steps[1]["cause"] == "correction" and steps[1]["previous_content"] == "用户不吃海鲜"
    assert steps[1]["said_at"].startswith("2026-11-08") and steps[0]["said_at"].startswith("2026-11-01")
    assert {"op": "insert", "text": "带壳的"} in steps[1]["diff"]
    # The chain id names the same history; the table shows the edit without colour.
    assert cli("diff", current.chain_id, "--json", "--store", store.dir).json() == r.json()
    table = cli("diff", current.id, "--table", "--store", store.dir)
    assert table.code == 0 and "correction" in table.out and "{+带壳的+}" in table.out


def test_diff_since_lists_each_merge_with_its_members(store, cli):
    members = seed(store, "u1", DUPLICATES)
    seed(store, "u2", [("behavior", "User runs 5 km every morning"), ("behavior", "User runs 5 km every morning.")])
    before = datetime.now(timezone.utc)
    time.sleep(0.01)
    report = store.compact()
    assert len(report.merges) == 3
    r = cli("diff", "--since", before.isoformat(), "--json", "--store", store.dir)
    assert r.code == 0, r.err
    merges = [c for c in r.json()["changes"] if c["kind"] == "merged"]
    assert len(merges) == 3 and r.json()["counts"]["merged"] == 3
    expected = {frozenset(m.id for m in g.members) for g in report.merges}
    assert {frozenset(x["id"] for x in c["detail"]["members"]) for c in merges} == expected
    for c in merges:
        assert all(x["content"] for x in c["detail"]["members"]) and c["content"]
    # Narrowed to a user; a range that ends before the compaction shows nothing.
    assert {c["user"] for c in cli("diff", "--since", before.isoformat(), "--user", "u2", "--json",
                                   "--store", store.dir).json()["changes"]} == {"u2"}
    assert cli("diff", "--since", "1h", "--to", before.isoformat(), "--json", "--store", store.dir).json()["changes"] \
        == [c for c in cli("diff", "--since", "1h", "--json", "--store", store.dir).json()["changes"] if c["kind"] != "merged"] \
        == []
    # Every merged member's own history ends in the merge (in its chain or another's).
    merged_ids = {g.merged.id for g in report.merges}
    for m in members[:4]:
        last = store.history(m.id).to_dict()["steps"][-1]
        assert last["cause"] == "merge" and last["id"] in merged_ids
        assert m.id in {x["id"] for x in last["detail"].get("merged_from", [])} | set(last["detail"].get("members", []))
    table = cli("diff", "--since", before.isoformat(), "--table", "--store", store.dir)
    assert table.code == 0 and "merged" in table.out and members[0].id in table.out


def test_diff_between_store_versions(tmp_path, store):
    write_json(tmp_path / "a.json", conversation("u1", "s1", "I am allergic to peanuts."))
    first = store.ingest([str(tmp_path / "a.json")]).store_version
    write_json(tmp_path / "b.json", conversation("u1", "s2", "I live in Berlin."))
    second = store.ingest([str(tmp_path / "b.json")]).store_version
    d = store.diff(Point(version=first), Point(version=second)).to_dict()
    assert [c["content"] for c in d["changes"]] == ["User lives in Berlin"]
    assert d["from"] == f"version {first}" and d["to"] == f"version {second}"
    everything = store.diff(Point(version=0)).to_dict()
    assert everything["counts"] == {"added": 2}


def test_forgotten_memories_show_as_id_and_time_only(tmp_path, store, cli):
    write_json(tmp_path / "a.json", conversation("u1", "s1", "I live at 12 Rosegarden Lane.", "I am allergic to peanuts."))
    store.ingest([str(tmp_path / "a.json")])
    address = next(m for m in store.memories("u1") if "Rosegarden" in m.content)
    store.forget(ids=[address.id])
    out = cli("diff", "--since", "1d", "--json", "--store", store.dir)
    assert out.code == 0 and "Rosegarden" not in out.out
    gone = [c for c in out.json()["changes"] if c["id"] == address.id]
    assert {c["kind"] for c in gone} == {"added", "forgotten"} and all(c["content"] is None for c in gone)
    assert "Rosegarden" not in cli("diff", "--since", "1d", "--store", store.dir).out


def test_audit_check_fails_on_duplicates_and_passes_after_compact(store, cli):
    seed(store, "u1", DUPLICATES)
    r = cli("audit", "--check", "--json", "--store", store.dir)
    assert r.code == 1 and "near_duplicate_pairs 2 > 0" in r.err and r.err.count("\n") == 1
    health = r.json()["health"]
    assert health["near_duplicate_pairs"]["value"] == 2 and health["near_duplicate_pairs"]["failed"]
    assert r.json()["failed"] == ["near_duplicate_pairs"]
    assert cli("audit", "--store", store.dir).code == 0  # without --check: a report, not a verdict
    store.compact()
    ok = cli("audit", "--check", "--json", "--store", store.dir)
    assert ok.code == 0, ok.err
    assert ok.json()["health"]["near_duplicate_pairs"]["value"] == 0


def test_audit_counts_and_store_facts(tmp_path, store):
    _corrected(tmp_path, store)
    seed(store, "u2", [("behavior", "User runs every morning")])
    report = store.audit().to_dict()
    counts = report["counts"]
    assert counts["users"] == 2 and counts["by_status"] == {"active": 3, "superseded": 1}
    assert counts["by_user"]["u1"] == {"active": 2, "superseded": 1} and counts["by_type"]["behavior"] == {"active": 1}
    facts = report["store"]
    assert facts["model"] == store.meta["model"] and facts["dim"] == int(store.meta["dim"]) and facts["schema_version"] >= 1
    assert facts["tables"]["memories"]["rows"] == 4 and facts["tables"]["memories"]["version"] >= 1 and facts["bytes"] > 0
    mine = store.audit("u2").to_dict()["counts"]
    assert mine["users"] == 1 and mine["memories"] == 1


def test_health_figures_expired_stale_noise_and_low_confidence(store):
    old = NOW - timedelta(days=200)
    goal, task, fact = seed(store, "u1", [("goal", "User wants to run a marathon", old), ("task", "User flies to Tokyo", NOW),
                                          ("profile", "User is a nurse", old)])
    rows = {m.id: m for m in store.core.read_memories("user_id = 'u1'", with_vectors=True)}
    rows[goal.id].valid_to = NOW - timedelta(days=1)
    rows[fact.id].source_type, rows[fact.id].confidence, rows[fact.id].importance = "inferred", 0.4, 0.2
    with store.lock.hold():
        store.db.upsert("memories", [rows[goal.id].to_row(), rows[fact.id].to_row()], "id")
    report = _at(store).audit()
    assert report.figure("expired_active").examples == [goal.id] and report.figure("expired_active").failed
    assert report.figure("stale").value == 2 and task.id not in report.figure("stale").examples
    assert report.figure("low_confidence_inferred").examples == [fact.id]
    assert report.figure("noise_ratio").value == pytest.approx(1 / 3, abs=1e-3)
    # A recall (still in the spool) makes the fact neither stale nor noise.
    _at(store).recall("nurse", "u1")
    report = _at(store).audit()
    assert fact.id not in report.figure("stale").examples and report.figure("noise_ratio").value == 0
    assert report.counts["recalls_pending"] >= 1


def test_secrets_in_stored_text_are_found_and_fail_the_check(store, cli):
    (planted,) = seed(store, "u1", [("profile", "User's api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123")])
    seed(store, "u1", [("profile", "User changed the password"), ("profile", "is about the weekend plans")])
    report = store.audit()
    assert report.figure("secrets").value == 2  # the content and its source clause
    assert report.figure("secrets").examples == [planted.id]
    r = cli("audit", "--check", "--store", store.dir)
    assert r.code == 1 and "secrets" in r.err


def test_audit_reports_a_model_mismatch_instead_of_refusing(store, cli):
    path = store.dir / "memctl.toml"
    path.write_text(path.read_text().replace(f'model = "{store.meta["model"]}"', 'model = "use-multilingual-v3"'))
    r = cli("audit", "--check", "--json", "--store", store.dir)
    assert r.code == 1 and r.json()["health"]["model_mismatch"]["value"] == 1 and "model_mismatch" in r.err


def test_trace_shows_sources_versions_and_recalls(tmp_path, store, cli):
    current = _corrected(tmp_path, store)
    _at(store).recall("海鲜", "u1")
    _at(store).recall("吃鱼吗", "u1")
    r = cli("audit", "--id", current.id, "--json", "--store", store.dir)
    assert r.code == 0, r.err
    d = r.json()
    assert d["memory"]["id"] == current.id
    assert d["sources"] == [{"session": "s2", "turn": "t1", "time": "2026-11-08T02:00:00Z", "clause": "其实我只是不吃带壳的海鲜，鱼可以吃"}]
    assert [(v["version"], v["cause"]) for v in d["chain"]] == [(1, "ingest"), (2, "correction")]
    assert d["recall_count"] == 2 and len(d["recalled_at"]) == 2
    assert {e["kind"] for e in d["events"]} >= {"ingested", "superseded"}
    # Folded into the table by the next write, the history is the same.
    write_json(tmp_path / "s3.json", conversation("u1", "s3", "I like jazz."))
    store.ingest([str(tmp_path / "s3.json")])
    again = cli("audit", "--id", current.id, "--json", "--store", store.dir).json()
    assert again["recall_count"] == 2 and len(again["recalled_at"]) == 2
    table = cli("audit", "--id", current.id, "--table", "--store", store.dir)
    assert table.code == 0 and "其实我只是不吃带壳的海鲜" in table.out and "correction" in table.out


@pytest.mark.parametrize("args", [
    ["diff"], ["diff", "x", "--since", "1d"], ["diff", "--since", "1d", "--from", "2"], ["diff", "--since", "yesterday"],
    ["audit", "--id", "x", "--check"], ["audit", "--user", "bad user!"],
])
def test_bad_usage_exits_2_with_one_line(store, cli, args):
    r = cli(*args, "--store", store.dir)
    assert r.code == 2 and r.err.count("\n") == 1 and r.err.startswith("memctl: error:")


def test_unknown_ids_exit_1(store, cli):
    for args in (["diff", "nope"], ["audit", "--id", "nope"]):
        r = cli(*args, "--store", store.dir)
        assert r.code == 1 and "nope" in r.err


def test_points_parse_versions_times_and_ages():
    assert parse_point("12", "--from", NOW) == Point(version=12)
    assert parse_point("24h", "--since", NOW) == Point(time=NOW - timedelta(hours=24))
    assert parse_point("2026-11-01", "--since", NOW).time == datetime(2026, 11, 1, tzinfo=timezone.utc)
    with pytest.raises(UsageError):
        parse_point("last tuesday", "--since", NOW)


def test_audit_and_diff_json_field_names_are_stable(tmp_path, store):
    """The documented JSON shapes (README): renaming a field breaks scripts."""
    current = _corrected(tmp_path, store)
    a = store.audit().to_dict()
    assert set(a) == {"user", "store", "counts", "health", "failed", "seconds"}
    assert set(a["health"]) == {"near_duplicate_pairs", "contradicting_pairs", "stale", "expired_active",
                                "low_confidence_inferred", "noise_ratio", "secrets", "model_mismatch", "damaged_files"}
    assert set(a["health"]["stale"]) == {"name", "value", "limit", "failed", "meaning", "examples"}
    h = store.history(current.id).to_dict()
    assert set(h["steps"][0]) == {"cause", "time", "said_at", "id", "version", "status", "content", "previous_content",
                                  "diff", "store_version", "detail"}
    d = store.diff(Point(version=0)).to_dict()
    assert set(d) == {"from", "to", "user", "counts", "episodes", "changes"}
    assert set(d["changes"][0]) == {"kind", "time", "store_version", "user", "id", "content", "detail"}
    json.dumps([a, h, d])


def test_the_joined_secret_scan_finds_exactly_what_a_text_by_text_scan_finds(store, monkeypatch):
    """Texts are scanned in joined chunks for speed; the count must equal a scan of each text."""
    import memctl.audit as audit_module
    from memctl.extract import load_rules
    from memctl.extract.secrets import find_secrets

    texts = ["User changed the password", "is hunter2 and my password is abc12345", "4111 1111",
             "1111 1111 is a number", "User likes tea", "-----BEGIN RSA PRIVATE KEY-----", "MIIEow xyz",
             "密码", "是abc123", "User's token: ghp_16C7e42F292c6912E7710c838347Ae178B4a"]
    seeded = seed(store, "u1", [("profile", t) for t in texts])
    rules = load_rules()
    expected = {m.id for m in seeded if find_secrets(m.content, rules)}
    for size in (1, 3, 1000):
        monkeypatch.setattr(audit_module, "_SCAN_CHUNK", size)
        figure = store.audit().figure("secrets")
        assert set(figure.examples) == expected and figure.value == 2 * len(expected)  # content + source clause


def test_stored_text_that_looks_like_markup_is_shown_as_is(store, cli):
    text = "User marks todo items with [/] and [bold]x[/bold] in notes"
    a, _b = seed(store, "u1", [("preference", text), ("preference", text + ".")])
    assert cli("compact", "--store", store.dir).code == 0
    for args in (["audit", "--id", a.id], ["diff", a.id], ["diff", "--since", "1d"], ["recall", "todo notes", "--user", "u1"],
                 ["audit"]):
        r = cli(*args, "--table", "--store", store.dir)
        assert r.code == 0, (args, r.err)
        if args[0] != "audit" or len(args) > 1:
            assert "[/] and [bold]x[/bold]" in r.out, args


@pytest.mark.parametrize("args", [
    ["--since", "1h", "--to", "2h"], ["--from", "5", "--to", "2"], ["--from", "999"], ["--since", "99999999999999999999"],
    ["--since", "100000000d"],
])
def test_impossible_ranges_exit_2(tmp_path, store, cli, args):
    write_json(tmp_path / "a.json", conversation("u1", "s1", "I am allergic to peanuts."))
    store.ingest([str(tmp_path / "a.json")])
    r = cli("diff", *args, "--store", store.dir)
    assert r.code == 2 and r.err.count("\n") == 1 and "unexpected" not in r.err, r.err


def test_a_compact_date_is_a_time_and_naive_times_are_utc(tmp_path, store, monkeypatch):
    assert parse_point("20261129", "--since", NOW).time == datetime(2026, 11, 29, tzinfo=timezone.utc)
    write_json(tmp_path / "a.json", conversation("u1", "s1", "I am allergic to peanuts."))
    store.ingest([str(tmp_path / "a.json")])
    written = datetime.now(timezone.utc)
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    try:
        naive = (written - timedelta(minutes=5)).replace(tzinfo=None)
        assert store.diff(Point(time=naive)).counts() == {"added": 1}
        assert store.diff(Point(time=naive + timedelta(minutes=10))).counts() == {}
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_bad_audit_settings_are_refused_with_one_line(store, cli):
    path = store.dir / "memctl.toml"
    original = path.read_text()
    for bad in ("stale_days = 100000000", "stale_days = -5", "max_secrets = -1"):
        path.write_text(original.replace("stale_days = 90", bad) if "stale" in bad else original.replace("max_secrets = 0", bad))
        r = cli("audit", "--store", store.dir)
        assert r.code != 0 and r.err.count("\n") == 1 and "unexpected" not in r.err, (bad, r.err)


def test_pending_recalls_are_counted_for_the_audited_user_only(store):
    seed(store, "u1", [("profile", "User is a nurse")])
    seed(store, "u2", [("profile", "User is a pilot")])
    store.recall("nurse", "u1")
    store.recall("a nurse", "u1")
    store.recall("pilot", "u2")
    assert store.audit("u2").counts["recalls_pending"] == 1
    assert store.audit("u1").counts["recalls_pending"] == 2
    assert store.audit().counts["recalls_pending"] == 3


def test_a_merged_memory_keeps_its_members_recall_history(store):
    a, b = seed(store, "u1", [("preference", "User likes short answers with code first"),
                              ("preference", "User likes short answers with the code first")])
    store.recall("short answers", "u1")  # both members, still in the spool when compact runs
    report = store.compact()
    merged = report.merges[0].merged
    assert store.get(merged.id).recall_count == 2
    t = store.trace(merged.id).to_dict()
    assert t["recall_count"] == 2 and len(t["recalled_at"]) == 1 and t["recalled_at"][0].endswith("Z")
    assert {m["id"] for m in t["merged_from"]} == {a.id, b.id}


def test_forgotten_versions_and_members_show_by_id_only(tmp_path, store, cli):
    current = _corrected(tmp_path, store)
    old_id = store.chain(current.chain_id)[0].id
    store.forget(ids=[current.id])
    steps = cli("diff", old_id, "--json", "--store", store.dir).json()["steps"]
    assert steps[-1]["cause"] == "forget" and steps[-1]["id"] == current.id and steps[-1]["content"] is None
    assert steps[-1]["version"] == 2 and "带壳" not in json.dumps(steps)
    table = cli("diff", old_id, "--table", "--store", store.dir)
    assert table.code == 0 and "(forgotten)" in table.out and "带壳" not in table.out
    # A merge whose member is forgotten afterwards lists the member's id only.
    a, b = seed(store, "u9", [("preference", "User likes green tea in the morning"),
                              ("preference", "User likes green tea in the morning.")])
    merged = store.compact().merges[0].merged
    store.forget(ids=[a.id])
    t = cli("audit", "--id", merged.id, "--json", "--store", store.dir).json()
    assert {"id": a.id, "content": "", "status": "forgotten"} in t["merged_from"]
    assert cli("audit", "--id", merged.id, "--store", store.dir).code == 0


def test_audit_survives_a_compaction_running_meanwhile(store):
    """Audit takes no lock: compactions deleting old table versions under it make it
    start again on the new version, never fail. The writer runs for as long as the
    audits do, however fast either side is."""
    import threading

    seed(store, "u1", [("behavior", f"User walks {n} km every day") for n in range(40)])
    done = threading.Event()
    errors: list[BaseException] = []
    compactions = []

    def writer() -> None:
        try:
            n = 0
            while not done.is_set() and n < 200:
                seed(store, "u1", [("preference", f"User likes tea number {n}"), ("preference", f"User likes tea number {n}.")])
                store.compact(wait=True)
                compactions.append(n)
                n += 1
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for _ in range(5):
            store.audit()
    finally:
        done.set()
        thread.join()
    assert not errors


def test_audit_reads_again_when_a_writer_removed_its_table_version(store, monkeypatch):
    """The retry itself, without timing: the first read is pinned to versions that a
    compaction has already deleted."""
    import memctl.audit as audit_module

    seed(store, "u1", [("preference", "User likes green tea"), ("preference", "User likes green tea.")])
    stale = {n: store.db.version(n) for n in audit_module._TABLES}
    store.compact()
    real, pins = audit_module._audit, []

    def first_read_stale(core, user, pinned):
        pins.append(pinned)
        return real(core, user, stale if len(pins) == 1 else pinned)

    monkeypatch.setattr(audit_module, "_audit", first_read_stale)
    report = audit_module.audit(store.core)
    assert len(pins) == 2 and report.counts["memories"] == 3
