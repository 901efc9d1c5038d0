"""Arguments of file and text tools that cannot fail on what a file holds (rows N-files and
N-text of :data:`gentle_hooks.policy.nocheck.NO_CHECK_ROWS`; SPEC §5 "Spot check": "a
command that verifies nothing does not count").

Room ``policy`` (pure). :func:`text_noop` reads a simple command and says whether its
status depends on nothing but a path existing: ``sort`` unless told to check the order
(``-c``/``-C``/``--check``), a digest unless told to check sums (``-c``/``--check``),
``find`` unless it runs a command (``-exec``, ``-execdir``, ``-ok``, ``-okdir``), ``sed``
unless its script quits with a status (``q1``, ``Q3``), ``awk`` unless its program says
``exit``. Anything else of theirs, or a program word not named here, is a check.
"""

from __future__ import annotations

from gentle_hooks.policy.wrappers import program_name
from gentle_hooks.values.lazy_pattern import lazy_pattern

#: Programs that make, move or name files and never read what one holds (row N-files).
FILE_TOOLS: tuple[str, ...] = (
    *("touch", "mkdir", "rmdir", "rm", "cp", "mv", "ln", "chmod", "install"),
    *("seq", "basename", "dirname", "realpath", "readlink", "mktemp"),
)
#: Programs that print, cut or reorder text whatever it says (row N-text).
TEXT_TOOLS: tuple[str, ...] = (
    *("sort", "uniq", "cut", "tr", "rev", "paste", "column", "fold", "expand", "unexpand"),
    *("fmt", "pr", "comm", "join", "split", "strings", "find", "sed", "awk", "gawk", "mawk"),
    *("md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum"),
    *("cksum", "sum", "base64", "base32"),
    "xargs",  # reached only with no command of its own (policy.wrappers reads one): echo
)
_DIGESTS = frozenset(TEXT_TOOLS[TEXT_TOOLS.index("md5sum") : TEXT_TOOLS.index("cksum")])
#: A sed command that quits with an exit status of its own (GNU ``q``/``Q`` EXIT-CODE).
_SED_STATUS = lazy_pattern(r"(?:^|[;{}\s\d/$])[qQ]\s*[1-9]")
_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _flags(args: tuple[str, ...]) -> set[str]:
    """The short letters and long options among ``args`` (``-cu`` is ``c`` and ``u``)."""
    found: set[str] = set()
    for a in args:
        if a.startswith("--"):
            found.add(a.split("=", 1)[0])
        elif a.startswith("-") and len(a) > 1:
            found.update(a[1:])
    return found


def text_noop(words: tuple[str, ...]) -> bool:
    """Row N-text: whether the simple command ``words`` (program included: a name, or a
    path in a system bin) runs one of :data:`TEXT_TOOLS` in a way that only prints or
    reorders text."""
    program = program_name(words[0]) if words else ""
    if program not in TEXT_TOOLS:
        return False
    args = words[1:]
    if program == "sort":
        return not _flags(args) & {"c", "C", "--check"}
    if program in _DIGESTS:
        return not _flags(args) & {"c", "--check"}
    if program == "find":
        return not _FIND_RUNS & set(args)
    if program == "sed":
        return not any(_SED_STATUS.search(a) for a in args if not a.startswith("-"))
    if program in ("awk", "gawk", "mawk"):
        return not any("exit" in a for a in args)
    return True
