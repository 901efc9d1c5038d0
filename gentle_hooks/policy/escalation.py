"""Escalation: naming one Task Size high-risk item raises the plan to ``high`` (SPEC §5).

Room ``policy`` (pure). The six items are the only way to a ``high`` plan; size, file count,
native tier, a failed assessment, the writer's model or effort never escalate.
"""

from __future__ import annotations

from gentle_hooks.errors import PolicyInputError
from gentle_hooks.values.frozen import frozen

#: Longest escalation reason accepted, in characters (a reason is one line, not an essay).
MAX_REASON_CHARS = 300


@frozen
class EscalationItem:
    """One Task Size high-risk item.

    Attributes:
        number: 1..6, the item's stable id.
        slug: the short name accepted on the command line (``security``).
        title: what the item covers, as the seed words it.
    """

    number: int
    slug: str
    title: str


ESCALATION_ITEMS: tuple[EscalationItem, ...] = (
    EscalationItem(1, "data", "data or irreversible effects"),
    EscalationItem(2, "security", "security"),
    EscalationItem(3, "contracts", "contracts others consume"),
    EscalationItem(4, "concurrency", "concurrency"),
    EscalationItem(5, "delivery", "delivery or environment"),
    EscalationItem(6, "untested", "no test would catch a regression"),
)


@frozen
class Escalation:
    """A recorded escalation: the item, the one-line reason given for it, and whether it
    is marked critical (shipping stakes then need a second verifier, SPEC §9)."""

    item: EscalationItem
    reason: str
    critical: bool = False


def list_items() -> str:
    """Render the six items as ``1 data, 2 security, ...`` for error messages."""
    return ", ".join(f"{i.number} {i.slug}" for i in ESCALATION_ITEMS)


def parse_item(text: str) -> EscalationItem:
    """Resolve an item given by number (``"2"``) or slug (``"security"``, any case).

    Raises:
        PolicyInputError: anything else, with the six valid items listed.
    """
    key = text.strip().lower()
    for item in ESCALATION_ITEMS:
        if key in (str(item.number), item.slug):
            return item
    raise PolicyInputError(
        f"unknown escalation item {text!r}: name one of the six Task Size high-risk items "
        f"by number or slug ({list_items()})"
    )


def make_escalation(item_text: str, reason: str | None, critical: bool = False) -> Escalation:
    """Validate an escalation request into an :class:`Escalation`.

    Args:
        item_text: item number or slug.
        reason: the required one-line reason; stripped, at most ``MAX_REASON_CHARS``.
        critical: the escalation is marked critical.

    Raises:
        PolicyInputError: unknown item, missing/empty reason, multi-line or overlong reason.
    """
    item = parse_item(item_text)
    text = (reason or "").strip()
    if not text:
        raise PolicyInputError(
            f"escalating item {item.number} ({item.slug}) needs a reason: "
            f'add --escalate-reason "<one line: why {item.title} applies>"'
        )
    if "\n" in text or "\r" in text:
        raise PolicyInputError("the escalation reason must be one line")
    if len(text) > MAX_REASON_CHARS:
        raise PolicyInputError(
            f"the escalation reason is {len(text)} characters; the limit is {MAX_REASON_CHARS}"
        )
    return Escalation(item=item, reason=text, critical=critical)
