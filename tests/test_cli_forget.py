from __future__ import annotations

import pytest

from conftest import assert_absent, conversation, write_json


@pytest.fixture
def loaded(cli, store_dir, tmp_path):
    write_json(tmp_path / "a.json", conversation("u1", "s1", "I live at 12 Baker Street.", "I'm allergic to peanuts."))
    write_json(tmp_path / "b.json", conversation("u2", "s1", "I work as a nurse.", "I love opera."))
    assert cli("ingest", tmp_path / "a.json", tmp_path / "b.json", "--store", store_dir).code == 0
    return store_dir


def _id(cli, store_dir, user, word):
    rows = cli("recall", word, "--user", user, "--json", "--store", store_dir).json()
    return next(r for r in rows if word in r["content"])


@pytest.mark.parametrize("selector", ["id", "chain", "user", "type", "query"])
def test_each_selector(cli, loaded, selector):
    target = _id(cli, loaded, "u1", "Baker")
    args = {
        "id": ["--id", target["id"]],
        "chain": ["--chain", target["chain_id"]],
        "user": ["--user", "u1"],
        "type": ["--user", "u1", "--type", target["type"]],
        "query": ["--user", "u1", "--query", "Baker Street"],
    }[selector]
    dry = cli("forget", *args, "--dry-run", "--json", "--store", loaded)
    assert dry.code == 0 and any("Baker" in m["content"] for m in dry.json()["memories"])
    done = cli("forget", *args, "--yes", "--json", "--store", loaded)
    assert done.code == 0, done.err
    data = done.json()
    assert data["count"] >= 1 and all("content" not in m for m in data["memories"])
    assert "Baker" not in str(data["memories"])  # what is forgotten is not printed
    assert_absent(loaded, "Baker")
    assert cli("recall", "nurse", "--user", "u2", "--json", "--store", loaded).json()


def test_confirmation_and_errors(cli, loaded):
    unconfirmed = cli("forget", "--user", "u1", "--store", loaded)
    assert unconfirmed.code == 2 and "--yes" in unconfirmed.err
    assert cli("recall", "Baker", "--user", "u1", "--json", "--store", loaded).json()
    nothing = cli("forget", "--store", loaded)
    assert nothing.code == 2 and "--user" in nothing.err
    missing = cli("forget", "--id", "0000000000000000", "--yes", "--store", loaded)
    assert missing.code == 1 and "no memory or episode with id" in missing.err
    mixed = cli("forget", "--id", "x", "--user", "u1", "--yes", "--store", loaded)
    assert mixed.code == 2
    none = cli("forget", "--user", "u1", "--query", "quantum chromodynamics", "--yes", "--store", loaded)
    assert none.code == 0 and "Nothing to forget" in none.err and none.out == ""
