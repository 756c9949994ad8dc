"""Writes memctl/extract/rules/forms.toml: English words whose other forms do not begin
with them ("win" / "won", "buy" / "bought", "apply" / "applied", "man" / "men"), taken
from lemminflect's inflection dictionary. Lexical matching finds "won" for a query that
says "win" through this list; regular forms ("wins", "winning") share the word's stem.

`python bench/word_forms.py` (run again after upgrading lemminflect; the file is data,
reviewed and committed like the other rule files).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memctl.lexical import _stem  # noqa: E402

OUT = ROOT / "memctl" / "extract" / "rules" / "forms.toml"


def forms() -> dict[str, list[str]]:
    from lemminflect.core.Inflections import Inflections

    table = Inflections()._getInflDict()
    out: dict[str, list[str]] = {}
    for lemma, inflections in sorted(table.items()):
        if not (lemma.isalpha() and lemma.islower() and len(lemma) >= 2):
            continue
        # Past forms of verbs, and plurals that change inside the word ("man" / "men", "wife" / "wives").
        keys = ("VBD", "VBN") + (("NNS",) if _common_plural(lemma) else ())
        found = {f for k in keys for f in inflections.get(k, ()) if f.isalpha() and f.islower()}
        other = sorted(f for f in found if not _stem(f).startswith(_stem(lemma)))
        if other:
            out[lemma] = other
    return out


def _common_plural(lemma: str) -> bool:
    # Latin and Greek plurals (abaci, addenda) are left out: rare in conversation.
    return lemma.endswith(("man", "fe", "f")) or lemma in ("foot", "tooth", "goose", "mouse", "person")


def main() -> None:
    table = forms()
    lines = [
        "# English words whose other forms do not begin with them, for lexical matching:",
        "# a query that says \"win\" finds a turn that says \"won\". Written by bench/word_forms.py",
        "# from lemminflect's dictionary.",
        "",
        "[en]",
    ]
    lines += [f'{lemma} = [{", ".join(chr(34) + f + chr(34) for f in other)}]' for lemma, other in table.items()]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(table)} words -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
