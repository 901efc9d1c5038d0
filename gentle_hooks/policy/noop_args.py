"""Arguments that make ``python -c``/``-m``, ``node -e``, ``test``/``[``/``[[``, ``git`` and
``diff``/``cmp`` verify nothing (rows ``N-python``, ``N-node``, ``N-test``, ``N-git-read`` and
``N-same-file`` of
:data:`gentle_hooks.policy.nocheck.NO_CHECK_ROWS`, and ``N-probe`` of
:data:`~gentle_hooks.policy.nocheck.PROBE_ROWS`; SPEC §5 "Spot check": "a command that
verifies nothing does not count").

Room ``policy`` (pure): predicates over a simple command's arguments, as the shell reader
gives them (quotes removed, ``$`` expansions left as written).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

from gentle_hooks.policy.wrappers import program_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast


def _literal(word: str) -> bool:
    """A word the shell leaves as written (no expansion can make it empty or change it)."""
    return not any(c in word for c in "$`*?[")


#: The word that closes each bracketed form of ``test``: ``[ ... ]``, bash's ``[[ ... ]]``.
CLOSERS = {"[": "]", "[[": "]]"}


def always_true_test(args: tuple[str, ...]) -> bool:
    """``test``/``[``/``[[`` with literal operands that are true on any tree: one non-empty
    word (``test 1``, ``[ 1 ]``, ``[[ 1 ]]``), or a string compared equal to itself (``[ a =
    a ]``, ``[[ a == a ]]``)."""
    if args[-1:] in (("]",), ("]]",)):
        args = args[:-1]
    if not all(_literal(a) for a in args):
        return False
    if len(args) == 1:
        return args[0] != ""
    return len(args) == 3 and args[1] in ("=", "==") and args[0] == args[2]


#: What a ``python -c`` statement may be and still verify nothing: ``pass``, a constant,
#: ``print`` of constants, ``import sys``, and an exit with status 0 (``sys.exit(0)``,
#: ``exit()``, ``raise SystemExit(0)``).
_EXIT_CALLS = ("sys.exit", "exit", "quit", "SystemExit")
#: Interpreter options that take no value and change nothing a check could fail on.
_PYTHON_FLAGS = frozenset(
    {"-B", "-b", "-bb", "-E", "-I", "-O", "-OO", "-P", "-q", "-s", "-S", "-u"}
)
#: Modules ``python -m`` runs that read nothing of the project: they print the interpreter's
#: own facts (``this``: the Zen of Python; ``site``: its paths).
PYTHON_NOOP_MODULES = frozenset(
    {"this", "site", "platform", "sysconfig", "antigravity", "__hello__", "__phello__"}
)


def python_noop(args: tuple[str, ...]) -> bool:
    """``python [FLAGS] -c SCRIPT`` whose script cannot fail (see :data:`_EXIT_CALLS`),
    ``python -m`` of a module of :data:`PYTHON_NOOP_MODULES`, ``python -m pip`` of
    :func:`pip_reads`, or ``python --version``; an import of anything but ``sys``, an
    ``assert`` of anything but a true constant, a script the shell may expand (``$``), one
    that does not parse, or any other module is a check."""
    while args and args[0] in _PYTHON_FLAGS:
        args = args[1:]
    if args in (("-V",), ("-VV",), ("--version",)):
        return True
    if len(args) >= 2 and args[0] == "-m":
        return args[1] in PYTHON_NOOP_MODULES or (args[1] == "pip" and pip_reads(args[2:]))
    if len(args) < 2 or args[0] != "-c" or "$" in args[1] or "`" in args[1]:
        return False
    # only a ``python -c`` command reads it: a gate that meets none never loads it. The C
    # module's ``compile`` is what ``ast.parse`` calls; ``ast.py`` itself (≈ 1 ms to import)
    # is not needed to read the nodes.
    import _ast

    try:
        tree = compile(args[1], "<unknown>", "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    body = tree.body if isinstance(tree, _ast.Module) else []  # "exec" makes a Module
    return all(_python_stmt_noop(stmt) for stmt in body)


def _dotted(node: ast.expr) -> str | None:
    """A name or a dotted name (``print``, ``sys.exit``) as written; None for any other
    expression (what ``ast.unparse`` would spell otherwise is never one of these names)."""
    import _ast

    if isinstance(node, _ast.Name):
        return node.id
    if isinstance(node, _ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _python_stmt_noop(stmt: ast.stmt) -> bool:
    import _ast

    if isinstance(stmt, _ast.Pass):
        return True
    if isinstance(stmt, _ast.Import):
        return all(a.name == "sys" for a in stmt.names)
    if isinstance(stmt, _ast.Expr):
        value = stmt.value
        if isinstance(value, _ast.Constant):
            return True
        if isinstance(value, _ast.Call) and _dotted(value.func) == "print":
            given = [*value.args, *(k.value for k in value.keywords)]
            return all(isinstance(v, _ast.Constant) for v in given)
        return isinstance(value, _ast.Call) and _exit_zero_call(value)
    if isinstance(stmt, _ast.Assert):  # ``assert True``: a constant that holds
        return (
            isinstance(stmt.test, _ast.Constant)
            and bool(stmt.test.value)
            and (stmt.msg is None or isinstance(stmt.msg, _ast.Constant))
        )
    if isinstance(stmt, _ast.Raise) and isinstance(stmt.exc, _ast.Call):
        return _exit_zero_call(stmt.exc)
    return False


def _exit_zero_call(call: ast.Call) -> bool:
    import _ast

    name = _dotted(call.func)
    if name not in _EXIT_CALLS or call.keywords or len(call.args) > 1:
        return False
    if not call.args:
        return True
    arg = call.args[0]
    return isinstance(arg, _ast.Constant) and arg.value in (0, None)


#: A JavaScript statement that cannot fail: a literal, ``console.log`` of literals, or an
#: exit with status 0 (row N-node). A string literal holds no quote, backslash or ``;``
#: (statements are split at ``;``: anything more is read as a check).
_JS_LITERAL = r"""(?:-?\d[\w.]*|true|false|null|undefined|void\s+0|"[^"\\;]*"|'[^'\\;]*')"""
#: A pattern string, compiled by :mod:`re` (and kept in its cache) the first time a ``node``
#: command is read: compiling it costs ≈ 0.5 ms, which no gate without one should pay.
_JS_NOOP = (
    rf"\s*(?:{_JS_LITERAL}?|console\.log\(\s*(?:{_JS_LITERAL}\s*(?:,\s*{_JS_LITERAL}\s*)*)?\)"
    r"|process\.exit\(\s*0?\s*\))\s*"
)


def node_noop(args: tuple[str, ...]) -> bool:
    """``node -e``/``-p``/``--eval``/``--print SCRIPT`` whose every statement is of
    :data:`_JS_NOOP`, or ``node --version``; anything else (a ``require``, a script the
    shell may expand) is a check."""
    if args in (("-v",), ("--version",)):
        return True
    if len(args) < 2 or args[0] not in ("-e", "-p", "--eval", "--print"):
        return False
    script = args[1]
    if "$" in script or "`" in script:
        return False
    return all(re.fullmatch(_JS_NOOP, part) for part in script.split(";"))


#: git commands that only read the repository (row N-git-read).
GIT_READS = frozenset(
    {
        *("status", "log", "show", "diff", "branch", "tag", "describe", "rev-parse"),
        *("rev-list", "ls-files", "ls-tree", "cat-file", "blame", "shortlog", "reflog"),
        *("remote", "config", "version", "help", "whatchanged"),
    }
)


def git_reads(args: tuple[str, ...]) -> bool:
    """Whether ``git ARGS`` runs a reading command (global options ``-C DIR``, ``-c K=V``
    and ``--flags`` skipped)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in ("-C", "-c") else 1
    return i < len(args) and args[i] in GIT_READS


def same_file(args: tuple[str, ...]) -> bool:
    """Whether ``diff``/``cmp`` ARGS compare one file with itself (row N-same-file)."""
    operands = [a for a in args if not a.startswith("-")]
    return len(operands) == 2 and operands[0] == operands[1]


#: ``test``/``[`` operators that ask only whether a path exists or what it is (POSIX
#: ``test``; bash's unary ``-a -G -k -N -O``), and the binary ones comparing two paths.
FILE_TESTS = frozenset({"-" + c for c in "abcdefgGhkLNOprsSuwx"})
PATH_COMPARES = frozenset({"-nt", "-ot", "-ef"})
#: Programs that report a path's size, type or name, and succeed whenever it exists.
METADATA = frozenset({"stat", "wc", "file", "du", "readlink", "realpath"})


def file_probe(words: tuple[str, ...]) -> bool:
    """Whether a simple command (program included) only probes paths (row N-probe):
    :data:`METADATA` with any arguments, or ``test``/``[`` whose every question, after
    ``!`` and between ``-a``/``-o``, is a :data:`FILE_TESTS` or :data:`PATH_COMPARES` one
    (``test -f app.py``, ``[ ! -d build ]``, ``[ -f a -a -x b ]``), or bash's ``[[`` whose
    every question between ``&&``/``||``, parentheses left out, is one (``[[ -f x ]]``,
    ``[[ ! ( -d a || -e b ) ]]``: whatever joins them, only paths are asked about)."""
    name, args = program_name(words[0]), words[1:]
    if name in METADATA:
        return True
    if name not in ("test", "[", "[["):
        return False
    if name in CLOSERS and args[-1:] == (CLOSERS[name],):
        args = args[:-1]
    # inside [[ ]] -a and -o are file tests, and && and || join
    joins = ("&&", "||") if name == "[[" else ("-a", "-o")
    if name == "[[":
        args = tuple(a for a in args if a not in ("(", ")"))
    questions: list[list[str]] = [[]]
    for a in args:
        if a in joins and questions[-1]:
            questions.append([])  # a binary join of two questions; a leading -a is one
        else:
            questions[-1].append(a)
    return all(_path_question(q) for q in questions)


def _path_question(words: list[str]) -> bool:
    while words[:1] == ["!"]:
        words = words[1:]
    if len(words) == 2:
        return words[0] in FILE_TESTS
    return len(words) == 3 and words[1] in PATH_COMPARES


#: The one argument with which a tool prints its version or usage and runs nothing
#: (row N-version); ``-v`` only for :data:`V_IS_VERSION` (``pytest -v`` is verbose), the
#: word ``version`` only for :data:`VERSION_VERBS` (``make version`` is a project's target).
VERSION_FLAGS = frozenset({"--version", "-V", "-VV", "--help", "-h", "-help", "-version"})
V_IS_VERSION = frozenset({"npm", "npx", "yarn", "pnpm", "bun", "make", "gmake", "perl", "ruby"})
VERSION_VERBS = frozenset({"go", "cargo", "npm", "yarn", "pnpm", "docker", "rustup"})


def version_query(words: tuple[str, ...]) -> bool:
    """Whether a simple command (program included) asks a tool for its version or usage
    alone (``git --version``, ``ruff --version``, ``npm -v``, ``go version``, ``make
    --help``, ``python -m mypy --version``; row N-version)."""
    if len(words) == 4 and program_name(words[0]).startswith("python") and words[1] == "-m":
        words = words[2:]  # python -m MODULE FLAG: the module's version or usage
    if len(words) != 2:
        return False
    name, arg = program_name(words[0]).rsplit("/", 1)[-1], words[1]
    if arg in VERSION_FLAGS:
        return True
    return (arg == "-v" and name in V_IS_VERSION) or (arg == "version" and name in VERSION_VERBS)


#: make's options that take no value and run no recipe: ``-n`` (print them), ``-q``
#: (question: only the exit status says whether a target is up to date), ``-t`` (touch).
_MAKE_NO_RUN = frozenset({"--dry-run", "--just-print", "--recon", "--question", "--touch"})
#: make's single-letter options that take no value (GNU make), so ``-kn`` is ``-k -n``.
_MAKE_LETTERS = frozenset("BdeiknLpqrRsStvwt")


def make_runs_nothing(args: tuple[str, ...]) -> bool:
    """Whether ``make ARGS`` runs no recipe (``make -n``, ``make --dry-run test``, ``make
    -kq``; row N-dry-run)."""
    for a in args:
        if a in _MAKE_NO_RUN or a.startswith("--dry-run="):
            return True
        letters = set(a[1:])
        short = a.startswith("-") and not a.startswith("--") and letters <= _MAKE_LETTERS
        if short and letters & set("nqt"):
            return True
    return False


#: pip commands that only read the installed environment (row N-pip-read).
PIP_READS = frozenset({"list", "freeze", "show", "inspect", "debug", "help", "config", "cache"})


def pip_reads(args: tuple[str, ...]) -> bool:
    """Whether ``pip ARGS`` runs a reading command (``pip list``, ``pip -q freeze``), or
    asks pip its version."""
    if args in (("--version",), ("-V",), ("--help",), ("-h",)):
        return True
    verb = next((a for a in args if not a.startswith("-")), None)
    return verb in PIP_READS


def status_test(args: tuple[str, ...]) -> frozenset[int] | None:
    """The exit statuses (0 to 255) that make ``test``/``[``/``[[ ARGS`` true when ARGS
    compare ``$?`` with a number (``[ $? -eq 5 ]``, ``test "$?" = 1``); None for any other
    test. After a failing command, a test of ``$?`` turns the statuses it names into
    success: ``pytest -k x || [ $? -eq 5 ]`` succeeds when pytest collected nothing (row
    N-status)."""
    if args[-1:] in (("]",), ("]]",)):
        args = args[:-1]
    if len(args) != 3 or "$?" not in (args[0], args[2]):
        return None
    left, op, right = args
    other = right if left == "$?" else left
    if not other.lstrip("-").isdigit() or op not in _COMPARE:
        return None
    number = int(other)
    if left == "$?":
        return frozenset(s for s in range(256) if _COMPARE[op](s, number))
    return frozenset(s for s in range(256) if _COMPARE[op](number, s))


_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "-eq": operator.eq,
    "=": operator.eq,
    "==": operator.eq,
    "-ne": operator.ne,
    "!=": operator.ne,
    "-lt": operator.lt,
    "-le": operator.le,
    "-gt": operator.gt,
    "-ge": operator.ge,
}
