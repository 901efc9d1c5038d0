"""The repository a pull request comes from, when it is a fork (SPEC §8 "Sharing", docs/ci.md
"Forks").

Room ``notes``. A writer's push sends the notes where it sends the commits: for a pull
request from a fork, the fork (the pull request's *head* repository), which a writer
without push access to the base can always push to. A range gate judging such a pull
request names that repository in its block (the writer's ``sync push``, the job's fetch).
Read from the gate's own option, else from the CI's description of the run; nothing here
runs git or reaches a network.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from gentle_hooks.errors import UsageError, quoted, shown_field
from gentle_hooks.notes.where import is_location, public_url, repository_key

#: Where a CI job fetches the head repository's notes (docs/ci.md's recipes): a fetched
#: remote's notes ref, which the range gate reads beside the local notes, line by line (a
#: union, as ``git notes merge -s cat_sort_uniq`` makes, with no commit that needs a git
#: identity the job may not have).
HEAD_NOTES_REF = "refs/notes/remotes/pull-request-head/gentle-hooks"


def fork_head(env: Mapping[str, str], explicit: str = "", judged: str = "") -> str:
    """The URL of the repository the judged pull request comes from, when that is another
    repository than the one it is judged in (a fork), shown without credentials
    (:func:`~gentle_hooks.notes.where.public_url`); empty otherwise (no pull request, one
    from a branch of the base itself, no head repository known):

    * ``explicit`` (``gate --head-url URL``, or ``GENTLE_HOOKS_HEAD_URL``), a fork unless
      it names ``judged``;
    * GitHub Actions (``GITHUB_ACTIONS=true``): the event ``GITHUB_EVENT_PATH`` names,
      ``pull_request.head.repo.clone_url``, a fork unless it names
      ``pull_request.base.repo.clone_url`` or ``judged`` (a ``pull_request`` or
      ``pull_request_target`` run; a deleted fork has no head repository);
    * GitLab CI (``GITLAB_CI=true``): ``$CI_MERGE_REQUEST_SOURCE_PROJECT_URL.git``, a fork
      unless it names ``$CI_MERGE_REQUEST_PROJECT_URL`` or ``judged``.

    ``judged``: the repository the range is judged in
    (:func:`~gentle_hooks.notes.where.judged_repository`), or empty.

    Raises:
        UsageError: one line: the event file cannot be read, is not JSON, or its
            ``pull_request`` is not shaped as GitHub writes it (fail closed: a gate that
            cannot tell where the pull request comes from says so).
    """
    head, base = explicit, ""
    if not head and env.get("GITHUB_ACTIONS") == "true" and env.get("GITHUB_EVENT_PATH"):
        head, base = _github_event(env["GITHUB_EVENT_PATH"])
    elif not head and env.get("GITLAB_CI") == "true":
        source = env.get("CI_MERGE_REQUEST_SOURCE_PROJECT_URL", "").rstrip("/")
        head = f"{source}.git" if source else ""
        base = env.get("CI_MERGE_REQUEST_PROJECT_URL", "")
    if not head or not is_location(head):
        return ""
    key = repository_key(head)
    if any(u and repository_key(u) == key for u in (base, judged)):
        return ""
    return public_url(head)


def _github_event(path: str) -> tuple[str, str]:
    """``(head clone URL, base clone URL)`` of the pull request GitHub's event file at
    ``path`` describes; ``("", "")`` for another event, or a head repository deleted.

    Raises:
        UsageError: as :func:`fork_head`.
    """
    where = f"GITHUB_EVENT_PATH {quoted(path)}"
    try:
        with open(path, encoding="utf-8") as handle:
            event = json.load(handle)
    except OSError as exc:
        raise UsageError(
            f"{where} cannot be read: {shown_field(exc.strerror or str(exc))}"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"{where} is not a JSON event: {shown_field(str(exc), 200)}") from None
    if not isinstance(event, dict):
        raise UsageError(f"{where} is not a JSON object")
    pull = event.get("pull_request")
    if pull is None:
        return "", ""  # a push, a schedule: no pull request, no fork
    if not isinstance(pull, dict):
        raise UsageError(f"{where}: pull_request is not an object")
    return _clone_url(pull, "head", where), _clone_url(pull, "base", where)


def _clone_url(pull: dict[str, object], side: str, where: str) -> str:
    """``pull_request.<side>.repo.clone_url``; empty when the repository is null (GitHub
    writes ``"repo": null`` for a deleted fork).

    Raises:
        UsageError: a level is not an object, or the URL is not a string.
    """
    part = pull.get(side)
    repo = part.get("repo") if isinstance(part, dict) else part
    if repo is None:
        return ""
    url = repo.get("clone_url") if isinstance(repo, dict) else None
    if not isinstance(url, str):
        raise UsageError(f"{where}: pull_request.{side}.repo.clone_url is not a string")
    return url
