"""Where the gate's settings are read from (SPEC §5): a merge-base with a remote-tracking
ref is held remotely by construction, so ``settings_anchor`` asks git nothing for it, and
answers what a repository object that asks would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.git.repository import Repository
from tests.conftest import commit_all, git, write


def _clone_ahead(tmp_path: Path, *, track: bool = True) -> tuple[Path, str, list[str]]:
    """A clone three local commits ahead of its remote's ``main`` (``track`` False: the
    remote-tracking refs deleted, so only the local ``main`` names the base); (clone, the
    base commit, the local commits oldest first)."""
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    write(origin / "a.py", "one\n")
    base = commit_all(origin, "base")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    git(clone, "switch", "-q", "-c", "work")
    ahead = []
    for i in range(3):
        write(clone / "a.py", f"change {i}\n")
        ahead.append(commit_all(clone, f"change {i}"))
    if not track:
        for ref in ("refs/remotes/origin/HEAD", "refs/remotes/origin/main"):
            git(clone, "update-ref", "-d", ref)
    return clone, base, ahead


def _asked(trace: Path) -> list[list[str]]:
    starts = (json.loads(line) for line in trace.read_text().splitlines())
    return [e["argv"][1:] for e in starts if e.get("event") == "start"]


def _anchor(
    clone: Path, base: str, ahead: list[str], trace: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[tuple[str | None, str | None], list[tuple[str | None, str | None]], bool]:
    """(the anchor of the base's merge-base with each local commit, learnt as the push gate
    learns them; the same asked of a fresh repository object each; whether the first
    object ran ``for-each-ref --contains``)."""
    monkeypatch.chdir(clone)
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    repo = Repository.open(str(clone))
    tip = repo.base_commit(None)
    assert tip == base
    repo.learn_merge_bases(tip, ahead[-1], repo.read_commits(ahead))
    bases = {repo.merge_base(tip, c) for c in ahead}
    assert bases == {base}
    got = repo.settings_anchor(base, ahead[-1])
    monkeypatch.delenv("GIT_TRACE2_EVENT")
    contains = any("--contains" in argv for argv in _asked(trace))
    fresh = [Repository.open(str(clone)).settings_anchor(base, c) for c in ahead]
    return got, fresh, contains


def test_a_merge_base_with_a_remote_tracking_tip_is_held_without_asking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default base is ``origin/main``: its merge-base with each pushed commit is held
    remotely (settings read there), known from the refs already read, no
    ``for-each-ref --contains``; a repository object that asks git answers the same."""
    clone, base, ahead = _clone_ahead(tmp_path)
    got, fresh, contains = _anchor(clone, base, ahead, tmp_path / "trace", monkeypatch)
    assert got == (base, None)
    assert fresh == [(base, None)] * 3
    assert not contains


def test_a_base_only_a_local_branch_names_is_still_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No remote-tracking ref: the base comes from the local ``main`` (the fallback), which
    says nothing of what a remote holds, so git is asked, and the answer is git's (not
    held: no anchor)."""
    clone, base, ahead = _clone_ahead(tmp_path, track=False)
    got, fresh, contains = _anchor(clone, base, ahead, tmp_path / "trace", monkeypatch)
    assert got == (None, None)
    assert fresh == [(None, None)] * 3
    assert contains
