"""The one shape a verifier's check may have: simple commands joined by ``&&`` (seed 001
"Completion criteria": "every declared criterion has evidence, not an assertion").

Room ``policy`` (pure). A check's exit status is its verdict, so the line must fail whenever
one of its commands fails. Rather than list the constructs that hide a failure (there is
always one more), :func:`shape_fault` accepts only what cannot hide one and names the
first thing it meets outside it:

* words: plain, quoted (``'...'``, ``"..."``, ``\\x``), with ``$NAME`` and ``${NAME}``;
* redirections to a file or a file descriptor (``>/dev/null``, ``2>&1``, ``<in``);
* assignments before the command word (``PYTHONPATH=src pytest``);
* ``&&`` between commands.

Everything else is refused by a row of :data:`LINE_ROWS`: ``;``, ``||``, ``&``, a pipe, a
newline (row ``N-hidden`` of :mod:`gentle_hooks.policy.nocheck`), command or process
substitution, an expansion with an operator, ``!``, a compound command or group, a
here-document, a comment. A simple command is read through its wrappers (``env``,
``timeout`` ...): a shell's ``-c`` script must have the same shape, and ``find -exec ...
;``, ``eval``, ``exec`` and ``trap`` are refused (:data:`PROGRAM_ROWS`). An argument vector
run without a shell (:func:`argv_fault`) is one simple command.
"""

from __future__ import annotations

from gentle_hooks.policy.shell import RESERVED
from gentle_hooks.policy.wrappers import MAX_DEPTH, SHELLS, program_name, shell_script, unwrap
from gentle_hooks.values.frozen import frozen


@frozen
class LineRow:
    """A construct a check may not use: stable id, and why, in words."""

    id: str
    text: str


#: What :func:`shape_fault` refuses, each with why (``N-hidden`` is the list operators').
LINE_ROWS: tuple[LineRow, ...] = (
    LineRow(
        "N-hidden",
        "the line can succeed while one of its commands fails",
    ),
    LineRow("L-subst", "the status of the command inside is lost"),
    LineRow(
        "L-expansion",
        "an expansion with an operator can run or hide commands; only $NAME and ${NAME} "
        "are plain words",
    ),
    LineRow("L-negate", "! inverts the status: success means the command failed"),
    LineRow("L-compound", "its status is not the status of the checks inside it"),
    LineRow("L-heredoc", "a here-document or here-string feeds the check text not in its words"),
    LineRow("L-comment", "text after # is not run: the check is only what runs"),
    LineRow("L-unreadable", "the line cannot be read as commands joined by &&"),
)

#: Programs refused wherever they appear (after wrappers), with the row and why.
PROGRAM_ROWS: tuple[tuple[str, str, str], ...] = (
    ("eval", "L-eval", "eval runs a line not written in the check"),
    ("exec", "L-eval", "exec replaces the shell: the commands after it never run"),
    ("trap", "L-eval", "trap sets a command that can change the line's exit status"),
)

#: ``find`` actions whose command's status find ignores when ended by ``;``.
FIND_EXEC = ("-exec", "-execdir", "-ok", "-okdir")


@frozen
class ShapeFault:
    """Why a check's line is refused.

    Attributes:
        row: the :data:`LINE_ROWS` id (or ``L-eval``/``L-find-exec``); construct: what was
            met, as the user wrote it (``;``, ``$(``, ``if``); why: the row in words.
    """

    row: str
    construct: str
    why: str


def _fault(row: str, construct: str) -> ShapeFault:
    why = next(r.text for r in LINE_ROWS if r.id == row)
    return ShapeFault(row, construct, why)


#: Operators of the shell grammar (XCU §2.10.2, plus bash's), longest first, with the
#: construct they start: None for ``&&``, ``"redirect"`` for a redirection.
_OPERATORS: tuple[tuple[str, str | None], ...] = (
    ("<<<", "L-heredoc"),
    ("&>>", "redirect"),
    ("&&", None),
    ("||", "N-hidden"),
    (";;", "N-hidden"),
    ("|&", "N-hidden"),
    ("<(", "L-subst"),
    (">(", "L-subst"),
    ("<<", "L-heredoc"),
    (">>", "redirect"),
    (">&", "redirect"),
    ("<&", "redirect"),
    ("&>", "redirect"),
    (">|", "redirect"),
    ("<>", "redirect"),
    (";", "N-hidden"),
    ("&", "N-hidden"),
    ("|", "N-hidden"),
    ("(", "L-compound"),
    (")", "L-compound"),
    ("<", "redirect"),
    (">", "redirect"),
)
_NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME_CHARS = _NAME_START + "0123456789"


class _Refused(Exception):
    def __init__(self, fault: ShapeFault) -> None:
        super().__init__(fault.construct)
        self.fault = fault


def _refuse(row: str, construct: str) -> _Refused:
    return _Refused(_fault(row, construct))


class _Reader:
    """One pass over a line: the simple commands it joins with ``&&``, each as its words
    without quotes, or the first construct outside the accepted shape."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.commands: list[list[str]] = []
        self.words: list[str] = []  # the current command's words (assignments dropped)
        self.word: list[str] = []
        self.in_word = self.quoted = False
        self.target = False  # the next word is a redirection's target
        self.used = False  # the current command has a word, an assignment or a redirection
        self.spaced = True  # whitespace (or a line start) came before the current word

    def read(self) -> list[list[str]]:
        text = self.text
        while self.i < len(text):
            c = text[self.i]
            if c in " \t":
                self._end_word()
                self.spaced = True
                self.i += 1
            elif c in "\n\r":
                raise _refuse("N-hidden", "a newline")
            elif c == "\\":
                if text.startswith("\\\n", self.i):
                    self.i += 2  # a line continuation
                    continue
                if self.i + 1 >= len(text):
                    raise _refuse("L-unreadable", "a trailing \\")
                self._add(text[self.i + 1], quoted=True)
                self.i += 2
            elif c == "'":
                end = text.find("'", self.i + 1)
                if end < 0:
                    raise _refuse("L-unreadable", "an unterminated quote")
                self._add(text[self.i + 1 : end], quoted=True)
                self.i = end + 1
            elif c == '"':
                self._double_quoted()
            elif c == "$":
                self._dollar()
            elif c == "`":
                raise _refuse("L-subst", "` (command substitution)")
            elif c == "#" and not self.in_word:
                raise _refuse("L-comment", "# (a comment)")
            else:
                op = next(((o, r) for o, r in _OPERATORS if text.startswith(o, self.i)), None)
                if op is None:
                    self._add(c)
                    self.i += 1
                else:
                    self._operator(*op)
        self._end_word()
        self._end_command("the end of the line")
        return self.commands

    def _add(self, part: str, *, quoted: bool = False) -> None:
        self.word.append(part)
        self.in_word = True
        self.quoted = self.quoted or quoted

    def _double_quoted(self) -> None:
        text = self.text
        self.i += 1
        self.in_word = self.quoted = True
        while self.i < len(text):
            c = text[self.i]
            if c == '"':
                self.i += 1
                return
            if c == "\\" and self.i + 1 < len(text) and text[self.i + 1] in '"\\$`\n':
                self.word.append(text[self.i + 1])
                self.i += 2
            elif c == "`":
                raise _refuse("L-subst", "` (command substitution)")
            elif c == "$":
                self._dollar()
            else:
                self.word.append(c)
                self.i += 1
        raise _refuse("L-unreadable", "an unterminated quote")

    def _dollar(self) -> None:
        """``$NAME``, ``${NAME}`` and ``$`` before anything else are words; ``$(``,
        ``$((`` and ``${`` with an operator are refused."""
        text, i = self.text, self.i
        if text.startswith("$((", i):
            raise _refuse("L-expansion", "$(( (arithmetic expansion)")
        if text.startswith("$(", i):
            raise _refuse("L-subst", "$( (command substitution)")
        if text.startswith("${", i):
            end = text.find("}", i + 2)
            name = text[i + 2 : end] if end > 0 else ""
            if not (name and name[0] in _NAME_START and all(ch in _NAME_CHARS for ch in name)):
                raise _refuse("L-expansion", "${...} with an operator")
            self._add(text[i : end + 1])
            self.i = end + 1
            return
        self._add("$")
        self.i += 1

    def _end_word(self) -> None:
        if not self.in_word:
            return
        text, quoted = "".join(self.word), self.quoted
        self.word.clear()
        self.in_word = self.quoted = False
        self.used = True
        if self.target:
            self.target = False
            return
        if not self.words and not quoted:
            if text in RESERVED or text in ("{", "}", "!"):
                row = "L-negate" if text == "!" else "L-compound"
                raise _refuse(row, text)
            if _is_assignment(text):
                return
        self.words.append(text)

    def _operator(self, op: str, row: str | None) -> None:
        if row == "redirect":
            if self.in_word and not self.spaced and "".join(self.word).isdigit():
                self.word.clear()  # the file descriptor of 2>&1
                self.in_word = self.quoted = False
            self._end_word()
            if self.target:
                raise _refuse("L-unreadable", f"{op} without a target")
            self.target = self.used = True
            self.i += len(op)
            self.spaced = False
            return
        self._end_word()
        if row is not None:
            raise _refuse(row, op)
        self._end_command("&&")
        self.i += len(op)
        self.spaced = True

    def _end_command(self, where: str) -> None:
        """Close the current command at ``&&`` or at the end of the line."""
        if self.target:
            raise _refuse("L-unreadable", "a redirection without a target")
        if self.used:
            self.commands.append(self.words)
        elif where == "&&" or self.commands:
            raise _refuse(
                "L-unreadable", f"a command missing {'before' if where == '&&' else 'at'} {where}"
            )
        self.words, self.used = [], False


def _is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return (
        bool(eq) and bool(name) and name[0] in _NAME_START and all(c in _NAME_CHARS for c in name)
    )


def shape_fault(text: str, depth: int = 0) -> ShapeFault | None:
    """The first construct of a shell line outside the accepted shape (module docstring),
    or None when the line is simple commands joined by ``&&``.

    A blank line is None: whether it checks anything is
    :func:`gentle_hooks.policy.nocheck.judge_command`'s business.
    """
    try:
        commands = _Reader(text).read()
    except _Refused as refused:
        return refused.fault
    for words in commands:
        fault = argv_fault(tuple(words), depth)
        if fault is not None:
            return fault
    return None


def argv_fault(words: tuple[str, ...], depth: int = 0) -> ShapeFault | None:
    """The first construct of one simple command (its words, without quotes) that can hide
    a failure: a refused program (:data:`PROGRAM_ROWS`), ``find -exec ... ;``, or a shell's
    ``-c`` script outside the shape; read through wrappers (``env``, ``timeout`` ...).
    None when it has none."""
    while words and depth <= MAX_DEPTH:
        name = program_name(words[0])
        for program, row, why in PROGRAM_ROWS:
            if name == program:
                return ShapeFault(row, program, why)
        if name == "find":
            return _find_fault(words)
        if name in SHELLS:
            script, _ = shell_script(words)
            return None if script is None else shape_fault(script, depth + 1)
        inner = unwrap(words)
        if inner is None:
            return None
        words, depth = inner, depth + 1
    return None


def _find_fault(words: tuple[str, ...]) -> ShapeFault | None:
    """``find ... -exec CMD ;``: find's status ignores CMD's (with ``+`` it does not)."""
    i = 1
    while i < len(words):
        if words[i] in FIND_EXEC:
            end = next((j for j in range(i + 1, len(words)) if words[j] in (";", "+")), None)
            if end is None or words[end] == ";":
                return ShapeFault(
                    "L-find-exec",
                    f"find {words[i]} ... ;",
                    "find succeeds whatever the command it runs returns: end it with + "
                    "or run the command directly",
                )
            i = end
        i += 1
    return None
