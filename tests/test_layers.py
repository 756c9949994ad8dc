"""The package's layers are enforced, not just drawn: `lint-imports` checks the contracts
in pyproject.toml (one-way layers, no import cycles) on every test run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

LINT = Path(sys.executable).with_name("lint-imports")


def _lint(package_parent: Path, config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--no-cache", "--no-logo", str(config)], capture_output=True, text=True,
        cwd=package_parent, env={"PYTHONPATH": str(package_parent), "PATH": str(LINT.parent)},
    )


def test_the_import_contracts_hold():
    r = _lint(ROOT, ROOT / "pyproject.toml")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 kept, 0 broken" in r.stdout


def test_an_upward_import_breaks_the_layers(tmp_path):
    """A copy of the package where the core imports the facade: the check fails and names it."""
    shutil.copytree(ROOT / "memctl", tmp_path / "memctl", ignore=shutil.ignore_patterns("__pycache__"))
    core = tmp_path / "memctl" / "core.py"
    core.write_text(core.read_text(encoding="utf-8") + "\n\ndef _facade():\n    from .store import MemoryStore\n",
                    encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    r = _lint(tmp_path, tmp_path / "pyproject.toml")
    assert r.returncode == 1
    assert "BROKEN" in r.stdout and "memctl.core -> memctl.store" in r.stdout
