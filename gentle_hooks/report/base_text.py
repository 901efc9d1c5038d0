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


def base_words(base: BaseResolution) -> str:
    """The base a candidate was judged against, as a block and ``status`` name it:
    ``origin/main @ 1a2b3c4d5e6f``; for a staged amend of a commit the base ref contains
    (:attr:`BaseResolution.replaced`), the parent of the replaced commit by its id alone
    (the ``--base-ref`` the printed commands name; the base ref is not at that commit);
    ``empty tree`` when there is no base commit."""
    if base.commit is None:
        return "empty tree"
    if base.replaced:
        return f"{base.commit[:12]}, the parent of the commit this amend replaces"
    return f"{base.ref} @ {base.commit[:12]}"


def base_ref_named(base: BaseResolution) -> str | None:
    """The base ref the commands printed for a candidate name: the parent commit's id for
    a staged amend of a commit the base ref contains (:func:`base_words`), else the ref."""
    return base.commit if base.replaced and base.commit is not None else base.ref


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
