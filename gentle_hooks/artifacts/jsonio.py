"""Strict JSON input for artifacts: loading, the strict model base and its field types.

Room: artifacts (imports pydantic, the standard library and :mod:`gentle_hooks.errors`).
Briefs (:mod:`.brief`), verdicts (:mod:`.verdict`) and the quorum's inputs
(:mod:`gentle_hooks.quorum`) are read through here, so that every JSON document the tool
reads is refused the same way and in one line (exit 2).

* :func:`load_json_text` — UTF-8 JSON with no duplicate key and no ``NaN``/``Infinity``.
* :class:`StrictModel` — frozen, ``extra="forbid"``, Python ``re`` for ``pattern``.
* :data:`NonNegative`, :data:`Budget`, :data:`Strings`, :data:`Command` — field types that
  accept what JSON cannot tell apart (``2.0`` is 2), one string for a one-element list, a
  command as a shell line or an argument vector.
* :func:`describe_validation_error` — a pydantic error folded into one line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictStr,
    ValidationError,
    WithJsonSchema,
)

from gentle_hooks.bounded import MAX_NESTING, nesting_depth
from gentle_hooks.errors import GentleError

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


class ArtifactInputError(GentleError):
    """A brief or verdict that cannot be read as one: not UTF-8, not JSON, duplicate keys,
    a missing or mistyped field, an oversized summary (exit 2)."""


M = TypeVar("M", bound=BaseModel)


class StrictModel(BaseModel):
    """Base of the artifact models: frozen, unknown fields refused."""

    # Python's ``re`` for ``pattern``, as JSON Schema validators in Python use: the parser
    # and `gentle-hook schema` must agree on what "not blank" (``\S``) means.
    model_config = ConfigDict(extra="forbid", frozen=True, regex_engine="python-re")


def _whole_number(value: object) -> object:
    """``1.0`` is the number 1: JSON does not tell them apart and neither does JSON Schema's
    ``integer``, so the parser accepts it too. ``1.5``, ``"1"`` and ``true`` stay refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A non-negative whole number: an integer, or a float with no fraction (``2.0``).
NonNegative = Annotated[int, Field(ge=0, strict=True), BeforeValidator(_whole_number)]
#: A tool-call budget: a whole number of at least 1.
Budget = Annotated[int, Field(ge=1, strict=True), BeforeValidator(_whole_number)]


def _one_string_is_a_list(value: object) -> object:
    """Let a single string stand for a one-element list (``"boundaries": "src/ only"``)."""
    return (value,) if isinstance(value, str) else value


#: A list of strings, or one string standing for a one-element list. The validation-mode
#: schema says so, so that `gentle-hook schema brief` accepts what the parser accepts.
Strings = Annotated[
    tuple[StrictStr, ...],
    BeforeValidator(_one_string_is_a_list),
    WithJsonSchema(
        {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
        mode="validation",
    ),
]


def _command(value: object) -> str | tuple[str, ...]:
    """A command: a non-blank string, or a non-empty array of strings whose program (the
    first) is not blank; an array becomes a tuple."""
    if isinstance(value, str):
        if not value.strip():
            raise ValueError("a command must not be blank")
        return value
    if isinstance(value, list | tuple):
        if not value:
            raise ValueError("an argument vector must not be empty")
        if not all(isinstance(a, str) for a in value):
            raise ValueError("every argument must be a string")
        if not value[0].strip():
            raise ValueError("the program (the first argument) must not be blank")
        return tuple(value)
    raise ValueError("a command is a string or an array of strings")


def _command_json(value: str | tuple[str, ...]) -> str | list[str]:
    return value if isinstance(value, str) else list(value)


#: A command a verifier runs: one non-blank string (run by ``sh -c``) or a non-empty
#: argument vector of strings, the program not blank (run as it is).
Command = Annotated[
    str | tuple[str, ...],
    PlainValidator(_command),
    PlainSerializer(_command_json),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "minLength": 1, "pattern": "\\S"},
                {
                    "type": "array",
                    "items": {"type": "string"},
                    "prefixItems": [{"type": "string", "pattern": "\\S"}],
                    "minItems": 1,
                },
            ]
        }
    ),
]


def _reject_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def load_json_text(data: bytes | str, what: str) -> tuple[str, object]:
    """Decode ``data`` as UTF-8 JSON, refusing duplicate keys and NaN/Infinity.

    A duplicate key is refused because JSON parsers disagree on which copy wins, and a
    verdict must mean one thing (``{"status": "fail", "status": "pass"}``).

    Args:
        data: the document (bytes may start with a UTF-8 byte order mark).
        what: what to call it in messages (a path, ``-``).

    Returns:
        (text, value): the decoded text and the parsed value.

    Raises:
        ArtifactInputError: not UTF-8, not JSON, a duplicate key, nesting too deep for the
            parser; the message names ``what``.
    """
    return decode_json(
        data, what, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant
    )


def decode_json(
    data: bytes | str,
    what: str,
    *,
    object_pairs_hook: Callable[[list[tuple[str, object]]], object],
    parse_constant: Callable[[str], object] | None = None,
    byte_offset: bool = True,
) -> tuple[str, object]:
    """Decode ``data`` as UTF-8 JSON (a leading byte order mark allowed), each object built
    by ``object_pairs_hook`` and each ``NaN``/``Infinity`` by ``parse_constant`` (None:
    Python's floats).

    Returns:
        (text, value): the decoded text and the parsed value.

    Raises:
        ArtifactInputError: not UTF-8 (with the offending byte's offset when
            ``byte_offset``), not JSON, a ``ValueError`` of a hook, nesting too deep for
            the parser; the message names ``what``.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            at = f" at byte {exc.start}" if byte_offset else ""
            raise ArtifactInputError(f"{what}: not UTF-8: {exc.reason}{at}") from None
    else:
        text = data
    if nesting_depth(text) > MAX_NESTING:
        raise ArtifactInputError(f"{what}: not JSON: nested too deeply")
    try:
        value = json.loads(text, object_pairs_hook=object_pairs_hook, parse_constant=parse_constant)
    except json.JSONDecodeError as exc:
        raise ArtifactInputError(
            f"{what}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except ValueError as exc:  # a hook's refusal, or more digits than Python converts
        raise ArtifactInputError(f"{what}: not JSON: {exc}") from None
    except RecursionError:
        raise ArtifactInputError(f"{what}: not JSON: nested too deeply") from None
    return text, value


def _no_rewording(err: ErrorDetails) -> str | None:
    return None


#: The pattern of a string that must hold a character other than whitespace.
NOT_BLANK = r"\S"


def _pattern(err: ErrorDetails) -> object:
    """The pattern a ``string_pattern_mismatch`` fault names, else None."""
    if err["type"] != "string_pattern_mismatch":
        return None
    return err.get("ctx", {}).get("pattern")


def describe_validation_error(
    exc: ValidationError,
    limit: int = 4,
    *,
    reword: Callable[[ErrorDetails], str | None] = _no_rewording,
) -> str:
    """Fold a pydantic error into one line: ``field.path: message`` per fault, ``;``-joined.

    Args:
        exc: the validation error.
        limit: faults worded at most; the rest are counted (``and 3 more``).
        reword: the caller's own wording of one fault, or None for the standard one (a
            verdict words its oversized summary with the limit).

    Returns:
        One line, never empty for a real validation error.
    """
    parts: list[str] = []
    errors = exc.errors()
    for err in errors[:limit]:
        loc = ".".join(str(p) for p in err["loc"])
        at = f"{loc}: " if loc else ""
        own = reword(err)
        if own is not None:
            parts.append(own)
        elif err["type"] == "extra_forbidden":
            parts.append(f"{loc}: unknown field")
        elif err["type"] == "string_too_short" or _pattern(err) == NOT_BLANK:
            parts.append(f"{loc}: must not be blank")
        elif err["type"] == "string_pattern_mismatch":
            parts.append(f"{loc}: must match the pattern {_pattern(err)}")
        elif err["type"] == "missing":
            parts.append(f"{loc}: required field missing")
        elif err["type"] == "value_error":
            parts.append(f"{at}{err.get('ctx', {}).get('error', err['msg'])}")
        else:
            parts.append(f"{at}{err['msg']}")
    if len(errors) > limit:
        parts.append(f"and {len(errors) - limit} more")
    return "; ".join(parts)


def parse_object_model(
    data: bytes | str,
    source: str,
    model: type[M],
    reword: Callable[[ErrorDetails], str | None] = _no_rewording,
) -> M:
    """Parse one JSON object (:func:`load_json_text`) as ``model``.

    Raises:
        ArtifactInputError: as :func:`load_json_text`; not an object; fields ``model``
            refuses (``<source>: not a <model name>: <problem>``, the problem worded by
            :func:`describe_validation_error` with ``reword``).
    """
    text, value = load_json_text(data, source)
    if not isinstance(value, dict):
        raise ArtifactInputError(f"{source}: not a {model.__name__}: expected a JSON object")
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        problem = describe_validation_error(exc, reword=reword)
        raise ArtifactInputError(f"{source}: not a {model.__name__}: {problem}") from None
