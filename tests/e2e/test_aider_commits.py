"""aider's commits at the three gates (commit, pre-push, ``gate --range``), row by row: a
person's own change aider commits is the person's; aider's own edits are delegated.

What aider does, from Aider-AI/aider ``aider/repo.py`` ``GitRepo.commit`` (commit
5dc9490bb35f9729ef2c95d00a19ccd30c26339c, 0.86.3.dev; the same rules since v0.83.0) and
``aider/args.py`` (``--attribute-co-authored-by`` default True since v0.85.0, False in
v0.83-v0.84; ``--attribute-author``/``--attribute-committer`` default None, read as True):

* a commit of the user's dirty files before aider edits (``Coder.dirty_commit``:
  ``repo.commit(fnames=...)``, ``aider_edits`` False) or ``/commit``: "Author name is NEVER
  modified", "Committer name IS modified by default", no trailer, no ``aider: `` prefix
  (the message is an ordinary one generated from the diff): only ``GIT_COMMITTER_NAME`` is
  set, to ``<user.name> (aider)``; the same since v0.39.0, when the marks were introduced;
* aider's own edits with v0.85+ defaults: ``Co-authored-by: aider (<model>)
  <aider@aider.chat>``, names left alone;
* aider's own edits with the trailer off (v0.39-v0.84 defaults): ``(aider)`` after the
  author and the committer names.

aider commits with ``--no-verify`` unless ``git-commit-verify`` is on: its own edits are
made here once with the hooks (the commit gate blocks) and once with ``--no-verify`` (the
push gate and ``gate --range`` block).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PREFIX, World

PERSON = "def add(a, b):\n    return a + b\n\n# TODO(pat): handle floats\n"
#: what aider sets around its ``git commit`` of the person's dirty files (any version)
DIRTY = {"GIT_COMMITTER_NAME": "Test Author (aider)"}
#: aider's own edit, trailer off (v0.39-v0.84 defaults): both names marked
NAMED = {"GIT_AUTHOR_NAME": "Test Author (aider)", "GIT_COMMITTER_NAME": "Test Author (aider)"}
TRAILER = "\n\nCo-authored-by: aider (gpt-4o) <aider@aider.chat>"


def _committed_by_aider(w: World) -> None:
    who = w.ok("log", "-1", "--format=%an|%cn").strip()
    assert who == "Test Author|Test Author (aider)", who


@pytest.mark.parametrize("verify", [True, False])
def test_a_persons_dirty_files_committed_by_aider_pass_every_gate(
    verify: bool, native: World
) -> None:
    """The refuter r17s reproduction: ``(aider)`` on the committer alone, aider's dirty
    commit of the person's own edit, with ``git-commit-verify: true`` (the commit gate runs)
    or aider's default ``--no-verify`` (the push gate and ``gate --range`` judge it); blocked
    at each before."""
    w = native
    assert w.gh("install", "--share", "origin").code == 0
    w.write(".aider.conf.yml", f"git-commit-verify: {str(verify).lower()}\n")
    w.ok("add", ".aider.conf.yml")
    w.ok("commit", "-qm", "conf")
    w.write("src/app.py", PERSON)
    skip = [] if verify else ["--no-verify"]
    r = w.git("commit", *skip, "-m", "docs: add TODO", "--", "src/app.py", env=DIRTY)
    assert r.code == 0, r
    assert not any("BLOCKED" in line for line in r.said), r
    _committed_by_aider(w)
    # never labelled as AI work: no writer trailer, no note
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    ci = w.gh("gate", "--range", "HEAD~2..HEAD")
    pushed = w.git("push", "origin", "main")
    assert (ci.code, pushed.code) == (0, 0), (ci, pushed)
    assert w.remote_ref("main") == w.rev("HEAD")


@pytest.mark.parametrize(("env", "trailer"), [({}, TRAILER), (NAMED, "")])
def test_aiders_own_edit_is_blocked_at_commit(
    env: dict[str, str], trailer: str, native: World
) -> None:
    """aider's own edit (v0.85+ defaults: the trailer; v0.39-v0.84: both names), made with
    ``git-commit-verify: true``: the commit gate blocks it, naming aider."""
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a + b  # by aider\n")
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "feat: comment" + trailer, env=env)
    assert blocked.code == 1, blocked
    assert blocked.said[0].startswith(f"{PREFIX}BLOCKED"), blocked
    assert "aider" in blocked.err, blocked


@pytest.mark.parametrize(("env", "trailer"), [({}, TRAILER), (NAMED, "")])
def test_aiders_own_edit_is_blocked_at_push_and_in_ci(
    env: dict[str, str], trailer: str, native: World
) -> None:
    """aider's own edit committed with aider's default ``--no-verify``: the push gate and
    ``gate --range`` block it."""
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a + b  # by aider\n")
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "feat: comment" + trailer, env=env)
    pushed = w.git("push", "origin", "main")
    assert pushed.code != 0, pushed
    assert any("BLOCKED" in line for line in pushed.said), pushed
    assert w.remote_ref("main") != w.rev("HEAD")
    ci = w.gh("gate", "--range", "HEAD~1..HEAD")
    assert ci.code == 1, ci
