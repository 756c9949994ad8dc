"""The memctl command line: each command parses, calls one library verb, renders.

Errors become one line on stderr and an exit code (errors.py): 0 ok, 1 runtime or
data error, 2 bad usage or bad input. `--debug` shows the traceback instead.
"""

from __future__ import annotations

import os
import sys
from typing import Sequence

import typer

from .audit import audit
from .browse import browse
from .compact import compact
from .diff import diff
from .exchange import export, import_
from .forget import forget
from .ingest import ingest
from .init import init, path
from .profile import profile
from .recall import recall
from .reembed import reembed

app = typer.Typer(
    name="memctl",
    help="Offline long-term memory for AI agents: ingest conversations, recall what matters, forget for real.",
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        from .common import write

        write(sys.stdout, f"memctl {version('memctl')}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Notes on stderr about what was skipped and why."),
) -> None:
    from .common import set_verbose

    set_verbose(verbose)


app.command("init")(init)
app.command("path")(path)
app.command("ingest")(ingest)
app.command("recall")(recall)
app.command("forget")(forget)
app.command("compact")(compact)
app.command("reembed")(reembed)
app.command("audit")(audit)
app.command("diff")(diff)
app.command("list")(browse)
app.command("profile")(profile)
app.command("export")(export)
app.command("import")(import_)


def main(argv: Sequence[str] | None = None) -> None:
    from ..errors import MemctlError
    from .common import PipeClosed

    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args or os.environ.get("MEMCTL_DEBUG") == "1"
    args = [a for a in args if a != "--debug"]
    if not args:
        args = ["--help"]  # like git and gh: the overview, not an error
    try:
        code = app(args=args, prog_name="memctl", standalone_mode=False)
    except MemctlError as exc:
        _fail(str(exc), exc.exit_code, debug)
    except (BrokenPipeError, PipeClosed):
        # A pipeline reader (head, grep -m) closed early: not an error of ours.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # what is left unflushed goes nowhere
        except (OSError, ValueError, AttributeError):
            pass  # not a real file (a test's capture)
        sys.exit(0)
    except KeyboardInterrupt:
        _fail("interrupted", 130, debug)
    except Exception as exc:
        if getattr(exc, "exit_code", None) == 2 and hasattr(exc, "format_message"):
            # The command line itself is wrong (missing option, bad value): exit 2. Typer
            # raises its own copy of click's exceptions and does not export them all.
            ctx = getattr(exc, "ctx", None)
            where = f"memctl {ctx.info_name}" if ctx is not None and ctx.parent is not None else "memctl"
            _fail(f"{exc.format_message()} (see '{where} --help')", 2, debug)
        if type(exc).__name__ == "Abort":
            _fail("aborted", 1, debug)
        if isinstance(exc, OSError) and exc.strerror:
            # A read-only store, a full disk, a missing permission: say which path.
            where = exc.filename or ""
            _fail(f"{where}: {exc.strerror}" if where else exc.strerror, 1, debug)
        # A bug or an environment failure: still one line.
        _fail(f"unexpected {type(exc).__name__}: {exc}", 1, debug)
    sys.exit(code if isinstance(code, int) else 0)


def _few_heaps() -> None:
    """Two malloc arenas for the process, not eight per core: the storage runtime's many
    threads each allocating in an arena of their own left a big ingest's freed memory
    scattered and unreturned (a 30 MB log peaked 20 % higher, and grew with each unit of
    it). glibc only; set before any thread starts."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):
        pass  # another C library: its own allocator, left as it is


def entry() -> None:
    """The `memctl` program: main(), then leave without tearing every library down (the
    storage runtime takes longer to stop than a recall takes to run). Output is flushed
    first; nothing memctl writes is left pending (every write commits before returning)."""
    _few_heaps()
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass  # a reader that closed early; nothing more to say
    os._exit(code)


def _fail(message: str, code: int, debug: bool) -> None:
    if debug:
        import traceback

        traceback.print_exc()
    message = " ".join(message.split())
    # A file name or a value may hold terminal escapes: shown escaped, never sent raw.
    message = "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in message)
    sys.stderr.write(f"memctl: error: {message}\n")
    sys.exit(code)
