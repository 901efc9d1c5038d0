"""The type of a JSON value built for output (an envelope, a tool's schema): what crosses a
module boundary instead of ``dict[str, Any]``.

Room ``values``; imported for annotations only (``TYPE_CHECKING``), so the pass path never
loads ``typing`` for it.
"""

from __future__ import annotations

from typing import TypeAlias

#: A JSON value: what :func:`json.dumps` writes without a ``default``.
Json: TypeAlias = "str | int | float | bool | list[Json] | dict[str, Json] | None"
#: A JSON object.
JsonObject: TypeAlias = "dict[str, Json]"
