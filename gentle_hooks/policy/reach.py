"""Whether a verifier's check can reach outside the clean room (SPEC §9; seed 001 "Contract":
the verifier gets "the artifact, the criteria, and the read-only tools").

Room ``policy`` (pure: the caller hands over the command and the brief's variables). A
check runs in the room's ``tree/``, the candidate's exact tree. One that changes to an
absolute directory (``cd /tmp/work && pytest``), names an absolute path
(``pytest -q /home/me/repo``), a home directory (``~alice/repo``) or a path that climbs
out of the room (``../../../repo``), or runs with a variable pointing outside it
(``PYTHONPATH=/home/me/repo``), observes another tree than the candidate's: the writer's
work tree, its repository, another worktree. One table, :data:`REACH_ROWS`, says which
words do; :func:`reach_faults` reads a check's command, :func:`env_faults` a brief's
variables. Refused before anything runs (brief rule B4).

Allowed: relative paths that stay in the room (``../base`` is the room's own base tree, at
the same path on every run), the system's directories (:data:`SYSTEM_PREFIXES`: programs
such as ``/usr/bin/python3``, ``/dev/null``), variables (the room sets ``HOME``,
``TMPDIR`` and ``PWD`` itself; the brief's own are judged by :func:`env_faults`) except as
``cd``'s target. A system path is read after normalising and never holds ``..``
(``/usr/../tmp/repo`` is outside); ``/dev/shm`` is anyone's, not the system's.

A word the shell builds from a command's output (``cat $(printf /tmp/x)``, a backquoted
command, ``X=$(...)``) names a path known only when it runs, whatever the command's text
looks like (``printf '\\057tmp'``, ``base64 -d``): it is refused (row ``R-subst``), and the
substituted command is itself read as written, as a command of the check. Allowed, since
they open no path: such a word printed (``echo``, ``printf``) or compared by ``test``/``[``/
``[[`` (``test "$(python3 -c ...)" = 6``), but not as a file test's operand (``-e``,
``-f``, ``-nt``...); and ``$(pwd)``, the directory the check is in.

Limits: what a program does once started (a script that changes directory, ``python -c``
code that opens an absolute path) is not read here.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping

from gentle_hooks.policy.shell import Token, Unreadable, tokenize
from gentle_hooks.policy.wrappers import MAX_DEPTH, SHELLS, shell_script, unwrap
from gentle_hooks.values.frozen import frozen

#: Absolute paths a check may name: the system's programs, libraries and devices.
SYSTEM_PREFIXES: tuple[str, ...] = (
    "/dev/",
    "/usr/",
    "/bin/",
    "/sbin/",
    "/lib/",
    "/lib64/",
    "/lib32/",
)


@frozen
class ReachRow:
    """One row of :data:`REACH_ROWS`: id, the case in words, and its predicate on one word
    (``cd``: the word is ``cd``'s target; ``cwd``: the directory the check is in, relative
    to the tree, or None when unknown)."""

    id: str
    when: str
    matches: Callable[[str, bool, str | None], bool]
    said: str


#: Directories under :data:`SYSTEM_PREFIXES` anyone may write (a copy of the repository
#: may sit there): not the system's.
SHARED_UNDER_SYSTEM: tuple[str, ...] = ("/dev/shm", "/dev/mqueue")


def _is_system(path: str) -> bool:
    """Whether absolute ``path`` is in the system's directories, read lexically after
    normalising (``/usr/./bin`` is ``/usr/bin``). A path with a ``..`` component never is:
    ``/usr/../tmp/repo`` climbs out of the prefix it starts with, and through a symlink
    (``/bin`` -> ``usr/bin``) ``..`` need not go where the text says."""
    if ".." in path.split("/"):
        return False
    norm = "/" + posixpath.normpath(path).lstrip("/")
    if any(norm == d or norm.startswith(d + "/") for d in SHARED_UNDER_SYSTEM):
        return False
    return norm in {p.rstrip("/") for p in SYSTEM_PREFIXES} or norm.startswith(SYSTEM_PREFIXES)


#: Separators of a variable's list of places (PATH, PYTHONPATH, LD_LIBRARY_PATH...).
_LIST_SEPARATOR = ":"


#: How deep an option's value is read for a nested ``KEY=VALUE``
#: (``--override-ini=pythonpath=/x`` is two).
_NESTED = 4


def _values(word: str, depth: int = 0) -> tuple[str, ...]:
    """The parts of a word that may be paths: the word, an option's or an assignment's
    value (``--rootdir=/x``, ``X=/x``, ``-c=/x``), the value of a ``KEY=VALUE`` inside
    one (``--override-ini=pythonpath=/x``, ``-o=pythonpath=/x``, ``-opythonpath=/x``, at
    most :data:`_NESTED` deep), each entry of a list of places there (``:``-separated:
    ``--path=/usr/lib:/x``; space-separated: ``-o "pythonpath=. /x"``), a short option's
    attached value (``-C/x``)."""
    out = [word]
    if len(word) > 2 and word.startswith("-") and not word.startswith("--"):
        out.append(word[2:])
        if "=" in word[2:] and not word[2:].startswith("=") and depth < _NESTED:
            out += _values(word[2:], depth + 1)[1:]
    if "=" in word:
        _, _, value = word.partition("=")
        entries = [value]
        # X=/usr/lib:/home/me, --path=/usr/lib:/home/me: each entry of a list of places
        # (a URL's "scheme://" is one place); pythonpath=. /home/me: pytest's ini list
        if _LIST_SEPARATOR in value and "://" not in value:
            entries += value.split(_LIST_SEPARATOR)
        if len(value.split()) > 1:
            entries += value.split()
        for entry in entries:
            out.append(entry)
            if "=" in entry and depth < _NESTED:
                out += _values(entry, depth + 1)[1:]
    return tuple(dict.fromkeys(out))


def _absolute(word: str, cd: bool, cwd: str | None) -> bool:
    return any(v.startswith("/") and not _is_system(v) for v in _values(word))


def _home(word: str, cd: bool, cwd: str | None) -> bool:
    return any(v.startswith("~") for v in _values(word)) or (cd and word in ("", "-"))


#: How a check names the directory it runs in: read as that directory, so ``$PWD/../..``
#: climbs as ``../..`` does.
_HERE = ("${PWD}", "$PWD", "$(pwd)", "`pwd`", '"$PWD"', '"${PWD}"', '"$(pwd)"')


def _here_relative(value: str) -> str:
    """``value`` with a leading name of the current directory (:data:`_HERE`) read as
    ``.``."""
    for here in _HERE:
        if value == here or value.startswith(here + "/"):
            return "." + value[len(here) :]
    return value


def _climbs(word: str, cd: bool, cwd: str | None) -> bool:
    for value in map(_here_relative, _values(word)):
        if ".." not in value.split("/") or value.startswith("/"):
            continue
        if "$" in value or "`" in value:
            return True  # climbing from a directory known only when the check runs
        # the tree is one level below the room: ``..`` is the room, ``../..`` outside it
        where = posixpath.normpath(posixpath.join("room/tree", cwd or ".", value))
        if cwd is None or not (where == "room" or where.startswith("room/")):
            return True
    return False


def _cd_variable(word: str, cd: bool, cwd: str | None) -> bool:
    return cd and ("$" in word or "`" in word)


class _Built(str):
    """A word of a shell line the shell builds from command substitutions: its text, and
    the script of each (:attr:`~gentle_hooks.policy.shell.Token.substituted`)."""

    scripts: tuple[str, ...]

    def __new__(cls, text: str, scripts: tuple[str, ...]) -> _Built:
        word = super().__new__(cls, text)
        word.scripts = scripts
        return word


def _built(word: str, cd: bool, cwd: str | None) -> bool:
    return isinstance(word, _Built)


#: Programs that only print their arguments: a built word given to them opens nothing.
_PRINTERS = frozenset({"echo", "printf"})
#: ``test``'s spellings: a built word compared as a string opens nothing.
_TESTS = frozenset({"test", "[", "[["})
#: ``test`` operators whose operands are files (unary, and ``-nt``/``-ot``/``-ef``).
_FILE_TESTS = frozenset({f"-{c}" for c in "abcdefghkprsuwxGLNOS"} | {"-nt", "-ot", "-ef"})


def _opens_nothing(words: list[str], k: int, i: int) -> bool:
    """Whether word ``i`` of a command whose program is word ``k``, built by command
    substitution, opens no path: printed, compared as a string, or ``$(pwd)`` alone."""
    word = words[i]
    if isinstance(word, _Built) and all(s.strip() == "pwd" for s in word.scripts):
        return True  # the directory the check is in: R-up reads what follows it
    if i <= k or k >= len(words):
        return False  # an assignment, or the program itself
    name = words[k].rsplit("/", 1)[-1]
    if name in _PRINTERS:
        return True
    near = {*words[i - 1 : i], *words[i + 1 : i + 2]}
    return name in _TESTS and words[i - 1] not in _FILE_TESTS and not near & {"-nt", "-ot", "-ef"}


#: Words that reach outside the room, first match wins (one fault per word).
REACH_ROWS: tuple[ReachRow, ...] = (
    ReachRow(
        "R-abs",
        "an absolute path outside the system's directories (a cd target, an argument, an "
        "option's value, a redirection)",
        _absolute,
        said="names an absolute path",
    ),
    ReachRow(
        "R-home",
        "a home directory (~, ~user) or a bare `cd`/`cd -` (the home or the previous directory)",
        _home,
        said="names a home directory",
    ),
    ReachRow(
        "R-up",
        "a relative path that climbs out of the room (../.. from the tree, $PWD/../.. too), "
        "`..` after a variable, or `..` after a cd this reader could not follow",
        _climbs,
        said="climbs out of the room",
    ),
    ReachRow(
        "R-cd-var",
        "cd to a variable or a command's output: where it goes is not known before it runs",
        _cd_variable,
        said="changes to a directory known only when it runs",
    ),
    ReachRow(
        "R-subst",
        "a word built from a command's output ($(...), `...`) as a path, a program or an "
        "assignment: where it points is known only when it runs (printed by echo/printf, "
        "compared as a string by test, or $(pwd) is allowed)",
        _built,
        said="builds a path from a command's output, known only when it runs (write the "
        "path out, or compare the output with test)",
    ),
)


@frozen
class Reach:
    """One word of a check that reaches outside the room: the word and the row."""

    word: str
    row: ReachRow


def _commands(argv: tuple[str, ...], depth: int = 0) -> list[list[str]]:
    """The simple commands of ``argv`` as word lists (a shell's ``-c`` script split at its
    operators; wrappers such as ``env``/``timeout`` unwrapped), in order; a word a shell
    builds from command substitutions is a :class:`_Built`, and each substituted script's
    commands follow the command holding it."""
    if not argv:
        return []
    inner = unwrap(argv) if depth < MAX_DEPTH else None
    if inner is not None:
        return [list(argv[: len(argv) - len(inner)]), *_commands(inner, depth + 1)]
    name = argv[0].rsplit("/", 1)[-1]
    if name in SHELLS and depth < MAX_DEPTH:
        script, _ = shell_script(argv)
        if script is not None:
            try:
                tokens = tokenize(script)
            except Unreadable:
                return [[*argv[:1], script]]
            out: list[list[str]] = []
            run: list[str] = []
            subbed: list[str] = []
            for tok in (*tokens, Token(";", op=True)):
                if tok.op and not any(c in tok.text for c in "<>"):  # a redirection's target stays
                    if run:
                        out += _commands(tuple(run), depth + 1)
                    for sub in subbed:  # read as written: a command of the check too
                        out += _commands(("sh", "-c", sub), depth + 1)
                    run, subbed = [], []
                elif not tok.op:
                    run.append(_Built(tok.text, tok.substituted) if tok.substituted else tok.text)
                    subbed += tok.substituted
            return out
    return [list(argv)]


def reach_faults(argv: tuple[str, ...]) -> tuple[Reach, ...]:
    """The words of a check (its argument vector: ``("sh", "-c", LINE)`` for a shell line)
    that reach outside the room (:data:`REACH_ROWS`), in order, each once; empty when none
    does. Assignments (``X=/abs pytest``) and redirections are judged too, and a relative
    ``cd`` is followed, so ``cd sub && cat ../../x`` is seen to climb."""
    found: list[Reach] = []
    cwd: str | None = "."
    for words in _commands(argv):
        k = next((i for i, w in enumerate(words) if not _is_assignment(w)), len(words))
        is_cd = k < len(words) and words[k] == "cd"
        # a built word that opens nothing is read as the text it is
        words = [str(w) if _opens_nothing(words, k, i) else w for i, w in enumerate(words)]
        for i, word in enumerate(words):
            row = next((r for r in REACH_ROWS if r.matches(word, is_cd and i == k + 1, cwd)), None)
            if row is not None:
                found.append(Reach(word, row))
        if not is_cd:
            continue
        target = words[k + 1] if k + 1 < len(words) else ""
        if not target:  # a bare cd goes home
            found.append(Reach("cd", REACH_ROWS[1]))
        moved = posixpath.normpath(posixpath.join(cwd, target)) if cwd is not None else None
        cwd = None if any(f.word == target for f in found) else moved
    return tuple(dict.fromkeys(found))


def _is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.isidentifier()


def env_faults(env: Mapping[str, str]) -> tuple[tuple[str, Reach], ...]:
    """The brief's variables (name, the entry) whose value, or an entry of a ``:``-separated
    list of places, reaches outside the room (:data:`REACH_ROWS` R-abs, R-home, R-up), in
    name order. ``PATH=/usr/bin:/bin`` stays in the system's directories;
    ``PYTHONPATH=src`` in the tree."""
    found: list[tuple[str, Reach]] = []
    for name in sorted(env):
        for entry in env[name].split(_LIST_SEPARATOR):
            row = next((r for r in REACH_ROWS[:3] if r.matches(entry, False, ".")), None)
            if row is not None:
                found.append((name, Reach(entry, row)))
    return tuple(found)
