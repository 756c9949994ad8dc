"""Extraction in a second process (a big ingest): the same results as in this one, and an
ingest that goes on when the child cannot start or stops."""

from __future__ import annotations

import sys
from datetime import datetime, timezone

import pytest

from conftest import FAKE_MODEL, SAMPLES
from memctl.config import ConfigError, config_from_dict
from memctl.conversations import Conversation, Turn, clean, read_sources
from memctl.extract import extract, load_rules
from memctl.extract import worker
from memctl.extract.worker import Extractor

RULES = load_rules(None)
OPTIONS = {"keep_tasks": True, "task_ttl_days": 14, "infer": True, "min_importance": 0.0}


def _pairs():
    convs = read_sources([str(SAMPLES)])
    assert len(convs) >= 4
    return [(c, clean(c)) for c in convs]


def _seen(extractions):
    return [([repr(i) for i in ex.items], [repr(d) for d in ex.dropped], [repr(t) for t in ex.turns], ex.secrets_blocked)
            for ex in extractions]


def test_the_child_extracts_what_this_process_does_and_serves_every_unit():
    pairs = _pairs()
    here = [extract(c, t, rules=RULES, **OPTIONS) for c, t in pairs]
    with Extractor(RULES, None, OPTIONS, use_process=True) as ex:
        first = list(ex.run(pairs[:2]))
        child = ex._proc
        rest = list(ex.run(pairs[2:]))
        assert ex._proc is child and child is not None  # one child for the whole ingest
    assert child.returncode == 0  # closing the pipe ended it
    assert _seen(first + rest) == _seen(here)
    assert ex.warnings == []


def test_an_ingest_cut_short_stops_the_child():
    # The caller stops after the first result (an error in its own work): leaving the
    # extractor ends the child, which had more to say and was not asked for it.
    pairs = _pairs() * 20
    with Extractor(RULES, None, OPTIONS, use_process=True) as ex:
        results = ex.run(pairs)
        next(results)
        child = ex._proc
    assert child is not None and child.returncode is not None
    assert ex._proc is None and ex.warnings == []


def test_a_child_that_cannot_start_leaves_the_work_to_this_process(monkeypatch):
    monkeypatch.setattr(worker, "_command", lambda: ["/nonexistent/python3"])
    pairs = _pairs()
    with Extractor(RULES, None, OPTIONS, use_process=True) as ex:
        got = list(ex.run(pairs))
    assert _seen(got) == _seen(extract(c, t, rules=RULES, **OPTIONS) for c, t in pairs)
    assert len(ex.warnings) == 1 and "could not start" in ex.warnings[0]


def test_a_child_that_stops_leaves_the_rest_to_this_process(monkeypatch):
    # A child that reads its first message and exits, answering nothing.
    monkeypatch.setattr(worker, "_command", lambda: [sys.executable, "-c", "import sys; sys.stdin.buffer.read(1); sys.exit(3)"])
    pairs = _pairs()
    with Extractor(RULES, None, OPTIONS, use_process=True) as ex:
        got = list(ex.run(pairs))
        assert ex._proc is None
        assert _seen(ex.run(pairs[:1])) == _seen(got[:1])  # not started again
    assert _seen(got) == _seen(extract(c, t, rules=RULES, **OPTIONS) for c, t in pairs)
    assert ex.warnings == ["extraction worker stopped (exit code 3); the rest was extracted in this process"]


def test_an_error_in_the_child_is_raised_here_as_it_would_be_in_one_process():
    when = datetime(2026, 11, 1, tzinfo=timezone.utc)
    bad = Conversation("u", "s", when, [Turn("t1", "user", None)])  # type: ignore[arg-type]
    with pytest.raises(Exception) as here:
        extract(bad, bad.turns, rules=RULES, **OPTIONS)
    with Extractor(RULES, None, OPTIONS, use_process=True) as ex:
        with pytest.raises(type(here.value)):
            list(ex.run([(bad, bad.turns)]))
    assert ex.warnings == []  # raised from the child's answer, not by this process taking over


def test_an_ingest_through_the_child_stores_what_one_in_process_does(tmp_path):
    from memctl import init_store

    stores = {}
    for name, turns in (("here", 0), ("child", 1)):
        store = init_store(tmp_path / name, model=FAKE_MODEL)
        store.config.ingest.worker_turns = turns
        report = store.ingest([str(SAMPLES)])
        assert report.warnings == []
        stores[name] = (sorted(store.db.to_table("memories", columns=["user_id", "content", "type", "status"]).to_pylist(),
                               key=repr),
                        sorted(store.db.to_table("episodes", columns=["turn_key", "content"]).to_pylist(), key=repr),
                        (report.added, report.episodes, report.turns))
    assert stores["child"] == stores["here"]
    assert stores["here"][0]


def test_the_setting_is_checked():
    assert config_from_dict({"ingest": {"worker_turns": 0}}).ingest.worker_turns == 0
    with pytest.raises(ConfigError, match="ingest.worker_turns"):
        config_from_dict({"ingest": {"worker_turns": -1}})
