"""One line of a gentle-hooks note, typed (SPEC §8): a frozen value per line kind, the
schema every line is checked against (:data:`SCHEMA`), :func:`encode` and :func:`decode`.

Room ``notes``; standard library only. A line is one canonical JSON object (sorted keys,
compact separators, UTF-8 kept as is) carrying ``"kind"`` and ``"v": 1`` beside the
kind's fields, named as the fields of its type:

* ``candidate`` (:class:`CandidateLine`): ``commit``, ``identity``, ``base_tree``, ``tree``;
* ``writer`` (:class:`WriterLine`): ``model``, ``effort``, ``source``;
* ``writes`` (:class:`WritesLine`): ``path``, ``blob`` (the writer's content a commit
  carries, one line per file);
* ``escalation`` (:class:`EscalationLine`): ``item``, ``slug``, ``reason``, ``critical``;
* ``receipt``, ``spot_check``, ``verdict``, ``review``, ``override``: records bound to an
  ``identity`` (:class:`ReceiptLine`, :class:`SpotCheckLine`, :class:`VerdictLine`,
  :class:`ReviewLine`, :class:`OverrideLine`).

A receipt line, and a spot-check line re-running it, may carry ``cwd`` (written only when
present): the directory the receipt ran in, relative to the repository top, ``/``-separated,
with no empty, ``.`` or ``..`` part (absent: the top, as every line written before it).

Spot-check, verdict, escalation and override lines may carry ``sig``: an SSH signature
(armored text) of :func:`signed_payload`, the line's canonical text without ``sig``
(written only when present). A verdict line may carry ``observed`` (written only when
present): the digest of the verdict a ``gentle-hook verify run`` for its ``identity``
wrote from what it observed (SPEC §9), covered by ``sig`` like every other field.

Text that is not UTF-8 (a path git handed over as bytes, kept in a string by
``surrogateescape``) cannot be a JSON string of a UTF-8 note. A text field holding such
text is written as ``{"b64": "..."}``: the standard base64 of the text's bytes
(``text.encode("utf-8", "surrogateescape")``), and :func:`decode` gives back the same
string (docs/robustness.md "Paths that are not UTF-8"). Text that is valid UTF-8 is always
a plain JSON string, so every line written before keeps its exact bytes. A string holding
a lone surrogate that is no escaped byte (a JSON ``"\\ud800"`` escape) has no bytes:
:func:`encode` refuses it, naming the field.

For every value ``x`` whose fields hold their declared types (a verdict in
:func:`canonical_json` form), ``decode(encode(x)) == x``. :func:`decode` reads a line
another clone (or an attacker) wrote and accepts exactly what :data:`SCHEMA` describes:
every required field present with its type (an integer is not a float: ``"item": 2.0`` is
refused; a flag is ``true`` or ``false``), an optional field absent or of its type.
Anything else raises :class:`MalformedLine` with one line saying which field and why — the
server rejects a push adding such a line, and the range gate counts it for nothing.

Forward compatible (docs/ci.md "The notes format"): a field the kind does not have is
ignored, not refused, so a line a newer gentle-hooks wrote with a new optional field is
read for the fields this one knows. A new field is optional by this rule: a writer that
needs a reader to understand it writes another ``"v"``, which every older reader refuses.
A signed line carrying such a field keeps its signature over the text it was written
with, which :func:`signed_payload` of the fields read here is not: its signature does not
verify, so under ``gate.require_signed`` the line counts for nothing (closed, not open).
"""

from __future__ import annotations

import base64
import binascii
import json

from gentle_hooks.bounded import MAX_NESTING, nesting_depth
from gentle_hooks.values.frozen import fields, frozen, replace

NOTE_VERSION = 1

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class MalformedLine(ValueError):
    """A line :func:`decode` refuses: it can satisfy nothing.

    Attributes:
        kind: the kind the line names when it is a version-1 object of a known kind (a
            ``writer`` or ``escalation`` line still shows that writer work was recorded),
            else None.
    """

    def __init__(self, why: str, kind: str | None = None) -> None:
        super().__init__(why)
        self.kind = kind


@frozen
class CandidateLine:
    """The candidate a note's records are bound to: the commit it was written for, the
    candidate identity, and its tree pair (object ids in lowercase hex)."""

    KIND = "candidate"

    commit: str
    identity: str
    base_tree: str
    tree: str


@frozen
class WriterLine:
    """Who wrote the delivered work: model id, effort level, the runtime hook that
    recorded it (or None)."""

    KIND = "writer"

    model: str
    effort: str
    source: str | None = None


@frozen
class WritesLine:
    """One file of writer content the noted commit carries: its path and the blob id the
    writer produced there (SPEC §3 "Attribution follows content"). The range and server
    gates find this content again in a commit with no note of its own
    (:mod:`gentle_hooks.hooks.changed_tree`)."""

    KIND = "writes"

    path: str
    blob: str


@frozen
class EscalationLine:
    """An escalation the delivered work carried: item 1..6, its slug, the reason, and
    whether it was marked critical."""

    KIND = "escalation"

    item: int
    slug: str
    reason: str
    critical: bool = False
    sig: str | None = None


@frozen
class ReceiptLine:
    """A writer's receipt for ``identity``: command, observed result, reported exit code
    (None when not a number), output digest, when it was recorded (Unix seconds), and
    ``cwd``, the directory it ran in relative to the repository top (None: the top)."""

    KIND = "receipt"

    identity: str
    command: str
    observed: str
    exit_code: int | None = None
    output_digest: str | None = None
    recorded_at: float | None = None
    cwd: str | None = None


@frozen
class SpotCheckLine:
    """A spot check of ``identity``: ``check`` is ``rerun`` or ``readback``; the reported
    and observed exit codes (None for a readback), whether they agreed and whether the
    check counts; ``cwd``: the directory of the receipt it re-ran (None: the top)."""

    KIND = "spot_check"

    identity: str
    check: str
    command: str
    reported_exit: int | None = None
    observed_exit: int | None = None
    agreed: bool = False
    counts: bool = False
    recorded_at: float | None = None
    sig: str | None = None
    cwd: str | None = None


@frozen
class VerdictLine:
    """A verifier's verdict on ``identity``: the whole ``DelegationVerdict`` as canonical
    JSON text (:func:`canonical_json`); its acceptance is recomputed by whoever reads it.
    ``observed``: the ``sha256:`` digest of the verdict when a ``gentle-hook verify run``
    for ``identity`` wrote exactly it (the ledger's record of that run), else None; a
    reader counts it only when it is the digest of this line's verdict, bound to
    ``identity``. Unsigned, it is a claim of the clone that wrote the note."""

    KIND = "verdict"

    identity: str
    verdict: str
    recorded_at: float | None = None
    observed: str | None = None
    sig: str | None = None


@frozen
class ReviewLine:
    """A review outcome fact for ``identity`` (``declined``, ``unavailable``,
    ``acknowledged``; ``consumed`` from an older gentle-hooks, read as ``acknowledged``)."""

    KIND = "review"

    identity: str
    outcome: str
    recorded_at: float | None = None


@frozen
class OverrideLine:
    """A recorded override of ``identity``: the gate, who, why, what was missing, and the
    pushed ref or commit (None for a commit gate)."""

    KIND = "override"

    identity: str
    hook: str
    who: str
    reason: str
    missing: tuple[str, ...] = ()
    target: str | None = None
    recorded_at: float | None = None
    sig: str | None = None


NoteLine = (
    CandidateLine
    | WriterLine
    | WritesLine
    | EscalationLine
    | ReceiptLine
    | SpotCheckLine
    | VerdictLine
    | ReviewLine
    | OverrideLine
)


def canonical_json(text: str) -> str:
    """A JSON document in the one text form a :class:`VerdictLine` holds (sorted keys,
    compact, ASCII).

    Raises:
        ValueError: ``text`` is not JSON.
    """
    return _canonical(json.loads(text))


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def encode(line: NoteLine) -> str:
    """The canonical text of one note line (no newline): its type's fields under their
    own names, a :class:`VerdictLine`'s verdict as the JSON object it holds.

    Raises:
        ValueError: a :class:`VerdictLine` whose ``verdict`` is not JSON text; a text
            field holding a lone surrogate that is no escaped byte (naming the field).
    """
    body: dict[str, object] = {"kind": line.KIND, "v": NOTE_VERSION}
    for name in fields(line):
        body[name] = _wire(line.KIND, name, getattr(line, name))
    for name in ("sig", "observed", "cwd"):
        if body.get(name, "") is None:
            del body[name]  # a line without it keeps the text it had before the field
    if isinstance(line, VerdictLine):
        body["verdict"] = json.loads(line.verdict)
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def encode_text(text: str) -> str | dict[str, str]:
    """A text field's JSON value: ``text`` itself when it is valid UTF-8, else
    ``{"b64": base64 of its surrogateescape bytes}``.

    Raises:
        UnicodeEncodeError: ``text`` holds a lone surrogate outside U+DC80..U+DCFF.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogateescape")
        return {"b64": base64.b64encode(raw).decode("ascii")}
    return text


def decode_text(value: object) -> str | None:
    """The text a field's JSON value holds (:func:`encode_text`'s inverse): a string as it
    is, ``{"b64": ...}`` as its bytes decoded with ``surrogateescape``; None for anything
    else (another type, other keys, base64 that does not decode)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict) or set(value) != {"b64"} or not isinstance(value["b64"], str):
        return None
    try:
        raw = base64.b64decode(value["b64"].encode("ascii"), validate=True)
    except (ValueError, binascii.Error):
        return None
    return raw.decode("utf-8", "surrogateescape")


def _wire(kind: str, name: str, value: object) -> object:
    """A field's JSON value: text through :func:`encode_text`, a tuple of text as a list."""
    try:
        if isinstance(value, str):
            return encode_text(value)
        if isinstance(value, tuple):
            return [encode_text(x) if isinstance(x, str) else x for x in value]
    except UnicodeEncodeError:
        raise ValueError(f"{kind}: {name} holds a lone surrogate that is no byte") from None
    return value


def signed_payload(line: NoteLine) -> bytes:
    """What a line's ``sig`` signs: the canonical text of the line without its ``sig``."""
    if getattr(line, "sig", None) is not None:
        line = replace(line, sig=None)
    return encode(line).encode("utf-8")


def is_tree_dir(path: str | None) -> bool:
    """Whether ``path`` names a directory inside the repository as a ``cwd`` field does:
    relative, ``/``-separated, no empty, ``.`` or ``..`` part, no NUL (never the top)."""
    if not path or "\0" in path:
        return False
    return all(part not in ("", ".", "..") for part in path.split("/"))


#: The value types a field may hold, by name: a predicate and the words naming it.
_TYPES: dict[str, tuple[Callable[[object], bool], str]] = {
    "text": (lambda x: decode_text(x) is not None, "text"),
    "oid": (
        lambda x: isinstance(x, str) and len(x) in (40, 64) and not x.strip("0123456789abcdef"),
        "a lowercase hex object id",
    ),
    "int": (lambda x: isinstance(x, int) and not isinstance(x, bool), "an integer"),
    "item": (
        lambda x: isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6,
        "an integer 1..6",
    ),
    "bool": (lambda x: isinstance(x, bool), "true or false"),
    "time": (
        lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
        "a number (Unix seconds)",
    ),
    "texts": (
        lambda x: isinstance(x, list) and all(decode_text(i) is not None for i in x),
        "a list of text",
    ),
    "object": (lambda x: isinstance(x, dict), "a JSON object"),
    "dir": (
        lambda x: is_tree_dir(decode_text(x)),
        "a directory relative to the repository top ('/'-separated, no empty, '.' or '..' part)",
    ),
}


_CLASSES: dict[str, type[NoteLine]] = {
    c.KIND: c
    for c in (
        CandidateLine,
        WriterLine,
        WritesLine,
        EscalationLine,
        ReceiptLine,
        SpotCheckLine,
        VerdictLine,
        ReviewLine,
        OverrideLine,
    )
}

#: A field's wire type from its declared annotation (the annotation text: this module
#: never imports typing); ``?`` marks a field that may be null.
_WIRE_BY_ANNOTATION: dict[str, str] = {
    "str": "text",
    "str | None": "text?",
    "int | None": "int?",
    "float | None": "time?",
    "bool": "bool",
    "tuple[str, ...]": "texts",
}

#: Fields whose wire type is narrower than their annotation says (an object id, an item
#: 1..6, a verdict sent as the JSON object it holds, a signature, a verdict's observed
#: digest or a directory absent but never null).
_WIRE_BY_NAME: dict[str, str] = {
    "commit": "oid",
    "base_tree": "oid",
    "tree": "oid",
    "blob": "oid",
    "item": "item",
    "verdict": "object",
    "sig": "text",
    "observed": "text",
    "cwd": "dir",
}


def _schema(cls: type[NoteLine]) -> tuple[tuple[str, str, bool], ...]:
    """A line class's fields as (name, wire type, required): required when it has no
    default."""
    annotations: dict[str, str] = cls.__dict__["__annotations__"]  # noqa: RUF063
    defaults: dict[str, object] = cls.__dict__["__value_defaults__"]
    return tuple(
        (
            name,
            _WIRE_BY_NAME.get(name) or _WIRE_BY_ANNOTATION[annotations[name]],
            name not in defaults,
        )
        for name in fields(cls)
    )


#: Every line kind's fields: (name, type, required), read from the line classes. A field
#: that is not required may be absent (its default) or, when its type ends in ``?``, null.
SCHEMA: dict[str, tuple[tuple[str, str, bool], ...]] = {
    kind: _schema(cls) for kind, cls in _CLASSES.items()
}


def decode(text: str) -> NoteLine:
    """The typed value of one note line, checked against :data:`SCHEMA`.

    Raises:
        MalformedLine: not JSON, a key twice in an object, not an object, another version,
            an unknown kind, a missing required field or a known field of the wrong type
            (one line naming it; ``kind`` set when the line names a known kind). A field
            the kind does not have is ignored (forward compatible: the module docstring).
    """
    if nesting_depth(text) > MAX_NESTING:  # json recurses per level; a bound comes first
        raise MalformedLine(f"nested deeper than {MAX_NESTING} levels")
    try:
        obj = json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise MalformedLine(f"the key {_show(str(exc))} appears twice") from None
    except (ValueError, RecursionError):  # a number too long to convert is a ValueError
        raise MalformedLine("not JSON") from None
    if not isinstance(obj, dict):
        raise MalformedLine("not a JSON object")
    if type(obj.get("v")) is not int or obj["v"] != NOTE_VERSION:
        raise MalformedLine(f'not version {NOTE_VERSION} ("v": {NOTE_VERSION})')
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in SCHEMA:
        raise MalformedLine(f"unknown kind {_show(kind)} (known: {', '.join(SCHEMA)})")
    spec = SCHEMA[kind]
    # a field the kind does not have is ignored: a newer writer's optional field
    values: dict[str, Any] = {}  # each value checked against its field's type above
    for name, type_name, required in spec:
        if name not in obj:
            if required:
                raise MalformedLine(f"{kind}: {name} is missing", kind)
            continue
        value = obj[name]
        nullable = type_name.endswith("?")
        check, words = _TYPES[type_name.rstrip("?")]
        if value is None and nullable:
            values[name] = None
            continue
        if not check(value):
            words += " or null" if nullable else ""
            raise MalformedLine(f"{kind}: {name} must be {words}, not {_show(value)}", kind)
        values[name] = _convert(type_name.rstrip("?"), value)
    if kind == VerdictLine.KIND:
        values["verdict"] = _canonical(obj["verdict"])
    return _CLASSES[kind](**values)


class _DuplicateKey(Exception):
    """An object of a note line names a key twice (which value counts is a guess)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s object hook: the object, or :class:`_DuplicateKey` naming the key
    an object repeats."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey(key)
        obj[key] = value
    return obj


def _convert(type_name: str, value: object) -> object:
    """A checked field's value as its type holds it (text decoded, a list a tuple)."""
    if type_name in ("text", "dir"):
        return decode_text(value)
    if type_name == "texts" and isinstance(value, list):
        return tuple(decode_text(x) for x in value)
    return value


def _show(value: object) -> str:
    """A short rendering of a JSON value for an error line."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."
