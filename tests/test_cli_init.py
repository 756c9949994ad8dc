from __future__ import annotations

from pathlib import Path

from conftest import FAKE_MODEL


def test_init_creates_store_and_prints_its_path(cli, tmp_path):
    r = cli("init", tmp_path / "p", "--model", FAKE_MODEL)
    assert r.code == 0
    assert Path(r.out.strip()) == (tmp_path / "p" / ".memctl").resolve() or (tmp_path / "p" / ".memctl").exists()
    assert (tmp_path / "p" / ".memctl" / "memctl.toml").is_file()


def test_init_twice_and_unknown_model(cli, tmp_path):
    assert cli("init", tmp_path / "p", "--model", FAKE_MODEL).code == 0
    again = cli("init", tmp_path / "p", "--model", FAKE_MODEL)
    assert again.code == 1 and "already holds" in again.err and again.err.count("\n") == 1
    bad = cli("init", tmp_path / "q", "--model", "nope")
    assert bad.code == 1 and "unknown embedding model" in bad.err


def test_no_store_says_to_run_init(cli):
    r = cli("recall", "x", "--user", "u")
    assert r.code == 1
    assert r.err.startswith("memctl: error:") and "memctl init" in r.err and r.err.count("\n") == 1


def test_reembed_command(cli, tmp_path):
    from conftest import SAMPLES

    assert cli("init", tmp_path / "p", "--model", FAKE_MODEL).code == 0
    store = tmp_path / "p" / ".memctl"
    assert cli("ingest", SAMPLES / "travel_zh.json", "--store", store).code == 0
    refused = cli("reembed", "--model", "nonsense", "--yes", "--store", store)
    assert refused.code == 1 and "unknown embedding model" in refused.err
    unconfirmed = cli("reembed", "--model", "use-multilingual-v3", "--store", store)
    assert unconfirmed.code == 2 and "--yes" in unconfirmed.err
    r = cli("reembed", "--model", "use-multilingual-v3", "--yes", "--json", "--store", store)
    assert r.code == 0, r.err
    assert r.json()["new_model"] == "use-multilingual-v3"
    assert cli("recall", "花生", "-u", "xiaolin", "--store", store).code == 0
