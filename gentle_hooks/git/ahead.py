"""Git processes started before the modules that ask them are imported (SPEC §2
"Start-up is part of the product"), and the exact questions the commit gate asks first.

Room ``git``; standard library only and no ``subprocess`` (each import on this path delays
the start it exists for). :class:`Ahead` starts ``git <args>`` at once
(``os.posix_spawnp``, no standard input, standard error to ``/dev/null``) and reads what it
printed when asked, so git works on another core while Python imports. The argument lists
here are the ones :class:`~gentle_hooks.git.repository.Repository` runs (it imports them
from here: one spelling of each question), so an answer read ahead is the answer to the
very question the repository asks (:meth:`~gentle_hooks.git.core.RepositoryCore.know_answer`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing costs ~10 ms to import: this module runs before the imports
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

#: What :meth:`~gentle_hooks.git.gitconfig.GitConfig.gentle_config` reads in its one
#: ``git config`` process.
PRELOAD_REGEXP = (
    r"^(gentle\.|diff\.(algorithm|submodule|orderfile)$|remote\..*\.(url|push)$"
    r"|gentle-hooks\.sharewith$|branch\..+\.(remote|pushremote)$|remote\.pushdefault$"
    r"|url\..+\.insteadof$)"
)
#: The ``git`` arguments of that read.
CONFIG_ARGS = ("config", "-z", "--get-regexp", PRELOAD_REGEXP)

#: Refs tried, in order, when neither the flag nor the config names a base ref.
DEFAULT_BASE_CHAIN = ("origin/main", "origin/master", "main", "master")
#: The refs :meth:`~gentle_hooks.git.base.Bases._default_base` reads: ``origin/HEAD``,
#: then the chain.
DEFAULT_BASE_REFS = (
    "refs/remotes/origin/HEAD",
    *(
        ("refs/remotes/" if r.startswith("origin/") else "refs/heads/") + r
        for r in DEFAULT_BASE_CHAIN
    ),
)
#: The ``git`` arguments of that read, in one process.
DEFAULT_BASE_ARGS = (
    "for-each-ref",
    "--format=%(refname)%00%(objectname)%00%(symref)%00%(tree)",
    *DEFAULT_BASE_REFS,
)


#: How :meth:`~gentle_hooks.git.refs.Refs.rev_parse_many` asks: the expressions follow.
REV_PARSE_ARGS = ("rev-parse", "--end-of-options")


def head_exprs(rev: str = "HEAD", named: str | None = None) -> list[str]:
    """The expressions with which :meth:`~gentle_hooks.git.base.Bases.candidate` resolves
    ``rev``'s commit and tree (and the named base's) in one ``rev-parse``."""
    exprs = [f"{rev}^{{commit}}", f"{rev}^{{tree}}"]
    if named:
        exprs += [f"{named}^{{commit}}", f"{named}^{{tree}}"]
    return exprs


class Ahead:
    """``git <args>`` started at once in this process's directory, read when asked.

    Args:
        args: the arguments after ``git``; env: its whole environment.

    Raises:
        OSError: git cannot be started (the caller then goes without it).
    """

    def __init__(self, args: Sequence[str], env: Mapping[str, str]) -> None:
        self.args = tuple(args)
        out_r, out_w = os.pipe()
        devnull = os.open(os.devnull, os.O_RDWR)
        try:
            self._pid: int | None = os.posix_spawnp(
                "git",
                ["git", *self.args],
                dict(env),
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, devnull, 0),
                    (os.POSIX_SPAWN_DUP2, out_w, 1),
                    (os.POSIX_SPAWN_DUP2, devnull, 2),
                    (os.POSIX_SPAWN_CLOSE, out_r),
                ],
            )
        except BaseException:
            os.close(out_r)
            raise
        finally:
            os.close(out_w)
            os.close(devnull)
        self._out = out_r
        self._result: tuple[int, bytes] | None = None

    def result(self) -> tuple[int, bytes]:
        """(exit code, standard output), once git is done (a signal: a negative code)."""
        if self._pid is None:
            return self._result or (-1, b"")
        chunks = []
        while chunk := os.read(self._out, 1 << 16):
            chunks.append(chunk)
        os.close(self._out)
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        self._result = (os.waitstatus_to_exitcode(status), b"".join(chunks))
        return self._result

    def close(self) -> None:
        """Stop git if it is still running (its answer is not needed)."""
        if self._pid is None:
            return
        import signal

        try:
            os.kill(self._pid, signal.SIGKILL)
        except ProcessLookupError:  # reaped elsewhere: nothing to wait for
            pass
        else:
            os.waitpid(self._pid, 0)
        os.close(self._out)
        self._pid = None
