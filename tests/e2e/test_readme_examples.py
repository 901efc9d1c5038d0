"""The README's and docs' example lines, run as printed from a fresh clone.

One fresh clone of this checkout, one fresh virtual environment (made by the README's own
Quick start line, then reused: its ``bin`` first on PATH, as an activated environment),
a private HOME, and scratch projects with a bare remote. Every ``sh`` block of README.md
and of each docs page runs, section by section in document order, line by line through
``sh -c``, and must exit 0 or with the status its ``# exits N: why`` comment documents. A
block not run, or a line whose program is not installed here, is named in a list with why,
never edited.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2]
README = CHECKOUT / "README.md"
CI = CHECKOUT / "docs" / "ci.md"


def sh_blocks(path: Path, heading: str) -> list[list[str]]:
    """The ``sh`` fenced blocks of the section under ``heading`` (up to the next heading of
    the same or a higher level), each as its lines."""
    text = path.read_text(encoding="utf-8")
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n")
    rest = text[start + len(heading) + 2 :]
    stop = re.search(rf"\n#{{1,{len(level)}}} ", rest)
    section = rest[: stop.start()] if stop else rest
    return [
        [ln for ln in block.splitlines() if ln.strip()]
        for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    ]


def run(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    root = tmp_path_factory.mktemp("readme")
    home = root / "home"
    home.mkdir()
    system = [
        p
        for p in os.environ.get("PATH", "").split(os.pathsep)
        if p and Path(p).resolve() != Path(sys.executable).parent.resolve() and ".venv" not in p
    ]
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GIT_", "VIRTUAL_ENV", "PRE_COMMIT", "GENTLE_"))
    }
    env.update(HOME=str(home), PATH=os.pathsep.join(system), GIT_CONFIG_NOSYSTEM="1")
    for key, value in (("user.name", "Jo"), ("user.email", "jo@example.com")):
        subprocess.run(["git", "config", "--global", key, value], env=env, check=True)
    clone = root / "gentle-hooks"
    subprocess.run(["git", "clone", "-q", str(CHECKOUT), str(clone)], env=env, check=True)
    return {"root": root, "env": env, "clone": clone}


def activated(world: dict[str, object]) -> dict[str, str]:
    """The environment with the clone's .venv activated (its bin first on PATH)."""
    env = dict(world["env"])  # type: ignore[call-overload]
    venv = Path(str(world["clone"])) / ".venv"
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env["VIRTUAL_ENV"] = str(venv)
    return env


def test_quick_start_assesses_the_last_three_commits(world: dict[str, object]) -> None:
    [block, _suite] = sh_blocks(README, "## Quick start")
    [line] = block
    done = run(line, Path(str(world["clone"])), world["env"])  # type: ignore[arg-type]
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("risk: "), done.stdout


#: Install lines whose program this machine may lack, each with why the README still holds
#: without it: not run then, and named with why as a warning in the test report.
_NOT_INSTALLED = {
    "pipx": "pipx is not installed here; the pip line after it installs the same CLI",
}


def test_install_puts_the_cli_on_path_and_the_hooks_in_a_repository(
    world: dict[str, object],
) -> None:
    blocks = sh_blocks(README, "## Install")
    lines = [ln for b in blocks for ln in b]
    assert lines[0] == "pipx install ."  # not run here when pipx is missing
    clone = Path(str(world["clone"]))
    env = activated(world)
    for line in lines:
        program = line.split()[0]
        if program in _NOT_INSTALLED and shutil.which(program, path=env["PATH"]) is None:
            # named, with why, in the test report: never skipped silently
            warnings.warn(
                f"README Install: not run: {line!r}: {_NOT_INSTALLED[program]}", stacklevel=1
            )
            continue
        if line.startswith(("gentle-hook ", "pre-commit ")):
            continue  # run below, in a repository of the user's
        done = run(line, clone, env)
        assert done.returncode == 0, (line, done.stderr)
    assert shutil.which("gentle-hook", path=env["PATH"]) is not None
    root = Path(str(world["root"]))
    subprocess.run(["git", "init", "-q", "--bare", str(root / "remote.git")], env=env, check=True)
    project = root / "project"
    subprocess.run(["git", "clone", "-q", str(root / "remote.git"), str(project)], env=env)
    (project / "README.md").write_text("# project\n")
    for args in (["add", "-A"], ["commit", "-q", "-m", "start"], ["push", "-q", "origin", "HEAD"]):
        subprocess.run(["git", *args], cwd=project, env=env, check=True)
    [gentle] = [ln for ln in lines if ln.startswith("gentle-hook ")]
    done = run(gentle, project, env)
    assert done.returncode == 0, done.stderr
    assert (project / ".git" / "hooks" / "pre-push").exists()
    assert "gentle-hooks.shareWith = origin" in done.stdout
    removed = run("gentle-hook uninstall", project, env)
    assert removed.returncode == 0, removed.stderr
    assert not (project / ".git" / "hooks" / "pre-push").exists()
    assert "git config: removed gentle-hooks.shareWith = origin" in removed.stdout, removed
    still = run("git config --get-all gentle-hooks.shareWith", project, env)
    assert (still.returncode, still.stdout) == (1, ""), still  # what install added is gone
    # the framework line installs every stage, commit-msg included
    [framework] = [ln for ln in lines if ln.startswith("pre-commit ")]
    tools = Path(sys.executable).parent  # pre-commit itself comes from the dev environment
    env_fw = dict(env, PATH=f"{env['PATH']}{os.pathsep}{tools}")
    (project / ".pre-commit-config.yaml").write_text("repos: []\n")
    done = run(framework, project, env_fw)
    assert done.returncode == 0, done.stderr
    for stage in ("pre-commit", "commit-msg", "pre-push", "prepare-commit-msg", "post-commit"):
        assert (project / ".git" / "hooks" / stage).exists(), stage


def test_ci_example_judges_a_range_from_a_checkout(world: dict[str, object]) -> None:
    [block, *_] = sh_blocks(CI, "## Any other CI")
    root = Path(str(world["root"]))
    remote = root / "remote.git"
    if not remote.exists():
        pytest.skip("needs the project of the install test")
    ci = root / "ci"
    env = activated(world)
    subprocess.run(["git", "clone", "-q", str(remote), str(ci)], env=env, check=True)
    # a pull request's commit on top of the remote's: the range holds one real commit
    (ci / "NOTES.md").write_text("a person's words\n")
    for args in (["add", "-A"], ["commit", "-q", "--no-verify", "-m", "docs"]):
        subprocess.run(["git", *args], cwd=ci, env=env, check=True)

    def rev(expr: str) -> str:
        return subprocess.run(
            ["git", "rev-parse", expr], cwd=ci, env=env, capture_output=True, text=True
        ).stdout.strip()

    head, base = rev("HEAD"), rev("HEAD~1")
    env.update(GENTLE_HOOKS_SRC=str(world["clone"]), BASE_SHA=base, HEAD_SHA=head)
    for line in block:
        done = run(line, ci, env)
        assert done.returncode == 0, (line, done.stderr)
    judged = json.loads((ci / "gentle-hooks.json").read_text())
    assert judged["blocked"] is False, judged
    assert [c["commit"] for c in judged["commits"]] == [head], judged


#: A synopsis placeholder in a word of a command: ``[--flag]``, ``a|b`` (an alternation,
#: not a pipe), ``<id>``, ``…`` or ``...``.
_PLACEHOLDER = re.compile(r"^\[.*\]$|^[^|\s]+(?:\|[^|\s]+)+$|<[^<>]+>|…|\.\.\.")


def _placeholders(line: str) -> list[str]:
    """The words of one shell line (its comment left out) that are synopsis placeholders."""
    import shlex

    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return [line]  # unbalanced quotes: not a command at all
    return [w for w in words if _PLACEHOLDER.search(w)]


DOCS = [README, *sorted((CHECKOUT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(CHECKOUT)) for p in DOCS])
def test_no_sh_block_has_a_placeholder_in_command_position(path: Path) -> None:
    """Every line of every ``sh`` block runs as written: a synopsis (``[--fix]``,
    ``decline|unavailable|ack``, ``<id>.json``, ``…``) belongs in prose or a table."""
    text = path.read_text(encoding="utf-8")
    found = [
        (ln, bad)
        for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S)
        for ln in block.splitlines()
        if ln.strip() and (bad := _placeholders(ln))
    ]
    assert found == []


def test_the_placeholder_check_can_fail() -> None:
    for line in (
        "gentle-hook doctor [--fix]",
        "gentle-hook review decline|unavailable|ack",
        "gentle-hook verdict add out/<id>.json",
        "gentle-hook verify run --room /tmp/gentle-verify-…",
    ):
        assert _placeholders(line), line
    for line in (
        "pip install -q -e '.[dev]'",
        "git log --oneline | head -3",
        "true || false  # a <comment> is [fine]",
    ):
        assert _placeholders(line) == [], line


def test_ci_yaml_installs_the_cli_from_the_checkout_it_names(world: dict[str, object]) -> None:
    """docs/ci.md's GitHub and GitLab jobs install the CLI with one line; it works in a job
    whose repository holds a checkout of gentle-hooks where the text says."""
    text = CI.read_text(encoding="utf-8")
    yaml = "\n".join(re.findall(r"```yaml\n(.*?)```", text, flags=re.S))
    installs = re.findall(r"^\s*(?:run:|-)\s+(pip install .*?)\s*$", yaml, flags=re.M)
    assert installs and set(installs) == {"pip install ./tools/gentle-hooks"}, installs
    job = Path(str(world["root"])) / "ci-job"
    env = dict(world["env"])  # type: ignore[call-overload]
    subprocess.run(["git", "init", "-q", str(job)], env=env, check=True)
    (job / "tools").mkdir()
    clone = job / "tools" / "gentle-hooks"
    subprocess.run(["git", "clone", "-q", str(CHECKOUT), str(clone)], env=env, check=True)
    subprocess.run([sys.executable, "-m", "venv", str(job / ".venv")], env=env, check=True)
    env["PATH"] = f"{job / '.venv' / 'bin'}{os.pathsep}{env['PATH']}"
    done = run(installs[0] + " -q", job, env)
    assert done.returncode == 0, done.stderr
    version = run("gentle-hook --version", job, env)
    assert version.returncode == 0 and "gentle-hook" in version.stdout, version


#: Per (page, heading), how many leading ``sh`` blocks the tests above run, with their own
#: preparation (a fresh virtual environment, a CI checkout).
_RUN_ABOVE = {
    ("README.md", "## Quick start"): 1,
    ("README.md", "## Install"): 4,
    ("docs/ci.md", "## Any other CI"): 1,
}

#: Blocks not run here, by (page, heading, block index), each with why.
_NOT_RUN = {
    ("docs/agents/augment.md", "## Wire it", 1): (
        "the script install writes, shown as written: Auggie runs it with a hook's JSON on "
        "stdin (tests/integration/test_augment_script.py runs it so)"
    ),
    ("README.md", "## Quick start", 1): "runs this project's whole test suite",
    ("docs/robustness.md", "## Tests and fuzzing", 0): (
        "the maintainers' long fuzz runs (30 and 5 minutes); tests/integration/"
        "test_cli_fuzz.py runs the same fuzzer for a minute"
    ),
}

#: Pages whose lines run in a project where README's "Recording" block ran first (they use
#: the verdict it wrote), and per heading the directory a section runs in when it is not
#: the project (``remote``: the bare repository that receives pushes).
_AFTER_RECORDING = {"docs/ci.md"}
_WHERE = {("docs/ci.md", "## On the server"): "remote"}

#: Lines that need a program this machine may lack: skipped only when it is missing.
_NEEDS = {"npm": "npm", "npx": "npm"}

#: Trailing ``# exits N: why`` on a line that demonstrates a refusal.
_EXITS = re.compile(r"#\s*exits (\d+):")


def sh_sections(path: Path) -> list[tuple[str, list[list[str]]]]:
    """Every heading of ``path`` (fenced lines are not headings) with the ``sh`` blocks under
    it, in document order; each block as its non-empty lines. A fence indented under a list
    item is a block too, its lines taken without the fence's indentation."""
    sections: list[tuple[str, list[list[str]]]] = [("", [])]
    fence: str | None = None
    indent = 0
    block: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if fence is None and line.lstrip().startswith("```"):
            indent = len(line) - len(line.lstrip())
            fence = line.strip()[3:].strip()
            block = []
        elif fence is not None and line.lstrip().startswith("```"):
            if fence == "sh":
                sections[-1][1].append([ln for ln in block if ln.strip()])
            fence = None
        elif fence is not None:
            block.append(line[indent:] if line[:indent].isspace() else line.lstrip())
        elif re.match(r"#{1,6} ", line):
            sections.append((line, []))
    return [(h, bs) for h, bs in sections if bs]


def commands(block: list[str]) -> list[str]:
    """The commands of one block: one per line, a here-document with its body and end line;
    comment-only lines left out."""
    out: list[str] = []
    delimiter: str | None = None
    for line in block:
        if delimiter is not None:
            out[-1] += "\n" + line
            if line.strip() == delimiter:
                delimiter = None
            continue
        if line.lstrip().startswith("#"):
            continue
        out.append(line)
        if here := re.search(r"<<-?\s*['\"]?(\w+)['\"]?", line):
            delimiter = here.group(1)
    return out


def expected_exit(command: str) -> int:
    """0, or the status a ``# exits N: why`` comment on the command's first line documents."""
    found = _EXITS.search(command.splitlines()[0])
    return int(found.group(1)) if found else 0


def test_commands_reads_here_documents_and_exit_comments() -> None:
    block = ["# a file", "cat > f <<'EOF'", "a b", "EOF", "false  # exits 1: refused"]
    assert commands(block) == ["cat > f <<'EOF'\na b\nEOF", "false  # exits 1: refused"]
    assert [expected_exit(c) for c in commands(block)] == [0, 1]


def scratch_project(root: Path, env: dict[str, str]) -> Path:
    """A project with a bare remote (``root/remote.git``) and one pushed commit, installed
    as README "Install" says: where a user following the README from the top stands."""
    root.mkdir(parents=True)
    remote = root / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], env=env, check=True)
    project = root / "project"
    subprocess.run(["git", "clone", "-q", str(remote), str(project)], env=env, check=True)
    (project / "README.md").write_text("# project\n")
    for args in (["add", "-A"], ["commit", "-q", "-m", "start"], ["push", "-q", "origin", "HEAD"]):
        subprocess.run(["git", *args], cwd=project, env=env, check=True)
    done = run("gentle-hook install --share origin", project, env)
    assert done.returncode == 0, done.stderr
    return project


def ssh_keys(home: Path, env: dict[str, str]) -> None:
    """The SSH keys docs/ci.md signs with: the user's ``~/.ssh/id_ed25519`` and a
    verifier's ``~/.ssh/verifier_ed25519``."""
    ssh = home / ".ssh"
    ssh.mkdir(exist_ok=True)
    for name, who in (("id_ed25519", "jo@example.com"), ("verifier_ed25519", "v@example.com")):
        if not (ssh / name).exists():
            subprocess.run(
                ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", str(ssh / name)],
                env=env,
                check=True,
            )


def run_block(page: str, heading: str, block: list[str], where: Path, env: dict[str, str]) -> int:
    """Run one block's commands in order in ``where``; each must exit as documented. A
    block whose first line is ``# <path>`` is that file's contents: it is written there (as
    the page says, create each file) and must parse as shell. Returns how many ran."""
    if block[0].startswith("# ") and "/" in block[0] and " " not in block[0][2:].strip():
        target = where / block[0][2:].strip()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(block[1:]) + "\n")
        done = run(f"sh -n {shlex.quote(str(target))}", where, env)
        assert done.returncode == 0, (page, heading, block, done.stderr)
        return 1
    ran = 0
    for command in commands(block):
        program = command.split()[0]
        if program in _NEEDS and shutil.which(program, path=env["PATH"]) is None:
            # the page's own tool is not installed here: named, with why, in the test
            # report, never skipped silently
            warnings.warn(
                f"{page} {heading}: not run: {command!r}: {_NEEDS[program]} is not installed",
                stacklevel=1,
            )
            continue
        done = run(command, where, env)
        assert done.returncode == expected_exit(command), (
            page,
            heading,
            command,
            done.stdout[-2000:],
            done.stderr[-2000:],
        )
        ran += 1
    return ran


def run_page(path: Path, root: Path, env: dict[str, str]) -> int:
    """Every ``sh`` block of ``path`` not run above, section by section in document order,
    in a fresh scratch project under ``root``. Returns how many commands ran."""
    page = str(path.relative_to(CHECKOUT))
    project = scratch_project(root, env)
    if page in _AFTER_RECORDING:
        [recording] = dict(sh_sections(README))[
            "## Recording what writers, verifiers and parents did"
        ]
        run_block("README.md", "## Recording", recording, project, env)
    ran = 0
    for heading, blocks in sh_sections(path):
        skip = _RUN_ABOVE.get((page, heading), 0)
        where = root / "remote.git" if _WHERE.get((page, heading)) == "remote" else project
        for index, block in enumerate(blocks):
            if index < skip or (page, heading, index) in _NOT_RUN:
                continue
            ran += run_block(page, heading, block, where, env)
    return ran


def page_env(world: dict[str, object]) -> dict[str, str]:
    """The activated environment plus the dev environment's programs after it: the test
    runner (``pytest``) and ``pre-commit``, as a user's project has its own."""
    clone = Path(str(world["clone"]))
    if not (clone / ".venv" / "bin" / "gentle-hook").exists():
        pytest.skip("needs the environment of the Quick start test")
    env = activated(world)
    env["PATH"] = f"{env['PATH']}{os.pathsep}{Path(sys.executable).parent}"
    ssh_keys(Path(env["HOME"]), env)
    return env


PAGES = [p for p in DOCS if p != README and re.search(r"```sh\n", p.read_text(encoding="utf-8"))]


def test_every_readme_section_runs_in_order(world: dict[str, object]) -> None:
    """Each ``sh`` line of README.md not run above, in document order, in one scratch
    project: exit 0, or the status its ``# exits N:`` comment documents."""
    env = page_env(world)
    ran = run_page(README, Path(str(world["root"])) / "sections" / "README", env)
    assert ran >= 15


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(CHECKOUT)) for p in PAGES])
def test_every_docs_section_runs_in_order(world: dict[str, object], path: Path) -> None:
    """The same for each docs page with ``sh`` blocks, each in its own scratch project."""
    env = page_env(world)
    name = str(path.relative_to(CHECKOUT)).replace("/", "_")
    ran = run_page(path, Path(str(world["root"])) / "sections" / name, env)
    page = str(path.relative_to(CHECKOUT))
    every = {(page, h, i) for h, blocks in sh_sections(path) for i in range(len(blocks))}
    assert ran > 0 or every <= set(_NOT_RUN), page


def test_the_skip_lists_name_blocks_that_exist() -> None:
    sections = {str(p.relative_to(CHECKOUT)): dict(sh_sections(p)) for p in [README, *PAGES]}
    for page, heading, index in _NOT_RUN:
        assert index < len(sections[page][heading]), (page, heading, index)
    for (page, heading), count in _RUN_ABOVE.items():
        assert count <= len(sections[page][heading]), (page, heading)


def _inline(start: str) -> str:
    """The README's one inline command (a code span: a backtick, ``start``, up to the next
    backtick, across a line break) that starts with ``start``, its spaces as one; a span
    holding a ``<placeholder>`` names a form, not a command to run."""
    text = README.read_text(encoding="utf-8")
    found = re.findall(rf"`({re.escape(start)}[^`]*)`", text)
    spans = {" ".join(s.split()) for s in found if not re.search(r"<[^>]+>", s)}
    assert len(spans) == 1, spans
    return spans.pop()


def test_the_readme_framework_config_and_inline_commands_run(world: dict[str, object]) -> None:
    # the README's .pre-commit-config.yaml (its repo and rev this clone and its HEAD), its
    # one pre-commit install line, then a writer's commit is blocked by the gate the config
    # names; the inline GENTLE_HOOKS_SKIP line lets it through; the inline
    # `gentle-hook install -t pre-push` puts the native pre-push over the framework's
    section = README.read_text(encoding="utf-8").split("\n## Gating commits and pushes\n", 1)[1]
    yaml = re.search(r"```yaml\n(.*?)```", section, flags=re.S)
    assert yaml is not None
    clone = Path(str(world["clone"]))
    env = activated(world)
    if shutil.which("gentle-hook", path=env["PATH"]) is None:
        pytest.skip("needs the CLI the install test installs")
    head = run("git rev-parse HEAD", clone, env).stdout.strip()
    config = (
        yaml.group(1)
        .replace("https://example.invalid/gentle-hooks", str(clone))
        .replace("<tag or commit>", head)
    )
    root = Path(str(world["root"]))
    remote, project = root / "fw-remote.git", root / "fw-project"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], env=env, check=True)
    subprocess.run(["git", "clone", "-q", str(remote), str(project)], env=env, check=True)
    (project / ".pre-commit-config.yaml").write_text(config)
    (project / "m.py").write_text("X = 0\n")
    for args in (["add", "-A"], ["commit", "-q", "-m", "start"], ["push", "-q", "origin", "HEAD"]):
        subprocess.run(["git", *args], cwd=project, env=env, check=True)
    [framework] = [
        ln for b in sh_blocks(README, "## Install") for ln in b if ln.startswith("pre-commit ")
    ]
    tools = Path(sys.executable).parent  # pre-commit itself comes from the dev environment
    env_fw = dict(env, PATH=f"{env['PATH']}{os.pathsep}{tools}")
    env_fw.update({k: v for k, v in os.environ.items() if k.startswith("PIP_")})
    done = run(framework, project, env_fw)
    assert done.returncode == 0, done.stderr
    (project / "m.py").write_text("X = 1\n")
    writer = dict(env_fw, GENTLE_WRITER_MODEL="o4-mini", GENTLE_WRITER_EFFORT="low")
    assert run("gentle-hook record", project, writer).returncode == 0
    run("git add -A", project, env_fw)
    blocked = run("git commit -q -m 'writer change'", project, writer)
    assert blocked.returncode == 1, blocked
    assert "BLOCKED the staged change" in blocked.stdout + blocked.stderr, blocked
    skip = _inline("GENTLE_HOOKS_SKIP=")
    assert skip.endswith(" git commit"), skip
    passed = run(f"{skip} -q -m 'writer change'", project, writer)
    assert passed.returncode == 0, passed
    reasons = run("git notes --ref=gentle-hooks show HEAD", project, env_fw)
    assert "hotfix, checked by hand" in reasons.stdout, reasons
    chained = run(_inline("gentle-hook install -t pre-push"), project, env_fw)
    assert chained.returncode == 0, chained
    assert "gentle-hook" in (project / ".git" / "hooks" / "pre-push").read_text()
