"""A base ref from the environment or git config cannot let a change loosen the gate that
judges it (SPEC §5; README "Opting out"): ``verification.require_observed`` counts only
from a commit a remote holds, through installed hooks and a bare remote.

The remote's ``main`` requires observed verdicts; an unpushed plain commit opts out; then
an escalated writer change with a hand-written verdict is judged with the base ref moved
onto that unpushed commit (``GENTLE_HOOKS_BASE_REF=HEAD``, ``git config gentle.baseRef``):
``verdict add`` refuses the verdict, ``git commit`` and ``git push`` block. An opt-out the
remote holds still counts with the same base ref.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import OPT_OUT, PASSING_VERDICT, verdict_file
from tests.e2e.conftest import Run, World

TOKENS = "def check_token(t):\n    return bool(t) and t.startswith('tok-')\n"
REQUIRED = "[verification]\nrequire_observed = true\n"


def _remote_requires_observed(world: World) -> None:
    world.write(".gentle-hooks.toml", REQUIRED)
    world.ok("add", "-A")
    world.ok("commit", "-q", "-m", "config: require observed verdicts")
    world.ok("push", "-q", "origin", "main")


def _opt_out_unpushed(world: World) -> None:
    world.write(".gentle-hooks.toml", OPT_OUT)
    world.ok("add", "-A")
    world.ok("commit", "-q", "-m", "config: accept any verdict")


def _escalated_staged(world: World) -> None:
    world.delegate(text=TOKENS)
    world.spot_check()
    world.escalate()
    world.ok("add", "-A")


def _hand_verdict(world: World, env: dict[str, str]) -> Run:
    """A hand-written verdict bound to ``status --staged --json``'s candidate, added."""
    status = world.gh("status", "--staged", "--json", env=env)
    assert status.code == 0, status
    cand = json.loads(status.out)["assessment"]["candidate"]
    ref = {"identity": cand["identity"], "baseTree": cand["base_tree"], "tree": cand["tree"]}
    path = verdict_file(world.base, {**PASSING_VERDICT, "candidate": ref})
    return world.gh("verdict", "add", "--staged", path, env=env)


@pytest.mark.parametrize("how", ["env", "git-config"])
def test_a_base_ref_on_an_unpushed_opt_out_does_not_loosen_the_gate(
    native: World, how: str
) -> None:
    world = native
    _remote_requires_observed(world)
    _opt_out_unpushed(world)
    _escalated_staged(world)
    env: dict[str, str] = {}
    if how == "env":
        env = {"GENTLE_HOOKS_BASE_REF": "HEAD"}
    else:
        world.ok("config", "gentle.baseRef", "HEAD")

    added = _hand_verdict(world, env)
    assert added.code == 1, added
    assert "not accepted: not observed" in added.out, added

    blocked = world.git("commit", "-m", "writer: tokens", env=env)
    assert blocked.code == 1, blocked
    assert any("): not observed: " in line for line in blocked.said), blocked.said
    assert any(
        "is not on what origin holds (the remote the work goes to): verification settings are "
        "read from"
        in line
        and "(merge-base with origin/main)" in line
        for line in blocked.said
    ), blocked.said

    # committed without the hook, the push with the base ref on the opt-out blocks too
    world.ok("commit", "-q", "--no-verify", "-m", "writer: tokens", env=env)
    if how == "env":
        env = {"GENTLE_HOOKS_BASE_REF": "HEAD~1"}
    else:
        world.ok("config", "gentle.baseRef", "HEAD~1")
    pushed = world.git("push", "origin", "main", env=env)
    assert pushed.code == 1, pushed
    assert world.remote_ref("main") != world.rev("HEAD")


def test_an_opt_out_the_remote_holds_counts_with_the_same_base_ref(native: World) -> None:
    world = native
    _remote_requires_observed(world)
    _opt_out_unpushed(world)
    world.ok("push", "-q", "origin", "main")  # now the remote holds the opt-out
    _escalated_staged(world)
    env = {"GENTLE_HOOKS_BASE_REF": "HEAD"}

    added = _hand_verdict(world, env)
    assert added.code == 0, added
    assert "status pass: accepted" in added.out, added
    passed = world.git("commit", "-m", "writer: tokens", env=env)
    assert passed.code == 0, passed


def test_a_base_ref_on_unpushed_risk_tables_does_not_make_the_change_passive(
    native: World,
) -> None:
    """``[risk]`` tables committed on an unpushed commit, with the base ref moved onto it,
    do not make the writer's source passive: the readback does not stand in for the spot
    check (the tables of the commit a remote holds, here the packaged ones, disagree)."""
    world = native
    world.write(".gentle-hooks.toml", '[risk]\ndoc_extensions = [".py"]\n')
    world.ok("add", "-A")
    world.ok("commit", "-q", "-m", "config: .py files are documentation here")
    env = {"GENTLE_HOOKS_BASE_REF": "HEAD"}
    world.delegate("src/app.py", "def f():\n    return compute_total(2)\n")
    world.ok("add", "src/app.py")
    assert world.gh("spot-check", "--readback", "--staged", env=env).code == 0
    blocked = world.git("commit", "-qm", "writer: app", env=env)
    assert blocked.code == 1, blocked
    origin = world.rev("origin/main")[:12]
    assert any(
        f"native medium, not passive: risk tables from {origin}, the commit a remote holds" in line
        for line in blocked.said
    ), blocked.said


def _opt_out_on_a_ref_of_itself(world: World, url: str) -> None:
    """An unpushed commit opts out; ``url`` (this repository itself) becomes remote
    ``self`` and is fetched, so ``self/main`` holds the opt-out."""
    _opt_out_unpushed(world)
    world.ok("remote", "add", "self", url)
    world.ok("fetch", "-q", "self")


def _self_urls(world: World) -> dict[str, str]:
    linked = world.base / "linked"
    world.ok("worktree", "add", "-q", "--detach", str(linked))
    return {
        "dot": ".",
        "path": str(world.work),
        "git-dir": str(world.work / ".git"),
        "worktree": str(linked),
        "file-url": f"file://{world.work}",
    }


@pytest.mark.parametrize("url", ["dot", "path", "git-dir", "worktree", "file-url"])
def test_a_base_ref_fetched_from_this_repository_itself_does_not_loosen_the_gate(
    native: World, url: str
) -> None:
    """The refuter's two commands (``git remote add self . && git fetch self``) with the base
    ref on ``self/main``: the verdict is refused, the commit and the push block, each with
    a way out; the push reads its settings from what origin holds, not from the base ref."""
    world = native
    _opt_out_on_a_ref_of_itself(world, _self_urls(world)[url])
    _escalated_staged(world)
    env = {"GENTLE_HOOKS_BASE_REF": "self/main"}

    added = _hand_verdict(world, env)
    assert added.code == 1, added
    assert "not accepted: not observed" in added.out, added

    blocked = world.git("commit", "-m", "writer: tokens", env=env)
    assert blocked.code == 1, blocked
    assert any("): not observed: " in line for line in blocked.said), blocked.said
    assert any(line.strip().startswith("gentle-hooks:   run: ") for line in blocked.said), blocked
    origin = world.rev("origin/main")[:12]
    assert any(
        "is not on what origin holds (the remote the work goes to): verification settings "
        f"are read from {origin} (merge-base with origin/main)" in line
        for line in blocked.said
    ), blocked.said

    world.ok("commit", "-q", "--no-verify", "-m", "writer: tokens", env=env)
    world.ok("fetch", "-q", "self")  # self/main now holds the writer's commit too
    pushed = world.git("push", "origin", "main", env=env)
    assert pushed.code == 1, pushed
    assert any("): not observed: " in line for line in pushed.said), pushed.said
    assert any(line.strip().startswith("gentle-hooks:   run: ") for line in pushed.said), pushed
    assert world.remote_ref("main") != world.rev("HEAD")


def test_an_opt_out_origin_holds_counts_beside_a_remote_of_itself(native: World) -> None:
    """The opt-out pushed to origin counts, whatever ``self`` holds and whatever the base
    ref: ``verdict add`` accepts, the commit and the push pass."""
    world = native
    _opt_out_on_a_ref_of_itself(world, ".")
    world.ok("push", "-q", "origin", "main")
    _escalated_staged(world)
    env = {"GENTLE_HOOKS_BASE_REF": "self/main"}

    added = _hand_verdict(world, env)
    assert added.code == 0, added
    assert "status pass: accepted" in added.out, added
    assert world.git("commit", "-m", "writer: tokens", env=env).code == 0
    pushed = world.git("push", "origin", "main", env=env)
    assert pushed.code == 0, pushed
    assert world.remote_ref("main") == world.rev("HEAD")


@pytest.mark.parametrize("remotes", ["none", "only-itself"])
def test_without_a_remote_of_its_own_an_opt_out_does_not_count(native: World, remotes: str) -> None:
    """No remote at all (README "Opting out": ``require_observed`` stays on), and a
    repository whose only remote is itself, alike: the committed opt-out does not count."""
    world = native
    world.ok("remote", "remove", "origin")
    if remotes == "only-itself":
        _opt_out_on_a_ref_of_itself(world, ".")
    else:
        _opt_out_unpushed(world)
    _escalated_staged(world)

    added = _hand_verdict(world, {})
    assert added.code == 1, added
    assert "not accepted: not observed" in added.out, added
    blocked = world.git("commit", "-m", "writer: tokens")
    assert blocked.code == 1, blocked
    assert any("): not observed: " in line for line in blocked.said), blocked.said


def test_a_push_reads_the_opt_out_from_what_the_remote_pushed_to_holds(native: World) -> None:
    """origin holds the opt-out, so the verdict counts and the commit passes; a push to a
    second remote that does not hold it (its side of the pushed ref is the commit before
    the opt-out) blocks, with a way out, while the push to origin passes."""
    world = native
    mirror = world.base / "mirror.git"
    world.ok("init", "-q", "--bare", str(mirror), cwd=world.base)
    world.ok("remote", "add", "mirror", str(mirror))
    world.ok("push", "-q", "--no-verify", "mirror", "main")
    _opt_out_unpushed(world)
    world.ok("push", "-q", "origin", "main")
    _escalated_staged(world)

    added = _hand_verdict(world, {})
    assert added.code == 0, added
    assert world.git("commit", "-m", "writer: tokens").code == 0

    pushed = world.git("push", "mirror", "main")
    assert pushed.code == 1, pushed
    assert any("): not observed: " in line for line in pushed.said), pushed.said
    assert any(line.strip().startswith("gentle-hooks:   run: ") for line in pushed.said), pushed
    assert world.git("push", "origin", "main").code == 0
    assert world.remote_ref("main") == world.rev("HEAD")
