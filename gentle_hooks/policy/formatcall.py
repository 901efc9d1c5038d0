"""A ``str.format`` call on a string literal read as the f-string it means (row K8 of
:mod:`gentle_hooks.policy.keyform`; SPEC §3 "Attribution follows content", issue 13:
``ruff check --fix --select UP032`` after ``record`` never launders the writer's line).

Room ``policy`` (pure: bytes in, answers out). :func:`format_calls` rewrites
``"curl {} | sh".format(os.sep)`` as ``f"curl {os.sep} | sh"``, the line UP032 makes of it,
so both have one key form. Only where the two mean the same: a plain literal in one quote
(no prefix, no adjacent literal, no backslash), replacement fields that are empty (automatic
numbering), a number or a name, with a conversion (``!r``) and a format spec without nested
fields (``:>4``), and arguments free of string literals and of ``*``/``**`` unpacking, each
used; anything else is left as written.
"""

from __future__ import annotations

from gentle_hooks.values.lazy_pattern import lazy_pattern

#: A plain literal in one quote followed by ``.format(``: not after a word, a quote or a
#: prefix (``b"{}".format`` is no f-string), no backslash inside.
_CALL = lazy_pattern(rb"""(?<![\w"'])(?:"([^"\\\n]*)"|'([^'\\\n]*)')\.format\(""")
#: A replacement field (group 1: its name, group 2: its conversion and spec), or a doubled
#: brace, which stays as it is in the f-string.
_FIELD = lazy_pattern(rb"\{\{|\}\}|\{([^{}!:]*)((?:![rsa])?(?::[^{}]*)?)\}")
_NAME = lazy_pattern(rb"[A-Za-z_]\w*")
_OPEN, _CLOSE = frozenset(b"([{"), frozenset(b")]}")
_REFUSED = frozenset(b"\"'#")  # a literal or a comment among the arguments: not read


def _arguments(line: bytes, start: int) -> tuple[list[bytes], int] | None:
    """(the top-level arguments of the call whose ``(`` ends at ``start``, stripped; the
    end of its ``)``), or None when it does not close on the line or holds a quote."""
    depth, args, begin = 0, [], start
    for i in range(start, len(line)):
        c = line[i]
        if c in _REFUSED:
            return None
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            if depth == 0:
                args.append(line[begin:i].strip())
                return [a for a in args if a], i + 1
            depth -= 1
        elif c == 0x2C and depth == 0:  # ","
            args.append(line[begin:i].strip())
            begin = i + 1
    return None


def _fstring(body: bytes, args: list[bytes]) -> bytes | None:
    """The body of the f-string ``body.format(*args)`` means, or None when it is not one
    this module reads (module docstring)."""
    positional: list[bytes] = []
    named: dict[bytes, bytes] = {}
    for arg in args:
        if arg.startswith(b"*"):
            return None
        name, eq, value = arg.partition(b"=")
        if eq and _NAME.fullmatch(name.strip()) and not value.startswith(b"="):
            named[name.strip()] = value.strip()
        elif named:
            return None  # a positional argument after a keyword one: not Python
        else:
            positional.append(arg)
    used: set[bytes] = set()
    auto: list[int] = []
    out: list[bytes] = []
    last = 0
    for m in _FIELD.finditer(body):
        out.append(body[last : m.start()])
        last = m.end()
        field = m.group(1)
        if field is None:
            out.append(m.group())
            continue
        if field == b"":
            auto.append(len(auto))
            field = b"%d" % auto[-1]
        elif auto:
            return None  # automatic numbering mixed with manual: a ValueError
        if field.isdigit():
            index = int(field)
            if index >= len(positional):
                return None
            value = positional[index]
        elif _NAME.fullmatch(field) and field in named:
            value = named[field]
        else:
            return None
        used.add(field)
        out.append(b"{" + value + m.group(2) + b"}")
    out.append(body[last:])
    text = b"".join(out)
    if len(used) != len(positional) + len(named) or text.replace(b"{{", b"").find(b"{") < 0:
        return None  # an argument unused, or no field at all
    return text


def format_calls(line: bytes) -> bytes:
    """``line`` with each ``"...".format(...)`` this module reads as the f-string it means
    (module docstring), the rest as it is."""
    if line.find(b".format(") < 0:
        return line
    out: list[bytes] = []
    last = 0
    for m in _CALL.finditer(line):
        if m.start() < last:
            continue
        found = _arguments(line, m.end())
        if found is None:
            continue
        args, end = found
        quote = b'"' if m.group(1) is not None else b"'"
        body = m.group(1) if m.group(1) is not None else m.group(2)
        text = _fstring(body, args)
        if text is not None:
            out += [line[last : m.start()], b"f", quote, text, quote]
            last = end
    return b"".join(out) + line[last:] if out else line
