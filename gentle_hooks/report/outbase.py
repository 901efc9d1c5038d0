"""The base of every ``--json`` envelope model (SPEC §7 "JSON output").

Room ``report``. One place says how an envelope model behaves: frozen, an unknown field
refused (so ``gentle-hook schema`` and a reader agree on every field), fields settable by
their Python name or their alias (``schema_`` / ``schema``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class FrozenOut(BaseModel):
    """A frozen envelope model that refuses unknown fields."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def schema_field(schema: str) -> Any:
    """The ``schema_`` field of an envelope: named ``schema`` in JSON, ``schema`` its value
    unless given.

    Typed ``Any`` as :func:`pydantic.Field` is, so that it stands as the default of the
    field's ``Literal`` annotation.
    """
    return Field(default=schema, alias="schema")
