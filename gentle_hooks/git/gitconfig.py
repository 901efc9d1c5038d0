"""The repository's git config, read and written (SPEC §2 "Git access", §7 "Config"), and
the committer identity git would record.

Room ``git``. :class:`GitConfig` reads single and multi-valued keys, writes and removes
values in the repository's own config, and reads every ``gentle.*`` key with the few other
keys a hook asks for next in one ``git config`` process (:meth:`GitConfig.gentle_config`);
any ``git config`` or ``git remote`` it runs forgets what that process read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gentle_hooks.git.core import RepositoryCore
from gentle_hooks.values.lazy_pattern import lazy_pattern

#: What :meth:`GitConfig.gentle_config` reads in its one ``git config`` process.
_PRELOAD_REGEXP = (
    r"^(gentle\.|diff\.(algorithm|submodule|orderfile)$|remote\..*\.(url|push)$"
    r"|gentle-hooks\.sharewith$|branch\..+\.(remote|pushremote)$|remote\.pushdefault$"
    r"|url\..+\.insteadof$)"
)
#: The keys among those that :meth:`GitConfig.config_get` answers from it.
_PRELOADED = lazy_pattern(r"^(diff\.(algorithm|submodule|orderfile)|remote\..*\.url)$")
#: The multi-valued keys among them that :meth:`GitConfig.config_get_all` answers from it
#: (whether a push shares the notes: ``install --share``).
_PRELOADED_ALL = lazy_pattern(r"^(remote\..*\.push|gentle-hooks\.sharewith)$")


class GitConfig(RepositoryCore):
    """Config reads and writes of a repository."""

    #: Every value of diff.algorithm/submodule/orderFile, remote.*.url, remote.*.push and
    #: gentle-hooks.shareWith, in order, as gentle_config read them.
    _config: dict[str, list[str]] | None = None
    #: Every (key, value) gentle_config read but the ``gentle.*`` ones, in git's order.
    _config_entries: list[tuple[str, str]] | None = None

    def _will_run(self, args: Sequence[str]) -> None:
        """A ``git config`` or ``git remote`` may write: what :meth:`gentle_config` read is
        forgotten before one runs (not before a ``git config`` read)."""
        reads = ("--get", "--get-all", "--get-regexp")
        if args and args[0] in ("config", "remote") and not any(a in reads for a in args):
            self._config = self._config_entries = None

    def preloaded_entries(self, keys: str) -> list[tuple[str, str]] | None:
        """The (key, value) pairs :meth:`gentle_config` read in this process whose key
        matches the regular expression ``keys`` (a key as ``--get-regexp`` prints it:
        section and variable lower-cased), in git's order, as ``git config -z
        --get-regexp keys`` would print them; None when it has not read them (or a
        ``git config`` run since forgot them). ``keys`` must name only keys among what it
        reads: ``branch.<name>.remote`` / ``.pushremote``, ``remote.pushdefault``,
        ``url.<base>.insteadof``, and those :meth:`gentle_config` names."""
        if self._config_entries is None:
            return None
        pattern = re.compile(keys)
        return [(k, v) for k, v in self._config_entries if pattern.match(k)]

    def config_get(self, key: str) -> str | None:
        """``git config --get key`` (the last value) or None when unset.

        ``diff.algorithm`` and ``remote.<name>.url`` are answered from what
        :meth:`gentle_config` read in the same process, when it was called.
        """
        value = self.config_value(key)
        return None if value is None else value.strip()

    def config_value(self, key: str) -> str | None:
        """The value exactly as git stores it (spaces kept), or None when unset."""
        canonical = _canonical_key(key)
        if self._config is not None and _PRELOADED.match(canonical):
            values = self._config.get(canonical)
            return values[-1] if values else None
        proc = self.run(["config", "--get", key], ok=(0, 1))
        if proc.returncode != 0:
            return None
        return proc.stdout.decode("utf-8", "surrogateescape").removesuffix("\n")

    def config_get_all(self, key: str) -> list[str]:
        """Every value of a multi-valued key (``git config --get-all``), in order; empty
        when unset.

        ``remote.<name>.push`` and ``gentle-hooks.shareWith`` are answered from what
        :meth:`gentle_config` read in the same process, when it was called.
        """
        if self._config is not None and _PRELOADED_ALL.match(_canonical_key(key)):
            # as --get-all prints them: one line per value, split the same way
            out = "".join(v + "\n" for v in self._config.get(_canonical_key(key), ()))
        else:
            proc = self.run(["config", "--get-all", key], ok=(0, 1))
            out = proc.stdout.decode("utf-8", "surrogateescape")
        # one value a line, cut at \n only: a value may hold U+2028 or U+0085
        return out.removesuffix("\n").split("\n") if out else []

    def config_set(self, key: str, value: str) -> None:
        """``git config key value`` in the repository's own config (replaces one value).

        Raises:
            GitError: git refused (a multi-valued key, an unwritable config).
        """
        self.run(["config", key, value])

    def config_remotes(self) -> list[str]:
        """The names of the remotes this repository configures (``git remote``)."""
        return self.out(["remote"]).split()

    def config_unset_value(self, key: str, value: str) -> bool:
        """Remove every ``key`` whose value is exactly ``value`` from the repository's own
        config (``git config --local --fixed-value --unset-all``); True when one was there.

        Raises:
            GitError: git refused (an unwritable config).
        """
        proc = self.run(
            ["config", "--local", "--fixed-value", "--unset-all", key, value], ok=(0, 5)
        )
        return proc.returncode == 0

    def config_add(self, key: str, value: str) -> None:
        """``git config --add key value``: one more value of a multi-valued key.

        Raises:
            GitError: git refused (an unwritable config).
        """
        self.run(["config", "--add", key, value])

    def gentle_config(self) -> bytes:
        """``git config -z --get-regexp ^gentle\\.`` output (empty when nothing is set).

        The same process reads ``diff.algorithm``, ``diff.submodule``, ``diff.orderFile`` and
        every ``remote.<name>.url`` for
        :meth:`config_get` (a hook asks for them next; one process instead of three),
        every ``remote.<name>.push`` and ``gentle-hooks.shareWith`` for
        :meth:`config_get_all` (a push gate that passes asks whether to share the notes),
        and ``branch.<name>.remote`` / ``.pushRemote``, ``remote.pushDefault`` and
        ``url.<base>.insteadOf`` for :meth:`preloaded_entries` (which remote the work goes
        to: :mod:`gentle_hooks.git.destination`). Any ``git config`` or ``git remote`` run
        through :meth:`run` forgets them.
        """
        out = self.run(["config", "-z", "--get-regexp", _PRELOAD_REGEXP], ok=(0, 1)).stdout
        gentle: list[bytes] = []
        other: dict[str, list[str]] = {}
        entries: list[tuple[str, str]] = []
        for entry in out.split(b"\0"):
            key, newline, value = entry.partition(b"\n")
            if key.startswith(b"gentle."):
                gentle.append(entry + b"\0")
            elif key:
                # a key without "=" is a boolean true; --get prints it as an empty line
                name = key.decode("utf-8", "surrogateescape")
                text = value.decode("utf-8", "surrogateescape") if newline else ""
                other.setdefault(name, []).append(text)
                entries.append((name, text))
        self._config, self._config_entries = other, entries
        return b"".join(gentle)

    def ident(self) -> str:
        """``Name <email>`` of the committer git would record now."""
        raw = self.out(["var", "GIT_COMMITTER_IDENT"])
        return raw.rsplit(" ", 2)[0] if raw.count(" ") >= 2 else raw


def _canonical_key(key: str) -> str:
    """A config key as ``git config --get-regexp`` prints it: section and variable
    lower-cased, a subsection kept as written."""
    section, _, rest = key.partition(".")
    sub, _, var = rest.rpartition(".")
    return f"{section.lower()}.{sub}.{var.lower()}" if sub else f"{section.lower()}.{var.lower()}"
