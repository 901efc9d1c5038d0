"""A runtime's JSON configuration file, read and changed in place (SPEC §7 "Hooks":
``install --agent`` prints exactly what it changed; ``uninstall --agent`` removes only ours).

Room ``agents`` (standard library only). :func:`parse` reads JSON text, and, for runtimes
that accept them (Gemini CLI loads ``settings.json`` through ``strip-json-comments``), ``//``
and ``/* */`` comments; every value keeps the span of text it came from. :func:`rewrite`
turns the text into one holding a given document by the smallest edits it can find: an
entry added is inserted with the file's own indentation and line ends, an entry removed
takes its text (and the comma it needs) away, a changed string is replaced; every other
byte (comments, number spellings such as ``1.0e3``, ``\\u00e9`` escapes, key order,
indentation) stays as the user wrote it, so removing what was added gives back the
original bytes. Each edit is checked by parsing the result; :class:`EditError` is raised,
and nothing is written by the caller, when the edits do not reach the document.

Trailing commas are refused, as the runtimes' ``JSON.parse`` refuses them.
"""

from __future__ import annotations

import difflib
import json
import re

from gentle_hooks.agents.payload import MAX_DEPTH
from gentle_hooks.values.frozen import frozen

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_LITERALS = {"true": True, "false": False, "null": None}
#: Edits one rewrite may make before it gives up (each is one entry, member or string).
MAX_EDITS = 200


class JsonTextError(ValueError):
    """The text is not JSON (or not JSON with comments where those are allowed); the
    message names the line and column."""


class EditError(ValueError):
    """The edits found do not turn the text into the document (nothing is written)."""


@frozen
class Node:
    """One value of the text: kind (``object``, ``array``, ``scalar``), its span
    ``[start, end)``, its items (members or elements), and the value it parses to."""

    kind: str
    start: int
    end: int
    items: tuple[Item, ...]
    value: object


@frozen
class Item:
    """A member (``key`` set; ``start`` is the key's) or an element (``key`` None) of a
    container; ``comma``: where the comma after it is, None for the last item."""

    key: str | None
    start: int
    node: Node
    comma: int | None


class _Parser:
    def __init__(self, text: str, comments: bool) -> None:
        self.text = text
        self.comments = comments
        self.i = 0

    def fail(self, what: str) -> JsonTextError:
        line = self.text.count("\n", 0, self.i) + 1
        column = self.i - self.text.rfind("\n", 0, self.i)
        return JsonTextError(f"line {line} column {column}: {what}")

    def ws(self) -> None:
        text, n = self.text, len(self.text)
        while self.i < n:
            c = text[self.i]
            if c in " \t\n\r":
                self.i += 1
            elif self.comments and text.startswith("//", self.i):
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end
            elif self.comments and text.startswith("/*", self.i):
                end = text.find("*/", self.i + 2)
                if end < 0:
                    raise self.fail("a /* comment is not closed")
                self.i = end + 2
            else:
                return

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def value(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH} levels")
        c = self.peek()
        if c == "{":
            return self.container(depth, "object", "}")
        if c == "[":
            return self.container(depth, "array", "]")
        start = self.i
        if c == '"':
            return Node("scalar", start, self.skip(_STRING), (), self.string(start))
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, start):
                self.i = start + len(word)
                return Node("scalar", start, self.i, (), literal)
        end = self.skip(_NUMBER)
        try:
            number = json.loads(self.text[start:end])
        except ValueError:  # an integer past Python's digit limit (4,300 digits)
            self.i = start
            raise self.fail("a number too long to read") from None
        return Node("scalar", start, end, (), number)

    def skip(self, pattern: re.Pattern[str]) -> int:
        m = pattern.match(self.text, self.i)
        if m is None:
            raise self.fail("expected a JSON value")
        self.i = m.end()
        return self.i

    def string(self, start: int) -> str:
        try:
            value = json.loads(self.text[start : self.i])
        except ValueError as exc:
            self.i = start
            raise self.fail(f"not a JSON string ({exc.args[0]})") from None
        assert isinstance(value, str)
        return value

    def container(self, depth: int, kind: str, close: str) -> Node:
        start = self.i
        self.i += 1
        items: list[Item] = []
        self.ws()
        if self.peek() == close:
            self.i += 1
            return Node(kind, start, self.i, (), {} if kind == "object" else [])
        while True:
            self.ws()
            item_start, key = self.i, None
            if kind == "object":
                if self.peek() != '"':
                    raise self.fail("expected a member name in double quotes")
                self.skip(_STRING)
                key = self.string(item_start)
                self.ws()
                if self.peek() != ":":
                    raise self.fail("expected ':'")
                self.i += 1
                self.ws()
            node = self.value(depth + 1)
            self.ws()
            c = self.peek()
            if c == ",":
                items.append(Item(key, item_start, node, self.i))
                self.i += 1
                self.ws()
                if self.peek() == close:
                    raise self.fail(f"a comma before '{close}' (trailing commas are not JSON)")
                continue
            if c != close:
                raise self.fail(f"expected ',' or '{close}'")
            items.append(Item(key, item_start, node, None))
            self.i += 1
            break
        if kind == "object":
            value: object = {it.key: it.node.value for it in items}
        else:
            value = [it.node.value for it in items]
        return Node(kind, start, self.i, tuple(items), value)


def parse(text: str, *, comments: bool = False) -> Node:
    """The value of ``text`` with the span of every part.

    Raises:
        JsonTextError: not JSON (with ``//`` and ``/* */`` comments when ``comments``; a
            leading byte-order mark is named), or nested deeper than
            :data:`gentle_hooks.agents.payload.MAX_DEPTH`.
    """
    p = _Parser(text, comments)
    if text.startswith("\ufeff"):
        raise p.fail("a UTF-8 byte-order mark (U+FEFF) before the JSON; save the file without it")
    p.ws()
    node = p.value(0)
    p.ws()
    if p.i != len(text):
        raise p.fail("text after the JSON value")
    return node


def has_comments(text: str) -> bool:
    """True when ``text`` holds a ``//`` or ``/*`` outside its strings."""
    bare = _STRING.sub('""', text)
    return "//" in bare or "/*" in bare


def _canon(value: object) -> str:
    """A spelling equal only for equal JSON values (``1``, ``1.0`` and ``true`` differ)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=True)


Edit = list[tuple[int, int, str]]


class _Writer:
    """Computes one edit at a time towards a document, in the style of the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.nl = "\r\n" if "\r\n" in text else "\n"
        self.unit = _indent_unit(text)
        # one-line files stay on one line; an empty document grows indented lines
        self.multiline = "\n" in text.strip() or not re.search(r"[^\s{}\[\]]", text)

    # -- lines --------------------------------------------------------------------------
    def line_start(self, pos: int) -> int:
        return self.text.rfind("\n", 0, pos) + 1

    def indent_at(self, pos: int) -> str:
        s = self.line_start(pos)
        m = re.match(r"[ \t]*", self.text[s:pos])
        return m.group(0) if m else ""

    def alone_from(self, pos: int) -> bool:
        """Only blanks between the start of ``pos``'s line and ``pos``."""
        return not self.text[self.line_start(pos) : pos].strip()

    def line_end_after(self, pos: int) -> int | None:
        """Where the line holding ``pos`` ends (after its newline) when only blanks follow
        ``pos`` on it; None otherwise."""
        nl = self.text.find("\n", pos)
        end = len(self.text) if nl < 0 else nl + 1
        return end if not self.text[pos:end].strip() else None

    # -- rendering ----------------------------------------------------------------------
    def render(self, value: object, indent: str) -> str:
        if not self.multiline:
            return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        out = json.dumps(value, indent=self.unit, ensure_ascii=False)
        return out.replace("\n", self.nl + indent)

    def item_text(self, key: str | None, value: object, indent: str) -> str:
        body = self.render(value, indent)
        return body if key is None else json.dumps(key, ensure_ascii=False) + ": " + body

    # -- edits --------------------------------------------------------------------------
    def towards(self, node: Node, new: object) -> Edit | None:
        """The next edit that brings ``node`` closer to ``new``; None when equal."""
        if _canon(node.value) == _canon(new):
            return None
        if node.kind == "object" and isinstance(new, dict):
            return self._object(node, new)
        if node.kind == "array" and isinstance(new, list):
            return self._array(node, new)
        return [(node.start, node.end, self.render(new, self.indent_at(node.start)))]

    def _object(self, node: Node, new: dict[str, object]) -> Edit | None:
        last = {it.key: it for it in node.items}
        for k, it in enumerate(node.items):
            if it.key not in new:
                return self.delete(node, k)
        for key, value in new.items():
            if key in last:
                edit = self.towards(last[key].node, value)
                if edit is not None:
                    return edit
        for n, (key, value) in enumerate(new.items()):
            if key not in last:
                at = 0 if n == 0 and node.items else len(node.items)
                return self.insert(node, at, key, value)
        return None

    def _array(self, node: Node, new: list[object]) -> Edit | None:
        old = [_canon(it.node.value) for it in node.items]
        matcher = difflib.SequenceMatcher(None, old, [_canon(v) for v in new], autojunk=False)
        for tag, i1, _, j1, _ in matcher.get_opcodes():
            if tag == "delete":
                return self.delete(node, i1)
            if tag == "insert":
                return self.insert(node, i1, None, new[j1])
            if tag == "replace":
                return self.towards(node.items[i1].node, new[j1])
        return None

    def insert(self, node: Node, at: int, key: str | None, value: object) -> Edit:
        """Insert an item before item ``at`` (``len(items)``: append) of container ``node``."""
        items, close = node.items, node.end - 1
        if not items:
            inner = self.text[node.start + 1 : close]
            if not self.multiline:
                return [(node.start + 1, node.start + 1, self.item_text(key, value, ""))]
            base = self.indent_at(node.start)
            body = self.item_text(key, value, base + self.unit)
            if inner.strip():  # a comment inside: keep it after the new item
                return [(node.start + 1, node.start + 1, self.nl + base + self.unit + body)]
            return [(node.start + 1, close, self.nl + base + self.unit + body + self.nl + base)]
        if at < len(items):
            target = items[at]
            indent = self.indent_at(target.start)
            body = self.item_text(key, value, indent)
            if self.alone_from(target.start):
                s = self.line_start(target.start)
                return [(s, s, indent + body + "," + self.nl)]
            return [(target.start, target.start, body + ", ")]
        last = items[-1]
        indent = self.indent_at(last.start)
        if "\n" not in self.text[last.node.end : close]:  # the container closes on this line
            return [(last.node.end, last.node.end, ", " + self.item_text(key, value, indent))]
        body = self.item_text(key, value, indent)
        s = self.line_start(close)
        if self.text[s:close].strip():  # something before the closing bracket on its line
            return [(last.node.end, last.node.end, "," + self.nl + indent + body)]
        return [(last.node.end, last.node.end, ","), (s, s, indent + body + self.nl)]

    def delete(self, node: Node, k: int) -> Edit:
        """Remove item ``k`` of container ``node`` and the comma that goes with it."""
        items = node.items
        it = items[k]
        end = it.node.end if it.comma is None else it.comma + 1
        line_end = self.line_end_after(end)
        whole = self.alone_from(it.start) and line_end is not None
        if len(items) == 1:
            inner_rest = self.text[node.start + 1 : it.start] + self.text[end : node.end - 1]
            if not inner_rest.strip():  # nothing else inside: the container becomes empty
                return [(node.start + 1, node.end - 1, "")]
            if whole:
                assert line_end is not None
                return [(self.line_start(it.start), line_end, "")]
            return [(it.start, end, "")]
        if it.comma is None:  # the last item: the previous item's comma goes too
            prev = items[k - 1]
            assert prev.comma is not None
            if whole:
                assert line_end is not None
                return [(prev.comma, prev.comma + 1, ""), (self.line_start(it.start), line_end, "")]
            return [(prev.comma, end, "")]
        if whole:
            assert line_end is not None
            return [(self.line_start(it.start), line_end, "")]
        m = re.match(r"[ \t]*", self.text[end:])
        return [(it.start, end + (len(m.group(0)) if m else 0), "")]


def _indent_unit(text: str) -> str:
    """The file's indentation step: the smallest positive indentation of a line that
    starts a member or element (a tab when lines are tab-indented); two spaces when the
    file shows none."""
    sizes = []
    for line in text.splitlines():
        m = re.match(r"([ \t]+)[\"\[{\]}0-9tfn-]", line)
        if m:
            if m.group(1).startswith("\t"):
                return "\t"
            sizes.append(len(m.group(1)))
    return " " * min(sizes) if sizes else "  "


def _apply(text: str, edit: Edit) -> str:
    for start, end, repl in sorted(edit, key=lambda e: e[0], reverse=True):
        text = text[:start] + repl + text[end:]
    return text


def rewrite(text: str, new: object, *, comments: bool = False) -> str:
    """``text`` edited, in place, until it holds ``new``.

    Args:
        text: the file's current text (JSON; with comments when ``comments``).
        new: the document it must hold.

    Raises:
        JsonTextError: ``text`` is not JSON (or JSON with comments where allowed).
        EditError: the edits did not reach ``new`` within :data:`MAX_EDITS`.
    """
    node = parse(text, comments=comments)
    for _ in range(MAX_EDITS):
        writer = _Writer(text)
        edit = writer.towards(node, new)
        if edit is None:
            return text
        text = _apply(text, edit)
        try:
            node = parse(text, comments=comments)
        except JsonTextError as exc:
            raise EditError(f"an in-place edit broke the file ({exc})") from None
    raise EditError(f"more than {MAX_EDITS} edits were needed")


def dump(doc: object) -> str:
    """A new file holding ``doc``: two-space indentation, a final newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
