"""A POSIX shell command line read into its structure: lists, and-or lists, pipelines,
simple commands (SPEC §5 "Spot check": which reported commands verify something).

Room ``policy`` (pure: standard library only). :func:`parse_line` reads the grammar of the
POSIX Shell Command Language (IEEE Std 1003.1-2017, XCU §2.9 "Shell Commands": §2.9.1 simple
commands, §2.9.2 pipelines, §2.9.3 lists, §2.9.4 grouping with ``( )`` and ``{ }``) as far as
the exit status of a line depends on it. Quoting (§2.2) and command substitution (§2.6.3)
are read so that an operator inside quotes or inside ``$(...)`` is part of a word; words
keep their text without quotes. Redirections (§2.7) and variable assignments before the
command word are dropped: they do not change which command decides the status.

bash's conditional command ``[[ expression ]]`` is read as one simple command whose program
is ``[[`` (its status is the expression's, as ``test``'s is).

What it does not read — a compound command with a reserved word (``if``, ``for``, ``while``,
``case`` ...), a here-document, unbalanced quotes or parentheses — makes the whole line
*unreadable* (:func:`parse_line` returns None): the caller decides what an unreadable line
is worth.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.values.frozen import frozen

#: Control and redirection operators, longest first (XCU §2.10.2 tokens, plus bash's
#: ``|&``, ``&>``, ``&>>`` and ``<<<``, which scripts in the wild use).
OPERATORS: tuple[str, ...] = (
    "&>>",
    "<<<",
    "&&",
    "||",
    ";;",
    "|&",
    ">>",
    "<<",
    ">&",
    "<&",
    "&>",
    ">|",
    "<>",
    ";",
    "&",
    "|",
    "(",
    ")",
    "<",
    ">",
)
#: Operators that redirect; each takes the next word as its target.
REDIRECTIONS = frozenset({"<", ">", ">>", ">&", "<&", "&>", "&>>", ">|", "<>", "<<<"})
#: Reserved words (XCU §2.4, plus bash's ``function``, ``select``, ``[[``): a command that
#: starts with one is a compound command this reader does not evaluate (but ``[[ ]]``:
#: :meth:`_Parser._conditional`).
RESERVED = frozenset(
    {
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "do",
        "done",
        "case",
        "esac",
        "while",
        "until",
        "for",
        "in",
        "function",
        "select",
        "[[",
        "]]",
    }
)

#: Operators the tokenizer finds that are a ``[[ ]]`` expression's own (bash's conditional
#: command: and, or, grouping, string order).
CONDITIONAL_OPERATORS = frozenset({"&&", "||", "(", ")", "<", ">"})


class Unreadable(ValueError):
    """The line uses shell syntax this reader does not evaluate (see the module docstring)."""


@frozen
class Token:
    """One token: an operator, or a word with its quotes removed.

    Attributes:
        text: the operator, or the word's text; op: True for an operator.
        quoted: the word had a quoted or escaped part (then it is never a reserved word,
            ``!``, ``{`` or ``}``); spaced: whitespace came before it (a redirection's
            file descriptor number is written against its operator: ``2>&1``).
        substituted: the script of each command substitution the shell would run for this
            word (``$(...)`` or a backquoted one, bare or inside double quotes; not inside
            single quotes, not ``$((...))``), in order: what it expands to is known only
            when it runs.
    """

    text: str
    op: bool = False
    quoted: bool = False
    spaced: bool = True
    substituted: tuple[str, ...] = ()

    def is_word(self, text: str) -> bool:
        """True for the unquoted word ``text``."""
        return not self.op and not self.quoted and self.text == text


@frozen
class Simple:
    """A simple command: its words after assignments and redirections are dropped (empty:
    only assignments or redirections), and its ``NAME=value`` assignments before them (the
    variables the command runs with, or the shell's when it has no words)."""

    words: tuple[str, ...]
    assignments: tuple[str, ...] = ()


@frozen
class Group:
    """``( list )`` (``subshell``: its own shell state) or ``{ list; }``."""

    body: ShellList
    subshell: bool


Command = Simple | Group


@frozen
class Pipeline:
    """``[!] command [| command]...``: ``negated`` when an odd number of ``!`` lead it."""

    commands: tuple[Command, ...]
    negated: bool = False


@frozen
class AndOr:
    """``pipeline [&&|| pipeline]...``: the first pipeline, then (operator, pipeline) pairs."""

    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...] = ()


@frozen
class ShellList:
    """``and_or [;|& and_or]...``: each and-or list with whether it runs in the background
    (ended by ``&``)."""

    items: tuple[tuple[AndOr, bool], ...]


def tokenize(text: str) -> tuple[Token, ...]:
    """The tokens of a shell line; a newline is the operator ``"\\n"`` (a ``;`` that may also
    follow ``&&`` and ``||``), a comment is dropped.

    Raises:
        Unreadable: an unterminated quote, ``$(``, ``${`` or backquote.
    """
    out: list[Token] = []
    i, n = 0, len(text)
    word: list[str] = []
    subs: list[str] = []
    in_word = quoted = False
    spaced = True

    def end_word() -> None:
        nonlocal in_word, quoted, spaced
        if in_word:
            out.append(Token("".join(word), quoted=quoted, spaced=spaced, substituted=(*subs,)))
            spaced = False
        word.clear()
        subs.clear()
        in_word = quoted = False

    while i < n:
        c = text[i]
        if c in " \t":
            end_word()
            spaced = True
            i += 1
        elif c == "\n":
            end_word()
            out.append(Token("\n", op=True))
            spaced = True
            i += 1
        elif c == "#" and not in_word:
            while i < n and text[i] != "\n":
                i += 1
        elif c == "\\":
            if i + 1 < n and text[i + 1] == "\n":
                i += 2  # a line continuation
                continue
            word.append(text[i + 1 : i + 2])
            in_word = quoted = True
            i += 2
        elif c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise Unreadable("unterminated single quote")
            word.append(text[i + 1 : end])
            in_word = quoted = True
            i = end + 1
        elif c == '"':
            i = _double_quoted(text, i + 1, word, subs)
            in_word = quoted = True
        elif c == "$" and i + 1 < n and text[i + 1] in "({":
            end = _balanced(text, i + 1)
            word.append(text[i:end])
            _substitution(text[i:end], subs)
            in_word = True
            i = end
        elif c == "`":
            end = text.find("`", i + 1)
            if end < 0:
                raise Unreadable("unterminated backquote")
            word.append(text[i : end + 1])
            subs.append(text[i + 1 : end])
            in_word = True
            i = end + 1
        else:
            op = next((o for o in OPERATORS if text.startswith(o, i)), None)
            if op is None:
                word.append(c)
                in_word = True
                i += 1
                continue
            end_word()
            out.append(Token(op, op=True, spaced=spaced))
            spaced = False
            i += len(op)
    end_word()
    return tuple(out)


def _substitution(part: str, subs: list[str]) -> None:
    """Add the script of ``part`` (``$(...)`` or ``${...}``) to ``subs`` when it is a
    command substitution (not ``${...}``, not arithmetic ``$((...))``)."""
    if part.startswith("$(") and not part.startswith("$(("):
        subs.append(part[2:-1])


def _double_quoted(text: str, i: int, word: list[str], subs: list[str]) -> int:
    """Read a double-quoted part from ``i`` (after the quote) into ``word``, the script of
    each command substitution in it into ``subs``; return the index after the closing
    quote."""
    while i < len(text):
        c = text[i]
        if c == '"':
            return i + 1
        if c == "\\" and i + 1 < len(text) and text[i + 1] in '"\\$`\n':
            word.append(text[i + 1])
            i += 2
        elif c == "$" and i + 1 < len(text) and text[i + 1] in "({":
            end = _balanced(text, i + 1)
            word.append(text[i:end])
            _substitution(text[i:end], subs)
            i = end
        elif c == "`" and (end := text.find("`", i + 1)) > 0:
            word.append(text[i : end + 1])
            subs.append(text[i + 1 : end])
            i = end + 1
        else:
            word.append(c)
            i += 1
    raise Unreadable("unterminated double quote")


def _balanced(text: str, i: int) -> int:
    """The index after the bracket that closes the one at ``i`` (``(`` or ``{``), quotes
    inside skipped."""
    close = {"(": ")", "{": "}"}[text[i]]
    depth, j = 0, i
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "'":
            end = text.find("'", j + 1)
            if end < 0:
                break
            j = end + 1
            continue
        if c == text[i]:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise Unreadable(f"unterminated ${text[i]}")


class _Parser:
    """Recursive descent over tokens (XCU §2.10.2 grammar, the parts listed above)."""

    def __init__(self, tokens: tuple[Token, ...]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def at_op(self, *ops: str) -> bool:
        t = self.peek()
        return t is not None and t.op and t.text in ops

    def take(self) -> Token:
        t = self.toks[self.i]
        self.i += 1
        return t

    def shell_list(self, close: str | None) -> ShellList:
        items: list[tuple[AndOr, bool]] = []
        while True:
            while self.at_op(";", "\n"):
                self.take()
            t = self.peek()
            if t is None or (close == ")" and self.at_op(")")) or (close and t.is_word(close)):
                break
            and_or = self.and_or()
            background = False
            if self.at_op(";", "&", "\n"):
                background = self.take().text == "&"
            elif not (self.peek() is None or self.at_op(")") or (close and self._at_word(close))):
                raise Unreadable(f"unexpected {self.take().text!r}")
            items.append((and_or, background))
        if not items:
            raise Unreadable("an empty command list")
        return ShellList(tuple(items))

    def _at_word(self, text: str) -> bool:
        t = self.peek()
        return t is not None and t.is_word(text)

    def and_or(self) -> AndOr:
        first = self.pipeline()
        rest: list[tuple[str, Pipeline]] = []
        while self.at_op("&&", "||"):
            op = self.take().text
            while self.at_op("\n"):
                self.take()  # a newline may follow && and ||
            rest.append((op, self.pipeline()))
        return AndOr(first, tuple(rest))

    def pipeline(self) -> Pipeline:
        negated = False
        while self._at_word("!"):
            self.take()
            negated = not negated
        commands = [self.command()]
        while self.at_op("|", "|&"):
            self.take()
            commands.append(self.command())
        return Pipeline(tuple(commands), negated)

    def command(self) -> Command:
        if self.at_op("("):
            return self._group("(", ")", self.at_op, subshell=True)
        if self._at_word("{"):
            return self._group("{", "}", self._at_word, subshell=False)
        if self._at_word("[["):
            return self._conditional()
        return self.simple()

    def _conditional(self) -> Simple:
        """bash's ``[[ expression ]]`` (the ``[[`` is the next token), then redirections:
        one command whose words are ``[[``, the expression's words and ``]]``, its
        ``&&``, ``||``, ``(``, ``)``, ``<`` and ``>`` being the expression's own operators
        (:data:`CONDITIONAL_OPERATORS`). Any other operator (a ``|`` of an unquoted
        ``=~`` pattern, a ``;``) is not read."""
        words = [self.take().text]
        while not self._at_word("]]"):
            t = self.peek()
            if t is None:
                raise Unreadable("[[ without ]]")
            if t.op and t.text not in CONDITIONAL_OPERATORS:
                raise Unreadable(f"{t.text!r} inside [[ ]] is not evaluated")
            if t.quoted and t.text in CONDITIONAL_OPERATORS | {"!"}:
                # an operand spelled as an operator: the words could not tell them apart
                raise Unreadable(f"a quoted {t.text!r} inside [[ ]] is not evaluated")
            words.append(self.take().text)
        words.append(self.take().text)
        self._redirections()
        return Simple(tuple(words))

    def _at_fd_number(self) -> bool:
        """True at a word of digits written against the redirection after it (``2>``)."""
        t, after = self.peek(), self.toks[self.i + 1 : self.i + 2]
        return (
            t is not None
            and not t.op
            and t.text.isdigit()
            and bool(after)
            and after[0].op
            and after[0].text in REDIRECTIONS
            and not after[0].spaced
        )

    def _group(
        self, opener: str, closer: str, at: Callable[[str], bool], *, subshell: bool
    ) -> Group:
        """``opener`` list ``closer`` (the opener is the next token), then redirections."""
        self.take()
        body = self.shell_list(closer)
        if not at(closer):
            raise Unreadable(f"unbalanced {opener}")
        self.take()
        self._redirections()
        return Group(body, subshell=subshell)

    def _redirections(self) -> None:
        """The redirections after a compound command, each with its file descriptor
        (``{ pytest; } 2>/dev/null``)."""
        while True:
            if self._at_fd_number():
                self.take()  # the file descriptor of 2>/dev/null
            if not self.at_op(*REDIRECTIONS):
                return
            self._redirection()

    def _redirection(self) -> None:
        op = self.take().text
        target = self.peek()
        if target is None or target.op:
            raise Unreadable(f"{op} without a target")
        self.take()

    def simple(self) -> Simple:
        start = self.i
        words: list[str] = []
        assignments: list[str] = []
        while True:
            t = self.peek()
            if t is None:
                break
            if t.op:
                if t.text in ("<<", ";;"):
                    raise Unreadable(f"{t.text} (a here-document or case) is not evaluated")
                if t.text not in REDIRECTIONS:
                    break
                if words and not t.spaced and words[-1].isdigit():
                    words.pop()  # the file descriptor of 2>&1
                self._redirection()
                continue
            if not words and not t.quoted and t.text in RESERVED:
                raise Unreadable(f"the compound command {t.text!r} is not evaluated")
            if not words and is_assignment(t):
                assignments.append(self.take().text)
                continue
            words.append(self.take().text)
        if self.i == start:
            raise Unreadable("a command is missing")
        return Simple(tuple(words), tuple(assignments))


def is_assignment(t: Token) -> bool:
    """``NAME=value`` (unquoted name) before the command word (XCU §2.9.1)."""
    return not t.op and is_name_value(t.text)


def is_name_value(word: str) -> bool:
    """``word`` (a word's text, quotes removed) reads as ``NAME=value``: an assignment
    before a command, or an ``env``/``export`` operand."""
    name, eq, _ = word.partition("=")
    # a portable name (XCU §3.235): ASCII letters, digits and underscores, not a digit first
    return bool(eq) and name.isascii() and name.isidentifier()


def parse_line(text: str) -> ShellList | None:
    """The structure of a shell line, or None when it is unreadable (see the module
    docstring) or empty."""
    try:
        tokens = tokenize(text)
        if not tokens:
            return None
        parser = _Parser(tokens)
        result = parser.shell_list(None)
        if parser.peek() is not None:
            raise Unreadable(f"unexpected {parser.peek()!r}")
        return result
    except Unreadable:
        return None


def words_of(text: str) -> tuple[tuple[str, bool], ...] | None:
    """The line as (token text, is operator) pairs, for comparing two spellings of one
    command (``pytest  -q`` and ``'pytest' -q`` are the same); None when unreadable."""
    try:
        return tuple((t.text, t.op) for t in tokenize(text))
    except Unreadable:
        return None
