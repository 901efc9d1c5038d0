"""The directories a shell command names (:func:`gentle_hooks.agents.shell_dirs.named_dirs`;
issue 17, h17f): where a shell call of a session opened above the repository may write."""

from __future__ import annotations

import pytest

from gentle_hooks.agents.shell_dirs import MOST, named_dirs


@pytest.mark.parametrize(
    ("command", "dirs"),
    [
        pytest.param("sed -i 's/a/b/' repo/src/app.py", ("s/a/b", "repo/src"), id="path-word"),
        pytest.param("cd repo && make", ("repo",), id="cd-operand"),
        pytest.param("git -C repo commit -qm x", ("repo",), id="git-C"),
        pytest.param("echo x >repo/log.txt", ("repo",), id="redirection-glued"),
        pytest.param("echo x 2>> repo/err.txt", ("repo",), id="redirection-apart"),
        pytest.param("ls repo/", ("repo",), id="trailing-slash"),
        pytest.param("cat /etc/hosts", ("/etc",), id="absolute"),
        pytest.param("echo notes > scratch.txt", (), id="no-directory"),
        pytest.param("grep -r --include=*.py x", (), id="options-only"),
        pytest.param("echo 'unclosed", (), id="unreadable"),
        pytest.param(["bash", "-lc", "cd repo && ls"], ("repo",), id="argument-list-script"),
        pytest.param(None, (), id="not-a-command"),
    ],
)
def test_named_dirs(command: object, dirs: tuple[str, ...]) -> None:
    assert named_dirs(command) == dirs


def test_at_most_most_dirs() -> None:
    command = " ".join(f"d{i}/f" for i in range(MOST + 5))
    assert named_dirs(command) == tuple(f"d{i}" for i in range(MOST))


@pytest.mark.parametrize(
    ("command", "within", "dirs"),
    [
        pytest.param("sed -i 's/a/b/' x.py", "sub", ("sub", "sub/s/a/b"), id="dir-path-first"),
        pytest.param("cat lib/x.py", "sub/", ("sub/", "sub/lib"), id="relative-from-it"),
        pytest.param("cat /etc/hosts", "sub", ("sub", "/etc"), id="absolute-kept"),
        pytest.param("ls", None, (), id="none"),
        pytest.param("ls", 3, (), id="not-text"),
    ],
)
def test_named_dirs_within(command: str, within: object, dirs: tuple[str, ...]) -> None:
    """A tool's own run directory (Gemini CLI's ``dir_path``) is named first, and relative
    words are taken from it (issue 17, h17h)."""
    assert named_dirs(command, within) == dirs
