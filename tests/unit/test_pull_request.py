"""The repository a judged pull request comes from, when it is a fork
(gentle_hooks.notes.pull_request), and the ways out a fork's range block prints
(gentle_hooks.report.fixes, issue 14, refuter r14n: a writer without push access to the base)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.errors import UsageError
from gentle_hooks.notes.pull_request import HEAD_NOTES_REF, fork_head
from gentle_hooks.policy.shortfall import NoValidNote
from gentle_hooks.report.fixes import steps
from gentle_hooks.report.fork_text import fork_fetch_line
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Projection

BASE = "https://github.com/owner/proj.git"
FORK = "https://github.com/writer/proj.git"


def _github(tmp_path: Path, event: object) -> dict[str, str]:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event), encoding="utf-8")
    return {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": str(path)}


def _pull(head: object, base: object = BASE) -> dict[str, object]:
    return {"pull_request": {"head": {"repo": head}, "base": {"repo": {"clone_url": base}}}}


def test_github_a_fork_s_pull_request_names_the_fork(tmp_path: Path) -> None:
    assert fork_head(_github(tmp_path, _pull({"clone_url": FORK}))) == FORK


@pytest.mark.parametrize(
    "event",
    [
        _pull({"clone_url": BASE}),  # a branch of the base itself
        _pull({"clone_url": "git@github.com:owner/proj"}),  # the base by another transport
        _pull(None),  # a deleted fork: GitHub writes "repo": null
        {"push": {}},  # not a pull request
    ],
)
def test_github_no_fork_names_nothing(tmp_path: Path, event: object) -> None:
    assert fork_head(_github(tmp_path, event)) == ""


def test_the_judged_repository_is_no_fork(tmp_path: Path) -> None:
    env = _github(tmp_path, _pull({"clone_url": FORK}, base="https://example.org/other.git"))
    assert fork_head(env, judged=FORK) == ""


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"pull_request": 3}',
        '{"pull_request": {"head": {"repo": {"clone_url": 7}}}}',
    ],
)
def test_a_bad_event_is_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "event.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        fork_head({"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": str(path)})
    assert "GITHUB_EVENT_PATH" in str(caught.value) and "\n" not in str(caught.value)


def test_a_missing_event_file_is_one_line(tmp_path: Path) -> None:
    env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": str(tmp_path / "gone.json")}
    with pytest.raises(UsageError, match="cannot be read"):
        fork_head(env)


def test_gitlab_a_fork_s_merge_request_names_the_source_project() -> None:
    env = {
        "GITLAB_CI": "true",
        "CI_MERGE_REQUEST_PROJECT_URL": "https://gitlab.example/g/proj",
        "CI_MERGE_REQUEST_SOURCE_PROJECT_URL": "https://gitlab.example/writer/proj",
    }
    assert fork_head(env) == "https://gitlab.example/writer/proj.git"
    same = {**env, "CI_MERGE_REQUEST_SOURCE_PROJECT_URL": "https://gitlab.example/g/proj"}
    assert fork_head(same) == ""


def test_a_token_in_the_head_url_is_never_shown(tmp_path: Path) -> None:
    token = "https://x-access-token:ghs_SECRET@github.com/writer/proj.git"
    assert fork_head(_github(tmp_path, _pull({"clone_url": token}))) == FORK
    assert fork_head({}, explicit="https://gitlab-ci-token:s3cr3t@host/w/p.git") == (
        "https://host/w/p.git"
    )


def test_an_explicit_head_url_wins_and_is_no_fork_when_it_is_the_judged_one() -> None:
    assert fork_head({"GITLAB_CI": "true"}, explicit=FORK, judged=BASE) == FORK
    assert fork_head({}, explicit=BASE, judged=BASE) == ""


def test_a_fork_s_block_fetches_from_the_fork_here_and_shares_with_it_there() -> None:
    """The first way (where the gate ran) fetches the fork's notes where the gate reads
    them; the writer's share names the fork, its alternatives the branch's remote and git
    alone; the base is never named."""
    fix = steps(
        NoValidNote(stale=False),
        Binding(projection=Projection.COMMITTED),
        "a" * 40,
        share=True,
        remote=FORK,
        fork=FORK,
    )
    runs = [text for label, text in fix if label in ("run", "or")]
    assert fork_fetch_line(FORK) in runs
    assert fork_fetch_line(FORK).endswith(f"{FORK} +refs/notes/gentle-hooks:{HEAD_NOTES_REF}")
    assert runs.count(f"gentle-hook sync push {FORK}") == 2  # the verified clone's, the last way's
    assert "gentle-hook sync push" in runs
    assert not any(BASE in text for _, text in fix)
