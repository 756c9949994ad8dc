"""With the real models (marked `integration`; they run in CI too)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import SAMPLES, conversation, write_json

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def use_store(tmp_path_factory):
    from memctl import init_store

    s = init_store(tmp_path_factory.mktemp("use"))  # the default model
    s.ingest([str(SAMPLES)])
    return s


def test_default_model_is_multilingual_use(use_store):
    assert use_store.meta["model"] == "use-multilingual-v3" and use_store.meta["dim"] == "512"


def test_travel_acceptance_with_the_real_model(use_store):
    top = [h.memory for h in use_store.recall("帮我推荐三亚的餐厅", "xiaolin").hits[:5]]
    assert any("海鲜" in m.content for m in top) and any("花生" in m.content for m in top)
    for other in ("sam", "kai"):
        assert all(h.memory.user_id == other for h in use_store.recall("帮我推荐三亚的餐厅", other).hits)


def test_cross_language_recall(use_store, tmp_path):
    write_json(tmp_path / "x.json", conversation("bi", "s", "I'm allergic to peanuts.", "我每天早上跑步。"))
    use_store.ingest([str(tmp_path / "x.json")])
    zh_to_en = [h.memory.content for h in use_store.recall("我对什么过敏？下午茶吃什么好", "bi").hits]
    en_to_zh = [h.memory.content for h in use_store.recall("what exercise does the user do in the morning", "bi").hits]
    assert zh_to_en and "peanut" in zh_to_en[0]
    assert en_to_zh and "跑步" in en_to_zh[0]


def test_cli_recall_in_a_fresh_process(use_store):
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    out = subprocess.run(
        [sys.executable, "-m", "memctl", "recall", "花生", "--user", "xiaolin", "--json", "--store", str(use_store.dir)],
        capture_output=True, text=True, env=env, check=True,
    ).stdout
    assert "花生" in json.loads(out)[0]["content"]


def test_sentence_transformers_minilm_offline(tmp_path):
    pytest.importorskip("sentence_transformers")
    from memctl import init_store

    s = init_store(tmp_path / "st", model="all-MiniLM-L6-v2")
    assert s.meta["dim"] == "384"
    write_json(tmp_path / "c.json", conversation("u", "s", "I'm allergic to peanuts.", "I work as a nurse."))
    s.ingest([str(tmp_path / "c.json")])
    hits = s.recall("which foods should the user avoid?", "u").hits
    assert hits and "peanuts" in hits[0].memory.content
