"""Where notes are shared: a configured remote's name, or a repository's URL or path
(SPEC §8 "Sharing").

Room ``notes``. ``sync fetch|push`` take either (git's own rule: a configured remote's name
first, else a repository location). A pull request from a fork is judged in a repository
the writer's clone may have no remote for: the range gate names that repository by its URL
(:func:`judged_repository`) and prints ``sync push <url>``, which the writer runs as printed.
Nothing here runs a fetch or a push.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from gentle_hooks.errors import GitError, quoted
from gentle_hooks.git.repository import Repository
from gentle_hooks.values.digest import sha256_hex

#: ``scheme://...`` (git's URL form; ``file://`` included).
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://.+\Z")
#: git's scp-like form, ``[user@]host:path``: a colon before any slash (``[v6]:path`` too).
_SCP = re.compile(r"(?:[^/@:\s]+@)?(?:\[[^\]/\s]+\]|[^/:\s]+):.*\Z")
#: Remote helpers that run a command or read a descriptor (``ext::sh -c ...``, ``fd::3``):
#: never a repository a printed line or a pasted argument names.
_REFUSED = ("ext::", "fd::")
#: ``GITHUB_REPOSITORY``: ``owner/name``.
_GITHUB_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\Z")


def tracking_ref(remote: str, named: bool = True) -> str:
    """Where ``remote``'s notes are fetched to, never over the local notes: under
    ``refs/notes/remotes/<name>/`` for a configured remote; for a URL or path, a name of
    its own (``url-`` and the first 12 hex digits of its SHA-256), which no notes push
    sends (only ``refs/notes/gentle-hooks`` is pushed) and every gate reading the
    fetched remotes' notes reads."""
    if named:
        return f"refs/notes/remotes/{remote}/gentle-hooks"
    digest = sha256_hex(remote.encode("utf-8", "surrogateescape"))[:12]
    return f"refs/notes/remotes/url-{digest}/gentle-hooks"


def is_location(text: str) -> bool:
    """Whether ``text`` has the form of a repository URL (``scheme://``, scp-like
    ``host:path``) or an absolute path, as :func:`judged_repository` names one; never a
    remote helper that runs a command (``ext::``, ``fd::``), nor what git would read as an
    option (a leading ``-``: a printed git line names it as a positional argument)."""
    if text.startswith("-") or text.lower().startswith(_REFUSED):
        return False
    return bool(_URL.match(text) or _SCP.match(text) or os.path.isabs(text))


def repository(repo: Repository, remote: str, here: str | None = None) -> tuple[str, str]:
    """``remote`` as git's repository argument and where its notes are fetched to
    (:func:`tracking_ref`): a configured remote's name as it is; else a URL (``scheme://``
    or scp-like) as it is; else a path, which must exist (a directory or a bundle),
    made absolute against ``here`` (the user's directory; default: the process's), since
    git runs at the repository's top.

    Raises:
        GitError: one line: empty, an option (starts with ``-``: ``--upload-pack=...``
            runs a command), a control character, a command-running helper (``ext::``,
            ``fd::``), or neither a remote's name nor a URL nor an existing path.
    """
    nowhere = f"no remote named {quoted(remote)} (see: git remote -v)"
    if not remote or remote.startswith("-"):
        raise GitError(nowhere)
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in remote):
        raise GitError(f"{nowhere}, and a repository's URL or path has no control character")
    if repo.config_get(f"remote.{remote}.url") is not None:
        return remote, tracking_ref(remote)
    same = same_remote(repo, remote, here)
    if same is not None:  # the remote's own URL carries this clone's transport and login
        return same, tracking_ref(same)
    if remote.lower().startswith(_REFUSED):
        raise GitError(
            f"{quoted(remote)} runs a command (a remote helper): name a remote, a "
            "repository's URL or its path"
        )
    if _URL.match(remote) or (_SCP.match(remote) and not os.path.exists(remote)):
        return remote, tracking_ref(remote, named=False)
    path = os.path.abspath(os.path.join(here or os.getcwd(), os.path.expanduser(remote)))
    if not os.path.exists(path):
        raise GitError(f"{nowhere}, nor a repository URL, nor an existing path")
    return path, tracking_ref(path, named=False)


def repository_key(location: str, here: str | None = None) -> tuple[str, str] | None:
    """What names one repository whatever the transport: ``(host, path)`` of a URL or an
    scp-like location (no scheme, user, port or password; the host case-folded; the path
    without its ``/`` ends and a ``.git`` suffix), ``("", real path)`` of a local path or
    ``file://`` URL; None for what is neither (a remote helper, an option).
    ``https://github.com/o/r.git``, ``git@github.com:o/r`` and ``ssh://git@github.com/o/r``
    are one repository."""
    if not location or location.startswith("-") or location.lower().startswith(_REFUSED):
        return None
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/]*)(.*)\Z", location, re.DOTALL)
    if m is not None:
        scheme, authority, path = m.groups()
        if scheme.lower() == "file":
            return "", os.path.realpath(path or "/")
        host = authority.rsplit("@", 1)[-1]
        host = host if host.startswith("[") else host.split(":", 1)[0]
        return host.lower(), path.strip("/").removesuffix(".git").rstrip("/")
    if _SCP.match(location) and not os.path.exists(location):
        host, path = location.split("@", 1)[-1].split(":", 1)
        return host.strip("[]").lower(), path.strip("/").removesuffix(".git").rstrip("/")
    path = os.path.join(here or os.getcwd(), os.path.expanduser(location))
    return "", os.path.realpath(path)


def same_remote(repo: Repository, location: str, here: str | None = None) -> str | None:
    """The configured remote whose fetch or push URL names the repository ``location``
    names (:func:`repository_key`), the first in ``git remote`` order; None when none
    does. A printed ``sync push https://host/o/r.git`` then pushes through the writer's own
    ``origin`` (``git@host:o/r.git``): its transport and its credentials."""
    key = repository_key(location, here)
    if key is None:
        return None
    for name in repo.config_remotes():
        urls = [*repo.config_get_all(f"remote.{name}.url")]
        urls += repo.config_get_all(f"remote.{name}.pushurl")
        # a remote's relative path is relative to where git runs: the top, or a bare git dir
        top = str(repo.paths.toplevel or repo.paths.git_dir)
        if any(repository_key(u, top) == key for u in urls):
            return name
    return None


def public_url(url: str) -> str:
    """``url`` without the password or token it carries (``https://user:token@host/...``:
    the user information of an ``http(s)``/``ftp(s)`` URL, the password of another
    ``scheme://`` one): a printed line must not show a CI job's credentials."""
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/@]*)@(.*)\Z", url, re.DOTALL)
    if m is None:
        return url
    scheme, user, rest = m.groups()
    if scheme.lower() in ("http", "https", "ftp", "ftps"):
        return f"{scheme}://{rest}"
    return f"{scheme}://{user.split(':', 1)[0]}@{rest}"


def judged_repository(repo: Repository, env: Mapping[str, str], explicit: str = "") -> str:
    """The URL of the repository a range is judged in, for the writer's ``sync push``
    (a pull request from a fork: the writer's clone pushes to the fork by default), or
    empty when it cannot be named:

    * ``explicit`` (``gate --share URL``, or ``GENTLE_HOOKS_SHARE_URL``);
    * GitHub Actions (``GITHUB_ACTIONS=true``): ``$GITHUB_SERVER_URL/$GITHUB_REPOSITORY.git``,
      the base repository of a ``pull_request`` run;
    * GitLab CI (``GITLAB_CI=true``): ``$CI_MERGE_REQUEST_PROJECT_URL.git``, else
      ``$CI_PROJECT_URL.git``;
    * the URL of this clone's ``origin`` (``git remote get-url origin``), when it is a URL
      or an absolute path (a relative one means nothing in another clone).

    Every URL is shown without credentials (:func:`public_url`).
    """
    if explicit:
        return public_url(explicit)
    if env.get("GITHUB_ACTIONS") == "true":
        server = env.get("GITHUB_SERVER_URL", "").rstrip("/")
        name = env.get("GITHUB_REPOSITORY", "")
        if _URL.match(server) and _GITHUB_REPO.match(name):
            return public_url(f"{server}/{name}.git")
    if env.get("GITLAB_CI") == "true":
        for key in ("CI_MERGE_REQUEST_PROJECT_URL", "CI_PROJECT_URL"):
            url = env.get(key, "").rstrip("/")
            if _URL.match(url):
                return public_url(f"{url}.git")
    if repo.config_get("remote.origin.url") is None:
        return ""
    proc = repo.run(["remote", "get-url", "origin"], ok=range(256))
    url = proc.stdout.decode("utf-8", "surrogateescape").strip()
    if proc.returncode or not url or "\n" in url or not is_location(url):
        return ""
    return public_url(url)
