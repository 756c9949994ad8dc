"""No secret is ever stored: not in memories, source turns, events or any file."""

from __future__ import annotations

import json
import random
import string

from conftest import assert_absent, write_json


def _luhn_number(rng: random.Random, prefix: str = "4") -> str:
    digits = [int(c) for c in prefix] + [rng.randrange(10) for _ in range(15 - len(prefix))]
    total = 0
    for i, d in enumerate(reversed(digits)):
        d = d * 2 if i % 2 == 0 else d
        total += d - 9 if d > 9 else d
    return "".join(map(str, digits)) + str((10 - total % 10) % 10)


def _cn_id(rng: random.Random) -> str:
    body = "110105" + f"{rng.randrange(1950, 2005)}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}" + f"{rng.randrange(1000):03d}"
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    return body + "10X98765432"[sum(int(c) * w for c, w in zip(body, weights)) % 11]


def _token(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def secrets_conversation(rng: random.Random, turns: int) -> tuple[dict, list[str]]:
    secrets, messages = [], []
    for i in range(turns):
        kind = i % 8
        if kind == 0:
            s = "sk-proj-" + _token(rng, 40)
            text = f"I'm a backend engineer, my OpenAI key is {s}"
        elif kind == 1:
            s = "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))
            text = f"我们用AWS部署，access key是{s}，帮我记一下"
        elif kind == 2:
            s = "ghp_" + _token(rng, 36)
            text = f"My GitHub token is {s} and I love Rust"
        elif kind == 3:
            s = _token(rng, 10) + "!9"
            text = f"remember my password is {s} please"
        elif kind == 4:
            s = _cn_id(rng)
            text = f"我的身份证号是{s}，我住在杭州"
        elif kind == 5:
            s = _luhn_number(rng)
            text = f"我的银行卡{s[:4]} {s[4:8]} {s[8:12]} {s[12:]}，我每天跑步"
            secrets.append(s[4:8] + " " + s[8:12])
        elif kind == 6:
            s = _token(rng, 48)
            text = f"-----BEGIN PRIVATE KEY-----\n{s}\n-----END PRIVATE KEY-----\nI always use vim"
        else:
            s = "xoxb-" + _token(rng, 24)
            text = f"our slack bot token: {s}, I prefer short answers"
        secrets.append(s)
        messages.append({"role": "user", "content": text, "id": f"t{i}"})
        messages.append({"role": "assistant", "content": "OK."})
    return {"user": "leaky", "session": "s", "time": "2026-11-01T10:00:00Z", "messages": messages}, secrets


def test_no_secret_anywhere_after_a_large_ingest(store, tmp_path):
    rng = random.Random(5)
    conv, secrets = secrets_conversation(rng, 2400)
    write_json(tmp_path / "leaky.json", conv)
    report = store.ingest([str(tmp_path / "leaky.json")])
    assert report.secrets_blocked >= 2400
    assert store.memories("leaky"), "the facts around the secrets are kept"
    with store.lock.hold():  # large files with compressed pages, as after a nightly compaction
        store.db.optimize("memories", purge=False)
        store.db.optimize("episodes", purge=False)
    assert_absent(store.dir, *secrets)
    # The ingest report prints nothing secret either.
    printed = json.dumps(report.to_dict(), ensure_ascii=False)
    assert not any(s in printed for s in secrets)
