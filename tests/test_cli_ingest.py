from __future__ import annotations

import json

import pytest

from conftest import SAMPLES, conversation, snapshot, write_json


def test_ingest_samples_then_again(cli, store_dir):
    first = cli("ingest", SAMPLES, "--store", store_dir, "--json")
    assert first.code == 0, first.err
    data = first.json()
    assert data["added"] > 0 and data["secrets_blocked"] >= 2
    again = cli("ingest", SAMPLES, "--store", store_dir, "--json").json()
    assert again["added"] == 0 and again["turns_new"] == 0


def test_table_output_and_dry_run_change_nothing(cli, store_dir, tmp_path):
    before = snapshot(store_dir)
    r = cli("ingest", SAMPLES / "travel_zh.json", "--store", store_dir, "--dry-run", "--table")
    assert r.code == 0 and "Would change" in r.out and "用户对花生过敏" in r.out
    assert snapshot(store_dir) == before


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_stdin(cli, store_dir, fmt):
    conv = conversation("u1", "s1", "I'm allergic to peanuts.")
    text = json.dumps(conv) if fmt == "json" else "\n".join(
        json.dumps({"user": "u1", "session": "s1", **m}) for m in conv["messages"]
    )
    r = cli("ingest", "-", "--format", fmt, "--store", store_dir, "--json", stdin=text)
    assert r.code == 0, r.err
    assert r.json()["added"] == 1


BAD_INPUTS = {
    "malformed.json": '{"user": "u", "session": "s", "messages": [',
    "wrongtype.json": '{"user": "u", "session": "s", "messages": [{"role": "user", "content": ["x"]}]}',
    "badrole.json": '{"user": "u", "session": "s", "messages": [{"role": "robot", "content": "x"}]}',
    "badline.jsonl": '{"user": "u", "session": "s", "role": "user", "content": "ok"}\nnot json\n',
}


@pytest.mark.parametrize("name", [*BAD_INPUTS, "binary.json", "missing.json"])
def test_bad_input_exits_2_names_the_file_and_leaves_the_store_unchanged(cli, store_dir, tmp_path, name):
    # A good file first, so there is something to protect.
    assert cli("ingest", SAMPLES / "travel_zh.json", "--store", store_dir).code == 0
    good = write_json(tmp_path / "good.json", conversation("u9", "s9", "I live in Oslo."))
    path = tmp_path / name
    if name in BAD_INPUTS:
        path.write_text(BAD_INPUTS[name], encoding="utf-8")
    elif name == "binary.json":
        path.write_bytes(bytes(range(256)))
    before = snapshot(store_dir)
    r = cli("ingest", good, path, "--store", store_dir)
    assert r.code == 2
    assert r.err.count("\n") == 1 and r.err.startswith("memctl: error:")
    assert name in r.err
    assert "Traceback" not in r.err and r.out == ""
    assert snapshot(store_dir) == before


def test_missing_user_for_transcript(cli, store_dir, tmp_path):
    p = tmp_path / "t.txt"
    p.write_text("user: I live in Oslo\n", encoding="utf-8")
    r = cli("ingest", p, "--store", store_dir)
    assert r.code == 2 and "--user" in r.err
    assert cli("ingest", p, "--store", store_dir, "--user", "u1").code == 0
