"""The line the end of the agent's turn says of the session's background windows
(:func:`gentle_hooks.services.agent_window_links.ended`), row by row, and where a session's
links to the other repositories its windows are kept in live
(:mod:`gentle_hooks.services.agent_window_links`; docs/agents/claude-code.md, "A command that
runs in the background"). Issue 17, refuter r17u."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.services.agent_window_links import _links_file, ended


@pytest.mark.parametrize(
    ("closed", "kept", "said"),
    [
        (0, 0, "no background call's window was open"),
        (
            2,
            0,
            "2 background call window(s) closed; what changes from now on is not recorded as "
            "theirs",
        ),
        (0, 1, "1 background call window(s) kept open past it"),
        (
            1,
            1,
            "1 background call window(s) closed, 1 kept open past it: what changes from now on "
            "is recorded only as the kept ones' write, within their grace",
        ),
    ],
    ids=["none", "closed", "kept", "both"],
)
def test_the_turns_end_says_what_it_did_to_the_windows(closed: int, kept: int, said: str) -> None:
    assert ended(closed, kept) == said


@pytest.mark.parametrize(
    ("env", "where"),
    [
        ({"XDG_STATE_HOME": "/st", "HOME": "/h"}, "/st/gentle-hooks/windows"),
        ({"XDG_STATE_HOME": "rel", "HOME": "/h"}, "/h/.local/state/gentle-hooks/windows"),
        ({"HOME": "/h"}, "/h/.local/state/gentle-hooks/windows"),
        ({"HOME": "h"}, None),
        ({}, None),
    ],
    ids=["xdg", "xdg-relative", "home", "home-relative", "neither"],
)
def test_a_session_in_no_work_tree_links_under_the_state_home(
    env: dict[str, str], where: str | None
) -> None:
    path = _links_file("claude-code", "s1", None, env)
    if where is None:
        assert path is None
    else:
        assert path is not None and path.startswith(where + "/claude-code.")
        assert path.endswith(".links")


def test_a_main_work_tree_with_no_windows_directory_looks_no_further(tmp_path: Path) -> None:
    """The session's own links sit beside its windows; a main work tree (its ``.git`` a
    directory) that keeps none is answered from one ``lstat``, with no git process (none
    could run here: ``.git`` holds nothing git reads)."""
    (tmp_path / ".git").mkdir()
    assert _links_file("claude-code", "s1", str(tmp_path), {}, look=True) is None
    windows = tmp_path / ".git" / "gentle-hooks" / "shell" / "windows"
    windows.mkdir(parents=True)
    path = _links_file("claude-code", "s1", str(tmp_path), {}, look=True)
    assert path is not None and Path(path).parent == windows and path.endswith(".links")
