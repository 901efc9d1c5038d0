"""Which skip markers a change adds may have skipped the tests a verify run skipped (SPEC
§9; seed 001 "Completion criteria": a pass needs the full suite to have run; row C1-skip).

Room ``services``: reads the candidate's tree for the pure rule of
:func:`gentle_hooks.policy.skipreports.counted_marks`.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.policy.skipmarks import SkipMark
from gentle_hooks.policy.skipreports import SkippedNamed, counted_marks, foreign_candidates
from gentle_hooks.services.record import Bound


def counted_skip_marks(
    bound: Bound,
    marks: tuple[SkipMark, ...],
    named: SkippedNamed | None,
    tree: Mapping[str, str],
) -> tuple[SkipMark, ...]:
    """The markers of ``marks`` that may have skipped a test ``named`` says was skipped
    (:func:`~gentle_hooks.policy.skipreports.counted_marks`), given ``tree``, the
    candidate's tree as path -> object id; the text of each Python test module that rule
    needs is read from the candidate's tree (a marker there on a base class counts).

    Raises:
        GitError: reading a blob failed.
    """
    need = foreign_candidates(marks, named, tree)
    blobs = bound.repo.read_blobs([tree[p] for p in need]) if need else {}
    sources = {p: blobs[tree[p]] for p in need if tree[p] in blobs}
    return counted_marks(marks, named, tree, sources)
