"""The way a CI or server block verifies a commit: in a linked worktree of its own.

Room ``report``. CI and the server cannot know the user's work tree (uncommitted changes
stop a ``git switch``, and the lines after it would run on another commit): the commit is
checked out under the repository's common git directory, reported and spot-checked there,
its note shared, and the worktree removed. Each line runs from anywhere in the user's clone.
The block ends with one line naming the framework's copy of the CLI only where it is printed
without ``gentle-hook`` on PATH and with such a copy (:func:`framework_line`).
"""

from __future__ import annotations

from gentle_hooks.report.shortfall_text import NO_RECEIPT, PREFIX_NOTE

#: A labelled line of a way out (:data:`gentle_hooks.report.fixes.Step`).
Step = tuple[str, str]

#: ``sync push`` with git alone, for a clone where ``gentle-hook`` is not on PATH (a
#: pre-commit framework or prek install only: the framework's copy is on PATH only while a
#: hook runs, so a printed ``gentle-hook`` exits 127 there): the remote's notes, when it has
#: any (``ls-remote --exit-code``: no redirection in a printed command), fetched where
#: ``install --share`` fetches them and merged as ``sync`` merges
#: (``cat_sort_uniq``), then the notes pushed. It shares the notes the clone's post-commit
#: wrote; the ones its ledger lacks need ``sync push`` itself.
GIT_SHARE_NOTES = (
    "git ls-remote --exit-code origin refs/notes/gentle-hooks && git fetch -q origin "
    "+refs/notes/gentle-hooks:refs/notes/remotes/origin/gentle-hooks && git notes "
    "--ref=gentle-hooks merge -q -s cat_sort_uniq refs/notes/remotes/origin/gentle-hooks; "
    "git push -q origin refs/notes/gentle-hooks"
)


def framework_line(gh: str) -> list[Step]:
    """The one line a CI or server block ends with when its commands name ``gentle-hook``
    (``gh``), ``gentle-hook`` is not on PATH where the block is printed, and the pre-commit
    framework's (or prek's) own copy of the CLI is there
    (:func:`gentle_hooks.report.program_text.framework_copy`): its absolute path, to run
    in place of ``gentle-hook`` on the lines above. Empty otherwise."""
    from gentle_hooks.report.program_text import framework_copy

    found = framework_copy() if gh == "gentle-hook" else None
    if found is None:
        return []
    name, copy = found
    return [("do", f"gentle-hook is not on PATH; {name}'s copy: {copy}")]


def worktree_steps(
    commit: str, gh: str, declared: str | None = None, report: bool = True
) -> list[Step]:
    """Verify ``commit`` in a linked worktree under the repository's common git directory
    (a name no earlier step made; each line runs from anywhere in the user's clone and
    leaves the user's work tree, index and HEAD as they are), share the note, remove it.
    ``report``: no report that counts is recorded for it, so the writer makes one there:
    ``declared``, the declared verification command (shell words), else its own after a
    prefix."""
    top = f"$(git rev-parse --git-common-dir)/gentle-hooks/verify-{commit[:12]}"
    where = f'"{top}"'
    # the writer's command runs in the worktree's copy of the directory the user is in
    # (a test command written for it, such as one importing from it, works as there), or
    # at the worktree's top when the commit has no such directory (an untracked one)
    here = (
        '"$(p="$(git rev-parse --show-prefix)"; '
        f'cd {where} && if test -d "./$p"; then cd "./$p"; fi && pwd)"'
    )
    reported: list[Step] = []
    if report and declared:
        reported.append(("do", f"the writer reports the declared command there ({NO_RECEIPT})"))
        run = f"{gh} receipt run --committed --cwd {where} -- {declared}"
        reported.append(("run", run))
    elif report:
        reported.append(
            (
                "do",
                f"{PREFIX_NOTE}; it runs in that worktree, in the directory you are in (at "
                f"its top when the commit has no such directory) ({NO_RECEIPT})",
            )
        )
        reported.append(("prefix", f"{gh} receipt run --committed --cwd {here} --"))
    return [
        (
            "do",
            f"check commit {commit[:12]} out in a worktree of its own (yours stays as it is)",
        ),
        ("run", f"git worktree add -q --detach {where} {commit}"),
        *reported,
        ("run", f"{gh} spot-check --committed --cwd {where}"),
        ("run", f"{gh} sync push"),
        ("run", f"git worktree remove --force {where}"),
        *framework_line(gh),
    ]
