"""The server gate on a person's push over many notes (issue 20): the same answers, in one
search of the notes per source and without the imports only a delegated commit needs.

Each commit of a person's push has no note and no trailer, so its tree (:mod:`gentle_hooks.
hooks.same_tree`) and the blobs it brings in (:mod:`gentle_hooks.hooks.changed_tree`) are
looked up among every note: one ``git grep`` for both (``Notes.search_notes_ahead``), whose
later narrowed answers must equal a ``git grep`` of their own words.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.git.repository import Repository
from gentle_hooks.services.install import ENTRY
from tests.conftest import git, write
from tests.integration.test_notes_gate import clone, delegated_change, ok, run
from tests.integration.test_notes_gate import server as server

NOTES = "refs/notes/gentle-hooks"
T1, T2, B1 = "1" * 40, "2" * 40, "b" * 40


def _noted(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository whose notes hold the words in several ways; name -> noted commit."""
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    texts = {
        "tree": f"candidate {T1}\n",
        "blob": f"writes x {B1}\n",
        "both": f"{B1} and\n{T1}\n",
        # the id written as JSON escapes: not the string git grep looks for
        "escaped": json.dumps({"tree": T1[:5] + "\\u0031" + T1[6:]}) + "\n",
        "other": f"candidate {T2}\n",
        "none": "nothing here\n",
    }
    noted = {}
    for name, text in texts.items():
        write(repo / name, name)
        git(repo, "add", name)
        git(repo, "commit", "-q", "-m", name)
        noted[name] = git(repo, "rev-parse", "HEAD").strip()
        git(repo, "notes", f"--ref={NOTES}", "add", "-m", text.rstrip("\n"), noted[name])
    return repo, noted


def _trace(path: Path) -> list[list[str]]:
    """The argv of every git process a ``GIT_TRACE2_EVENT`` file names."""
    if not path.exists():
        return []
    events = [json.loads(line) for line in path.read_text().splitlines()]
    return [e["argv"][1:] for e in events if e.get("event") == "start"]


@pytest.mark.parametrize(
    ("words", "names"),
    [
        ([T1], {"tree", "both"}),
        ([B1], {"blob", "both"}),
        ([T2, B1], {"other", "blob", "both"}),
        (["f" * 40], set()),
    ],
    ids=["tree", "blob", "tree-and-blob", "nothing"],
)
def test_a_search_ahead_answers_as_git_grep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, words: list[str], names: set[str]
) -> None:
    repo, noted = _noted(tmp_path)
    monkeypatch.chdir(repo)
    plain = Repository.open().notes_holding(NOTES, words)  # a grep of its own
    assert plain == {noted[n] for n in names}
    trace = tmp_path / "trace2"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    r = Repository.open()
    listed = r.notes_map(NOTES)
    r.search_notes_ahead(NOTES, [T1, T2, B1, "f" * 40])
    assert r.notes_holding(NOTES, words, listed) == plain
    greps = [a for a in _trace(trace) if a[0] == "grep"]
    assert len(greps) == 1, greps  # the search ahead's only


def test_a_note_over_the_cap_is_searched_by_git_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, noted = _noted(tmp_path)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("GENTLE_HOOKS_NOTE_BYTES", "20")  # "both" and "tree" are larger
    trace = tmp_path / "trace2"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    r = Repository.open()
    listed = r.notes_map(NOTES)
    r.search_notes_ahead(NOTES, [T1, B1])
    assert r.notes_holding(NOTES, [T1], listed) == {noted["tree"], noted["both"]}
    assert len([a for a in _trace(trace) if a[0] == "grep"]) == 2


def _person_push(server: Path) -> tuple[str, str, str]:
    """A writer's delegated commit (noted on the server), then a person's two commits
    pushed with every local hook off; (old, new) of the person's push and its stdin."""
    a = clone(server, "a")
    delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    old = git(server, "rev-parse", "main").strip()
    for i in range(2):
        write(a / f"person{i}.txt", f"a person's file {i}\n")
        git(a, "add", "-A")
        git(a, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", f"person {i}")
    ok(run(a, "git", "push", "--no-verify"))
    new = git(server, "rev-parse", "main").strip()
    return old, new, f"{old} {new} refs/heads/main\n"


PROBE = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules))))\n"
    + ENTRY
)


def test_a_persons_push_searches_the_notes_once_with_few_imports(
    server: Path, tmp_path: Path
) -> None:
    _, _, stdin = _person_push(server)
    trace = tmp_path / "hook-trace2"
    proc = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, "hook", "pre-receive"],
        cwd=server,
        input=stdin,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GIT_TRACE2_EVENT": str(trace)},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    argvs = _trace(trace)
    assert [a[0] for a in argvs].count("grep") == 1, argvs
    # the notes are listed first; whether they exist is asked only when that fails
    assert not [a for a in argvs if a[:2] == ["rev-parse", "--verify"]], argvs
    modules = set(proc.stderr.rsplit("MODULES ", 1)[-1].split())
    assert "gentle_hooks.hooks.server" in modules  # the probe really ran the gate
    only_delegated = {
        "gentle_hooks.services.assess",
        "gentle_hooks.notes.facts",
        "gentle_hooks.native.builtin",
        "gentle_hooks.hooks.verdict_text",
        "sqlite3",
        "_hashlib",
    }
    assert not modules & only_delegated, sorted(modules & only_delegated)
