"""Can a runtime's hook command run its ``gentle-hook``? Resolved statically, as the shell
the runtime starts would (SPEC §7 "Hooks"; ``doctor`` and ``install --agent``).

Room ``services``. Read-only. The program word of our hook command
(:func:`gentle_hooks.agents.wiring.program_of`'s word, its quotes kept) is expanded as a
shell does: ``$NAME`` and ``${NAME}`` outside single quotes from the environment, plus the
variables the runtime sets for its hooks (:attr:`Wiring.project_vars`: the work tree root,
e.g. Claude Code's ``CLAUDE_PROJECT_DIR``), and a leading ``~`` from ``HOME``. A relative
path is taken from the ``cd DIR &&`` before it (DIR expanded the same way). That ``cd`` must
succeed for the hook to run: a DIR that resolves to no directory makes it ``missing``
(:func:`cd_failure`); a relative DIR is taken from the work tree root, the directory a session
in this project starts in (Claude Code runs a hook in the session's current directory, which
is why its hooks guide writes ``cd "$CLAUDE_PROJECT_DIR"``: code.claude.com/docs/en/hooks,
"Reference scripts by path"); a DIR that exists there counts, though a later ``cd`` of the
agent may move the session elsewhere. Then:

* ``found``: the program exists and is executable (a bare name: the runtime's plain ``PATH``
  resolves it, :func:`plain_path`: one found only inside the activated virtual environment
  is ``missing``, the runtime's shell started without it exits 127);
* ``missing``: it was resolved and is not there, or (asked to ``run``) our ``gentle-hook``
  was resolved and ``<it> --version`` (no shell, :data:`RUN_SECONDS` at most) cannot start
  it (a bad interpreter line) or exits non-zero (126, 127...); ``why`` says which, one line;
* ``unchecked``: it cannot be resolved without running the runtime (a variable neither the
  environment nor the runtime sets, a substitution, ``~user``, a relative path with no
  ``cd`` before it: the hook's working directory is the agent's, unknown here);
* ``unanswered``: asked to ``run``, ``<it> --version`` did not finish in
  :data:`RUN_SECONDS`, or was not run because the checks' :data:`BUDGET_SECONDS` were spent
  (:class:`Versions`): nothing says the hook can run.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping

from gentle_hooks.agents import wiring
from gentle_hooks.agents.runtimes import Runtime
from gentle_hooks.git.process import kill_session, start_session
from gentle_hooks.values.frozen import frozen, replace

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: How long ``<gentle-hook> --version`` may take before it counts as unanswered.
RUN_SECONDS = 20.0
#: How long all the ``--version`` runs of one :class:`Versions` may take together.
BUDGET_SECONDS = 30.0


@frozen
class Reach:
    """What resolving a hook command's program gave.

    Attributes:
        status: ``found``, ``missing``, ``unchecked`` or ``unanswered``; where: the
            program's resolved path (found, missing, unanswered), or the program word as
            written (unchecked); why: what failed, or could not be resolved or run.
    """

    status: str
    where: str
    why: str = ""


def expand(raw: str, values: Mapping[str, str]) -> str | None:
    """The shell word ``raw`` (quotes as written) with its quotes removed and its variables
    and leading ``~`` expanded from ``values`` (``HOME`` for ``~``); None when it holds
    anything else the shell would expand (an unset variable, ``$(``, a backquote,
    ``${NAME:-...}``, ``~user``, a glob character)."""
    out: list[str] = []
    i, quote = 0, ""
    if raw.startswith("~"):
        end = raw.find("/")
        if (raw if end < 0 else raw[:end]) != "~" or not values.get("HOME"):
            return None
        out.append(values["HOME"])
        i = 1
    while i < len(raw):
        c = raw[i]
        if quote == "'":
            if c == "'":
                quote = ""
            else:
                out.append(c)
            i += 1
        elif c == "'" and not quote:
            quote, i = "'", i + 1
        elif c == '"':
            quote, i = ("" if quote == '"' else '"'), i + 1
        elif c == "\\" and i + 1 < len(raw):
            out.append(raw[i + 1])
            i += 2
        elif c == "`" or (c in "*?[" and not quote):
            return None
        elif c == "$":
            braced = raw.startswith("${", i)
            m = _NAME.match(raw, i + (2 if braced else 1))
            if m is None or (braced and not raw.startswith("}", m.end())):
                return None
            value = values.get(m.group(0))
            if value is None:
                return None
            out.append(value)
            i = m.end() + (1 if braced else 0)
        else:
            out.append(c)
            i += 1
    return None if quote else "".join(out)


class Versions:
    """The ``<gentle-hook> --version`` runs of one ``doctor`` (or one ``install``): each
    distinct program (by its real path) runs once, later asks get the same answer; each
    run takes at most ``limit`` seconds and all of them together at most ``budget``: once
    that is spent, a program not run yet is ``unanswered`` without running (a hung
    ``gentle-hook`` costs one wait, not one per runtime)."""

    def __init__(self, limit: float = RUN_SECONDS, budget: float = BUDGET_SECONDS) -> None:
        self.limit = limit
        self.left = budget
        self.seen: dict[str, Reach] = {}
        self.ran = 0

    def check(self, program: str, root: str | None, env: Mapping[str, str]) -> Reach:
        """:func:`runs` of ``program``, once per real path, within the budget."""
        key = os.path.realpath(program)
        if key in self.seen:
            return replace(self.seen[key], where=program)
        if self.left <= 0:
            got = Reach("unanswered", program, "not run: the time for these checks was spent")
        else:
            started = time.monotonic()
            got = runs(program, root, env, min(self.limit, self.left))
            self.left -= time.monotonic() - started
            self.ran += 1
        self.seen[key] = got
        return got


def reach(
    command: str,
    rt: Runtime,
    root: str | None,
    env: Mapping[str, str],
    run: Versions | None = None,
) -> Reach:
    """Whether ``command`` (an entry of ours, or any hook command) can run its program, as
    the module docstring says; ``root`` is the work tree root (None: outside one). With
    ``run``, a found program that is our ``gentle-hook`` word is also run with ``--version``
    (:meth:`Versions.check`)."""
    got = _resolve(command, rt, root, env)
    if run is not None and got.status == "found" and wiring.program_of(command) is not None:
        return run.check(got.where, root, env)
    return got


#: The variable an activated virtual environment sets to its directory (the ``activate``
#: script of Python's ``venv``, and ``uv run``/``poetry run``); its ``bin`` is put first on
#: ``PATH`` only in that shell.
VENV = "VIRTUAL_ENV"


def venv_of(path: str, env: Mapping[str, str]) -> str | None:
    """``$VIRTUAL_ENV`` when ``path`` is that directory or below it (compared by real
    path), else None."""
    venv = env.get(VENV)
    if not venv or not os.path.isabs(venv):
        return None
    top, where = os.path.realpath(venv), os.path.realpath(path)
    return venv if where == top or where.startswith(top.rstrip(os.sep) + os.sep) else None


def plain_path(env: Mapping[str, str]) -> str:
    """The ``PATH`` a runtime's shell has when it is not started from the activated virtual
    environment: the directories of ``env``'s ``PATH`` outside ``$VIRTUAL_ENV``
    (:func:`venv_of`), then those of :data:`os.defpath`. Without ``$VIRTUAL_ENV`` the
    ``PATH`` is taken as the login one (a virtual environment's ``bin`` on it was put
    there by the user's profile; the shell's ``PATH`` is all that can be read without
    running a login shell)."""
    dirs = [d for d in (env.get("PATH") or "").split(os.pathsep) if d and venv_of(d, env) is None]
    dirs += [d for d in os.defpath.split(os.pathsep) if d]
    return os.pathsep.join(dict.fromkeys(dirs))


def venv_program(env: Mapping[str, str]) -> tuple[str, str] | None:
    """(the ``gentle-hook`` ``PATH`` finds, its virtual environment) when it lives under the
    activated one (:func:`venv_of`): a hook naming it bare fails (127) in a shell without
    that environment, so its absolute path is written; None otherwise."""
    found = shutil.which("gentle-hook", path=env.get("PATH"))
    venv = venv_of(os.path.dirname(found), env) if found else None
    return (found, venv) if found and venv else None


def working_program(
    env: Mapping[str, str], run: Versions | None = None
) -> tuple[str | None, str | None]:
    """The ``gentle-hook`` a command written now should run, as (program word, why the one
    on ``PATH`` is passed over): ``gentle-hook`` when ``PATH`` finds one that runs
    (:meth:`Versions.check`, through ``run`` when given); else the one beside this
    interpreter, quoted for the shell, when it runs (a broken or hung ``gentle-hook`` first
    on ``PATH`` must not be what a hook or a printed fix calls); else None. ``why`` is None
    when ``PATH`` finds none."""
    run = run or Versions()
    on_path = shutil.which("gentle-hook", path=env.get("PATH"))
    why = None
    if on_path is not None:
        got = run.check(on_path, None, env)
        if got.status == "found":
            return "gentle-hook", None
        why = got.why
    beside = os.path.join(os.path.dirname(sys.executable), "gentle-hook")
    if os.access(beside, os.X_OK) and run.check(beside, None, env).status == "found":
        return shlex.quote(beside), why
    return None, why


def runs(
    program: str, root: str | None, env: Mapping[str, str], limit: float = RUN_SECONDS
) -> Reach:
    """``program --version`` run with no shell, from ``root``, in ``env``, bounded by
    ``limit`` seconds: found when it exits 0, missing (``why`` one line) when it cannot
    start or exits non-zero, unanswered when it does not finish in time (it is killed, with
    every process it started in its session)."""
    try:
        proc = start_session([program, "--version"], root, env, stdout=False)
    except OSError as exc:
        return Reach("missing", program, f"'{program}' cannot be started: {exc.strerror}")
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        kill_session(proc)
        assert proc.stderr is not None
        proc.stderr.close()
        proc.wait()
        return Reach("unanswered", program, f"'{program} --version' took over {limit:g}s")
    if proc.returncode == 0:
        return Reach("found", program)
    said = err.decode("utf-8", "replace").strip().splitlines()
    last = f" ({said[-1][:160]})" if said else ""
    return Reach("missing", program, f"'{program} --version' exits {proc.returncode}{last}")


def _values(rt: Runtime, root: str | None, env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with the variables the runtime sets to the project directory (``root``)."""
    values = dict(env)
    if rt.wiring is not None and root is not None:
        values.update((name, root) for name in rt.wiring.project_vars)
    return values


def cd_failure(
    command: str, rt: Runtime, root: str | None, env: Mapping[str, str]
) -> tuple[str, str] | None:
    """(the directory, why) when the ``cd DIR &&`` before our ``gentle-hook`` fails: DIR,
    expanded as the module docstring says (a relative one from the work tree ``root``), is
    no directory; None when there is no such ``cd``, it succeeds, or it cannot be resolved
    here (a variable only the runtime sets; a relative DIR outside a work tree)."""
    cd, _ = wiring.program_words(command)
    target = expand(cd, _values(rt, root, env)) if cd is not None else None
    if target is None:
        return None
    relative = not os.path.isabs(target)
    if relative:
        if root is None:
            return None
        target = os.path.join(root, target)
    if os.path.isdir(target):
        return None
    what = "does not exist" if not os.path.lexists(target) else "is not a directory"
    start = f" (from {root}, where {rt.title} starts its hooks)" if relative else ""
    return target, f"'cd {cd}' fails: {target} {what}{start}"


def _resolve(command: str, rt: Runtime, root: str | None, env: Mapping[str, str]) -> Reach:
    """:func:`reach` without running anything."""
    values = _values(rt, root, env)
    cd, raw = wiring.program_words(command)
    if raw is None:
        return Reach("unchecked", command, "its program is not a plain word")
    failed = cd_failure(command, rt, root, env)
    if failed is not None:
        return Reach("missing", *failed)
    program = expand(raw, values)
    if program is None:
        return Reach("unchecked", raw, "it names what only the runtime resolves")
    if "/" not in program and os.sep not in program:
        found = shutil.which(program, path=plain_path(values))
        if found:
            return Reach("found", found)
        inside = shutil.which(program, path=values.get("PATH"))
        if inside is None:
            return Reach("missing", program)
        return Reach(
            "missing",
            inside,
            f"'{program}' is found only on the PATH of the activated virtual environment "
            f"{values.get(VENV)}: the runtime's shell without it cannot start it (exit 127)",
        )
    if not os.path.isabs(program):
        base = expand(cd, values) if cd is not None else None
        if base is None or not os.path.isabs(base):
            return Reach("unchecked", raw, "a relative path from the agent's working directory")
        program = os.path.join(base, program)
    return Reach("found" if os.access(program, os.X_OK) else "missing", program)


def not_current(got: Reach, env: Mapping[str, str]) -> str | None:
    """The current ``gentle-hook`` (the one ``PATH`` finds in ``env``, else the one beside
    this interpreter) when ``got``, a found program, is another file than it and than the
    one beside this interpreter (compared by real path): an earlier install's, which may
    not record what the current hook text hands over (OpenCode's ``bash`` snapshot); None
    when it is one of them, or ``got`` is not ``found``. Runs nothing."""
    if got.status != "found":
        return None
    beside = os.path.join(os.path.dirname(sys.executable), "gentle-hook")
    on_path = shutil.which("gentle-hook", path=env.get("PATH"))
    current = [p for p in (on_path, beside) if p and os.access(p, os.X_OK)]
    if not current or os.path.realpath(got.where) in {os.path.realpath(p) for p in current}:
        return None
    return current[0]
