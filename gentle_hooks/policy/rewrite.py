"""Whether a change of the writer's own path is a person's rewrite of that file (row A9 of
:mod:`gentle_hooks.policy.attribution`; SPEC §3 "Attribution follows content": a human's
change is never blocked or labelled AI work).

Room ``policy`` (pure: line keys in, answers out). A writer edits a small file; the person
throws the edit away (``git checkout -- FILE``, ``git restore``, ``git stash`` then ``stash
drop``, or an editor overwriting the file) and writes their own version of it. Rewriting a
file removes nearly every line it had, so it removes the lines the writer removed (rows A3,
A6), and a common line the writer also added (``return None``, ``return True``) lands in it
by chance (rows A6, A7): read with those rows alone, the person's own file is the writer's.

=====  ==========================================================================  =======
row    the new side Y of a change X -> Y of the writer's path, writer blob W        rewrite
=====  ==========================================================================  =======
R1     Y keeps fewer than half of the significant lines of W (the writer's content  yes
       as it left it, its own lines and the ones it kept alike), fewer than half of
       those of X (none to keep: a new file), and holds :data:`MIN_OWN` significant
       lines of its own (in neither)
R2     anything else: Y keeps W's content, or X's (``git add -p`` / ``checkout -p``  no
       of one hunk keeps the rest of X), or holds too little of its own to tell;
       or W's lines are unknown (an entry read from its stored keys only)
=====  ==========================================================================  =======

A rewrite settles only the rows a human makes alike (A3, A6, A7). The writer's own lines in
it (row A2: two of them, or one telling line) are still the writer's, checked first: the
person's rewrite keeping one of them is a reading only the person can settle, with the
``discard`` the commit gate then offers (recorded, an override line in the commit's note).
The writer's content moved, lightly edited (a line or a literal changed) or typed again
keeps more than half of W, so it is no rewrite.
"""

from __future__ import annotations

from collections.abc import Set

#: Significant lines of its own a rewrite holds (in neither the writer's content nor the
#: change's old side): a change of a line or two is an edit, not a new version of the file.
MIN_OWN = 2


def rewrites(old: Set[str], new: Set[str], writer: Set[str]) -> bool:
    """Row R1 of the module table: ``new`` (the significant line keys of the change's new
    side) rewrites the path whose old side's keys are ``old`` and whose writer content's
    keys are ``writer`` (empty: unknown, never a rewrite)."""
    if not writer or not new:
        return False
    if 2 * len(new & writer) >= len(writer):
        return False
    if old and 2 * len(new & old) >= len(old):
        return False
    return len(new - writer - old) >= MIN_OWN
