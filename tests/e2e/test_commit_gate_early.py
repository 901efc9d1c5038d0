"""The delegated commit gate's first git questions start before the gate is imported
(SPEC §2 "Start-up is part of the product", §7 "Hooks"; hooks/commit_early.py), and the
gate decides and says exactly what it says without them.

Real git, ``gentle-hook install``. The hook runs as the installed script runs it, with a
finder that notes, when ``gentle_hooks.hooks.commit`` is first looked for, which child
processes this process has (``/proc/self/task/*/children``: started, not yet reaped);
``GIT_TRACE2_EVENT`` names each git process by its id.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gentle_hooks.services.install import ENTRY
from tests.e2e.conftest import World

#: Runs the hook as ENTRY does, noting the children alive when the gate is first imported.
SPY = """
import glob, os, sys
class Spy:
    def find_spec(self, name, path=None, target=None):
        if name == "gentle_hooks.hooks.commit":
            kids = []
            for f in glob.glob("/proc/self/task/*/children"):
                kids += open(f).read().split()
            open(os.environ["SPY_OUT"], "w").write(" ".join(kids))
        return None
sys.meta_path.insert(0, Spy())
"""

#: The gate's first questions: a word of each argument list, as git's trace shows it.
FIRST = {
    "config": ("config", "-z", "--get-regexp"),
    "head": ("rev-parse", "--end-of-options", "HEAD^{commit}", "HEAD^{tree}"),
    "base refs": ("for-each-ref",),
    "staged change": ("diff-index", "--cached"),
    "index tree": ("write-tree",),
}

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="reads children from /proc (Linux)"
)


def _started(trace: Path) -> list[tuple[int, tuple[str, ...]]]:
    """(process id, argv after ``git``) of every git process the trace saw start."""
    out = []
    for line in trace.read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "start":
            pid = int(event["sid"].rsplit("-P", 1)[1], 16)
            out.append((pid, tuple(event["argv"][1:])))
    return out


def _hook(
    w: World, name: str, tag: str, spy: bool, env: dict[str, str] | None = None
) -> tuple[int, str, str, Path, Path]:
    """Run the installed ``name`` hook's Python side in the work tree (with the spy, or
    as plain ENTRY); (exit code, stdout, stderr, trace file, spy file)."""
    trace, out = w.base / f"trace-{tag}.json", w.base / f"spy-{tag}.txt"
    code = (SPY if spy else "") + ENTRY
    r = w.run(
        [sys.executable, "-I", "-c", code, "hook", name],
        env={**(env or {}), "GIT_TRACE2_EVENT": str(trace), "SPY_OUT": str(out)},
    )
    return r.code, r.out, r.err, trace, out


def _gate_alone(w: World, env: dict[str, str]) -> tuple[int, str, str]:
    """The same hook run with the gate's handler as it was before the questions were
    started ahead: the gate imported and called, nothing handed to it."""
    code = (
        "from gentle_hooks.hooks import dispatch\n"
        "from gentle_hooks.hooks.commit import commit_gate\n"
        "from gentle_hooks.policy.delegation import runtime_evidence\n"
        "dispatch.HOOKS['pre-commit'].handler = (\n"
        "    lambda call, env: commit_gate(call, env, runtime_evidence(env)))\n"
    ) + ENTRY
    r = w.run([sys.executable, "-I", "-c", code, "hook", "pre-commit"], env=env)
    return r.code, r.out, r.err


def test_the_first_questions_are_asked_once_each_before_the_gate_is_imported(
    native: World,
) -> None:
    w = native
    w.delegate(text="def run(cmd):\n    return cmd\n")
    w.spot_check()
    w.ok("add", "-A")
    code, _, err, trace, spy = _hook(w, "pre-commit", "early", spy=True)
    assert code == 0 and "verified as their plan requires" in err, err
    alive = {int(p) for p in spy.read_text().split()}
    started = _started(trace)
    for what, words in FIRST.items():
        mine = [pid for pid, argv in started if argv[: len(words)] == words]
        assert len(mine) == 1, (what, started)  # the answer was taken, not asked again
        assert mine[0] in alive, (what, mine, alive)  # started before the gate's import


@pytest.mark.parametrize(
    "case", ["verified", "unverified", "configured base", "unknown base", "json"]
)
def test_the_gate_says_what_it_says_without_early_answers(native: World, case: str) -> None:
    w = native
    w.delegate(text="import os\n\ndef run(cmd):\n    return os.system(cmd)\n")
    if case not in ("unverified", "json"):
        w.spot_check()
    w.ok("add", "-A")
    if case == "configured base":
        w.ok("config", "gentle.baseRef", "origin/main")
    if case == "unknown base":
        w.ok("config", "gentle.baseRef", "no-such-ref")
    env = {"GENTLE_HOOKS_FORMAT": "json"} if case == "json" else {}
    early = _hook(w, "pre-commit", case.replace(" ", "-"), spy=False, env=env)[:3]
    assert early == _gate_alone(w, env), early
    if case == "configured base":  # the gate's own question, with the named base, went to git
        started = _started(w.base / "trace-configured-base.json")
        assert any("origin/main^{commit}" in argv for _, argv in started), started
