"""Frozen value types for the hook paths, without :mod:`dataclasses`.

Room ``values`` (no I/O, standard library only). ``@frozen`` turns a class whose body declares
annotated fields into an immutable value type with the behaviour of
``@dataclasses.dataclass(frozen=True)`` that this code base uses: an ``__init__`` taking the
fields in declaration order (positionally or by name, defaults and ``field(default=...)`` /
``field(default_factory=...)`` applied), ``__repr__``, ``__eq__`` (same class, equal
fields), ``__hash__`` (of the field values), ``__match_args__``, and assignment or deletion
of an attribute raising :class:`FrozenInstanceError`.

Why not :mod:`dataclasses`: on a 2-core machine, importing it costs
≈ 25 ms (it imports :mod:`inspect`) and each frozen class ≈ 1.2 ms at import time (it
compiles generated source for five methods), which is ≈ 4x ``python -c pass`` on the
delegated commit gate's 44 classes. The methods here are shared closures, compiled once
with this module and cached in its ``.pyc`` like any other code.

Type checkers see these classes as dataclasses through :pep:`681` ``dataclass_transform``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from typing_extensions import dataclass_transform  # typing's from 3.11; pydantic's dep

    T = TypeVar("T")
else:

    def dataclass_transform(**_kw):
        return lambda f: f


__all__ = ["FrozenInstanceError", "asdict", "field", "fields", "frozen", "replace"]

FIELDS_ATTR = "__value_fields__"


class FrozenInstanceError(AttributeError):
    """Raised on assignment to, or deletion of, an attribute of a ``@frozen`` instance."""


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class _Field:
    """What :func:`field` returns: a default or a default factory for one field."""

    __slots__ = ("default", "default_factory")

    def __init__(self, default: object, default_factory: object) -> None:
        self.default = default
        self.default_factory = default_factory


def field(*, default: Any = MISSING, default_factory: Any = MISSING) -> Any:
    """A field's default (``default``) or a zero-argument callable making one per instance
    (``default_factory``), as in :func:`dataclasses.field`.

    Raises:
        ValueError: both given.
    """
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return _Field(default, default_factory)


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _values(obj: object) -> tuple[object, ...]:
    d = obj.__dict__
    return tuple(d[n] for n in getattr(type(obj), FIELDS_ATTR))


def _eq(self: object, other: object) -> object:
    """``__eq__`` of a frozen class: equal fields, same class; NotImplemented otherwise."""
    if other is self:  # as comparing the fields answers: tuples compare items by identity first
        return True
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: object) -> int:
    return hash(_values(self))


def _repr(self: object) -> str:
    d = self.__dict__
    body = ", ".join(f"{n}={d[n]!r}" for n in getattr(type(self), FIELDS_ATTR))
    return f"{type(self).__qualname__}({body})"


def _make_init(
    qualname: str,
    names: tuple[str, ...],
    defaults: dict[str, object],
    factories: dict[str, Callable[[], object]],
) -> Callable[..., None]:
    count = len(names)
    every = frozenset(names)

    def __init__(self: object, *args: object, **kwargs: object) -> None:
        if len(args) == count and not kwargs:  # every field given in order: the common call
            self.__dict__.update(zip(names, args, strict=False))
            return
        if not args and kwargs.keys() == every:  # every field by name: the other common one
            self.__dict__.update(zip(names, map(kwargs.__getitem__, names), strict=False))
            return
        if len(args) > count:
            raise TypeError(
                f"{qualname}() takes {count} positional arguments but {len(args)} were given"
            )
        d = self.__dict__
        for name, value in zip(names, args, strict=False):
            d[name] = value
        for name in names[len(args) :]:
            if name in kwargs:
                d[name] = kwargs.pop(name)
            elif name in defaults:
                d[name] = defaults[name]
            elif name in factories:
                d[name] = factories[name]()
            else:
                raise TypeError(f"{qualname}() missing required argument: {name!r}")
        if kwargs:
            name = next(iter(kwargs))
            why = "multiple values for" if name in names else "an unexpected keyword"
            raise TypeError(f"{qualname}() got {why} argument {name!r}")

    __init__.__qualname__ = f"{qualname}.__init__"
    return __init__


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen value type (see the module docstring).

    Args:
        cls: a class whose own annotations name its fields, in order; fields of ``@frozen``
            base classes come first. A class attribute of the same name is the default
            (or a :func:`field`).

    Returns:
        ``cls`` itself, with the methods set.

    Raises:
        TypeError: a field without a default follows one with a default.
    """
    names: list[str] = []
    defaults: dict[str, object] = {}
    factories: dict[str, Callable[[], object]] = {}
    for base in reversed(cls.__mro__[1:]):
        base_names = base.__dict__.get(FIELDS_ATTR)
        if base_names:
            names.extend(n for n in base_names if n not in names)
            defaults.update(base.__dict__["__value_defaults__"])
            factories.update(base.__dict__["__value_factories__"])
    for name in cls.__dict__.get("__annotations__", {}):  # noqa: RUF063 - inspect is what we avoid
        if name not in names:
            names.append(name)
        attr = cls.__dict__.get(name, MISSING)
        if isinstance(attr, _Field):
            if attr.default_factory is not MISSING:
                factories[name] = attr.default_factory  # type: ignore[assignment]
                delattr(cls, name)
            elif attr.default is not MISSING:
                defaults[name] = attr.default
                setattr(cls, name, attr.default)
            else:
                delattr(cls, name)
        elif attr is not MISSING:
            defaults[name] = attr
    seen_default = False
    for name in names:
        has = name in defaults or name in factories
        if seen_default and not has:
            raise TypeError(f"non-default argument {name!r} follows default argument")
        seen_default = seen_default or has
    fields_ = tuple(names)
    qualname = cls.__qualname__
    setattr(cls, FIELDS_ATTR, fields_)
    cls.__value_defaults__ = defaults  # type: ignore[attr-defined]
    cls.__value_factories__ = factories  # type: ignore[attr-defined]
    methods: dict[str, object] = {
        "__match_args__": fields_,
        "__init__": _make_init(qualname, fields_, defaults, factories),
        "__setattr__": _frozen_setattr,
        "__delattr__": _frozen_delattr,
    }
    if "__repr__" not in cls.__dict__:
        methods["__repr__"] = _repr
    if "__eq__" not in cls.__dict__:
        methods["__eq__"] = _eq
    if cls.__dict__.get("__hash__") is None:  # absent, or None because __eq__ is defined
        methods["__hash__"] = _hash
    for name, method in methods.items():
        setattr(cls, name, method)
    return cls


def fields(obj: object) -> tuple[str, ...]:
    """The field names of a ``@frozen`` class or instance, in declaration order.

    Raises:
        TypeError: not a ``@frozen`` class or instance.
    """
    cls = obj if isinstance(obj, type) else type(obj)
    names = getattr(cls, FIELDS_ATTR, None)
    if names is None:
        raise TypeError(f"{cls.__qualname__} is not a @frozen value type")
    return names  # type: ignore[no-any-return]


def replace(obj: T, **changes: object) -> T:
    """A copy of the ``@frozen`` instance ``obj`` with ``changes`` applied (like
    :func:`dataclasses.replace`).

    Raises:
        TypeError: not a ``@frozen`` instance, or a name that is not a field.
    """
    names = fields(obj)
    d = obj.__dict__
    values = {n: d[n] for n in names}
    for name, value in changes.items():
        if name not in values:
            raise TypeError(f"{type(obj).__qualname__} has no field {name!r}")
        values[name] = value
    return type(obj)(**values)


def asdict(obj: object) -> dict[str, object]:
    """A ``@frozen`` instance as a dict, recursively (nested value types, lists, tuples and
    dicts copied), like :func:`dataclasses.asdict`.

    Raises:
        TypeError: not a ``@frozen`` instance.
    """
    return {n: _plain(obj.__dict__[n]) for n in fields(obj)}


def _plain(value: object) -> object:
    if getattr(type(value), FIELDS_ATTR, None) is not None and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value
