"""Judged samples of stored memories: read the store the way its user does.

    python bench/judging.py sample [--seed N] [--n 160] [-o FILE] [--data FOLDER]
    python bench/judging.py score FILE [FILE ...]

`sample` ingests data the extraction rules were not tuned on into a fresh store (the
default model): the second half of LoCoMo (conversations 5-9, both speakers; English)
and the user messages of tests/data/extraction_holdout3.jsonl (English and Chinese, written
without seeing the rules). It also ingests the DuLeMon samples (Chinese), which the rules
WERE tuned on, as a separate, disclosed source. With `--data FOLDER` it ingests only the
conversation files there (source "fresh": logs written after the work, for a sample no rule
was ever fitted to; bench/fresh/ and bench/fresh2/ hold 24 such conversations each, 12 English
and 12 Chinese). It then draws a sample of active memories
stratified by source, language and type (round robin over the strata, seeded) and writes
one JSON line per memory: its text, type, subject, the clause it came from, the whole
turn and the message the turn answered, with empty `useful`, `faithful`, `type_right`
fields for a judge to fill in following bench/LABELLING.md.

`score` reads judged files and prints the shares by source and language:
useful / borderline / noise, garbled, type right. Judged files live in bench/judged/.

    python bench/judging.py regress [-v]

`regress` reads the judged files as a regression set. A memory two readers of the same
sample both marked garbled, or both marked useful and faithful, is looked for, by its text,
among what the code stores today from the same conversations (the built-in sources and
every bench/fresh*/ folder, hash model, each source in a store of its own). It prints how
many of each are still stored: the first number should fall, the second hold. `-v` lists
the garbled ones still stored, with the readers' notes.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import ROOT, SHARED_DATA, need, table  # noqa: E402

WHEN = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)
HOLDOUT = ROOT / "tests" / "data" / "extraction_holdout3.jsonl"
JUDGED = ROOT / "bench" / "judged"
VERDICTS = {"useful": ("useful", "borderline", "noise"), "faithful": ("faithful", "garbled"), "type_right": ("yes", "no")}
# Judged from seed 53 on: whether `subject` (user, or the person, pet, thing or event) is right.
OPTIONAL = {"subject_right": ("yes", "no")}


def _conversations(data: Path | None = None) -> dict[str, list[Any]]:
    """Conversations per source; each user id starts with its source's name. With `data`, the
    conversation files in that folder only, as the source "fresh" (conversations written after
    the work, never seen by it)."""
    if data is not None:
        from memctl.conversations import read_sources

        fresh = read_sources([str(data)])
        for conv in fresh:
            conv.user = "fresh-" + conv.user
        return {"fresh": fresh}
    import locomo
    from bench_extraction import _unspace
    from memctl.conversations import Conversation, Turn

    out: dict[str, list[Any]] = {"locomo": [], "holdout3": [], "dulemon": []}
    data = locomo.load()
    for sample in data[5:10]:
        for speaker in locomo.speakers(sample):
            for conv in locomo.conversations_for(sample, speaker):
                conv.user = "locomo-" + conv.user
                out["locomo"].append(conv)
    if HOLDOUT.exists():
        for line in HOLDOUT.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out["holdout3"].append(Conversation(f"holdout3-{row['id']}", row["id"], WHEN, [Turn("t1", "user", row["text"], WHEN)]))
    rows = [json.loads(line) for line in need(SHARED_DATA / "dulemon_samples" / "samples.json").read_text(encoding="utf-8").splitlines() if line.strip()]
    for n, row in enumerate(rows):
        turns = []
        for i, line in enumerate(row["conversation"]):
            speaker, _, rest = line.partition(":")
            text = rest.partition("\t")[0]
            turns.append(Turn(f"t{i}", "user" if speaker.strip() == "Usr" else "assistant", _unspace(text), WHEN))
        out["dulemon"].append(Conversation(f"dulemon-d{n}", f"d{n}", WHEN, turns, origin="dulemon"))
    return out


def sample(seed: int, n: int, path: Path, data: Path | None = None) -> None:
    from memctl import init_store

    convs = _conversations(data)
    turns: dict[tuple[str, str, str], tuple[str, str]] = {}
    for group in convs.values():
        for conv in group:
            asked = ""
            for t in conv.turns:
                if t.role == "user":
                    turns[(conv.user, conv.session, t.id)] = (t.content, asked)
                else:
                    asked = t.content
    strata: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        store = init_store(tmp)
        for group in convs.values():
            store.ingest(conversations=group)
        for m in store.core.read_memories("status = 'active'"):
            src = m.sources[0]
            turn, asked = turns.get((m.user_id, src.session, src.turn), ("", ""))
            source = m.user_id.split("-", 1)[0]
            row = {"id": m.id, "source": source, "lang": m.lang, "type": m.type, "subject": m.subject or "user",
                   "content": m.content, "clause": src.clause, "turn": turn, "asked": asked[:300],
                   "useful": None, "faithful": None, "type_right": None, "subject_right": None, "note": ""}
            strata[(source, m.lang, m.type)].append(row)
    rng = random.Random(seed)
    for rows in strata.values():
        rows.sort(key=lambda r: r["id"])
        rng.shuffle(rows)
    chosen: list[dict[str, Any]] = []
    keys = sorted(strata)
    while len(chosen) < n and any(strata[k] for k in keys):
        for k in keys:
            if strata[k] and len(chosen) < n:
                chosen.append(strata[k].pop())
    rng.shuffle(chosen)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for row in chosen:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = defaultdict(int)
    for row in chosen:
        counts[(row["source"], row["lang"])] += 1
    print(f"seed {seed}: {len(chosen)} memories -> {path}", dict(counts))


def score(paths: list[Path]) -> None:
    rows = [json.loads(line) for p in paths for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    for r in rows:
        for field, allowed in VERDICTS.items():
            if r.get(field) not in allowed:
                sys.exit(f"judging: {r.get('id')}: {field} is {r.get(field)!r}, expected one of {', '.join(allowed)}")
        for field, allowed in OPTIONAL.items():
            if r.get(field) is not None and r[field] not in allowed:
                sys.exit(f"judging: {r.get('id')}: {field} is {r[field]!r}, expected one of {', '.join(allowed)}")
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[f"{r['source']} {r['lang']}"].append(r)
        if r["source"] != "dulemon":
            groups["untuned (all)"].append(r)
        groups["all"].append(r)

    def share(rs: list[dict[str, Any]], field: str, value: str) -> float:
        return sum(r[field] == value for r in rs) / len(rs)

    def subject(rs: list[dict[str, Any]]) -> str:
        judged = [r for r in rs if r.get("subject_right") is not None]
        return f"{share(judged, 'subject_right', 'yes'):.3f}" if judged else "-"

    table("Judged memories (bench/LABELLING.md)",
          ["group", "n", "useful", "borderline", "noise", "garbled", "type right", "subject right"],
          [[g, len(rs), share(rs, "useful", "useful"), share(rs, "useful", "borderline"), share(rs, "useful", "noise"),
            share(rs, "faithful", "garbled"), share(rs, "type_right", "yes"), subject(rs)] for g, rs in sorted(groups.items())])


def _stored_now() -> set[str]:
    """The text of every active memory the code stores today from the judged samples' sources."""
    from memctl import init_store

    sources = [_conversations()] + [_conversations(folder) for folder in sorted(ROOT.glob("bench/fresh*/"))
                                    if any(folder.glob("*.json*"))]
    stored: set[str] = set()
    for convs in sources:
        for group in convs.values():
            with tempfile.TemporaryDirectory() as tmp:
                store = init_store(tmp, model="hash-ngram-256")
                store.ingest(conversations=group)
                stored.update(m.content for m in store.core.read_memories("status = 'active'"))
    return stored


def _agreed(paths: list[Path]) -> dict[str, list[dict[str, Any]]]:
    """Memories both readers of one sample marked garbled ("garbled"), or useful and faithful
    ("good"): the files of a sample are named alike but for their last letter (sample-915a, -915b)."""
    pairs: dict[str, list[Path]] = defaultdict(list)
    for p in paths:
        if re.fullmatch(r".*[a-f]", p.stem):
            pairs[p.stem[:-1]].append(p)
    out: dict[str, list[dict[str, Any]]] = {"garbled": [], "good": []}
    seen: set[str] = set()
    for name, files in sorted(pairs.items()):
        if len(files) < 2:
            continue
        first, second = ({r.get("id", n): r for n, r in enumerate(json.loads(line) for line in f.read_text(encoding="utf-8").splitlines()
                                                                     if line.strip())} for f in sorted(files)[:2])
        for key, a in first.items():
            b = second.get(key)
            if b is None or "content" not in a or a["content"] in seen or a.get("content") != b.get("content"):
                continue
            if a.get("faithful") == b.get("faithful") == "garbled":
                label = "garbled"
            elif a.get("faithful") == b.get("faithful") == "faithful" and a.get("useful") == b.get("useful") == "useful":
                label = "good"
            else:
                continue
            seen.add(a["content"])
            out[label].append({**a, "sample": name, "notes": " | ".join(x for x in (a.get("note"), b.get("note")) if x)})
    return out


def regress(verbose: bool = False) -> dict[str, int]:
    agreed = _agreed(sorted(JUDGED.glob("*.jsonl")))
    stored = _stored_now()
    still = {label: [r for r in rows if r["content"] in stored] for label, rows in agreed.items()}
    rows = []
    for lang in ("en", "zh", "all"):
        pick = (lambda r: True) if lang == "all" else (lambda r, lang=lang: r.get("lang") == lang)
        rows.append([lang, sum(map(pick, agreed["garbled"])), sum(map(pick, still["garbled"])),
                     sum(map(pick, agreed["good"])), sum(map(pick, still["good"]))])
    table("Judged memories as a regression set: still stored today",
          ["lang", "garbled (both readers)", "still stored", "useful+faithful (both)", "still stored"], rows)
    if verbose:
        for r in still["garbled"]:
            print(f"  {r['sample']}\t{r['content'][:120]}\t# {r['notes'][:120]}")
    return {"garbled": len(agreed["garbled"]), "garbled_stored": len(still["garbled"]),
            "good": len(agreed["good"]), "good_stored": len(still["good"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--seed", type=int, default=13)
    s.add_argument("--n", type=int, default=160)
    s.add_argument("-o", "--output", type=Path)
    s.add_argument("--data", type=Path, help="a folder of conversation files to ingest instead of the built-in sources")
    c = sub.add_parser("score")
    c.add_argument("files", nargs="+", type=Path)
    g = sub.add_parser("regress")
    g.add_argument("-v", "--verbose", action="store_true", help="list the garbled memories still stored")
    args = parser.parse_args()
    if args.command == "sample":
        sample(args.seed, args.n, args.output or JUDGED / f"sample-{args.seed}.jsonl", args.data)
    elif args.command == "regress":
        regress(args.verbose)
    else:
        score(args.files)


if __name__ == "__main__":
    main()
