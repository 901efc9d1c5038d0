"""The way out of a candidate that holds files its writer's test run created (SPEC §5
"Spot check"): keep them out of the candidate, report again, then spot-check.

Room ``report``. A re-run that rewrites such a file (a report, a timestamp, a cache git
does not ignore) changes the candidate, so its spot check cannot count while the file is
part of it: each retry would meet the same block. Every line runs from anywhere in the work
tree: the pathspec names the file from the top, and the exclude file is git's own path.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.policy.shellwords import quote, shown_paths
from gentle_hooks.policy.shortfall import CreatedFiles

#: Characters a gitignore pattern reads as a glob or an escape.
_SPECIAL = "\\*?["


def exclude_pattern(path: str) -> str:
    """``path`` (relative to the top) as a gitignore pattern that matches exactly it:
    anchored at the top, its glob characters, a leading ``#``/``!`` and trailing spaces
    escaped."""
    out = "".join("\\" + c if c in _SPECIAL else c for c in path)
    stripped = out.rstrip(" ")
    out = stripped + "\\ " * (len(out) - len(stripped))
    return "/" + out


def created_steps(created: CreatedFiles, report: str, spot_check: str) -> Sequence[tuple[str, str]]:
    """The steps (label, text) that keep ``created``'s files out of the candidate, then run
    ``report`` (the writer's report again, its flags in it) and ``spot_check``."""
    names = ", ".join(shown_paths(created.paths[:3])) + (", …" if len(created.paths) > 3 else "")
    tops = " ".join(quote(f":(top,literal){p}") for p in created.paths)
    patterns = " ".join(quote(exclude_pattern(p)) for p in created.paths)
    return (
        (
            "do",
            f"the writer's test run created {names}, which git does not ignore, and the "
            "candidate holds it: a re-run that rewrites it changes the candidate and cannot "
            "count; keep it out (unstaged, and ignored in this clone's .git/info/exclude), "
            "report the command again, then spot-check",
        ),
        ("run", f"git rm -q --cached --ignore-unmatch -- {tops}"),
        ("run", f"printf '%s\\n' {patterns} >> \"$(git rev-parse --git-path info/exclude)\""),
        ("run", report),
        ("run", spot_check),
        (
            "otherwise",
            f"to keep {names} in the candidate (a re-run that leaves it as it was counts)",
        ),
    )
