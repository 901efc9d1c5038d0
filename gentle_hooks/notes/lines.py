"""One line of a gentle-hooks note, typed (SPEC §8): a frozen value per line kind,
:func:`encode` and :func:`decode`.

Room ``notes``; standard library only. A line is one canonical JSON object (sorted keys,
compact separators, UTF-8 kept as is) carrying ``"kind"`` and ``"v": 1`` beside the
kind's fields, named as the fields of its type:

* ``candidate`` (:class:`CandidateLine`): ``commit``, ``identity``, ``base_tree``, ``tree``;
* ``writer`` (:class:`WriterLine`): ``model``, ``effort``, ``source``;
* ``escalation`` (:class:`EscalationLine`): ``item``, ``slug``, ``reason``, ``critical``;
* ``receipt``, ``spot_check``, ``verdict``, ``review``, ``override``: records bound to an
  ``identity`` (:class:`ReceiptLine`, :class:`SpotCheckLine`, :class:`VerdictLine`,
  :class:`ReviewLine`, :class:`OverrideLine`).

For every value ``x`` whose fields hold their declared types (a verdict in
:func:`canonical_json` form), ``decode(encode(x)) == x``. :func:`decode` reads a
line another clone wrote, so it refuses only what can never count — not JSON, not an
object, another version, an unknown kind, a candidate without hex object ids, a record
whose ``identity`` is not text, an escalation whose ``item`` is not 1..6 — and reads any
other field leniently: a text field is ``str()`` of its JSON value (``"None"`` when
absent), a flag is true only when it is ``true`` (``critical``: when truthy), a number of
the wrong type is None. Unknown fields are ignored.
"""

from __future__ import annotations

import json

from gentle_hooks.bounded import MAX_NESTING, nesting_depth
from gentle_hooks.values.frozen import fields, frozen

NOTE_VERSION = 1

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    Fields = Mapping[str, object]


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
class EscalationLine:
    """An escalation the delivered work carried: item 1..6, its slug, the reason, and
    whether it was marked critical."""

    KIND = "escalation"

    item: int
    slug: str
    reason: str
    critical: bool = False


@frozen
class ReceiptLine:
    """A writer's receipt for ``identity``: command, observed result, reported exit code
    (None when not a number), output digest, when it was recorded (Unix seconds)."""

    KIND = "receipt"

    identity: str
    command: str
    observed: str
    exit_code: int | None = None
    output_digest: str | None = None
    recorded_at: float | None = None


@frozen
class SpotCheckLine:
    """A spot check of ``identity``: ``check`` is ``rerun`` or ``readback``; the reported
    and observed exit codes (None for a readback), whether they agreed and whether the
    check counts."""

    KIND = "spot_check"

    identity: str
    check: str
    command: str
    reported_exit: int | None = None
    observed_exit: int | None = None
    agreed: bool = False
    counts: bool = False
    recorded_at: float | None = None


@frozen
class VerdictLine:
    """A verifier's verdict on ``identity``: the whole ``DelegationVerdict`` as canonical
    JSON text (:func:`canonical_json`); its acceptance is recomputed by whoever reads it."""

    KIND = "verdict"

    identity: str
    verdict: str
    recorded_at: float | None = None


@frozen
class ReviewLine:
    """A review outcome fact for ``identity`` (``declined``, ``unavailable``,
    ``consumed``)."""

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


NoteLine = (
    CandidateLine
    | WriterLine
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
        ValueError: a :class:`VerdictLine` whose ``verdict`` is not JSON text.
    """
    body: dict[str, object] = {"kind": line.KIND, "v": NOTE_VERSION}
    body.update((name, getattr(line, name)) for name in fields(line))
    if isinstance(line, VerdictLine):
        body["verdict"] = json.loads(line.verdict)
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def decode(text: str) -> NoteLine:
    """The typed value of one note line.

    Raises:
        MalformedLine: a line that can count for nothing (see the module docstring).
    """
    if nesting_depth(text) > MAX_NESTING:  # json recurses per level; a bound comes first
        raise MalformedLine(f"nested deeper than {MAX_NESTING} levels")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):  # a number too long to convert is a ValueError
        raise MalformedLine("not JSON") from None
    if not isinstance(obj, dict):
        raise MalformedLine("not a JSON object")
    if obj.get("v") != NOTE_VERSION:
        raise MalformedLine(f"not version {NOTE_VERSION}")
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in _READERS:
        raise MalformedLine("unknown kind")
    return _READERS[kind](obj, kind)


def _text(obj: Fields, key: str) -> str:
    return str(obj.get(key))


def _text_or_none(obj: Fields, key: str) -> str | None:
    value = obj.get(key)
    return value if isinstance(value, str) else None


def _int_or_none(obj: Fields, key: str) -> int | None:
    value = obj.get(key)
    return value if isinstance(value, int) else None


def _time(obj: Fields) -> float | None:
    value = obj.get("recorded_at")
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _identity(obj: Fields, kind: str) -> str:
    value = obj.get("identity")
    if not isinstance(value, str):
        raise MalformedLine("identity is not text: the record binds to no candidate", kind)
    return value


def _is_oid(value: object) -> bool:
    return isinstance(value, str) and len(value) in (40, 64) and not value.strip("0123456789abcdef")


def _candidate(obj: Fields, kind: str) -> CandidateLine:
    commit, identity, base, tree = (obj.get(k) for k in ("commit", "identity", "base_tree", "tree"))
    if not (
        isinstance(commit, str)
        and isinstance(identity, str)
        and isinstance(base, str)
        and isinstance(tree, str)
        and _is_oid(commit)
        and _is_oid(base)
        and _is_oid(tree)
    ):
        raise MalformedLine("a candidate needs text fields and hex object ids", kind)
    return CandidateLine(commit, identity, base, tree)


def _writer(obj: Fields, kind: str) -> WriterLine:
    return WriterLine(_text(obj, "model"), _text(obj, "effort"), _text_or_none(obj, "source"))


def _escalation(obj: Fields, kind: str) -> EscalationLine:
    item = obj.get("item")
    if not isinstance(item, int) or not 1 <= item <= 6:
        raise MalformedLine("an escalation item is a number 1..6", kind)
    return EscalationLine(
        int(item), _text(obj, "slug"), _text(obj, "reason"), bool(obj.get("critical"))
    )


def _receipt(obj: Fields, kind: str) -> ReceiptLine:
    return ReceiptLine(
        _identity(obj, kind),
        _text(obj, "command"),
        _text(obj, "observed"),
        _int_or_none(obj, "exit_code"),
        _text_or_none(obj, "output_digest"),
        _time(obj),
    )


def _spot_check(obj: Fields, kind: str) -> SpotCheckLine:
    return SpotCheckLine(
        _identity(obj, kind),
        _text(obj, "check"),
        _text(obj, "command"),
        _int_or_none(obj, "reported_exit"),
        _int_or_none(obj, "observed_exit"),
        obj.get("agreed") is True,
        obj.get("counts") is True,
        _time(obj),
    )


def _verdict(obj: Fields, kind: str) -> VerdictLine:
    return VerdictLine(_identity(obj, kind), _canonical(obj.get("verdict")), _time(obj))


def _review(obj: Fields, kind: str) -> ReviewLine:
    return ReviewLine(_identity(obj, kind), _text(obj, "outcome"), _time(obj))


def _override(obj: Fields, kind: str) -> OverrideLine:
    missing = obj.get("missing")
    names: tuple[str, ...] = ()
    if isinstance(missing, list) and all(isinstance(m, str) for m in missing):
        names = tuple(str(m) for m in missing)
    return OverrideLine(
        _identity(obj, kind),
        _text(obj, "hook"),
        _text(obj, "who"),
        _text(obj, "reason"),
        names,
        _text_or_none(obj, "target"),
        _time(obj),
    )


#: kind -> the reader of an object of that kind (every kind a line may name).
_READERS: dict[str, Callable[[Fields, str], NoteLine]] = {
    CandidateLine.KIND: _candidate,
    WriterLine.KIND: _writer,
    EscalationLine.KIND: _escalation,
    ReceiptLine.KIND: _receipt,
    SpotCheckLine.KIND: _spot_check,
    VerdictLine.KIND: _verdict,
    ReviewLine.KIND: _review,
    OverrideLine.KIND: _override,
}
