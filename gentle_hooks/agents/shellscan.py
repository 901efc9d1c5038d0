"""A conservative reader of the shell lines :func:`gentle_hooks.policy.shell.parse_line` does
not read: compound commands (``if``/``for``/``while``/``until``/``case``, ``[[ ]]``,
``(( ))``), function definitions and here-documents (docs/agents/claude-code.md, "A command
that runs in the background"; used by :mod:`gentle_hooks.agents.background`).

Room ``agents`` (pure: standard library and :mod:`gentle_hooks.policy.shell`'s names). It
does not evaluate the line: :func:`scan` tokenizes it (quotes, escapes, ``$( )``, ``${ }``,
backquotes, ``<( )``/``>( )``, ``$(( ))``, comments; POSIX XCU §2.2-§2.7 and bash's forms)
and finds what a background decision needs:

* ``background``: a control operator ``&`` at this level (not ``&&``, ``>&``, ``&>``,
  ``|&``, nor a ``case`` item's ``;&``/``;;&``), in any compound command;
* ``commands``: each simple command found in *command position* (line start, after
  ``; & | && || |& ( ) ;;`` or a newline, after ``!``, ``{`` and the reserved words ``if
  then else elif while until do``), its words with quotes removed (a ``$( )`` kept as written)
  and the here-documents it reads; the words of a ``for``/``select``/``case`` header, of a
  ``case`` pattern, of ``[[ ]]`` and a ``function`` name are no commands;
* ``substitutions``: the text of every ``$( )``, backquote, ``<( )``/``>( )`` found at this
  level, in any word, inside double quotes or ``${ }``, and in the body of a here-document
  whose delimiter is unquoted (the shell expands it): each is a line of its own to decide.

A here-document's body (XCU §2.7.4: the lines after the one holding ``<<WORD`` up to a line
``WORD``, tabs stripped with ``<<-``, the text's end without one) is its command's input.
:class:`Unreadable` only for text it cannot tokenize: an unclosed quote, ``$(``, ``${`` or
backquote, expansions nested past :data:`MAX_NESTING`, or arithmetic tries past a budget.
"""

from __future__ import annotations

from gentle_hooks.policy.shell import Unreadable, is_name_value
from gentle_hooks.values.frozen import frozen

__all__ = ["Command", "Heredoc", "Scan", "Unreadable", "scan"]
#: Operators, longest first: POSIX's, bash's ``|&``, ``&>``, ``&>>``, ``<<<`` and a ``case``
#: item's ``;&``/``;;&`` ends.
_SPELLED = ";;& &>> <<< <<- && || ;; ;& |& >> << >& <& &> >| <> ; & | ( ) < >"
OPERATORS = tuple(_SPELLED.split())
#: Operators that take the next word as their target.
REDIRECTIONS = frozenset({"<", ">", ">>", ">&", "<&", "&>", "&>>", ">|", "<>", "<<<", "<<", "<<-"})
#: Reserved words after which a command starts.
STARTERS = frozenset({"if", "then", "else", "elif", "while", "until", "do", "!", "{"})
#: Reserved words that end a compound command (redirections or an operator follow).
ENDERS = frozenset({"fi", "done", "esac", "}"})
#: Operators ignored inside ``[[ ]]`` (its expression's own).
_CONDITIONAL = frozenset({"&&", "||", "(", ")", "<", ">", "|"})
#: How deep expansions may nest (deeper: unreadable, so fail closed).
MAX_NESTING = 64
#: The longest arithmetic expression read as one (longer: read as subshells, conservative).
MAX_ARITHMETIC = 1024
#: The token that stands for an arithmetic command ``(( ))``.
ARITHMETIC = "(())"


@frozen
class Heredoc:
    """A here-document's ``body``; ``quoted``: its delimiter was quoted (not expanded)."""

    body: str
    quoted: bool


@frozen
class Command:
    """A simple command in command position: its ``words`` (assignments and redirections
    dropped, quotes removed) and the ``heredocs`` it reads."""

    words: tuple[str, ...]
    heredocs: tuple[Heredoc, ...] = ()


@frozen
class Scan:
    """What :func:`scan` found (see the module docstring)."""

    background: bool
    commands: tuple[Command, ...]
    substitutions: tuple[str, ...]


@frozen
class _Tok:
    text: str
    op: bool = False
    quoted: bool = False
    spaced: bool = True


class _Lexer:
    """Tokens of ``text`` from ``start``; with ``stop``, up to the ``)`` closing a ``$(``."""

    def __init__(
        self, text: str, start: int, stop: bool, subs: list[str], level: int, budget: list[int]
    ) -> None:
        if level > MAX_NESTING:
            raise Unreadable("expansions nested too deep")
        self.text, self.i, self.stop, self.level, self.subs = text, start, stop, level, subs
        self.budget = budget  # characters arithmetic tries may still read, shared
        self.toks: list[_Tok] = []
        self.heredocs: dict[int, Heredoc] = {}
        self._pending: list[tuple[int, str, bool, bool]] = []  # token, word, quoted, tabs
        self._want_delim: str | None = None
        self._paren = self._case = 0

    def run(self) -> int:
        """Tokenize; the index after the text read (after the closing ``)`` with ``stop``)."""
        text, n = self.text, len(self.text)
        word: list[str] = []
        in_word, quoted, spaced = False, False, True

        def end_word() -> None:
            nonlocal in_word, quoted, spaced
            if in_word:
                self._word(_Tok("".join(word), quoted=quoted, spaced=spaced))
                spaced = False
            word.clear()
            in_word = quoted = False

        while self.i < n:
            i, c = self.i, text[self.i]
            if c in " \t":
                end_word()
                spaced, self.i = True, i + 1
            elif c == "\n":
                end_word()
                self.toks.append(_Tok("\n", op=True))
                spaced, self.i = True, i + 1
                self._bodies()
            elif c == "#" and not in_word:
                while self.i < n and text[self.i] != "\n":
                    self.i += 1
            elif c == "\\":
                if text.startswith("\n", i + 1):
                    self.i = i + 2
                    continue
                word.append(text[i + 1 : i + 2])
                in_word = quoted = True
                self.i = i + 2
            elif c == "'":
                end = text.find("'", i + 1)
                if end < 0:
                    raise Unreadable("unterminated single quote")
                word.append(text[i + 1 : end])
                in_word, quoted, self.i = True, True, end + 1
            elif c == "$" and text.startswith("'", i + 1):
                self.i = _ansi_c(text, i + 2, word)
                in_word = quoted = True
            elif c == '"' or (c == "$" and text.startswith('"', i + 1)):
                self.i = self._double(i + (2 if c == "$" else 1), word)
                in_word = quoted = True
            elif c in "$`" or (c in "<>" and text.startswith("(", i + 1)):
                self.i = self._expansion(i)
                word.append(text[i : self.i])
                in_word = True
            elif c == "(" and in_word and is_name_value("".join(word) + "x"):
                self.i = self._sub(i + 1, keep=True)  # an array: NAME=( ... )
                word.append(text[i : self.i])
            elif c == "(" and not in_word and text.startswith("(", i + 1) and self._at_start():
                closed = self._arithmetic(i + 2)
                if closed is None:  # subshells: the run of ( is read without more tries
                    while text.startswith("(", self.i):
                        self._op("(", spaced)
                        spaced, self.i = False, self.i + 1
                else:
                    self.toks.append(_Tok(ARITHMETIC, op=True))
                    spaced, self.i = False, closed
            else:
                op = next((o for o in OPERATORS if text.startswith(o, i)), None)
                if op is None:
                    word.append(c)
                    in_word, self.i = True, i + 1
                    continue
                end_word()
                if op == ")" and self.stop and self._paren == 0 and self._case == 0:
                    return i + 1
                self._op(op, spaced)
                spaced, self.i = False, i + len(op)
        end_word()
        if self.stop:
            raise Unreadable("unterminated $(")
        self._bodies()
        return self.i

    def _at_start(self) -> bool:
        """Whether the next token is in command position (for ``((`` and ``case``)."""
        if not self.toks:
            return True
        last = self.toks[-1]
        if last.op:
            return last.text not in REDIRECTIONS and last.text != ")"
        return not last.quoted and last.text in STARTERS | {"for"}

    def _op(self, op: str, spaced: bool) -> None:
        if op == "(":
            self._paren += 1
        elif op == ")":
            self._paren = max(0, self._paren - 1)
        if op in ("<<", "<<-"):
            self._want_delim = op
        self.toks.append(_Tok(op, op=True, spaced=spaced))

    def _word(self, tok: _Tok) -> None:
        if self._want_delim is not None:
            tabs = self._want_delim == "<<-"
            self._pending.append((len(self.toks), tok.text, tok.quoted, tabs))
            self._want_delim = None
        elif not tok.quoted and tok.text == "case" and self._at_start():
            self._case += 1
        elif not tok.quoted and tok.text == "esac" and self._case:
            self._case -= 1
        self.toks.append(tok)

    def _bodies(self) -> None:
        """Read the bodies of the here-documents the line just ended opened."""
        for index, delimiter, quoted, tabs in self._pending:
            lines: list[str] = []
            while self.i < len(self.text):
                end = self.text.find("\n", self.i)
                end = len(self.text) if end < 0 else end
                line = self.text[self.i : end]
                self.i = end + 1
                if (line.lstrip("\t") if tabs else line) == delimiter:
                    break
                lines.append(line.lstrip("\t") if tabs else line)
            body = "\n".join(lines)
            self.heredocs[index] = Heredoc(body, quoted)
            if not quoted:
                _expanded(body, self.subs, self.level, self.budget)
        self._pending.clear()
        self.i = min(self.i, len(self.text))

    def _double(self, i: int, word: list[str]) -> int:
        """Read a double-quoted part from ``i`` (after the quote); the index after it."""
        text = self.text
        while i < len(text):
            c = text[i]
            if c == '"':
                return i + 1
            if c == "\\" and text[i + 1 : i + 2] in ('"', "\\", "$", "`", "\n"):
                word.append(text[i + 1])
                i += 2
            elif c in "$`":
                end = self._expansion(i)
                word.append(text[i:end])
                i = end
            else:
                word.append(c)
                i += 1
        raise Unreadable("unterminated double quote")

    def _expansion(self, i: int) -> int:
        """Read the expansion at ``i`` (``$(``, ``$((``, ``${``, a backquote, ``<(``,
        ``>(``, or a plain ``$``); its substitutions go to ``subs``; the index after it.
        Nested deeper than :data:`MAX_NESTING`: :class:`Unreadable`."""
        self.level += 1
        try:
            if self.level > MAX_NESTING:
                raise Unreadable("expansions nested too deep")
            return self._expand(i)
        finally:
            self.level -= 1

    def _expand(self, i: int) -> int:
        text = self.text
        if text[i] == "`":
            body, end = _backquoted(text, i + 1)
            self.subs.append(body)
            return end
        if text[i] in "<>":
            return self._sub(i + 2, keep=False)
        nxt = text[i + 1 : i + 2]
        if nxt == "(":
            closed = self._arithmetic(i + 3) if text.startswith("(", i + 2) else None
            if closed is not None:
                return closed
            return self._sub(i + 2, keep=False)
        if nxt == "{":
            return self._braced(i + 2)
        return i + 1

    def _arithmetic(self, i: int) -> int | None:
        """The index after the ``))`` closing an arithmetic expression started before ``i``
        (its substitutions recorded); None when its parentheses close apart (``((a) &)``:
        subshells, not arithmetic), or longer than :data:`MAX_ARITHMETIC`. One pass counting
        parentheses: a failed try costs no nested tries, and at most that many characters."""
        text, depth, start = self.text, 0, i
        self.budget[0] -= min(len(text) - i, MAX_ARITHMETIC)
        if self.budget[0] < 0:
            raise Unreadable("too many arithmetic expressions to try")
        while i < min(len(text), start + MAX_ARITHMETIC):
            c = text[i]
            if c == ")" and depth == 0:
                if not text.startswith(")", i + 1):
                    return None
                _expanded(text[start:i], self.subs, self.level + 1, self.budget)
                return i + 2
            depth += {"(": 1, ")": -1}.get(c, 0)
            i += 1
        return None

    def _sub(self, i: int, *, keep: bool) -> int:
        """Read a ``( ... )`` body from ``i`` (after its ``(``); record it unless ``keep``
        (an array's words: their substitutions are this level's)."""
        inner = _Lexer(self.text, i, True, self.subs if keep else [], self.level + 1, self.budget)
        end = inner.run()
        if not keep:
            self.subs.append(self.text[i : end - 1])
        return end

    def _braced(self, i: int) -> int:
        """Read a ``${ ... }`` from ``i`` (after its ``{``); the index after its ``}``."""
        text, depth = self.text, 1
        while i < len(text):
            c = text[i]
            if c == "\\":
                i += 2
            elif c == "'":
                end = text.find("'", i + 1)
                if end < 0:
                    raise Unreadable("unterminated single quote")
                i = end + 1
            elif c == '"':
                i = self._double(i + 1, [])
            elif c in "$`" and not text.startswith("${", i):
                i = self._expansion(i)
            elif c == "$":
                depth, i = depth + 1, i + 2
            elif c == "}":
                depth -= 1
                i += 1
                if depth == 0:
                    return i
            else:
                i += 1
        raise Unreadable("unterminated ${")


def _ansi_c(text: str, i: int, word: list[str]) -> int:
    """Read a ``$'...'`` part from ``i`` (after its quote); the index after it."""
    while i < len(text):
        if text[i] == "\\":
            word.append(text[i : i + 2])
            i += 2
        elif text[i] == "'":
            return i + 1
        else:
            word.append(text[i])
            i += 1
    raise Unreadable("unterminated $'")


def _backquoted(text: str, i: int) -> tuple[str, int]:
    """The command of a backquote substitution from ``i`` (after the backquote), with its
    ``\\``` ``\\\\`` ``\\$`` unescaped, and the index after the closing backquote."""
    out: list[str] = []
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1 : i + 2] in ("`", "\\", "$"):
            out.append(text[i + 1])
            i += 2
        elif c == "`":
            return "".join(out), i + 1
        else:
            out.append(c)
            i += 1
    raise Unreadable("unterminated backquote")


def _expanded(body: str, subs: list[str], level: int, budget: list[int]) -> None:
    """Record the ``$( )`` and backquote substitutions of an unquoted here-document body or
    an arithmetic expression (quotes there are plain characters; a backslash escapes)."""
    lexer = _Lexer(body, 0, False, subs, level, budget)
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 2
        elif c == "`" or (c == "$" and body[i + 1 : i + 2] in ("(", "{")):
            i = lexer._expansion(i)
        else:
            i += 1


def scan(text: str) -> Scan:
    """Read ``text`` (see the module docstring).

    Raises:
        Unreadable: an unclosed quote, ``$(``, ``${`` or backquote.
    """
    subs: list[str] = []
    lexer = _Lexer(text, 0, False, subs, 0, [4 * len(text) + 65536])
    lexer.run()
    return _Reader(lexer.toks, lexer.heredocs).read(subs)


class _Reader:
    """One pass over the tokens, keeping which words are in command position."""

    def __init__(self, toks: list[_Tok], heredocs: dict[int, Heredoc]) -> None:
        self.toks, self.heredocs = toks, heredocs
        self.commands: list[Command] = []
        self.words: list[str] | None = None
        self.docs: list[Heredoc] = []
        self.background = False
        self.at_start = True
        self.header: str | None = None  # "for", "case", "[[", "function"
        self.cases: list[str] = []  # per open case: "pattern" or "body"

    def read(self, subs: list[str]) -> Scan:
        target = False
        for index, t in enumerate(self.toks):
            if target and not t.op:
                target = False
                if index in self.heredocs:
                    self.docs.append(self.heredocs[index])
                continue
            target = False
            if t.op and self.header == "[[" and t.text in _CONDITIONAL:
                continue
            if t.op and t.text in REDIRECTIONS:
                if self.words and not t.spaced and self.words[-1].isdigit():
                    self.words.pop()  # the file descriptor of 2>&1
                target = True
                continue
            if t.op:
                self._operator(t.text)
            else:
                self._word(t)
        self._flush()
        return Scan(self.background, tuple(self.commands), tuple(subs))

    def _flush(self) -> None:
        if self.words:
            self.commands.append(Command(tuple(self.words), tuple(self.docs)))
        self.words, self.docs = None, []

    def _operator(self, op: str) -> None:
        self._flush()
        if self.header in ("[[", "for") and op in (";", "\n", "&"):
            self.header = None
        self.background = self.background or op == "&"
        in_pattern = bool(self.cases) and self.cases[-1] == "pattern"
        if op in (";;", ";&", ";;&") and self.cases:
            self.cases[-1] = "pattern"
        elif in_pattern and op == ")":
            self.cases[-1] = "body"
        elif in_pattern or op == ARITHMETIC:
            self.at_start = False
            return
        self.at_start = op != ")" or bool(self.cases and self.cases[-1] == "body")

    def _word(self, t: _Tok) -> None:
        text, plain = t.text, not t.quoted
        if self.header == "[[":
            self.header = None if plain and text == "]]" else "[["
            self.at_start = False
            return
        if self.header == "case":
            if plain and text == "in":
                self.header = None
                self.cases.append("pattern")
            return
        if self.header == "for":
            if plain and text == "do":
                self.header, self.at_start = None, True
            return
        if self.header == "function":
            self.header = None
            return
        if self.cases and self.cases[-1] == "pattern":
            if plain and text == "esac":
                self.cases.pop()
            return
        if self.words:
            self.words.append(text)
            return
        if plain and (self.at_start or text == "{") and self._reserved(text):
            return
        if self.words is None and is_name_value(text):
            return  # an assignment before the command word
        self.words = [text]

    def _reserved(self, text: str) -> bool:
        """Handle a reserved word in command position; False when ``text`` is none."""
        if text in STARTERS:
            self.at_start = True
        elif text in ENDERS:
            if text == "esac" and self.cases:
                self.cases.pop()
            self.at_start = False
        elif text in ("for", "select"):
            self.header = "for"
        elif text == "case":
            self.header = "case"
        elif text == "[[":
            self.header = "[["
        elif text == "function":
            self.header = "function"
        else:
            return False
        return True
