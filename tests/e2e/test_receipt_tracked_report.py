"""A declared verification command that writes its report over a file the repository
tracks (``pytest --junitxml report.xml`` with ``report.xml`` committed) counts: the file a
command names as its report (:data:`gentle_hooks.policy.outputs.OUTPUT_OPTIONS`) is the
run's output, not what it tested, so the receipt binds the candidate as it was before the
run (and, for the work tree, as the run left it), names the report it rewrote, and the
spot check that writes it again counts too. A run that also rewrites any other tracked file
is still refused (SPEC §5 "Spot check", §6 "receipt"; issue 14, refuter r14u MED 1: the
printed ``receipt run`` was refused and every other command was undeclared: a loop).
Real git, ``gentle-hook install``, real pytest.
"""

from __future__ import annotations

import json
import shlex
import sys

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return b + a\n"
#: The repository's one declared verification command: it rewrites the tracked report.
DECLARED = (
    sys.executable,
    *("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml", "report.xml"),
)
#: A test of ``add`` beside it (a package's own tests, run from its directory).
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
#: A test the writer adds that rewrites the source the change is judged on.
PATCHING_TEST = (
    "def test_patches():\n    with open('src/app.py', 'a') as f:\n        f.write('# patched\\n')\n"
)


def _declared_with_report(w: World) -> None:
    """A human declares :data:`DECLARED` and commits the report it writes; then the writer
    changes ``src/app.py`` and records it."""
    toml = f"[verification]\ncommands = [{json.dumps(shlex.join(DECLARED))}]\n"
    w.human_base({".gentle-hooks.toml": toml, "report.xml": "<testsuites/>\n"})
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0


def test_a_run_that_rewrites_its_named_report_counts_and_the_commit_passes(
    native: World,
) -> None:
    w = native
    _declared_with_report(w)
    ran = w.gh("receipt", "run", "--", *DECLARED)
    assert ran.code == 0, ran
    assert "not recorded" not in ran.err, ran
    said = " ".join(ran.lines)
    assert "the run rewrote report.xml, the report its command names" in said, ran
    assert "binds the candidate as it was before the run" in said, ran
    checked = w.gh("spot-check")
    assert checked.code == 0, checked
    assert checked.err.splitlines()[-1].endswith(": agreed"), checked
    w.ok("add", "-A")
    done = w.git("commit", "-qm", "writer: add")
    assert done.code == 0, done
    assert w.ok("show", "HEAD:report.xml") != "<testsuites/>\n"  # the run's report, committed


def test_a_staged_run_that_rewrites_its_named_report_counts(native: World) -> None:
    """``--staged``, the writer's file alone staged: the report the run rewrote stays out of
    the index, and the spot check of the staged candidate (in a temporary checkout, the
    work tree holding the rewritten report) counts as well."""
    w = native
    _declared_with_report(w)
    w.ok("add", "src/app.py")
    ran = w.gh("receipt", "run", "--staged", "--", *DECLARED)
    assert ran.code == 0, ran
    checked = w.gh("spot-check", "--staged")
    assert checked.code == 0, checked
    assert checked.err.splitlines()[-1].endswith(": agreed"), checked
    done = w.git("commit", "-qm", "writer: add")
    assert done.code == 0, done
    assert w.ok("show", "HEAD:report.xml") == "<testsuites/>\n"


def test_a_run_that_rewrites_a_source_besides_its_report_is_still_refused(
    native: World,
) -> None:
    w = native
    _declared_with_report(w)
    w.write("tests/test_patch.py", PATCHING_TEST)
    ran = w.gh("receipt", "run", "--", *DECLARED)
    assert ran.code == 1, ran
    assert "not recorded: the command changed the candidate's tracked files" in ran.err, ran
    assert "src/app.py" in ran.err, ran
    assert w.gh("receipt", "list").out.startswith("no receipts for "), "recorded"


def test_a_report_named_by_its_absolute_path_in_the_work_tree_counts_too(native: World) -> None:
    """``--junitxml /abs/work/report.xml``: the same tracked report, named by its absolute
    path inside the work tree, is the run's output as well (issue 14, refuter r14v LOW)."""
    w = native
    _declared_with_report(w)
    absolute = (*DECLARED[:-1], str(w.work / "report.xml"))
    ran = w.gh("receipt", "run", "--", *absolute)
    assert ran.code == 0, ran
    assert "the run rewrote report.xml, the report its command names" in " ".join(ran.lines), ran
    w.spot_check()
    w.ok("add", "-A")
    done = w.git("commit", "-qm", "writer: add")
    assert done.code == 0, done


def test_a_report_named_from_a_subdirectory_counts_too(native: World) -> None:
    """``receipt run`` from ``pkg/`` with ``--junitxml out/report.xml``: the tracked
    ``pkg/out/report.xml`` is the run's output, named relative to where it ran (issue 14,
    refuter r14w F4: "the command changed the candidate's tracked files
    (pkg/out/report.xml)")."""
    w = native
    w.human_base(
        {
            "pkg/calc.py": "def add(a, b):\n    return a - b\n",
            "pkg/test_app.py": TEST_ADD,
            "pkg/out/report.xml": "<testsuites/>\n",
        }
    )
    w.write("pkg/calc.py", "def add(a, b):\n    return a + b\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    run = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider")
    ran = w.gh("receipt", "run", "--", *run, "--junitxml", "out/report.xml", cwd=w.work / "pkg")
    assert ran.code == 0, ran
    said = " ".join(ran.lines)
    assert "the run rewrote pkg/out/report.xml, the report its command names" in said, ran
    w.spot_check()
    w.ok("add", "-A")
    done = w.git("commit", "-qm", "writer: add")
    assert done.code == 0, done
