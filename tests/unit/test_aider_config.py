"""aider's commit options resolved from each place aider documents them
(gentle_hooks.agents.aider; aider/website/docs/config/aider_conf.md and dotenv.md, Aider-AI/aider
commit 5dc9490bb35f9729ef2c95d00a19ccd30c26339c)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.agents import aider


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path, Path]:
    home, root = tmp_path / "home", tmp_path / "repo"
    cwd = root / "sub"
    for d in (home, root, cwd):
        d.mkdir(parents=True)
    return home, root, cwd


def resolve(
    places: tuple[Path, Path, Path], env: dict[str, str] | None = None
) -> aider.AiderCommits:
    home, root, cwd = places
    return aider.resolve(str(home), str(root), str(cwd), env or {})


def test_nothing_set_gives_aiders_defaults(places: tuple[Path, Path, Path]) -> None:
    conf = resolve(places)
    assert not conf.verify and conf.trailer
    assert not conf.author_marked and not conf.committer_marked and not conf.message_marked
    assert {s.source for s in conf.settings} == {"aider's default"}
    assert conf.files == ()


def test_home_then_root_then_cwd_the_last_file_wins(places: tuple[Path, Path, Path]) -> None:
    home, root, cwd = places
    (home / ".aider.conf.yml").write_text("git-commit-verify: true\nattribute-author: yes\n")
    conf = resolve(places)
    assert conf.verify and conf.get("git-commit-verify").source == str(home / ".aider.conf.yml")
    (root / ".aider.conf.yml").write_text("git-commit-verify: false  # not here\n")
    conf = resolve(places)
    assert not conf.verify and conf.get("git-commit-verify").source == str(root / ".aider.conf.yml")
    assert conf.author_marked  # still the home file's, an explicit true beats the trailer
    (cwd / ".aider.conf.yml").write_text("'git-commit-verify': x\ngit-commit-verify: 'On'\n")
    conf = resolve(places)
    assert conf.verify and conf.get("git-commit-verify").source == str(cwd / ".aider.conf.yml")
    assert len(conf.files) == 3


def test_the_environment_beats_the_files_and_dotenv_beats_the_environment(
    places: tuple[Path, Path, Path],
) -> None:
    home, root, _ = places
    (root / ".aider.conf.yml").write_text("git-commit-verify: true\n")
    conf = resolve(places, {"AIDER_GIT_COMMIT_VERIFY": "false"})
    assert not conf.verify
    assert conf.get("git-commit-verify").source == "AIDER_GIT_COMMIT_VERIFY in the environment"
    (home / ".env").write_text("OPENAI_API_KEY=sk-secret\nexport AIDER_GIT_COMMIT_VERIFY=true\n")
    conf = resolve(places, {"AIDER_GIT_COMMIT_VERIFY": "false"})
    assert conf.verify
    assert conf.get("git-commit-verify").source == f"AIDER_GIT_COMMIT_VERIFY in {home / '.env'}"
    assert "sk-secret" not in repr(conf)


def test_the_trailer_turns_the_name_marks_off_unless_they_are_set(
    places: tuple[Path, Path, Path],
) -> None:
    _, root, _ = places
    (root / ".aider.conf.yml").write_text("attribute-co-authored-by: false\n")
    conf = resolve(places)
    assert not conf.trailer and conf.author_marked and conf.committer_marked
    (root / ".aider.conf.yml").write_text(
        "attribute-co-authored-by: false\nattribute-author: false\nattribute-committer: false\n"
    )
    conf = resolve(places)
    assert not (conf.trailer or conf.author_marked or conf.committer_marked or conf.message_marked)


@pytest.mark.parametrize(
    ("conf", "dirty"),
    [
        ("", True),  # the trailer on: aider's edits unmarked by name, its dirty commits marked
        ("attribute-co-authored-by: false\n", True),
        ("attribute-committer: true\n", True),
        ("attribute-committer: false\n", False),  # --no-attribute-committer
    ],
)
def test_aiders_commits_of_your_dirty_files_carry_the_committer_mark(
    conf: str, dirty: bool, places: tuple[Path, Path, Path]
) -> None:
    """aider/repo.py GitRepo.commit (5dc9490b): with aider_edits False "Committer name IS
    modified by default", "EXCEPTION: If --attribute-committer is EXPLICITLY False"."""
    _, root, _ = places
    (root / ".aider.conf.yml").write_text(conf)
    assert resolve(places).dirty_marked is dirty


def test_a_value_that_is_not_a_boolean_is_reported_and_ignored(
    places: tuple[Path, Path, Path],
) -> None:
    _, root, _ = places
    (root / ".aider.conf.yml").write_text("git-commit-verify: maybe\n  attribute-author: true\n")
    conf = resolve(places)
    assert not conf.verify and conf.get("attribute-author").value is None
    assert conf.unreadable == (f"{root / '.aider.conf.yml'}: git-commit-verify = 'maybe'",)


@pytest.mark.parametrize(
    ("text", "verify"),
    [("1", True), ("'1'", True), ("0", False), ("ON", True), ("off", False), ("2", None)],
)
def test_one_and_zero_are_booleans_as_aider_reads_them(
    places: tuple[Path, Path, Path], text: str, verify: bool | None
) -> None:
    """aider's ConfigArgParse sets a flag for ``1`` and clears it for ``0`` (issue 17,
    refuter r17u: ``git-commit-verify: 1`` was reported "not a boolean, ignored"); ``2`` is
    none: reported, and aider's default (off) stands."""
    _, root, _ = places
    (root / ".aider.conf.yml").write_text(f"git-commit-verify: {text}\n")
    conf = resolve(places)
    assert conf.verify is bool(verify)
    assert bool(conf.unreadable) is (verify is None)
