"""A room's check that starts Python without the import guard (issue 18; SPEC §9: "the
candidate's exact tree"): :func:`~gentle_hooks.services.room_unguarded.escape` reads the
command line and a started program's ``#!`` line; :func:`~gentle_hooks.services.
room_imports.room_argv` runs such a check only when what that start reaches is the room's
own copy."""

from __future__ import annotations

from pathlib import Path

from gentle_hooks.services.room_imports import RoomImports, room_argv
from gentle_hooks.services.room_unguarded import escape


def _script(tmp_path: Path, first: str) -> str:
    path = tmp_path / "runtests"
    path.write_text(f"{first}\nprint('hi')\n")
    return str(path)


def test_escape_reads_the_command_line() -> None:
    assert escape(("python3", "-E", "-m", "pytest")) == "`python3 -E` (PYTHON* variables ignored)"
    assert "PYTHONPATH" in (escape(("env", "-u", "PYTHONPATH", "python3", "-m", "pytest")) or "")
    assert escape(("python3", "-m", "pytest")) is None


def test_escape_reads_a_started_programs_shebang_flags(tmp_path: Path) -> None:
    flagged = _script(tmp_path, "#!/venv/bin/python -I")
    why = escape(("runtests",), [flagged])
    assert why is not None and why.startswith(f"{flagged}'s #! line `/venv/bin/python -I`"), why
    via_env = _script(tmp_path, "#!/usr/bin/env -S python3 -E")
    assert escape(("runtests",), [via_env]) is not None
    plain = _script(tmp_path, "#!/venv/bin/python")
    assert escape(("runtests",), [plain]) is None
    assert escape(("runtests",), [str(tmp_path / "missing")]) is None


def test_an_escaping_check_runs_only_when_its_reach_is_known_and_the_rooms() -> None:
    argv = ("python3", "-I", "-m", "pytest")
    unknown = RoomImports(first="/guard")
    _, why = room_argv(argv, unknown)
    assert why is not None and "did not ask" in why, why
    assert room_argv(argv, RoomImports(first="/guard", reach=()))[1] is None
    alien = RoomImports(first="/guard", reach=("/w/extra",))
    _, why = room_argv(argv, alien)
    assert why is not None and "/w/extra" in why, why
    # a guarded check is not asked about: it runs
    assert room_argv(("python3", "-m", "pytest"), unknown)[1] is None


def test_a_check_no_word_shows_escaping_is_refused_when_the_reach_is_a_work_tree() -> None:
    """Reach outside the room: only a proven check runs, and the refusal names what to
    remove; with no reach, ``make`` runs."""
    source = ("/w/extra", "/v/site/extra_path.pth: remove that line from /v/site/x.pth")
    tainted = RoomImports(first="/guard", reach=("/w/extra",), sources=(source,), path="/usr/bin")
    _, why = room_argv(("sh", "-c", "make test"), tainted)
    assert why is not None and "`make`" in why and "/w/extra" in why and "x.pth" in why, why
    assert room_argv(("sh", "-c", "test ! -e x"), tainted)[1] is None
    assert room_argv(("sh", "-c", "make test"), RoomImports(first="/guard", reach=()))[1] is None


def test_imported_names_are_the_top_level_names_of_absolute_imports(tmp_path: Path) -> None:
    """r18n HIGH C: the unguarded probe asks where the names the room's files import
    resolve (a finder may map one the room lacks to a work tree)."""
    from gentle_hooks.services.room_unguarded import imported_names

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(
        "import os, numpy as np\nfrom fastmul.core import mul\nfrom . import sibling\n"
        "    import yaml  # indented\nx = 'import'\n"
    )
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / ".venv" / "b.py").write_text("import hidden_in_venv\n")
    (tmp_path / "notes.txt").write_text("import notpython\n")
    assert imported_names(str(tmp_path)) == ("os", "numpy", "fastmul", "yaml")
