"""Extraction in a second process, for a big ingest.

Extraction is pure Python and holds the interpreter; embedding the same turns runs beside it
in threads that need the interpreter between their NumPy products. In one process the two
wait for each other; with extraction in a child process (`python -m memctl.extract.worker`,
fed over pipes) the parent's interpreter is free for embedding. A child started this way
imports only the extraction package (about 0.3 s), never the caller's own script.

The child reads pickled messages from stdin: first the options, then one
(conversation, turns) pair per conversation, until its stdin closes; it answers each pair
with the pickled Extraction, in order (one child serves every unit of an ingest). Extraction is deterministic, so the child's results are the
ones this process would have made. If the child cannot start or stops, the conversations
it did not answer are extracted here, and a warning says so.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator, Sequence

from ..conversations import Conversation, Turn
from . import Extraction, extract, load_rules
from .rules import Rules


@dataclass
class _Failure:
    """An exception raised by extraction in the child, re-raised in the parent."""

    error: BaseException


@dataclass
class Extractor:
    """Extracts conversations, in a child process when `use_process`; a context manager
    that stops the child on exit."""

    rules: Rules
    rules_dir: str | None
    options: dict[str, Any]
    use_process: bool = False
    warnings: list[str] = field(default_factory=list)
    _proc: subprocess.Popen[bytes] | None = None
    _broken: bool = False

    def __enter__(self) -> "Extractor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, pairs: Sequence[tuple[Conversation, list[Turn]]]) -> Iterator[Extraction]:
        """The Extraction of each (conversation, turns) pair, in order."""
        proc = self._child() if self.use_process and pairs else None
        done = 0
        if proc is not None:
            assert proc.stdin is not None and proc.stdout is not None
            feeder = threading.Thread(target=_feed, args=(proc.stdin, pairs), name="memctl-extract-feed", daemon=True)
            feeder.start()
            try:
                while done < len(pairs):
                    try:
                        result = pickle.load(proc.stdout)
                    except (EOFError, pickle.UnpicklingError, OSError):
                        self._lost(proc)
                        break
                    if isinstance(result, _Failure):
                        raise result.error
                    done += 1
                    yield result
            finally:
                feeder.join(timeout=None if done == len(pairs) else 0)
                if done < len(pairs):
                    self.close()  # cut short: the child is not left with half a unit
        for conv, turns in pairs[done:]:
            yield extract(conv, turns, rules=self.rules, **self.options)

    def close(self) -> None:
        """Stop the child: its results pipe closed first (a child blocked writing a result
        it was not asked for ends at once), then its input (a waiting child ends at EOF)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for pipe in (proc.stdout, proc.stdin):
            try:
                if pipe is not None:
                    pipe.close()
            except (OSError, ValueError):
                pass  # the feeder thread was writing, or the child had gone
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _child(self) -> subprocess.Popen[bytes] | None:
        if self._proc is not None or self._broken:
            return self._proc
        try:
            proc = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_environment())
            assert proc.stdin is not None
            pickle.dump({"rules_dir": self.rules_dir, "options": self.options}, proc.stdin, pickle.HIGHEST_PROTOCOL)
            proc.stdin.flush()
        except OSError as exc:
            self._broken = True
            self.warnings.append(f"extraction worker could not start ({exc}); extracted in this process")
            return None
        self._proc = proc
        return proc

    def _lost(self, proc: subprocess.Popen[bytes]) -> None:
        self.close()
        code = proc.returncode
        self._broken = True
        self.warnings.append(f"extraction worker stopped (exit code {code}); the rest was extracted in this process")


def _command() -> list[str]:
    return [sys.executable, "-m", "memctl.extract.worker"]


def _environment() -> dict[str, str]:
    """The caller's environment, with this package's folder first on the child's path (the
    caller may have imported memctl from a folder that is not on the default path)."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([root, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    return env


def _feed(stdin: IO[bytes], pairs: Sequence[tuple[Conversation, list[Turn]]]) -> None:
    try:
        for pair in pairs:
            pickle.dump(pair, stdin, pickle.HIGHEST_PROTOCOL)
        stdin.flush()
    except (OSError, ValueError):
        pass  # the child stopped (or was stopped): run() finds out and takes over


def main() -> None:
    # Ctrl-C reaches the whole process group: the parent stops, and closing the pipe ends this.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed by accident can break the stream of results
    header = pickle.load(stdin)
    rules = load_rules(header["rules_dir"])
    options = header["options"]
    while True:
        try:
            conv, turns = pickle.load(stdin)
        except EOFError:
            return
        try:
            result: Extraction | _Failure = extract(conv, turns, rules=rules, **options)
        except Exception as exc:  # re-raised by the parent, as extraction in one process would
            result = _Failure(exc)
        try:
            pickle.dump(result, stdout, pickle.HIGHEST_PROTOCOL)
            stdout.flush()
        except (BrokenPipeError, OSError):
            return  # the parent stopped reading (its ingest was cut short): nothing more is wanted


if __name__ == "__main__":
    # Run as `python -m`, this file is `__main__`: what it sends must name the classes by their
    # importable module, or the parent cannot read a failure back ("Can't get attribute
    # '_Failure' on <module '__main__'>") and the child's error is lost.
    from memctl.extract.worker import main as _main

    _main()
