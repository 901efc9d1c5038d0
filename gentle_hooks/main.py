"""Entry point: ``main(argv) -> int`` and the exit-code contract (SPEC §7 "Exit codes").

Room ``main``. Imports nothing heavy at module level: the hook pass path decides
before click or pydantic is imported. Click runs with ``standalone_mode=False``
because standalone mode throws away the command's return value; the exit code is set here.

0 allowed/informational, 1 blocked, 2 usage/input/config/store, 3 unexpected (traceback to
the log file, one line on screen), 130 interrupted.

What the environment refuses is input, not a bug: an :class:`OSError` (disk full, a read-only
or unreadable directory, a file that is not what it should be), a SQLite error, and the
limits of hostile input (nesting that exhausts the recursion limit, a document that exhausts
memory, bytes no codec accepts) that reach the top are one line naming the path or the
limit and exit 2 (their traceback still goes to the log). Exit 3 is left for bugs.

Standard output and error write a lone surrogate (a byte of a non-UTF-8 path decoded with
``surrogateescape``) as ``\\xHH`` (docs/robustness.md), so a path git hands us never makes a
print fail.
"""

from __future__ import annotations

import os
import sys

from gentle_hooks.errors import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNEXPECTED,
    GentleError,
    shown,
)
from gentle_hooks.git.probe import forget as forget_probes

TYPE_CHECKING = False  # typing costs ~10 ms to import; the hook path avoids it
if TYPE_CHECKING:
    from collections.abc import Sequence

PROG = "gentle-hook"


def log_path() -> str:
    """Where unexpected tracebacks go: ``$XDG_CACHE_HOME/gentle-hooks/gentle-hook.log``."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "gentle-hooks", "gentle-hook.log")


def _log_unexpected(argv: Sequence[str]) -> str:
    import time
    import traceback

    path = log_path()
    _register_escape()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # argv may hold surrogates (a non-UTF-8 path): escaped, never a second failure
        with open(path, "a", encoding="utf-8", errors=ESCAPE) as fh:
            fh.write(f"### {time.strftime('%Y-%m-%dT%H:%M:%S%z')} {PROG} {' '.join(argv)}\n")
            fh.write(traceback.format_exc())
    except (OSError, ValueError):
        return "(log file not writable)"
    return path


#: The codec error handler of our output streams and log (:func:`escape_unencodable`).
ESCAPE = "gentle-hooks-escape"


def one_line(message: str) -> str:
    """``message`` as an error line shows it: control characters visible and its length
    bounded (:func:`gentle_hooks.errors.shown`)."""
    return shown(message)


def _click_line(exc: Exception) -> str:
    """A click error's message on one line: its own line breaks (a choice list) joined
    with spaces, then :func:`one_line`."""
    text = exc.format_message()  # type: ignore[attr-defined]
    return one_line(" ".join(part.strip() for part in str(text).splitlines() if part.strip()))


def escape_unencodable(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: a lone surrogate ``U+DC80``-``U+DCFF`` (the byte ``HH`` that
    ``surrogateescape`` kept) becomes ``\\xHH``; any other character the stream cannot
    encode becomes ``\\uXXXX`` (``\\UXXXXXXXX`` above the basic plane)."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start : exc.end]:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code > 0xFFFF:
            out.append(f"\\U{code:08x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), exc.end


def _register_escape() -> None:
    """Register :func:`escape_unencodable` as the codec error handler :data:`ESCAPE`."""
    import codecs

    try:
        codecs.lookup_error(ESCAPE)
    except LookupError:
        codecs.register_error(ESCAPE, escape_unencodable)


def _escape_streams() -> None:
    """Let stdout and stderr write any string (:func:`escape_unencodable`), with every
    control character shown, never sent to the terminal
    (:class:`gentle_hooks.report.visible.VisibleStream`)."""
    from gentle_hooks.report.visible import wrap_streams

    _register_escape()
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        try:
            reconfigure(errors=ESCAPE)
        except (ValueError, OSError):  # closed or detached: there is nothing to print to
            continue
    wrap_streams(sys)


def _environment_refused(exc: BaseException) -> str | None:
    """One line for what the environment or hostile input refused (exit 2), else None.

    An :class:`OSError` names its file and the system's reason (``No space left on
    device``, ``Read-only file system``, ``Permission denied``); a SQLite error names the
    ledger's failure; recursion, memory and codec errors name the limit hit.
    """
    if isinstance(exc, OSError):
        where = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        return f"{where}: {reason}" if where else reason
    if type(exc).__module__ == "sqlite3":
        from gentle_hooks.errors import cli
        from gentle_hooks.report.fixes import labelled

        return f"the ledger cannot be used: {exc}; {labelled(cli('doctor'))}"
    if isinstance(exc, RecursionError):
        return "input nested too deeply to be read"
    if isinstance(exc, MemoryError):
        return "input too large to be read (out of memory)"
    if isinstance(exc, UnicodeEncodeError) and isinstance(exc.object, str):
        # name the text that held it (a path, a record's field), escaped as it is shown
        _register_escape()
        shown = exc.object[:80].encode("utf-8", ESCAPE).decode("utf-8")
        return f"input that is not valid text: {shown!r}: {exc.reason}"
    if isinstance(exc, UnicodeError):
        return f"input that is not valid text: {exc}"
    return None


def _recorder_exit(args: Sequence[str]) -> int | None:
    """For ``record --from NAME`` of a runtime whose hook input we decode: the exit code that
    runtime reads as a non-blocking failure of its hook (docs/agents/NAME.md); None for any
    other command, and for a ``NAME`` we do not decode (a usage error: exit 2)."""
    if args[:1] != ["record"]:
        return None
    name = None
    for i, arg in enumerate(args):
        if arg == "--from" and i + 1 < len(args):
            name = args[i + 1]
        elif arg.startswith("--from="):
            name = arg.split("=", 1)[1]
    if name is None:
        return None
    from gentle_hooks.agents.runtimes import DECODED, runtime

    # a name with no hook input to decode (a typo, aider) is a usage error: exit 2
    return runtime(name).failure_exit if name in DECODED else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gentle-hook`` with ``argv`` (default ``sys.argv[1:]``) and return the exit code.

    Never raises: :class:`GentleError` becomes its one-line message and exit code; click's
    usage errors exit 2; anything else is logged with its traceback and exits 3.

    ``record --from NAME`` runs as that runtime's hook after its tool succeeded: a failure
    of the recorder exits with the code the runtime reads as a non-blocking warning (2 would
    make Gemini CLI hide the tool's result and Claude Code feed our error to the model), and
    its one error line ends with ``; nothing recorded``.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    failure_exit = _recorder_exit(args)
    tail = "" if failure_exit is None else "; nothing recorded"
    errors: list[tuple[str, list[str]]] = []  # each line, with the commands it names
    # in JSON mode a gate's failure is one JSON object on stderr, its reason inside it
    as_object = _gate_format(args[1:2]) == "json" if args[:1] == ["hook"] else False
    rc = _run(args, tail, errors, echo=not as_object)
    if failure_exit is not None and rc not in (EXIT_OK, EXIT_INTERRUPTED):
        return failure_exit
    if errors and rc not in (EXIT_OK, EXIT_INTERRUPTED) and args[:1] == ["hook"]:
        _gate_error(args[1:2], rc, *errors[-1])
    elif errors and as_object:  # interrupted: the line was held back, say it still
        print(errors[-1][0], file=sys.stderr)
    return rc


def _gate_format(name: list[str]) -> str | None:
    """The output format of gate ``name`` (``text``, ``json``, ``both``), or None when the
    hook is not a gate."""
    from gentle_hooks.hooks.decision import output_format
    from gentle_hooks.hooks.dispatch import GATES

    if not name or name[0] not in GATES:
        return None
    return output_format(os.environ)[0]


def _gate_error(name: list[str], rc: int, line: str, run: list[str]) -> None:
    """A gate that failed closed says so as its decision object too, when its output format
    asks for one (``GENTLE_HOOKS_FORMAT=json``: the object alone, its reason inside, ``run``
    the commands its line names; an agent runtime detected: after the line)."""
    from gentle_hooks.hooks.decision import error_object, print_decision

    fmt = _gate_format(name)
    if fmt is not None and fmt != "text":
        print_decision(error_object(name[0], rc, line, run or None))


def _say_error(
    errors: list[tuple[str, list[str]]], line: str, echo: bool = True, run: list[str] | None = None
) -> None:
    """Keep ``line`` (with ``run``, the commands it names, as printed) and print it unless
    ``echo`` is false."""
    errors.append((line, run or []))
    if echo:
        print(line, file=sys.stderr)


def _run(args: list[str], tail: str, errors: list[tuple[str, list[str]]], echo: bool = True) -> int:
    """:func:`main` for ``args``; ``tail`` ends every error line, each of which is kept in
    ``errors`` too, and printed unless ``echo`` is false (a gate whose decision object
    carries it)."""
    _escape_streams()
    forget_probes()  # a run answers from what git says now, not a previous run's memo
    try:
        if args[:1] == ["hook"] and args[2:] in (["--help"], ["-h"]):
            # help on one hook: git never calls a hook with this lone argument
            args = ["hook", "--help"]
        if args[:1] == ["hook"] and args[1:2] not in (["--help"], ["-h"], []):
            # The hook path: decided with the standard library before click is imported.
            from gentle_hooks.hooks.dispatch import main as hook_main

            return hook_main(args[1:])
        if args[:1] == ["assess"]:
            # The plain forms (a benchmark's, a CI step's) skip click's import; anything
            # else (help, other options) is click's to parse, with its messages.
            from gentle_hooks.cli.assess_command import assess_command, fast_assess_args

            fast = fast_assess_args(args[1:])
            if fast is not None:
                return assess_command(**fast)  # type: ignore[arg-type]
        import click

        from gentle_hooks.cli.group import cli

        try:
            # color: click never strips escape sequences from what it prints (a path, a
            # receipt's command); the streams show them (:func:`_escape_streams`)
            rv = cli.main(args=args, prog_name=PROG, standalone_mode=False, color=True)
        except click.exceptions.Exit as exc:
            return int(exc.exit_code)
        except click.UsageError as exc:  # one line, as for every other bad input
            from gentle_hooks.errors import cli as named
            from gentle_hooks.report.fixes import command_text

            path = exc.ctx.command_path.split()[1:] if exc.ctx is not None else []
            where = command_text(named(*path, "--help"))
            if args[:1] == ["assess"]:  # assess --json still prints its failure envelope
                from gentle_hooks.cli.assess_command import usage_failure

                usage_failure(args[1:], exc.format_message())
            _say_error(
                errors,
                f"{PROG}: error: {_click_line(exc)} (see: {where}){tail}",
                echo,
            )
            return EXIT_INPUT
        except click.ClickException as exc:
            _say_error(errors, f"{PROG}: error: {_click_line(exc)}{tail}", echo)
            return EXIT_INPUT
        except click.exceptions.Abort:
            return EXIT_INTERRUPTED
        return int(rv) if isinstance(rv, int) else EXIT_OK
    except GentleError as exc:
        from gentle_hooks.report.fixes import command_text, error_text

        run = [command_text(c) for c in exc.commands]
        _say_error(errors, f"{PROG}: error: {one_line(error_text(exc, tail))}", echo, run)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # the contract: one line, the traceback in the log
        refused = _environment_refused(exc)
        where = _log_unexpected(args)
        if refused is not None:
            _say_error(errors, f"{PROG}: error: {one_line(' '.join(refused.split()))}{tail}", echo)
            return EXIT_INPUT
        _say_error(
            errors,
            f"{PROG}: unexpected error: {type(exc).__name__}: {one_line(str(exc))} "
            f"(traceback: {where}){tail}",
            echo,
        )
        return EXIT_UNEXPECTED


class _ClosedStream:
    """Stands for a standard stream that was closed when the process started: reading or
    writing it is bad input (one line, exit 2); flushing or closing it does nothing."""

    reconfigure = None  # nothing to reconfigure (:func:`_escape_streams` skips it)

    def __init__(self, name: str) -> None:
        self.name = name

    def flush(self) -> None:
        return None

    def close(self) -> None:
        return None

    def __getattr__(self, attr: str) -> object:
        raise GentleError(f"standard {self.name} is closed; give the command one to use")


def _guard_standard_streams() -> None:
    """A closed descriptor 0, 1 or 2 is reopened on the null device, so a file or pipe we
    open never takes its number (a git child would read or write it by mistake); the
    stream Python left as None reads or writes as :class:`_ClosedStream` (exit 2), and a
    closed standard error discards what we say."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
    if sys.stdin is None:
        sys.stdin = _ClosedStream("input")
    if sys.stdout is None:
        sys.stdout = _ClosedStream("output")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (lives as long as the process)


def _flush_output() -> str | None:
    """Flush standard output; the system's reason when it cannot take it (a full disk),
    after which the unwritten output is dropped (Python's own flush at exit would fail
    again)."""
    try:
        sys.stdout.flush()
    except OSError as exc:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
        import contextlib

        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        return exc.strerror or str(exc)
    return None


def entry() -> None:
    """Console-script entry: exit with :func:`main`'s code; standard streams closed at
    start are handled (:func:`_guard_standard_streams`), and output that cannot be written
    at the end is one line and exit 2."""
    _guard_standard_streams()
    rc = main()
    failed = _flush_output()
    if failed is not None:
        print(f"{PROG}: error: standard output: {failed}", file=sys.stderr)
        rc = rc if rc == EXIT_UNEXPECTED else EXIT_INPUT
    # The process ends here: the interpreter's last collections walk every object the run
    # made (~7% of a delegated commit's instructions) to free memory the exit frees anyway.
    # Frozen, those objects are skipped; acyclic ones are still released (files closed,
    # connections ended) as the modules are torn down.
    import gc

    gc.freeze()
    sys.exit(rc)
