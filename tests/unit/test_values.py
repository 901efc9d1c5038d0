"""``@frozen`` value types (gentle_hooks.values.frozen): the dataclass behaviour the code
relies on."""

from __future__ import annotations

import copy
import pickle

import pytest

from gentle_hooks.values.frozen import FrozenInstanceError, asdict, field, fields, frozen, replace


@frozen
class Point:
    """A value with a required field, a default and a factory."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default=())
    extra: dict[str, int] = field(default_factory=dict)


@frozen
class Labelled(Point):
    label: str = "p"


@frozen
class Outer:
    inner: Point
    items: tuple[Point, ...] = ()


def test_init_positional_keyword_defaults_and_factory() -> None:
    p = Point(1)
    assert (p.x, p.y, p.tags, p.extra) == (1, 0, (), {})
    q = Point(1, y=2, tags=("a",))
    assert (q.x, q.y, q.tags) == (1, 2, ("a",))
    assert Point(1).extra is not Point(1).extra  # a fresh dict per instance
    assert Point(x=3, y=4) == Point(3, 4)
    # every field in order (the fast path) is the same value as by name, field by field
    whole = Labelled(1, 2, ("a",), {"k": 1}, "q")
    named = Labelled(x=1, y=2, tags=("a",), extra={"k": 1}, label="q")
    assert whole == named and repr(whole) == repr(named)
    assert list(whole.__dict__.items()) == list(named.__dict__.items())
    with pytest.raises(FrozenInstanceError):
        whole.x = 2  # type: ignore[misc]


def test_every_field_by_name_in_any_order_is_one_step() -> None:
    """Every field given by name (as most values of a gate are built) is the value built
    in field order, whatever order the names come in, and costs a constant number of
    steps: no loop over the fields (a push of 100 commits builds ~1,000 such values)."""
    import sys

    named = Labelled(label="q", extra={"k": 1}, tags=("a",), y=2, x=1)
    assert list(named.__dict__) == ["x", "y", "tags", "extra", "label"]
    assert named == Labelled(1, 2, ("a",), {"k": 1}, "q")
    lines = 0

    def count(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal lines
        if frame.f_code.co_name == "__init__":
            lines += event == "line"
        return count

    sys.settrace(count)
    try:
        Labelled(label="q", extra={}, tags=(), y=2, x=1)
    finally:
        sys.settrace(None)
    assert lines <= 4, lines


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {}, "missing required argument: 'x'"),
        ((1, 2, (), {}, 5), {}, "takes 4 positional arguments but 5 were given"),
        ((1,), {"x": 2}, "multiple values for argument 'x'"),
        ((1,), {"z": 2}, "unexpected keyword argument 'z'"),
    ],
)
def test_init_refuses_what_a_dataclass_refuses(
    args: tuple[object, ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        Point(*args, **kwargs)  # type: ignore[arg-type]


def test_frozen_assignment_and_deletion_raise() -> None:
    p = Point(1)
    with pytest.raises(FrozenInstanceError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del p.x  # type: ignore[misc]
    with pytest.raises(AttributeError):  # FrozenInstanceError is an AttributeError
        p.new = 1  # type: ignore[attr-defined]
    assert p.x == 1


def test_eq_hash_repr_and_match_args() -> None:
    a, b = Point(1, 2, ("t",)), Point(1, 2, ("t",))
    assert a == b and a is not b
    assert a != Point(1, 3, ("t",))
    assert Labelled(1, 2) != Point(1, 2)  # another class never equals
    assert a != (1, 2, ("t",), {})
    assert repr(a) == "Point(x=1, y=2, tags=('t',), extra={})"
    assert Point.__match_args__ == ("x", "y", "tags", "extra")
    with pytest.raises(TypeError):  # a dict field is unhashable, as in a dataclass
        hash(a)
    assert hash(Outer(Point(1, extra=None))) == hash(Outer(Point(1, extra=None)))  # type: ignore[arg-type]
    match a:
        case Point(1, y):
            assert y == 2
        case _:
            pytest.fail("positional match failed")


def test_inheritance_puts_base_fields_first() -> None:
    assert fields(Labelled) == ("x", "y", "tags", "extra", "label")
    lab = Labelled(1, label="q")
    assert (lab.x, lab.label) == (1, "q")


def test_replace_fields_asdict() -> None:
    p = Point(1, 2)
    q = replace(p, y=5)
    assert (q.x, q.y) == (1, 5) and p.y == 2
    with pytest.raises(TypeError, match="no field 'z'"):
        replace(p, z=1)
    assert fields(p) == fields(Point) == ("x", "y", "tags", "extra")
    with pytest.raises(TypeError, match="not a @frozen"):
        fields(object())
    o = Outer(Point(1), (Point(2, tags=("a",)),))
    assert asdict(o) == {
        "inner": {"x": 1, "y": 0, "tags": (), "extra": {}},
        "items": ({"x": 2, "y": 0, "tags": ("a",), "extra": {}},),
    }


def test_field_refuses_default_and_factory() -> None:
    with pytest.raises(ValueError, match="both"):
        field(default=1, default_factory=int)


def test_non_default_after_default_is_refused() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default"):

        @frozen
        class Bad:
            a: int = 0
            b: int


def test_copy_and_pickle_round_trip() -> None:
    p = Point(1, 2, ("t",), {"k": 1})
    for twin in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert twin == p


def test_no_dataclasses_on_the_gate_path() -> None:
    """The reason this module exists: importing the gate must not import dataclasses."""
    import subprocess
    import sys

    code = (
        "import sys, gentle_hooks.hooks.commit, gentle_hooks.hooks.push_gate, "
        "gentle_hooks.hooks.range, gentle_hooks.hooks.server; print('dataclasses' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
