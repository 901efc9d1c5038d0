"""JSON text any strict parser accepts, whatever a string held (docs/robustness.md).

Room: report (the standard library; pydantic only inside :func:`model_json`, so a hook
may print through here without importing it). A path git hands us that is not UTF-8 is
kept in a ``str`` by ``surrogateescape``: each byte it could not decode is a lone surrogate
``U+DC80``-``U+DCFF``, which no UTF-8 encoder and no strict JSON parser accepts. Every
``--json`` envelope goes through :func:`model_json` or :func:`json_text`, which write such
a byte ``HH`` as the four characters ``\\xHH`` inside the JSON string (in the JSON text,
``"\\\\xHH"``), as the human output and the log do (:mod:`gentle_hooks.main`). Any other
lone surrogate (from a JSON ``\\ud800`` escape in an input) is written ``\\uXXXX`` the same
way. A string without such characters is printed exactly as before.
"""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False  # typing costs ~10 ms to import; hooks print through here
if TYPE_CHECKING:
    from pydantic import BaseModel

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: What ``json.dumps(ensure_ascii=False)`` and pydantic leave raw: DEL and the C1 controls
#: (a terminal may obey them), written ``\u00HH`` (the same string, escaped).
_RAW_CONTROL = re.compile("[\x7f-\x9f]")


def _escape(match: re.Match[str]) -> str:
    """In JSON text: the escape's backslash itself escaped (the string holds ``\\xHH``)."""
    return "\\" + _single(match)


def json_text(text: str) -> str:
    """JSON ``text`` (``ensure_ascii=False``) with each lone surrogate, which can only sit
    inside a string literal, replaced by its escaped ``\\xHH`` or ``\\uXXXX`` form, and
    each DEL or C1 control by its JSON escape ``\\u00HH`` (the same string)."""
    if text.isascii():
        return text if "\x7f" not in text else _RAW_CONTROL.sub(_control, text)
    return _RAW_CONTROL.sub(_control, _LONE_SURROGATE.sub(_escape, text))


def _control(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def escape_strings(value: object) -> object:
    """``value`` (JSON-ready: dicts, lists, strings, numbers) with every string's lone
    surrogates escaped as in :func:`json_text`, for a model whose patterns refuse them."""
    if isinstance(value, str):
        return value if value.isascii() else _LONE_SURROGATE.sub(_single, value)
    if isinstance(value, dict):
        return {escape_strings(k): escape_strings(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [escape_strings(v) for v in value]
    return value


def _single(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def dumps(value: object, *, indent: int | None = None) -> str:
    """``json.dumps`` of a JSON-ready value, non-ASCII kept, lone surrogates escaped."""
    return json_text(json.dumps(value, indent=indent, ensure_ascii=False))


def model_json(
    model: BaseModel,
    *,
    indent: int | None = None,
    by_alias: bool = False,
    exclude_unset: bool = False,
    exclude_none: bool = False,
) -> str:
    """``model.model_dump_json(...)``, or, when a string holds a lone surrogate (which
    pydantic refuses to serialise), the same document with it escaped (:func:`json_text`).
    """
    from pydantic_core import PydanticSerializationError

    try:
        return json_text(
            model.model_dump_json(
                indent=indent,
                by_alias=by_alias,
                exclude_unset=exclude_unset,
                exclude_none=exclude_none,
            )
        )
    except PydanticSerializationError:
        value = model.model_dump(
            mode="json", by_alias=by_alias, exclude_unset=exclude_unset, exclude_none=exclude_none
        )
        return dumps(value, indent=indent)
