"""Passive documents proven by their bytes (SPEC §4 ``passive``; upstream gentle-ai's rule).

Room ``native``, pure (bytes in, a boolean out: no process, no file, no clock). A path's
name only *nominates* it for the passive tier (:mod:`gentle_hooks.native.pathfacts`); the
bytes decide. The rules follow upstream gentle-ai's ``isPassiveDocumentContent`` and
``isStaticMDXDocument`` (``internal/reviewtransaction/risk.go``), whose test rows
``tests/unit/test_upstream_risk_rows.py`` replays:

* an image (``.png .jpg .jpeg .gif``) is passive exactly when its bytes open with the PNG,
  JPEG or GIF signature;
* any other document is passive when it is UTF-8 without a NUL byte and without an
  interpreter directive (``#!``, after an optional byte-order mark);
* an ``.mdx`` document must in addition be static: outside fenced and inline code, no line
  starts an ESM ``import``/``export`` and none holds ``{``, ``}`` or ``<``.
"""

from __future__ import annotations

#: Image extensions whose signed bytes are passive (upstream ``isPassiveImageExtension``).
IMAGE_EXTENSIONS = frozenset({".png", ".jpg", ".jpeg", ".gif"})
#: What an image's bytes must open with: PNG, JPEG, GIF87a, GIF89a.
_IMAGE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")
_BOM = b"\xef\xbb\xbf"
#: A line longer than this is not read as MDX (upstream's scanner refuses it: not static).
_MAX_MDX_LINE = 1024 * 1024
_IDENTIFIER_TAIL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


def extension(path: str) -> str:
    """The lowercased extension of a path's last component, with its dot (``""`` for none;
    a leading dot is a name, not an extension: ``.env`` has none)."""
    base = path.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return base[dot:].lower() if dot > 0 else ""


def has_interpreter_directive(data: bytes) -> bool:
    """The bytes open with ``#!`` (after an optional UTF-8 byte-order mark)."""
    return data.removeprefix(_BOM).startswith(b"#!")


def is_passive_document_content(path: str, data: bytes) -> bool:
    """Whether ``data``, the bytes of ``path``, prove a passive document (module rules)."""
    if extension(path) in IMAGE_EXTENSIONS:
        return data.startswith(_IMAGE_SIGNATURES)
    if b"\0" in data or has_interpreter_directive(data):
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if extension(path) == ".mdx":
        return is_static_mdx(text)
    return True


def is_static_mdx(text: str) -> bool:
    """An MDX document with no runtime syntax outside code examples (module docstring)."""
    fence = ""
    for raw in text.split("\n"):
        if len(raw) > _MAX_MDX_LINE:
            return False
        line = raw.removesuffix("\r").removeprefix("\ufeff").strip()
        if fence:
            if line.startswith(fence):
                fence = ""
            continue
        if line.startswith(("```", "~~~")):
            fence = line[:3]
            continue
        prose = _skip_block_comments(_strip_code_spans(line))
        if (
            _starts_keyword(prose, "import")
            or _starts_keyword(prose, "export")
            or "{" in prose
            or "}" in prose
            or "<" in prose
        ):
            return False
    return True


def _skip_block_comments(value: str) -> str:
    """``value`` without the ``/* ... */`` comments it starts with."""
    while value.startswith("/*"):
        end = value.find("*/", 2)
        if end < 0:
            break
        value = value[end + 2 :].strip()
    return value


def _starts_keyword(value: str, keyword: str) -> bool:
    """``value`` starts with ``keyword`` as a whole JavaScript identifier."""
    if not value.startswith(keyword):
        return False
    return len(value) == len(keyword) or value[len(keyword)] not in _IDENTIFIER_TAIL


def _escaped(value: str, index: int) -> bool:
    """The character at ``index`` follows an odd run of backslashes."""
    count = 0
    index -= 1
    while index >= 0 and value[index] == "\\":
        count += 1
        index -= 1
    return count % 2 == 1


def _closing_run(value: str, marker: str) -> int:
    """Where a backtick run exactly as long as ``marker`` closes a code span, or -1."""
    offset = 0
    while offset < len(value):
        index = value.find(marker, offset)
        if index < 0:
            return -1
        before = index > 0 and value[index - 1] == "`"
        end = index + len(marker)
        after = end < len(value) and value[end] == "`"
        if not before and not after and not _escaped(value, index):
            return index
        offset = index + 1
    return -1


def _strip_code_spans(value: str) -> str:
    """The visible prose of a line: inline code spans removed, an unclosed span kept."""
    visible: list[str] = []
    while value:
        start = value.find("`")
        if start < 0:
            visible.append(value)
            break
        if _escaped(value, start):
            visible.append(value[: start + 1])
            value = value[start + 1 :]
            continue
        visible.append(value[:start])
        run = 1
        while start + run < len(value) and value[start + run] == "`":
            run += 1
        rest = value[start + run :]
        end = _closing_run(rest, value[start : start + run])
        if end < 0:
            visible.append(value[start:])
            break
        value = rest[end + run :]
    return "".join(visible).strip()
