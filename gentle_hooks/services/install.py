"""Place and remove the plain git hook scripts (SPEC §7 "Hooks").

Room ``services``, adapter (files in the hooks directory; git config through the git adapter). The
effective hooks directory is what git itself resolves (``git rev-parse --path-format=absolute
--git-path hooks``): ``core.hooksPath`` absolute or relative (relative to each worktree's
root), or the common git dir's ``hooks`` shared by linked worktrees.

An existing hook that is not ours is never overwritten: it is moved aside to
``<name>.gentle-legacy`` and chained — the gate runs it first, with the same arguments and
standard input, and fails when it fails. ``uninstall`` puts it back.

The fast path (docs/fast-path.md): the scripts of an ordinary commit's hooks (pre-commit,
pre-merge-commit, prepare-commit-msg, commit-msg, post-commit) run the chained hook, then
pass without starting the interpreter when ``sh`` proves nothing can apply — no agent-runtime
or configuration variable, no agent's name as author or committer, nothing pending in the
ledger (its idle sentinel, :func:`gentle_hooks.ledger.location.idle_path`), no config file
or ``gentle.appliesto`` that could say ``all``, no AI marker word in the message. Each check
over-approximates the hook's Python probe and is generated from the same tables
(:mod:`gentle_hooks.services.fastpath`); whatever it cannot prove goes to the interpreter,
which decides as before. pre-push, pre-receive and post-rewrite always start it.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence

from gentle_hooks.bounded import WriteError, discard_staged, stage_whole
from gentle_hooks.errors import GentleError, UsageError, quoted
from gentle_hooks.git.repository import Repository
from gentle_hooks.values.frozen import frozen

MARKER = "# gentle-hooks: installed by `gentle-hook install`"
LEGACY_SUFFIX = ".gentle-legacy"

#: Hook types ``install`` places by default, and every type it knows.
DEFAULT_HOOK_TYPES = (
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-rewrite",
    "pre-push",
)
KNOWN_HOOK_TYPES = (*DEFAULT_HOOK_TYPES, "pre-receive")
#: What the script runs: ``-I -c`` skips runpy (``-m`` costs ~10 ms) and the work tree on
#: sys.path (a repository's own modules must never shadow ours).
ENTRY = "import sys; sys.argv[0] = 'gentle-hook'; from gentle_hooks.main import entry; entry()"
#: Hook types that gate (fail closed when gentle-hooks cannot run).
GATING = {"pre-commit", "pre-merge-commit", "commit-msg", "pre-push", "pre-receive"}
#: The assignment that starts the script line pinning the interpreter.
PYTHON_ASSIGNMENT = "GENTLE_HOOK_PYTHON="


@frozen
class Action:
    """One thing install/uninstall did: the hook type, the file, and what happened."""

    hook_type: str
    path: str
    what: str


def hooks_dir(repo: Repository) -> str:
    """The effective hooks directory of this worktree, absolute.

    Raises:
        UsageError: ``core.hooksPath`` points at ``/dev/null`` (hooks disabled on purpose).
    """
    path = repo.git_path("hooks")
    if os.path.realpath(path) == os.devnull:
        raise UsageError(
            "core.hooksPath is /dev/null: git runs no hooks here; unset it "
            "(git config --unset core.hooksPath) or rely on the range gate in CI (docs/ci.md)"
        )
    return path


def interpreter_line(interpreter: str) -> str:
    """The script line that pins ``interpreter``: :data:`PYTHON_ASSIGNMENT` and the path
    quoted for ``sh``; :func:`installed_interpreter` reads it back."""
    return PYTHON_ASSIGNMENT + shlex.quote(interpreter)


def installed_interpreter(text: str) -> str | None:
    """The interpreter a script of ours pins, read the way ``sh`` reads the line
    :func:`interpreter_line` wrote (quotes removed, ``'`` and spaces kept); ``None`` when
    the script has no such line or its value is not exactly one word."""
    for line in text.splitlines():
        if line.startswith(PYTHON_ASSIGNMENT):
            try:
                words = shlex.split(line[len(PYTHON_ASSIGNMENT) :])
            except ValueError:
                return None
            return words[0] if len(words) == 1 else None
    return None


def script_text(hook_type: str, interpreter: str, warn: bool, *, fast: bool = True) -> str:
    """The plain hook script: exec the installing interpreter, else ``gentle-hook`` on PATH.

    With ``fast`` (the default), a hook of :data:`gentle_hooks.services.fastpath.FAST_HOOKS`
    first runs the chained hook and passes without starting the interpreter when its ``sh``
    checks prove that nothing can apply (:func:`gentle_hooks.services.fastpath.fast_block`,
    docs/fast-path.md); everything else goes to the interpreter as before. A gating hook
    whose interpreter moved and that finds no ``gentle-hook`` fails closed with the
    reinstall command; a recorder hook says so and lets git go on.
    """
    from gentle_hooks.services.fastpath import fast_block

    args = f"hook {hook_type}" + (" --warn" if warn else "")
    fail = "exit 1" if hook_type in GATING else "exit 0"
    run = f'"$GENTLE_HOOK_PYTHON" -I -c "{ENTRY}" {args}'
    block = fast_block(hook_type, hook_type in GATING, run) if fast else None
    if block is None:
        block = f'    exec {run} --script "$0" "$@"\n'
    return (
        "#!/bin/sh\n"
        f"{MARKER}\n"
        "# Runs gentle-hooks with the interpreter it was installed from (no PATH shims).\n"
        f"{interpreter_line(interpreter)}\n"
        'if [ -x "$GENTLE_HOOK_PYTHON" ]; then\n'
        f"{block}"
        "fi\n"
        "if command -v gentle-hook >/dev/null 2>&1; then\n"
        '    echo "gentle-hooks: $GENTLE_HOOK_PYTHON is gone; running gentle-hook from PATH '
        '(reinstall to pin it: gentle-hook install)" >&2\n'
        f'    exec gentle-hook {args} --script "$0" "$@"\n'
        "fi\n"
        f'echo "gentle-hooks: $GENTLE_HOOK_PYTHON is gone and gentle-hook is not on PATH; '
        f'reinstall gentle-hooks (README, Install) and run gentle-hook install" >&2\n'
        f"{fail}\n"
    )


def is_ours(path: str) -> bool:
    """True when the file at ``path`` is a script this module wrote."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return MARKER in fh.read(4096)
    except OSError:
        return False


def install(
    repo: Repository,
    hook_types: Sequence[str] = DEFAULT_HOOK_TYPES,
    *,
    warn: bool = False,
    interpreter: str | None = None,
) -> list[Action]:
    """Install the hook scripts into the effective hooks directory.

    Args:
        repo: the repository; hook_types: which hooks; warn: report blocks without failing;
        interpreter: absolute python to run (default: the one running now).

    Returns:
        One :class:`Action` per hook type, saying exactly what was done.

    Raises:
        UsageError: an unknown hook type; a foreign hook whose ``.gentle-legacy`` slot is
            already taken (nothing is overwritten); the git directory's ``hooks`` is a
            symbolic link and no ``core.hooksPath`` names a directory on purpose.
        WriteError: the hooks directory cannot be created or written (a read-only ``.git``,
            a full disk, permission denied): every script is written and synced before any
            is renamed into place, so no hook was changed.
    """
    for t in hook_types:
        if t not in KNOWN_HOOK_TYPES:
            raise UsageError(
                f"unknown hook type {quoted(t)}: use one of {', '.join(KNOWN_HOOK_TYPES)}"
            )
    directory = hooks_dir(repo)
    own = os.path.join(repo.paths.common_dir, "hooks")
    if os.path.islink(own) and not (repo.config_get("core.hooksPath") or "").strip():
        # the git directory's own hooks directory is ours to write; a link there would
        # send the scripts wherever it points (core.hooksPath names another on purpose)
        raise UsageError(
            f"{own} is a symbolic link; refusing to write through it (set "
            "core.hooksPath to the directory it points to, to install there)"
        )
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"{directory}: cannot create: {exc.strerror or exc}") from None
    python = interpreter or sys.executable
    plan = []
    for t in hook_types:  # every refusal before anything is written
        path = os.path.join(directory, t)
        legacy = path + LEGACY_SUFFIX
        foreign = os.path.lexists(path) and not is_ours(path)
        if foreign and os.path.lexists(legacy):
            raise UsageError(
                f"{path} is not ours and {legacy} already exists; move one of them away"
            )
        plan.append((t, path, legacy, foreign))
    # every script written and synced first, then renamed into place: a full disk or a
    # read-only directory stops it before any hook changed
    staged: list[str] = []
    try:
        for t, path, _, _ in plan:
            staged.append(stage_whole(path, script_text(t, python, warn).encode("utf-8"), 0o755))
    except WriteError:
        discard_staged(staged)
        raise
    actions = []
    moved: list[tuple[str, str]] = []
    created: list[str] = []
    try:
        for (t, path, legacy, foreign), tmp in zip(plan, staged, strict=True):
            what = "updated" if os.path.lexists(path) else "installed"
            if what == "installed":
                created.append(path)
            if foreign:
                os.replace(path, legacy)
                moved.append((legacy, path))
                what = (
                    f"installed, chaining the existing hook (moved to {os.path.basename(legacy)})"
                )
            os.replace(tmp, path)
            actions.append(Action(t, path, what))
    except OSError as exc:
        # back as it was: new scripts removed, the chained hooks where they were
        discard_staged(staged + created)
        for legacy, path in reversed(moved):
            if not os.path.lexists(path):
                os.replace(legacy, path)
        raise WriteError(f"{directory}: cannot install: {exc.strerror or exc}") from None
    return actions


def uninstall(repo: Repository, hook_types: Sequence[str] = KNOWN_HOOK_TYPES) -> list[Action]:
    """Remove our scripts and restore chained hooks; foreign hooks are left alone. A
    ``core.hooksPath`` directory left empty is removed (``install`` creates it when it is
    missing); the git directory's own ``hooks`` stays.

    Returns:
        One :class:`Action` per hook type touched (``removed``, ``restored ...``), then one
        with hook type ``-`` when the emptied directory was removed.
    """
    directory = hooks_dir(repo)
    actions = []
    for t in hook_types:
        path = os.path.join(directory, t)
        legacy = path + LEGACY_SUFFIX
        if not is_ours(path):
            continue
        os.unlink(path)
        if os.path.lexists(legacy):
            os.replace(legacy, path)
            actions.append(Action(t, path, "removed; restored the chained hook"))
        else:
            actions.append(Action(t, path, "removed"))
    own = os.path.join(repo.paths.common_dir, "hooks")
    # a core.hooksPath directory install created: empty now, it goes too (git's own
    # hooks directory stays, as git made it)
    if actions and os.path.realpath(directory) != os.path.realpath(own):
        try:
            os.rmdir(directory)
        except OSError:  # not empty: other hooks, or files of the user's, live there
            pass
        else:
            actions.append(Action("-", directory, "removed the empty hooks directory"))
    return actions


#: Where a block's PATH line (:data:`gentle_hooks.report.worktree_text.PATH_LINE`) links the
#: copy of the CLI the clone's hooks run, under a worktree's git directory (``git
#: rev-parse --git-path``: the main one's, or a linked worktree's own).
PATH_LINK = os.path.join("gentle-hooks", "bin", "gentle-hook")


def remove_path_links(repo: Repository) -> list[Action]:
    """Remove the links a block's PATH line made (:data:`PATH_LINK`) under the git
    directory of every worktree of the clone, and each ``bin`` directory (and the
    ``gentle-hooks`` one above a linked worktree's) left empty. Only a symbolic link to a
    ``gentle-hook`` is ours: a file of the user's there, or a link to anything else, stays,
    and so does a directory still holding one.

    Returns:
        One :class:`Action` (hook type ``-``) per link and per directory removed.
    """
    common = repo.paths.common_dir
    linked = os.path.join(common, "worktrees")
    dirs = [common, repo.paths.git_dir]
    if os.path.isdir(linked):
        dirs += [os.path.join(linked, n) for n in sorted(os.listdir(linked))]
    actions: list[Action] = []
    for d in dict.fromkeys(os.path.realpath(d) for d in dirs):
        link = os.path.join(d, PATH_LINK)
        try:
            target = os.readlink(link)
        except OSError:  # none there, or a file of the user's: not ours to remove
            continue
        if os.path.basename(target.rstrip(os.sep)) != "gentle-hook":
            continue
        os.unlink(link)
        actions.append(Action("-", link, "removed the link a printed PATH line made"))
        for empty in (os.path.dirname(link), os.path.join(d, "gentle-hooks")):
            try:
                os.rmdir(empty)
            except OSError:  # not empty: the ledger, or files of the user's, live there
                break
            actions.append(Action("-", empty, "removed the empty directory"))
    return actions


def framework_program(repo: Repository, tool: str, hook_type: str) -> str:
    """How the user runs ``tool`` (``pre-commit`` or ``prek``) here, as shell words: its
    name when PATH finds it; else what the framework's ``hook_type`` hook runs (pre-commit:
    its ``INSTALL_PYTHON`` with ``-m pre_commit``; prek: its ``PREK`` path), when that file
    is executable; else the name. Reads a bounded prefix of the hook; never raises."""
    import re
    import shutil

    if shutil.which(tool):
        return tool
    try:
        with open(os.path.join(hooks_dir(repo), hook_type), encoding="utf-8") as fh:
            text = fh.read(8192)
    except (OSError, UnicodeDecodeError, GentleError):
        return tool
    line = r'^PREK="([^"$`\\]+)"$' if tool == "prek" else r"^INSTALL_PYTHON=(.+)$"
    found = re.search(line, text, re.MULTILINE)
    try:
        words = shlex.split(found.group(1)) if found else []
    except ValueError:
        words = []
    if len(words) != 1 or not os.path.isabs(words[0]) or not os.access(words[0], os.X_OK):
        return tool
    run = [words[0]] if tool == "prek" else [words[0], "-m", "pre_commit"]
    return " ".join(shlex.quote(w) for w in run)
