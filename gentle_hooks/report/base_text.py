"""Why a block's candidate is judged against the empty tree, and how to name a base
(SPEC §3 "Base").

Room ``report``: pure string building over a :class:`BaseResolution`.
"""

from __future__ import annotations

from gentle_hooks.values.candidate import BaseResolution

#: The git configuration that names a base ref for every command and gate (README
#: "Configuration": ``base_ref``); ``HEAD`` judges each change against the commit it
#: stands on, and a commit on the branch against its first parent.
BASE_REF_KEY = "gentle.baseRef"


def empty_base_lines(base: BaseResolution, indent: str = "  ") -> list[str]:
    """Why a block's candidate is judged against the empty tree (its base's note), and,
    when no base ref was found at all, the git command that names one; ``[]`` when the
    base is a commit."""
    if base.commit is not None:
        return []
    out = [f"{indent}base: {base.note}"]
    if base.source == "none":
        out.append(
            f"{indent}to judge it against a base instead, name one (HEAD: each change "
            "against the commit it stands on; or a branch it started from), then run the "
            f"same git command again: git config {BASE_REF_KEY} HEAD"
        )
    return out
