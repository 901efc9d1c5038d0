"""One line of what the ``gentle-ai`` binary said: the form every native failure takes.

Layer: native, pure (standard library only). Shared by :mod:`gentle_hooks.native.binary`
(run failures) and :mod:`gentle_hooks.native.decode` (refused output), neither of which
imports the other at module level.
"""

from __future__ import annotations

#: Longest message kept from the binary, in characters (one line).
MAX_MESSAGE_CHARS = 500


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """Fold ``text`` to one line (whitespace runs to one space), at most ``limit`` chars
    (the last one then ``…``)."""
    folded = " ".join(text.split())
    return folded if len(folded) <= limit else folded[: limit - 1] + "…"
