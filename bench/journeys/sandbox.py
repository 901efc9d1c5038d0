"""One journey's world: a private HOME/XDG/TMPDIR, a bare remote, recorded commands.

The CLI under test is the ``gentle-hook`` next to the interpreter that runs the bench (the
installed one, driven as a user drives it: through ``sh`` and ``git``). ``on_path=False``
leaves it off PATH (a pre-commit-framework-only user): only the framework's own tools are
reachable then.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

#: The directory holding the CLI under test (the bench interpreter's scripts).
CLI_BIN = Path(sys.executable).parent
#: Tools a framework user has on PATH besides git and python3 (linked one by one).
FRAMEWORK_TOOLS = ("pre-commit", "prek")
#: This checkout's own virtual environment (README's ``pip install -e '.[dev]'``).
PROJECT_BIN = Path(__file__).resolve().parents[2] / ".venv" / "bin"


def tool_path(name: str) -> Path | None:
    """Where a framework tool is: next to the bench's interpreter, else in this
    checkout's ``.venv`` (the dev extra installs pre-commit and prek there), else on
    PATH; None when none has it."""
    for d in (CLI_BIN, PROJECT_BIN):
        if (d / name).exists():
            return d / name
    found = shutil.which(name)
    return Path(found) if found else None


_UV_ENV: dict[str, str] | None = None


def uv_env() -> dict[str, str]:
    """The package indexes pip is configured with, for uv (prek installs hook environments
    with uv, which does not read pip's configuration)."""
    global _UV_ENV
    if _UV_ENV is None:
        listed = subprocess.run(
            [sys.executable, "-m", "pip", "config", "list"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        conf: dict[str, str] = {}
        for line in listed.splitlines():
            key, _, value = line.partition("=")
            conf[key.split(".", 1)[-1]] = value.strip().strip("'\"")
        env: dict[str, str] = {"UV_NATIVE_TLS": "1"}
        if conf.get("extra-index-url"):
            indexes = conf["extra-index-url"].split()
            env["UV_INDEX"] = " ".join(indexes)
        if conf.get("find-links"):
            env["UV_FIND_LINKS"] = conf["find-links"]
        if conf.get("index-url"):
            env["UV_DEFAULT_INDEX"] = conf["index-url"]
        _UV_ENV = env
    return dict(_UV_ENV)


def pip_env() -> dict[str, str]:
    """The package indexes pip is configured with here, as environment variables (a
    sandbox's HOME and XDG_CONFIG_HOME hide the user's pip configuration file)."""
    conf = {k.removeprefix("PIP_"): v for k, v in uv_env().items() if k.startswith("PIP_")}
    out = {f"PIP_{k}": v for k, v in conf.items()}
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    for line in listed.splitlines():
        key, _, value = line.partition("=")
        name = key.split(".", 1)[-1]
        if name in ("extra-index-url", "index-url", "find-links", "constraint", "cert"):
            out["PIP_" + name.upper().replace("-", "_")] = value.strip().strip("'\"")
    return out


#: The pip cache of the user running the bench.
_PIP_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pip"


def _feed(pipe: IO[bytes], data: bytes) -> None:
    """Write ``data`` to a child's stdin and close it (a child that exits first is fine)."""
    with contextlib.suppress(BrokenPipeError):
        pipe.write(data)
    with contextlib.suppress(BrokenPipeError):
        pipe.close()


class FixtureError(Exception):
    """The journey's fixture does not show the edge case it claims (the journey is void)."""


@dataclass
class Step:
    """One command a journey ran: where, what, the exit code and the output."""

    argv: list[str]
    cwd: str
    exit: int
    out: str
    seconds: float
    who: str  # "setup" (the fixture), "writer" (the scenario), "agent" (a printed command)
    #: CPU seconds (user and system) of the command and the processes it waited for: what
    #: it costs whatever the machine's load
    cpu: float = 0.0

    @property
    def output_bytes(self) -> int:
        return len(self.out.encode())


@dataclass
class Sandbox:
    """A journey's world under ``root``; every command runs with :attr:`env`."""

    root: Path
    on_path: bool = True
    pre_commit_home: Path | None = None
    steps: list[Step] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for d in ("home", "xdg/config", "xdg/cache", "xdg/data", "tmp", "bin"):
            (self.root / d).mkdir(parents=True, exist_ok=True)
        system = [
            p
            for p in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
            if p
            and Path(p).resolve() != CLI_BIN.resolve()
            and "/.venv" not in p
            # a gentle-hook installed elsewhere on this machine (a pyenv shim, another
            # pipx): the sandbox's user has only the CLI its journey gives them
            and not (Path(p) / "gentle-hook").exists()
        ]
        tools = self.root / "bin"
        for name in FRAMEWORK_TOOLS:
            src = tool_path(name)
            if src is not None:
                (tools / name).symlink_to(src)
        path = ([str(CLI_BIN)] if self.on_path else []) + [str(tools), *system]
        self.env = {
            "PATH": os.pathsep.join(path),
            "HOME": str(self.root / "home"),
            "XDG_CONFIG_HOME": str(self.root / "xdg/config"),
            "XDG_CACHE_HOME": str(self.root / "xdg/cache"),
            "XDG_DATA_HOME": str(self.root / "xdg/data"),
            "TMPDIR": str(self.root / "tmp"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
        }
        if self.pre_commit_home is not None:  # the frameworks' hook environments, built once
            self.env["PRE_COMMIT_HOME"] = str(self.pre_commit_home)
            self.env["PREK_HOME"] = str(self.pre_commit_home.parent / "prek-home")
        for key in ("PIP_CONFIG_FILE", "PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "UV_CACHE_DIR"):
            if key in os.environ:
                self.env[key] = os.environ[key]
        # the machine's download caches (content-addressed): the private HOME would hide
        # them, and the pipx journey would fetch pipx and the build backend every run
        self.env.setdefault("PIP_CACHE_DIR", os.environ.get("PIP_CACHE_DIR", str(_PIP_CACHE)))
        self.env.update(uv_env())
        # what `git config --global` writes for these three, written once without three gits
        (self.root / "home" / ".gitconfig").write_text(
            "[user]\n\tname = Jo User\n\temail = jo@example.com\n[init]\n\tdefaultBranch = main\n"
        )

    @property
    def cli(self) -> str:
        """The CLI's absolute path (what a framework user can type)."""
        return str(CLI_BIN / "gentle-hook")

    def sh(
        self,
        cwd: Path | str,
        line: str,
        who: str = "writer",
        env: Mapping[str, str] | None = None,
        stdin: str | None = None,
    ) -> Step:
        """Run one shell line in ``cwd`` (``sh -c``), recorded, with ``PWD`` exported as an
        interactive shell in ``cwd`` exports it (git keeps it for its hooks)."""
        return self._run(["sh", "-c", line], cwd, who, {"PWD": str(cwd), **(env or {})}, stdin)

    def run(
        self,
        cwd: Path | str,
        argv: Sequence[str],
        who: str = "writer",
        env: Mapping[str, str] | None = None,
    ) -> Step:
        """Run one argv in ``cwd``, recorded."""
        return self._run(list(argv), cwd, who, env, None)

    def git(self, cwd: Path | str, *args: str, who: str = "setup") -> Step:
        """``git ARGS`` in ``cwd``; a failure of a setup step is a :class:`FixtureError`."""
        step = self._run(["git", *args], cwd, who, None, None)
        if who == "setup" and step.exit != 0:
            raise FixtureError(f"git {shlex.join(args)} failed: {step.out.strip()}")
        return step

    def _run(
        self,
        argv: list[str],
        cwd: Path | str,
        who: str,
        env: Mapping[str, str] | None,
        stdin: str | None,
    ) -> Step:
        t = time.monotonic()
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**self.env, **(env or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        # the command's own CPU time (its reaped descendants' too) comes from wait4, so
        # the child is read and reaped here rather than by communicate()
        timer = threading.Timer(300, proc.kill)
        timer.start()
        try:
            assert proc.stdin is not None and proc.stdout is not None
            feeder = threading.Thread(target=_feed, args=(proc.stdin, (stdin or "").encode()))
            feeder.start()
            out = proc.stdout.read()
            feeder.join()
            proc.stdout.close()
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        step = Step(
            argv,
            str(cwd),
            proc.returncode,
            out.decode("utf-8", "replace"),
            time.monotonic() - t,
            who,
            usage.ru_utime + usage.ru_stime,
        )
        self.steps.append(step)
        return step

    # -- fixtures ---------------------------------------------------------------------------

    def write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def remote(self) -> Path:
        """A local bare remote (created once)."""
        bare = self.root / "remote.git"
        if not bare.exists():
            self.git(self.root, "init", "-q", "--bare", str(bare))
        return bare

    def clone(self, name: str = "work", depth: int | None = None) -> Path:
        """A clone of the remote under ``root/name``."""
        dest = self.root / name
        args = ["clone", "-q"]
        if depth is not None:
            args += ["--depth", str(depth), f"file://{self.remote()}"]
        else:
            args.append(str(self.remote()))
        self.git(self.root, *args, str(dest))
        return dest

    def project(self, name: str = "work", commits: int = 1) -> Path:
        """A clone with a small Python project (``m.py`` and its unittest), ``commits``
        commits pushed to the remote."""
        w = self.clone(name)
        for i in range(commits):
            self.write(w / "m.py", f"def f():\n    return {i}\n")
            self.write(
                w / "test_m.py",
                "import unittest\nfrom m import f\n\n\nclass T(unittest.TestCase):\n"
                f"    def test_f(self):\n        self.assertEqual(f(), {i})\n",
            )
            self.write(w / "README.md", f"# demo\n\nversion {i}\n")
            self.git(w, "add", "-A")
            self.git(w, "commit", "-q", "-m", f"human commit {i}")
        self.git(w, "push", "-q", "origin", "HEAD")
        return w

    def adopt(self, template: Path, name: str = "work") -> Path:
        """The remote and the clone ``template`` (another sandbox's root, built once per
        bench run by :func:`bench.journeys.catalog.plain`) holds, copied here with ``cp
        -a`` and pointed at this sandbox's remote: the same world as building it, without
        the clone, commit, push and install each journey would repeat."""
        parts = [str(template / part) for part in ("remote.git", name)]
        copied = self.run(self.root, ["cp", "-a", *parts, str(self.root)], "setup")
        if copied.exit != 0:
            raise FixtureError(f"the template was not copied: {copied.out.strip()}")
        w = self.root / name
        self.git(w, "remote", "set-url", "origin", str(self.remote()))
        return w

    def writer_edit(self, w: Path, value: int, extra: Mapping[str, str] | None = None) -> None:
        """The writer changes the code and its test consistently, then records (as an agent
        runtime's post-tool hook would)."""
        self.write(w / "m.py", f"def f():\n    return {value}\n")
        self.write(
            w / "test_m.py",
            "import unittest\nfrom m import f\n\n\nclass T(unittest.TestCase):\n"
            f"    def test_f(self):\n        self.assertEqual(f(), {value})\n",
        )
        for rel, text in (extra or {}).items():
            self.write(w / rel, text)
        step = self.sh(
            w,
            "gentle-hook record" if self.on_path else f"{shlex.quote(self.cli)} record",
            env={"GENTLE_WRITER_MODEL": "o4-mini", "GENTLE_WRITER_EFFORT": "low"},
        )
        if step.exit != 0:
            raise FixtureError(f"the writer's record failed: {step.out.strip()}")

    def prove(self, cwd: Path | str, args: Sequence[str], expect: str, what: str) -> None:
        """The fixture's edge case, proved from git: ``git ARGS`` prints ``expect``
        (a substring; ``""`` means: fails)."""
        step = self.run(cwd, ["git", *args], who="setup")
        ok = (step.exit != 0) if expect == "" else (step.exit == 0 and expect in step.out)
        if not ok:
            raise FixtureError(
                f"fixture does not show {what}: git {shlex.join(args)} -> "
                f"exit {step.exit}: {step.out.strip()[:200]}"
            )

    def prove_empty(self, cwd: Path | str, args: Sequence[str], what: str) -> None:
        """The fixture's edge case: ``git ARGS`` succeeds and prints nothing."""
        step = self.run(cwd, ["git", *args], who="setup")
        if step.exit != 0 or step.out.strip():
            raise FixtureError(
                f"fixture does not show {what}: git {shlex.join(args)} -> "
                f"exit {step.exit}: {step.out.strip()[:200]}"
            )

    def cleanup(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
