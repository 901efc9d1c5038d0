"""``gentle-hook uninstall`` removes the links a block's PATH line made (issue 14): the
line, pasted where ``gentle-hook`` is not on PATH, links the copy the clone's hooks run
into ``gentle-hooks/bin`` under the worktree's git directory; uninstall removes those links
(the main worktree's and a linked one's) and the directories left empty, never a file of
the user's, and ``doctor`` then names nothing stale."""

from __future__ import annotations

import os

from gentle_hooks.report.worktree_text import PATH_LINE
from tests.e2e.conftest import World

#: A PATH without the CLI (git, sh, sed and ls are in /usr/bin or /bin).
NO_CLI = {"PATH": "/usr/bin:/bin"}


def _paste_path_line(w: World, cwd: os.PathLike[str]) -> str:
    """PATH_LINE pasted in ``sh`` at ``cwd`` where gentle-hook is not on PATH; the CLI it
    then finds."""
    ran = w.run(["sh", "-c", f"{PATH_LINE}; command -v gentle-hook"], cwd=cwd, env=NO_CLI)
    assert ran.code == 0 and ran.out.strip().endswith("/gentle-hooks/bin/gentle-hook"), ran
    return ran.out.strip()


def test_uninstall_removes_the_path_lines_links_and_doctor_names_nothing_stale(
    native: World,
) -> None:
    w = native
    w.delegate(text="def add(a, b):\n    return a + b  # v2\n")  # the ledger: kept
    linked = w.base / "linked"
    w.ok("worktree", "add", "-q", "--detach", str(linked))
    main_link = w.work / ".git" / "gentle-hooks" / "bin" / "gentle-hook"
    assert _paste_path_line(w, w.work) == str(main_link)
    linked_link = w.work / ".git" / "worktrees" / "linked" / "gentle-hooks" / "bin" / "gentle-hook"
    assert _paste_path_line(w, linked) == str(linked_link)
    assert main_link.is_symlink() and linked_link.is_symlink()
    r = w.gh("uninstall")
    assert r.code == 0, r
    lines = r.out.splitlines()
    for link in (main_link, linked_link):
        assert not os.path.lexists(link), link
        assert f"removed the link a printed PATH line made: {link}" in lines, r.out
        assert not link.parent.exists(), link
    # the linked worktree's gentle-hooks directory held only bin/: it goes too; the main
    # one holds the ledger, which uninstall keeps
    assert not linked_link.parent.parent.exists()
    kept = [p.name for p in (w.work / ".git" / "gentle-hooks").iterdir()]
    assert kept and "bin" not in kept, kept
    doctor = w.gh("doctor")
    said = doctor.out + doctor.err
    assert "stale" not in said and "gentle-hooks/bin" not in said, doctor


def test_uninstall_keeps_a_file_of_the_users_where_the_link_would_be(native: World) -> None:
    w = native
    bin_dir = w.work / ".git" / "gentle-hooks" / "bin"
    bin_dir.mkdir(parents=True)
    own = bin_dir / "gentle-hook"
    own.write_text("#!/bin/sh\necho mine\n", encoding="utf-8")
    other = bin_dir / "tool"
    other.symlink_to("/bin/true")  # a link, but not to a gentle-hook
    r = w.gh("uninstall")
    assert r.code == 0, r
    assert own.read_text(encoding="utf-8") == "#!/bin/sh\necho mine\n"
    assert other.is_symlink()
    assert "PATH line" not in r.out, r.out
