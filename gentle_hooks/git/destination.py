"""The remote the work goes to, and the commits it holds (SPEC §5 "a change cannot loosen
the gate that judges it"): where the gate's loosening settings may be read from.

Room ``git``. The remote the work goes to is, as git picks it, the current branch's
upstream remote (``branch.<name>.remote``), else its push remote
(``branch.<name>.pushRemote``, ``remote.pushDefault``), else ``origin``, else the sole
remote; in a push, the remote pushed to (:meth:`Destinations.push_destination`). A remote
whose URL (``url.<base>.insteadOf`` applied) resolves to this repository itself — the
same common git dir: ``.``, the repository's path, a path to any of its worktrees,
``file://`` of them, or ``ssh://`` / ``host:path`` of them on this machine (``localhost``, a
loopback address, its host name) — never counts: the next one in that order does. Only the
remote-tracking refs of the remote that counts (``refs/remotes/<name>/``) and, in a push,
the ids the remote's refs point at now (the pre-push lines' remote ids) hold a commit; a
ref fetched from anywhere else does not.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from gentle_hooks.git.gitconfig import GitConfig
from gentle_hooks.git.refs import Refs

_CONFIG = (
    r"^(remote\..+\.url|branch\..+\.(remote|pushremote)|remote\.pushdefault|url\..+\.insteadof)$"
)


def local_path(url: str, top: str) -> str | None:
    """The absolute path a remote URL names on this machine, relative ones resolved from
    ``top`` (where git runs a fetch or push): a path, ``file://[host]/path`` (git ignores
    the host), and ``ssh://`` or scp-like ``host:path`` to this machine (:func:`is_local_host`;
    a path relative to, or ``~`` of, the ssh user's home); None for a URL of another host."""
    scheme, sep, rest = url.partition("://")
    if sep:
        # imported here: ``urllib.parse`` (and the ``ipaddress`` it loads) cost every gate
        # ≈ 2 ms to import, and only a URL with a scheme needs it
        import urllib.parse

        if scheme.lower() == "file":
            slash = rest.find("/")
            return None if slash < 0 else os.path.normpath(urllib.parse.unquote(rest[slash:]))
        if scheme.lower() not in ("ssh", "git+ssh", "ssh+git"):
            return None
        parts = urllib.parse.urlsplit(url)
        user, path = parts.username, urllib.parse.unquote(parts.path)
        if not is_local_host(parts.hostname or ""):
            return None
        return _ssh_path(user, path[1:] if path.startswith("/~") else path)
    bracket = url.find("]:") if "@[" in url or url.startswith("[") else -1
    colon, slash = (bracket + 1 if bracket > 0 else url.find(":")), url.find("/")
    if colon > 0 and (slash < 0 or colon < slash):  # scp-like [user@]host:path
        user, at, host = url[:colon].rpartition("@")
        if not is_local_host(host.strip("[]")):
            return None
        return _ssh_path(user if at else None, url[colon + 1 :])
    return os.path.normpath(os.path.join(top, os.path.expanduser(url)))


def is_local_host(host: str) -> bool:
    """Whether an ssh host names this machine: ``localhost``, a loopback address
    (``127.x.x.x``, ``::1``) or this machine's host name, in any case."""
    host = host.lower().rstrip(".")
    names = {"localhost", "localhost.localdomain", "ip6-localhost", "::1", "0:0:0:0:0:0:0:1"}
    if host in names or (host.startswith("127.") and host.replace(".", "").isdigit()):
        return True
    try:
        name = os.uname().nodename  # what socket.gethostname() returns, without importing it
    except AttributeError:  # no uname (Windows)
        import socket

        name = socket.gethostname()
    return host == name.lower()


def _ssh_path(user: str | None, path: str) -> str:
    """Where an ssh login of ``user`` (None: this user) on this machine finds ``path``:
    a relative path and ``~`` from that user's home, ``~name`` from ``name``'s."""
    home = os.path.expanduser(f"~{user}" if user else "~")
    if path == "~" or path.startswith("~/"):
        path = os.path.join(home, path[2:])
    elif path.startswith("~"):
        path = os.path.expanduser(path)
    return os.path.normpath(os.path.join(home, path))


def common_dir_at(path: str) -> str | None:
    """The real path of the common git dir of the repository at ``path`` as git would open
    it (``path/.git``, ``path``, ``path.git/.git``, ``path.git``; a ``.git`` file's
    ``gitdir:`` followed, a linked worktree's ``commondir`` read); None when none is one."""
    for candidate in (os.path.join(path, ".git"), path, path + ".git/.git", path + ".git"):
        git_dir = _git_dir(candidate)
        if git_dir is None:
            continue
        common = git_dir
        try:
            with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as f:
                common = os.path.join(git_dir, f.read().strip())
        except (OSError, UnicodeDecodeError):
            pass
        return os.path.realpath(common)
    return None


def _git_dir(candidate: str) -> str | None:
    """``candidate`` (or where its ``gitdir:`` file points) when it looks like a git dir."""
    if os.path.isfile(candidate):
        try:
            with open(candidate, encoding="utf-8") as f:
                line = f.readline().strip()
        except (OSError, UnicodeDecodeError):
            return None
        if not line.startswith("gitdir:"):
            return None
        candidate = os.path.join(os.path.dirname(candidate), line[len("gitdir:") :].strip())
    is_dir = os.path.isdir(candidate) and os.path.exists(os.path.join(candidate, "HEAD"))
    return candidate if is_dir else None


def rewritten(url: str, instead_of: Sequence[tuple[str, str]]) -> str:
    """``url`` with the longest matching ``url.<base>.insteadOf`` prefix replaced by its
    base (``instead_of``: (base, prefix) pairs), as git rewrites it."""
    best = max(
        (p for p in instead_of if p[1] and url.startswith(p[1])),
        key=lambda p: len(p[1]),
        default=None,
    )
    return url if best is None else best[0] + url[len(best[1]) :]


class Destinations(Refs, GitConfig):
    """The remote the work goes to, and whether it holds a commit (module docstring)."""

    #: set by :meth:`push_destination`: (remote name or None, its URL, its refs' ids and names)
    _pushed: tuple[str | None, str | None, tuple[tuple[str, str], ...]] | None = None
    #: what :meth:`_destination` found: (remote name whose tracking refs count, or None;
    #: (id, ref name) pairs the remote's refs point at)
    _found: tuple[str | None, tuple[tuple[str, str], ...]] | None = None

    def push_destination(
        self, remote: str | None, url: str | None, held: Sequence[tuple[str, str]]
    ) -> None:
        """In a push, the work goes to ``remote`` (git's first hook argument: a remote's
        name, or the URL pushed to) at ``url`` (git's second), whose refs point at ``held``
        now ((id, remote ref) pairs: the pre-push lines' remote ids, zero ids left out).
        Nothing counts when neither is known or the URL resolves to this repository."""
        self._pushed = (remote, url, tuple(held))
        self._found = None
        self._held_remotely.clear()

    def work_remote(self) -> str | None:
        """The name of the remote whose remote-tracking refs hold commits for the settings
        (module docstring); None when there is none (no remote, only this repository
        itself, or a push to a URL)."""
        return self._destination()[0]

    def _destination(self) -> tuple[str | None, tuple[tuple[str, str], ...]]:
        if self._found is not None:
            return self._found
        urls: dict[str, list[str]] = {}
        keys: dict[str, str] = {}
        instead_of: list[tuple[str, str]] = []
        read = self.preloaded_entries(_CONFIG)  # the gate's first config process read them
        if read is None:
            out = self.run(["config", "-z", "--get-regexp", _CONFIG], ok=(0, 1)).stdout
            text = out.decode("utf-8", "surrogateescape").split("\0")
            read = [(k, v) for k, _, v in (e.partition("\n") for e in text)]
        for key, value in read:
            section, _, rest = key.partition(".")
            name, _, var = rest.rpartition(".")
            if section == "remote" and var == "url" and name:
                urls.setdefault(name, []).append(value)
            elif section == "url" and var == "insteadof" and name:
                instead_of.append((name, value))
            elif key:
                keys[key] = value

        def is_self(url: str) -> bool:
            path = local_path(rewritten(url, instead_of), self.paths.toplevel or self.paths.git_dir)
            mine = os.path.realpath(self.paths.common_dir)
            return path is not None and common_dir_at(path) == mine

        if self._pushed is not None:
            remote, url, held = self._pushed
            if url is None and remote is not None and remote in urls:
                url = urls[remote][0]
            if url is None or is_self(url) or any(is_self(u) for u in urls.get(remote or "", ())):
                self._found = (None, ())
            else:
                absent = set(self.missing_objects([i for i, _ in held]))
                present = tuple((i, r) for i, r in held if i not in absent)
                self._found = (remote if remote in urls else None, present)
            return self._found
        short = self._head_branch() if urls else ""  # no remote: no branch can name one
        order = [
            keys.get(f"branch.{short}.remote") if short else None,
            keys.get(f"branch.{short}.pushremote") if short else None,
            keys.get("remote.pushdefault"),
            "origin",
            next(iter(urls)) if len(urls) == 1 else None,
        ]
        for chosen in order:
            if chosen and chosen in urls and not any(is_self(u) for u in urls[chosen]):
                self._found = (chosen, ())
                return self._found
        self._found = (None, ())
        return self._found

    def _head_branch(self) -> str:
        """The short name of the branch ``HEAD`` is on; ``""`` when detached or unborn on
        none. Read from the worktree's ``HEAD`` file when it holds a plain ``ref:`` line
        (the files backend: a gate on the commit path saves a git process); else, as for
        the reftable backend's placeholder ``refs/heads/.invalid``, from ``git
        symbolic-ref``.

        Raises:
            GitError: git failed.
        """
        try:
            with open(os.path.join(self.paths.git_dir, "HEAD"), "rb") as fh:
                head = fh.read(4096)
        except OSError:
            head = b""
        ref = head.removeprefix(b"ref: ").rstrip(b"\n")
        plain = head.startswith(b"ref: refs/heads/") and not any(c in ref for c in b"\r\n")
        if plain and ref != b"refs/heads/.invalid":
            return ref.decode("utf-8", "surrogateescape").removeprefix("refs/heads/")
        branch = self.run(["symbolic-ref", "-q", "HEAD"], ok=(0, 1, 128)).stdout
        return branch.decode("utf-8", "surrogateescape").strip().removeprefix("refs/heads/")

    def settings_anchor(self, commit: str, head: str) -> tuple[str | None, str | None]:
        """A commit the gate's settings may be read from for a candidate based on
        ``commit`` and standing on ``head``: ``(commit, None)`` when the remote the work
        goes to holds it (module docstring); else the merge-base of ``head`` with what
        that remote holds — in a push the remote's side of the pushed refs first, then
        the branch's upstream when it is on that remote, then the remote's default branch
        (``<remote>/HEAD``, ``/main``, ``/master``) — and the name of what it holds;
        ``(None, None)`` when there is none of them (or no common history)."""
        remote, present = self._destination()
        known = self._held_remotely.get(commit)
        if known is None and remote is not None and self._held_by.get(commit) == remote:
            known = self._held_remotely[commit] = True  # below that remote's tracking ref
        if known is None:  # a push's commits mostly share one base: asked once
            known = False
            if remote is not None:
                on = ["for-each-ref", "--count=1", "--format=%(refname)", "--contains", commit]
                known = bool(self.out([*on, f"refs/remotes/{remote}/"]))
            if not known:
                known = any(self.merge_base(commit, i) == commit for i, _ in present)
            self._held_remotely[commit] = known
        if known:
            return commit, None
        tips = [(i, f"{remote or 'the remote'}'s {r}") for i, r in present]
        if remote is not None:
            proc = self.run(
                ["rev-parse", "--verify", "-q", "--symbolic-full-name", "@{upstream}"],
                ok=(0, 1, 128),
            )
            upstream = proc.stdout.decode("utf-8", "surrogateescape").strip()
            names = [upstream] if upstream.startswith(f"refs/remotes/{remote}/") else []
            names += [f"refs/remotes/{remote}/{b}" for b in ("HEAD", "main", "master")]
            tips += [(n, n.removeprefix("refs/remotes/")) for n in names]
        for name, via in tips:
            tip = self.ref_exists(name)
            found = self.merge_base(tip, head) if tip is not None else None
            if found is not None:
                return found, via
        return None, None
