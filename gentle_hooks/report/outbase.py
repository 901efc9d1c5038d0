"""The base of every ``--json`` envelope model (SPEC §7 "JSON output").

Room ``report``. One place says how an envelope model behaves: frozen, an unknown field
refused (so ``gentle-hook schema`` and a reader agree on every field), fields settable by
their Python name or their alias (``schema_`` / ``schema``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class FrozenOut(BaseModel):
    """A frozen envelope model that refuses unknown fields."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
