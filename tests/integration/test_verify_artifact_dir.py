"""``verification.artifact_dir`` as written: normalised, so the ``info/exclude`` line git
reads keeps the artifacts out of the candidate; the work tree's top or a path leaving it
refused in one line naming the key, exit 2 (seed 001 "Artifact"; SPEC §9).

Real repositories, the real CLI, and git's own ``status --porcelain`` and ``check-ignore``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git, write
from tests.integration.test_verify import Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """A delegated, escalated change ready for ``verify run`` (test_verify's ``env``)."""
    return make_env(repo, tmp_path)


def _config(env: Env, value: str) -> None:
    """``verification.artifact_dir`` in a config file git ignores here."""
    with (env.repo / ".git" / "info" / "exclude").open("a") as fh:
        fh.write("/.gentle-hooks.toml\n")
    write(env.repo / ".gentle-hooks.toml", f"[verification]\nartifact_dir = {json.dumps(value)}\n")


#: (id, artifact_dir as written, the directory it names, relative to the top).
SPELLINGS = [
    ("dot-slash", "./x", "x"),
    ("trailing-slash", "x/", "x"),
    ("dot-dot-inside", "x/../y", "y"),
    ("nested-dots", "./a/./b//", "a/b"),
    ("glob-characters", "art[1]*", "art[1]*"),
]


@pytest.mark.parametrize(
    ("value", "where"), [s[1:] for s in SPELLINGS], ids=[s[0] for s in SPELLINGS]
)
def test_artifacts_under_any_spelling_stay_out_of_the_candidate(
    env: Env, value: str, where: str
) -> None:
    _config(env, value)
    before = git(env.repo, "status", "--porcelain", "--untracked-files=all")
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    ref = out["artifactRef"]
    assert ref.startswith(f"{where}/") and ref.endswith(".json"), ref
    assert (env.repo / ref).is_file()
    after = git(env.repo, "status", "--porcelain", "--untracked-files=all")
    assert after == before
    md = ref.removesuffix(".json") + ".md"
    assert git(env.repo, "check-ignore", "--no-index", ref, md).split("\n")[:2] == [ref, md]
    exclude = (env.repo / ".git" / "info" / "exclude").read_text()
    assert "/./" not in exclude and "//" not in exclude


#: (id, artifact_dir, the one line on stderr after the file's name).
REFUSED = [
    ("dot", ".", "'.' is the work tree's top"),
    ("dot-slash", "./", "'./' is the work tree's top"),
    ("back-to-top", "x/..", "'x/..' is the work tree's top"),
    ("parent", "../x", "'../x' leaves the work tree"),
    ("parent-hidden", "x/../../y", "'x/../../y' leaves the work tree"),
]


@pytest.mark.parametrize(("value", "says"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_the_top_or_a_path_leaving_it_is_refused_in_one_line(
    env: Env, value: str, says: str
) -> None:
    _config(env, value)
    before = git(env.repo, "status", "--porcelain", "--untracked-files=all")
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(
        f"gentle-hook: error: {env.repo}/.gentle-hooks.toml: verification.artifact_dir: "
    )
    assert says in proc.stderr
    assert git(env.repo, "status", "--porcelain", "--untracked-files=all") == before


def test_an_absolute_path_naming_the_top_is_refused(env: Env) -> None:
    _config(env, str(env.repo) + "/.")
    before = git(env.repo, "status", "--porcelain", "--untracked-files=all")
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert (proc.returncode, proc.stderr.count("\n")) == (2, 1), proc.stderr
    assert proc.stderr.startswith("gentle-hook: error: verification.artifact_dir: ")
    assert "is the work tree's top" in proc.stderr
    assert git(env.repo, "status", "--porcelain", "--untracked-files=all") == before


def test_an_absolute_path_inside_the_top_is_excluded_as_its_relative_path(env: Env) -> None:
    _config(env, f"{env.repo}/./out/../arts/")
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    assert out["artifactRef"].startswith("arts/")
    assert "arts/" not in git(env.repo, "status", "--porcelain", "--untracked-files=all")
    assert "\n/arts/\n" in (env.repo / ".git" / "info" / "exclude").read_text()


def test_a_directory_of_tracked_files_keeps_showing_new_files(env: Env) -> None:
    """Refuter r18y (issue 18): ``artifact_dir = "docs"`` where ``docs/guide.md`` is tracked
    put ``/docs/`` in ``info/exclude``, so a file a person added there later never showed in
    ``git status`` and was silently left out of every commit. Only the verdict's pair is
    excluded then; the pair still stays out of the candidate."""
    write(env.repo / "docs" / "guide.md", "# guide\n")
    git(env.repo, "add", "docs/guide.md")
    _config(env, "docs")
    before = git(env.repo, "status", "--porcelain", "--untracked-files=all")
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    ref = out["artifactRef"]
    assert ref.startswith("docs/"), ref
    assert git(env.repo, "status", "--porcelain", "--untracked-files=all") == before
    exclude = (env.repo / ".git" / "info" / "exclude").read_text().splitlines()
    assert "/docs/" not in exclude and f"/{ref}" in exclude, exclude
    write(env.repo / "docs" / "new.md", "new\n")
    assert "?? docs/new.md" in git(env.repo, "status", "--porcelain", "--untracked-files=all")
