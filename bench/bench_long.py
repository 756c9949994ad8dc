"""Very long single user messages: extraction and ingest time should grow linearly.

One user message of 50 KB, 200 KB, 1 MB and 5 MB (characters) of each kind:
  en-chat      realistic English chat sentences, repeated with variation
  zh-chat      Chinese chat sentences
  word         one unbroken word (no spaces, no punctuation)
  zh-run       Chinese words without any punctuation
  en-run       English words without punctuation
  base64       one base64 token
  url          one URL-like token (a dotted host name, then a path)

Each message is extracted alone (`extract`) and ingested alone into a new store (the
hash embedder, no model), with ingest.max_message_chars set to 0 so the whole message
is taken in. The figure to watch is seconds per MB: flat from 50 KB to 5 MB means
linear. Run: `python bench/run.py long` (about five minutes), or
`python bench/bench_long.py [SIZE ...] [--kinds en-chat,word]` for a quick look.
"""

from __future__ import annotations

import argparse
import base64
import random
import string
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import table  # noqa: E402

SIZES = (50_000, 200_000, 1_000_000, 5_000_000)
WHEN = datetime(2026, 5, 1, 9, 0, tzinfo=timezone.utc)

# What a long message states is said again and again (kept once, then reinforced); the
# questions, requests and remarks around it vary. (A message that states thousands of
# different facts makes thousands of memories, each of which keeps its whole source
# turn: that cost is the size limit's to bound, see the README.)
_EN_FACTS = [
    "I'm a backend engineer at a small fintech startup in Berlin.",
    "My daughter Emma just started kindergarten last week, and she loves it.",
    "We usually go hiking on Sundays when the weather is good.",
    "I don't eat pork, but I love spicy Sichuan food.",
    "I'm allergic to peanuts, so please keep that in mind for recipes.",
    "Our team deploys on Tuesdays and uses Kafka for the message queue.",
    "My goal for this year is to run a half marathon under two hours.",
]
_EN_TALK = [
    "Can you help me write a cover letter for a job in {city}?",
    "What do you think about {name}'s idea of moving to {city} next spring?",
    "Honestly the meeting today was so boring, I almost fell asleep.",
    "How long does it take to fly from {city} to {other}?",
    "Could you give me {n} ideas for a birthday present for {name}?",
    "Haha that's funny, thanks!",
    "Is it going to rain in {city} this weekend?",
    "Please summarize the article I sent about {city} in {n} bullet points.",
]
_ZH_FACTS = [
    "我是一名在北京工作的产品经理。",
    "我女儿上周刚开始上幼儿园，她特别喜欢。",
    "我们周末一般会去爬山，天气好的话。",
    "我不吃猪肉，但是我很喜欢吃川菜。",
    "我对花生过敏，推荐菜谱的时候注意一下。",
    "我今年的目标是半马跑进两小时。",
]
_ZH_TALK = [
    "你能帮我写一封去{city}的求职信吗？",
    "从{city}到{other}坐高铁要多久？",
    "今天的会议太无聊了，我差点睡着。",
    "帮我想{n}个给朋友的生日礼物吧。",
    "哈哈，太好笑了，谢谢！",
    "{city}这周末会下雨吗？",
    "把我发的那篇关于{city}的文章总结成{n}条。",
]
_NAMES = ["Noah", "Emma", "Liam", "Mia", "Lucas", "Ava", "Leo", "Zoe"]
_CITIES_EN = ["Berlin", "Lisbon", "Tokyo", "Denver", "Austin", "Oslo", "Kyoto", "Porto"]
_CITIES_ZH = ["北京", "上海", "杭州", "成都", "深圳", "西安", "南京", "厦门"]
_ZH_WORDS = ["我们", "今天", "喜欢", "工作", "周末", "爬山", "孩子", "学习", "吉他", "咖啡", "上海", "项目", "会议", "朋友"]
_EN_WORDS = ["my", "dog", "really", "love", "the", "weekend", "went", "to", "gym", "with", "sister", "coffee", "work",
             "project", "every", "morning", "we", "usually", "hike", "near", "lake"]


def _repeat(n: int, make: Callable[[], str], sep: str) -> str:
    out, size = [], 0
    while size < n:
        piece = make()
        out.append(piece)
        size += len(piece) + len(sep)
    return sep.join(out)[:n]


def _chat(facts: list[str], talk: list[str], cities: list[str], rnd: random.Random) -> str:
    if rnd.random() < 0.4:
        return rnd.choice(facts)
    return rnd.choice(talk).format(name=rnd.choice(_NAMES), city=rnd.choice(cities), other=rnd.choice(cities),
                                   n=rnd.randint(2, 12))


def en_chat(n: int, rnd: random.Random) -> str:
    return _repeat(n, lambda: _chat(_EN_FACTS, _EN_TALK, _CITIES_EN, rnd) + ("\n" if rnd.random() < 0.1 else ""), " ")


def zh_chat(n: int, rnd: random.Random) -> str:
    return _repeat(n, lambda: _chat(_ZH_FACTS, _ZH_TALK, _CITIES_ZH, rnd), "")


# Letters that spell no secret's label ("ssn", "pin" ...), so that the word is read as a
# word rather than masked whole as a labelled number.
_PLAIN = "abcdefghkmortuvwxyz"


def word(n: int, rnd: random.Random) -> str:
    return "".join(rnd.choices(_PLAIN, k=n))


def zh_run(n: int, rnd: random.Random) -> str:
    return _repeat(n, lambda: rnd.choice(_ZH_WORDS), "")


def en_run(n: int, rnd: random.Random) -> str:
    return _repeat(n, lambda: rnd.choice(_EN_WORDS), " ")


def b64(n: int, rnd: random.Random) -> str:
    return base64.b64encode(rnd.randbytes(n * 3 // 4 + 3)).decode()[:n]


def url(n: int, rnd: random.Random) -> str:
    host = _repeat(n // 2, lambda: "".join(rnd.choices(string.ascii_lowercase, k=5)) + rnd.choice(".-"), "")
    path = _repeat(n, lambda: "".join(rnd.choices(string.ascii_lowercase + string.digits, k=8)), "/")
    return ("https://" + host + "/" + path)[:n]


KINDS: dict[str, Callable[[int, random.Random], str]] = {
    "en-chat": en_chat, "zh-chat": zh_chat, "word": word, "zh-run": zh_run, "en-run": en_run,
    "base64": b64, "url": url,
}


def message(kind: str, n: int, seed: int = 7) -> str:
    return KINDS[kind](n, random.Random(seed))


def _size(n: int) -> str:
    return f"{n // 1_000_000} MB" if n >= 1_000_000 else f"{n // 1000} KB"


def measure(kind: str, n: int) -> tuple[float, float, int, int]:
    """(extract seconds, ingest seconds, memories added, clauses dropped) for one message."""
    from memctl import init_store
    from memctl.config import Config
    from memctl.conversations import Conversation, Turn, clean
    from memctl.extract import extract, load_rules

    text = message(kind, n)
    conv = Conversation("u1", "long", WHEN, [Turn("t1", "user", text)])
    rules = load_rules()
    start = time.perf_counter()
    ex = extract(conv, clean(conv), rules=rules)
    t_extract = time.perf_counter() - start
    cfg = Config()
    cfg.ingest.max_message_chars = 0  # the whole message, however long
    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp, model="hash-ngram-256", config=cfg)
        start = time.perf_counter()
        report = store.ingest(conversations=[conv])
        t_ingest = time.perf_counter() - start
    assert not report.warnings, report.warnings
    return t_extract, t_ingest, report.added, len(ex.dropped)


def run(sizes: tuple[int, ...] = SIZES, kinds: tuple[str, ...] = tuple(KINDS)) -> None:
    from memctl import init_store
    from memctl.conversations import Conversation, Turn

    with tempfile.TemporaryDirectory() as tmp:  # warm up: rules, lemminflect, the store code
        init_store(tmp, model="hash-ngram-256").ingest(
            conversations=[Conversation("u0", "warm", WHEN, [Turn("t1", "user", message("en-chat", 2000))])])
    rows = []
    for kind in kinds:
        for n in sizes:
            t_extract, t_ingest, added, dropped = measure(kind, n)
            mb = n / 1_000_000
            rows.append((kind, _size(n), t_extract, t_extract / mb, t_ingest, t_ingest / mb, added, dropped))
    table("One long user message (characters; ingest includes extraction; hash embedder, no size limit)",
          ("kind", "size", "extract s", "extract s/MB", "ingest s", "ingest s/MB", "memories", "dropped"), rows)
    summary = []
    for kind in kinds:
        mine = [r for r in rows if r[0] == kind]
        extract_mb = [r[3] for r in mine]
        summary.append((kind, min(extract_mb), max(extract_mb), max(extract_mb) / max(min(extract_mb), 1e-9),
                        mine[0][5], mine[-1][5], mine[-1][5] / max(mine[0][5], 1e-9)))
    # Linear: extract s/MB about the same at every size (max/min near 1), and ingest s/MB
    # no higher for the largest message than for the smallest (each ingest also has a
    # fixed cost of some 30 ms, which weighs on the smallest).
    table(f"Seconds per MB from {_size(sizes[0])} to {_size(sizes[-1])}: linear when extract max/min and ingest last/first stay near 1",
          ("kind", "extract min", "extract max", "max/min", f"ingest {_size(sizes[0])}", f"ingest {_size(sizes[-1])}", "last/first"),
          summary)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, help="message sizes in characters (default: 50000 200000 1000000 5000000)")
    parser.add_argument("--kinds", default=",".join(KINDS), help="which kinds, comma-separated: " + ", ".join(KINDS))
    args = parser.parse_args()
    run(tuple(args.sizes) or SIZES, tuple(args.kinds.split(",")))
