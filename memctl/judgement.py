"""Whether two statements of one user say the same thing, the opposite, or are related.

One home for the tests that reconcile (ingest), compaction and audit all ask, so that a
pair audit counts as a duplicate is exactly a pair compaction merges, and a restatement
ingest reinforces is one compaction would not keep apart.

Similarity is the embedding cosine rescaled to 0..1 over the range above the model's
floor (`embedding.similarity_floor`): "the same fact?" needs near-identical texts at the
top of the scale, unlike recall's "relevant?", which rescales up to the model's ceiling.
Word overlap (Dice over lexical tokens) backs the embedding where it is unsure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

from .config import Config
from .lexical import dice, overlap, token_set

if TYPE_CHECKING:  # recall needs only the rescaler: it must not pay for loading the rules
    from .extract.rules import Rules

# How far below `compact.merge_similarity` two texts may sit and still be the same fact
# when their words overlap by `compact.merge_lexical` ("用户喜欢喝咖啡" / "用户很喜欢喝咖啡").
LEXICAL_REACH = 0.15
# Opposite statements must share this much of their words as well as their meaning:
# "loves coffee" / "doesn't like coffee" are about one thing; "doesn't drink alcohol" /
# "drinks decaf only" are not.
OPPOSITE_MIN_OVERLAP = 0.4
# A correction counts a shared topic (food, health ...) as this much extra similarity:
# evidence that "actually, only shellfish" is about the seafood memory.
SHARED_TOPIC_BONUS = 0.15


def rescaler(floor: float, ceiling: float) -> Callable[[np.ndarray], np.ndarray]:
    """Cosine to 0..1 between `floor` (unrelated) and `ceiling` (as related as it gets)."""
    span = max(ceiling - floor, 1e-6)

    def rescale(cosines: np.ndarray) -> np.ndarray:
        return np.clip((np.asarray(cosines, dtype=np.float32) - floor) / span, 0.0, 1.0)

    return rescale


# Words that name no particular plan: two plans sharing only these are not the same plan.
_GENERIC = frozenset("""trip plan plans goal goals dream dreams time first last next year month week day sunday monday
tuesday wednesday thursday friday saturday weekend finally really want wants hope planning user's their them
今年 明年 下个 个月 计划 目标 梦想 已经 终于 取消 下周""".split())


def same_plan(a: str, b: str) -> bool:
    """Whether two statements name the same goal or plan ("run a marathon" / "ran my first
    marathon", "去杭州出差" / "杭州出差取消了"): a shared specific word, or two shared
    Chinese character pairs."""
    shared = {t for t in token_set(a) & token_set(b) if t not in _GENERIC}
    latin = [t for t in shared if t.isascii() and len(t) >= 4]
    pairs = [t for t in shared if not t.isascii() and len(t) == 2]
    return bool(latin) or len(pairs) >= 2


# Characters of negation, time and the user's name: a shared pair of them ("不吃", "用户")
# does not say that two statements are about one thing.
_FUNCTION_CHARS = frozenset("不没别再已了用户的是在也都还就很")
_FUNCTION_WORDS = frozenset("""user user's their them they the and with does doesn't don't not no longer anymore any more
never have has had been being was were is are would will just really also still very""".split())


def names_same_thing(a: str, b: str) -> bool:
    """Whether two statements name one thing: a shared content word ("coffee", "咖啡").
    "No longer drinks coffee" is about the coffee memory, never about a peanut allergy."""
    shared = token_set(a) & token_set(b)
    for t in shared:
        if t.isascii():
            if len(t) >= 3 and t not in _FUNCTION_WORDS and t not in _GENERIC:
                return True
        elif len(t) == 2 and not (set(t) & _FUNCTION_CHARS) and t not in _GENERIC:
            return True
    return False


class Judge:
    def __init__(self, config: Config, rules: "Rules") -> None:
        self.rules = rules
        self.same = rescaler(config.embedding.similarity_floor, 1.0)
        self.duplicate = config.reconcile.duplicate_similarity
        self.correction = config.reconcile.correction_similarity
        self.contradiction = config.reconcile.contradiction_similarity
        self.merge = config.compact.merge_similarity
        self.merge_lexical = config.compact.merge_lexical

    def negative(self, text: str, lang: str | None) -> bool:
        """Whether a statement is negated ("doesn't eat", "不吃", "no longer")."""
        return self.rules.negative(text, lang)

    def likeness(self, sim: float, a: str, b: str) -> float:
        """How alike a new statement is to a stored one: the larger of meaning and words."""
        return max(float(sim), overlap(a, b))

    def restates(self, likeness: float, negative_a: bool, negative_b: bool) -> bool:
        """Said again, with the same polarity: reinforce rather than add."""
        return likeness >= self.duplicate and negative_a == negative_b

    def related(self, likeness: float, shared_topic: bool) -> float:
        """How strongly a correction is about a stored memory."""
        return likeness + (SHARED_TOPIC_BONUS if shared_topic else 0.0)

    def corrects(self, relatedness: float) -> bool:
        return relatedness >= self.correction

    def near(self, sim: float | np.ndarray) -> bool | np.ndarray:
        """Close enough in meaning that shared words may decide "the same fact"."""
        return sim >= self.merge - LEXICAL_REACH

    def same_fact(self, sim: float, a: str | frozenset[str], b: str | frozenset[str]) -> bool:
        """Whether two texts of one user and type (or their token sets), at similarity
        `sim`, say the same."""
        if sim >= self.merge:
            return True
        if not self.near(sim):
            return False
        words = dice(a, b) if isinstance(a, frozenset) and isinstance(b, frozenset) else overlap(str(a), str(b))
        return words >= self.merge_lexical

    def opposite(self, sim: float, a: str, b: str) -> bool:
        """Whether two texts of opposite polarity speak of one thing ("likes coffee" / "quit coffee")."""
        return sim >= self.contradiction and overlap(a, b) >= OPPOSITE_MIN_OVERLAP


# -- which pairs to judge -----------------------------------------------------------------

# Up to this many statements, every pair is compared; above it, candidate pairs come from
# random-projection trees and shared rare words, and each statement keeps only its
# closest partners, so that a group's cost grows with its size rather than its square.
EXACT_PAIRS_LIMIT = 2000
_TREES = 6
_LEAF = 256
# Closest partners kept per statement in a large group (the same fact is said a few
# times, not a hundred; more partners only cost time).
_DEGREE = 16
# Words in at most this many statements pair those statements up.
_RARE_WORD = 32


def similar_pairs(vectors: np.ndarray, texts: list[str], same: Callable[[np.ndarray], np.ndarray],
                  threshold: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs (i < j) whose rescaled similarity `same(cos)` reaches `threshold`, as three
    arrays (i, j, similarity), ordered by (i, j). Exact up to EXACT_PAIRS_LIMIT statements;
    above it, the pairs that random-projection trees put in one leaf or that share a rare
    word, each statement keeping its _DEGREE closest partners: close pairs (restatements,
    near-duplicates) are found with high probability, in time that grows as n log n.
    Deterministic for the same input order and seed."""
    n = len(vectors)
    if n <= EXACT_PAIRS_LIMIT:
        if n < 2:
            return _no_pairs()
        sims = same(vectors @ vectors.T)
        i, j = np.nonzero(np.triu(sims >= threshold, k=1))
        return i, j, sims[i, j]
    tree_keys, tree_sims = _tree_pairs(vectors, same, threshold, seed)
    word_keys, word_sims = _word_pairs(vectors, texts, same, threshold)
    key, first = np.unique(np.concatenate([tree_keys, word_keys]), return_index=True)
    sim = np.concatenate([tree_sims, word_sims])[first]
    key, sim = _closest(key, sim, n)
    return key // n, key % n, sim


def _no_pairs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)


def _closest(key: np.ndarray, sim: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs among each statement's _DEGREE most similar partners (of either side)."""
    if not len(key):
        return key, sim
    ends = np.concatenate([key // n, key % n])
    pair = np.concatenate([np.arange(len(key)), np.arange(len(key))])
    order = np.lexsort((-np.concatenate([sim, sim]), ends))
    ends, pair = ends[order], pair[order]
    starts = np.searchsorted(ends, ends, side="left")
    rank = np.arange(len(ends)) - starts
    keep = np.zeros(len(key), dtype=bool)
    keep[pair[rank < _DEGREE]] = True
    return key[keep], sim[keep]


def _close_in(idx: np.ndarray, vectors: np.ndarray, same: Callable[[np.ndarray], np.ndarray], threshold: float,
              n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each statement's closest partners among `idx` that reach the threshold, as pair
    keys i * n + j (i < j) and similarities."""
    block = same(vectors[idx] @ vectors[idx].T)
    np.fill_diagonal(block, -1.0)
    k = min(_DEGREE, len(idx) - 1)
    if k < 1:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    cols = np.argpartition(-block, k - 1, axis=1)[:, :k]
    rows = np.repeat(np.arange(len(idx)), k)
    cols = cols.ravel()
    sims = block[rows, cols]
    good = sims >= threshold
    a, b = idx[rows[good]], idx[cols[good]]
    return np.minimum(a, b).astype(np.int64) * n + np.maximum(a, b), sims[good].astype(np.float32)


def _tree_pairs(vectors: np.ndarray, same: Callable[[np.ndarray], np.ndarray], threshold: float,
                seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Close pairs within the leaves of several random-projection trees, each split at the
    median of the projection on the line through two random members."""
    n = len(vectors)
    rng = np.random.default_rng(seed)
    keys, sims = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.float32)]
    for _ in range(_TREES):
        stack = [np.arange(n)]
        while stack:
            idx = stack.pop()
            if len(idx) <= _LEAF:
                k, s = _close_in(idx, vectors, same, threshold, n)
                keys.append(k)
                sims.append(s)
                continue
            p, q = rng.choice(len(idx), 2, replace=False)
            order = np.argsort(vectors[idx] @ (vectors[idx[p]] - vectors[idx[q]]), kind="stable")
            half = len(idx) // 2
            stack += [idx[order[:half]], idx[order[half:]]]
    return np.concatenate(keys), np.concatenate(sims)


def _word_pairs(vectors: np.ndarray, texts: list[str], same: Callable[[np.ndarray], np.ndarray],
                threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Close pairs among statements that share a word few others use ("Pulsar", "芒果")."""
    n = len(vectors)
    postings: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        for token in token_set(text):
            postings.setdefault(token, []).append(i)
    keys, sims = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.float32)]
    for ids in postings.values():
        if 1 < len(ids) <= _RARE_WORD:
            k, s = _close_in(np.array(ids), vectors, same, threshold, n)
            keys.append(k)
            sims.append(s)
    return np.concatenate(keys), np.concatenate(sims)
