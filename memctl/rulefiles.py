"""Reading the rule files in extract/rules/, extended by a store's own `rules/` folder.

A store may hold a `rules/` folder next to memctl.toml with files of the same names;
their lists are appended to the packaged ones, so users extend rules without forking.
Apart from extraction so that recall can read the topic lexicon without the rest.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import ConfigError

RULES_DIR = Path(__file__).parent / "extract" / "rules"


def read_rule_file(name: str, extra_dir: str | None) -> dict[str, Any]:
    with open(RULES_DIR / name, "rb") as fh:
        data = tomllib.load(fh)
    if extra_dir:
        extra = Path(extra_dir) / name
        if extra.is_file():
            try:
                with open(extra, "rb") as fh:
                    _extend(data, tomllib.load(fh))
            except tomllib.TOMLDecodeError as exc:
                raise ConfigError(f"{extra}: invalid TOML: {exc}") from None
    return data


def _extend(base: dict[str, Any], extra: dict[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _extend(base[key], value)
        elif isinstance(value, list) and isinstance(base.get(key), list):
            base[key] = base[key] + value
        else:
            base[key] = value
