"""With ``GENTLE_HOOKS_FORMAT=json`` a gate's standard error is its decision object alone,
and with an agent runtime detected the object is the last line gentle-hooks prints (SPEC §7
"Hooks"; docs/agents/claude-code.md, "Blocks an agent can read"): real git, ``gentle-hook
install``, a bare remote.

Refuter h17k F2: a commit made with hooks off, then ``GENTLE_HOOKS_FORMAT=json git push``:
the push gate's ``recorded ... as delegated ... made with hooks off`` line came before the
object. What the gate says on the way is in the object (``notices``, first in ``lines``);
the notes a push shares are said before it; post-rewrite's lines only in text; a chained
hook that fails is an ``error`` object. git's own lines (``error: failed to push some
refs``) are not ours: ours are the lines starting ``gentle-hooks:`` or ``{``.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import PREFIX, Run, World

TEXT = "def add(a, b):\n    return a + b  # the writer's\n"
FORMATS = [{"GENTLE_HOOKS_FORMAT": "json"}, {"CLAUDECODE": "1"}]
IDS = ["json", "runtime-detected"]


def ours(r: Run) -> list[str]:
    """The lines gentle-hooks printed on standard error: ``gentle-hooks:`` lines and the
    decision object (git's own lines left out)."""
    return [x for x in r.err.splitlines() if x.startswith((PREFIX, "{"))]


def decided(r: Run, env: dict[str, str]) -> dict[str, object]:
    """The decision object, checked to be all of ours (json) or the last of ours (an
    agent runtime detected, the human lines before it being the object's ``lines``)."""
    lines = ours(r)
    assert lines and lines[-1].startswith("{"), r
    obj: dict[str, object] = json.loads(lines[-1])
    if "GENTLE_HOOKS_FORMAT" in env:
        assert lines == [lines[-1]], r
    elif obj["decision"] == "error":  # its reason is the line as printed
        assert lines[:-1] == obj["lines"] == [obj["reason"]], r
    else:
        assert [x.removeprefix(PREFIX) for x in lines[:-1]] == obj["lines"], r
    return obj


@pytest.mark.parametrize("env", FORMATS, ids=IDS)
def test_a_hooks_off_commit_recorded_by_the_push_is_said_inside_the_object(
    env: dict[str, str], native: World
) -> None:
    w = native
    w.delegate(text=TEXT)
    w.ok("add", "-A")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "writer: hooks off")
    bad = w.rev("HEAD")
    r = w.git("push", "origin", "main", env=env)
    assert r.code != 0, r
    obj = decided(r, env)
    recorded = (
        f"recorded {bad[:12]} as delegated (o4-mini/low): made with hooks off, its note now "
        "names its writer"
    )
    assert (obj["hook"], obj["decision"], obj["notices"]) == ("pre-push", "blocked", [recorded])
    assert isinstance(obj["lines"], list) and obj["lines"][0] == recorded
    assert w.ledger("SELECT hook FROM commit_record") == [("pre-push",)]


def test_text_format_still_says_the_hooks_off_commit_was_recorded(native: World) -> None:
    w = native
    w.delegate(text=TEXT)
    w.ok("add", "-A")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "writer: hooks off")
    r = w.git("push", "origin", "main", env={"GENTLE_HOOKS_FORMAT": "text"})
    assert r.code != 0 and not any(x.startswith("{") for x in r.err.splitlines()), r
    assert r.said[0].startswith(f"{PREFIX}recorded {w.rev('HEAD')[:12]} as delegated"), r


@pytest.mark.parametrize("env", FORMATS, ids=IDS)
def test_notes_shared_by_an_allowed_push_are_said_before_the_object(
    env: dict[str, str], native: World
) -> None:
    w = native
    assert w.gh("install", "--share", "origin").code == 0
    w.delegate(text=TEXT)
    w.spot_check()
    w.ok("add", "-A")
    assert w.git("commit", "-q", "-m", "writer: checked").code == 0
    r = w.git("push", "origin", "main", env=env)
    assert r.code == 0, r
    obj = decided(r, env)
    assert (obj["hook"], obj["decision"]) == ("pre-push", "allowed"), obj
    assert isinstance(obj["lines"], list)
    assert obj["lines"][-1].endswith("pushed refs/notes/gentle-hooks to origin"), obj
    assert w.remote_ref("refs/notes/gentle-hooks") is not None


def _human_push_object(w: World) -> dict[str, object]:
    """A person's commit pushed with ``GENTLE_HOOKS_FORMAT=json``: its decision object,
    checked to be an allowed one with no candidate."""
    w.write("notes.txt", "a person's line\n")
    w.ok("add", "-A")
    assert w.git("commit", "-q", "-m", "human: notes").code == 0
    env = {"GENTLE_HOOKS_FORMAT": "json"}
    r = w.git("push", "origin", "main", env=env)
    assert r.code == 0, r
    obj = decided(r, env)
    assert (obj["hook"], obj["decision"], obj["candidates"]) == ("pre-push", "allowed", [])
    return obj


def test_a_human_push_with_nothing_to_say_prints_an_allowed_object(native: World) -> None:
    """With json, a push with no delegated commit and nothing to say still prints its
    object: an agent tells "allowed" from "the gate did not run" (refuter r17l)."""
    _human_push_object(native)


def test_a_human_push_that_says_something_says_it_in_an_object(native: World) -> None:
    """A push with no delegated commit still says what text says (the notes it shared or
    found none to share): with json, inside an ``allowed`` object with no candidate."""
    assert native.gh("install", "--share", "origin").code == 0
    obj = _human_push_object(native)
    assert isinstance(obj["lines"], list) and obj["lines"], obj
    assert all(not x.startswith(PREFIX) for x in obj["lines"]), obj


@pytest.mark.parametrize("env", FORMATS, ids=IDS)
def test_an_amend_that_changes_the_tree_prints_only_the_gates_object(
    env: dict[str, str], native: World
) -> None:
    """post-rewrite's "changed their tree" line comes after the commit gate's object: it is
    printed in text only, as post-commit's lines are."""
    w = native
    w.delegate(text=TEXT)
    w.spot_check()
    w.ok("add", "-A")
    assert w.git("commit", "-q", "-m", "writer: checked").code == 0
    w.write("README.md", "# demo, amended by hand\n")
    w.ok("add", "-A")
    r = w.git("commit", "-q", "--amend", "--no-edit", "--no-verify", env=env)
    assert r.code == 0, r
    assert ours(r) == [], r
    w.write("README.md", "# demo, amended by hand again\n")  # a reword alone keeps the tree
    w.ok("add", "-A")
    text = w.git("commit", "-q", "--amend", "--no-edit", "--no-verify", "-m", "again")
    assert text.code == 0 and any("rewritten commit(s)" in x for x in text.said), text


@pytest.mark.parametrize("env", FORMATS, ids=IDS)
def test_a_failing_chained_hook_is_an_error_object(env: dict[str, str], native: World) -> None:
    w = native
    hooks = w.work / ".git" / "hooks"
    legacy = hooks / "pre-commit.gentle-legacy"
    legacy.write_text("#!/bin/sh\nexit 3\n")
    legacy.chmod(0o755)
    w.write("README.md", "# a human change\n")
    r = w.git("commit", "-q", "-a", "-m", "human", env=env)
    assert r.code == 1, r
    obj = decided(r, env)
    line = "gentle-hooks: the chained pre-commit hook failed (exit 3)"
    assert (obj["decision"], obj["exit_code"], obj["reason"], obj["run"]) == (
        "error",
        3,
        line,
        [],
    ), obj
