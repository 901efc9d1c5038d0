"""Run journeys, each in its own sandbox; the framework's hook environment is built once.

:func:`hook_repo` snapshots this checkout (:func:`bench.snapshot.snapshot_checkout`) so the
framework installs the code as it is now.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.journeys.agent import Agent
from bench.journeys.catalog import JOURNEYS, TEST, Ctx, Journey, Skip
from bench.journeys.results import Outcome
from bench.journeys.sandbox import FixtureError, Sandbox, tool_path
from bench.snapshot import snapshot_checkout

CHECKOUT = Path(__file__).resolve().parents[2]


def hook_repo(dest: Path) -> tuple[Path, str]:
    """This checkout as a hook repository at one commit: (path, commit)."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "snapshot",
        "GIT_AUTHOR_EMAIL": "snapshot@example.com",
        "GIT_COMMITTER_NAME": "snapshot",
        "GIT_COMMITTER_EMAIL": "snapshot@example.com",
    }
    return dest, snapshot_checkout(CHECKOUT, dest, env)


#: The hook managers from npm the ``npm`` journeys use (the versions docs/*.md name).
NPM_PACKAGES = ("lefthook@2.2.1", "husky@9.1.7")


def npm_install(dest: Path) -> tuple[Path | None, str]:
    """:data:`NPM_PACKAGES` installed under ``dest`` from the npm registry:
    (``node_modules``, "") or (None, why not)."""
    npm = shutil.which("npm")
    if npm is None:
        return None, "npm is not installed"
    dest.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(
            # --ignore-scripts: lefthook's postinstall would install itself into whatever
            # repository encloses the current directory
            [
                npm,
                "install",
                "--ignore-scripts",
                "--save-exact",
                "--no-audit",
                "--no-fund",
                *NPM_PACKAGES,
            ],
            cwd=dest,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, "npm install timed out (the registry is not reachable?)"
    if proc.returncode != 0:
        last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return None, f"npm install {' '.join(NPM_PACKAGES)} failed: {last[0][:200]}"
    return dest / "node_modules", ""


def missing(tool: str, npm: tuple[Path | None, str] | None) -> str:
    """Why a journey needing ``tool`` cannot run here, or "" when it can."""
    if not tool:
        return ""
    if tool == "pipx":
        return ""  # the journey installs it from the package index, or says why not
    if tool == "npm":
        return "" if npm is not None and npm[0] is not None else (npm[1] if npm else "npm")
    return "" if tool_path(tool) is not None else f"{tool} is not installed"


def available(tool: str) -> bool:
    return not tool or tool in ("npm", "pipx") or tool_path(tool) is not None


def run_journeys(
    tmp: Path,
    *,
    fast: bool = False,
    only: list[str] | None = None,
    keep: bool = False,
    jobs: int = 1,
    setup: dict[str, float] | None = None,
) -> list[Outcome]:
    """Run the selected journeys under ``tmp`` (``jobs`` at a time); one :class:`Outcome`
    each, in the catalog's order. ``setup``, when given, gets the seconds of each shared
    step made before the first journey starts (``hook_repo``, ``npm_install``)."""
    chosen = [j for j in JOURNEYS if (not fast or j.fast) and (not only or j.name in only)]
    spent = setup if setup is not None else {}
    repo: tuple[Path, str] | None = None
    if any(j.needs in ("pre-commit", "prek", "pipx") and available(j.needs) for j in chosen):
        (tmp / "hook-repo").mkdir()
        t = time.monotonic()
        repo = hook_repo(tmp / "hook-repo")
        spent["hook_repo"] = time.monotonic() - t
    shared_home = tmp / "pre-commit-home"
    templates = tmp / "templates"  # the plain project, built once and copied per journey
    templates.mkdir(exist_ok=True)
    npm = None
    if any(j.needs == "npm" for j in chosen):
        t = time.monotonic()
        npm = npm_install(tmp / "npm")
        spent["npm_install"] = time.monotonic() - t

    def one(j: Journey) -> Outcome:
        o = Outcome(j.name, j.what)
        why = missing(j.needs, npm)
        if why:
            o.status, o.detail = "skipped", why
            return o
        sb = Sandbox(tmp / j.name, on_path=j.on_path, pre_commit_home=shared_home)
        ctx = Ctx(
            sb,
            Agent(sb, TEST),
            repo,
            node_modules=npm[0] if npm else None,
            templates=templates,
            install=j.install,
        )
        t = time.monotonic()
        try:
            j.body(ctx)
        except FixtureError as exc:
            o.status, o.detail = "void", str(exc)
        except Skip as exc:
            o.status, o.detail = "skipped", str(exc)
        except Exception:  # a bench bug is reported on the journey, the others still run
            o.status, o.detail = "void", traceback.format_exc(limit=3).strip().splitlines()[-1]
            print(traceback.format_exc(), file=sys.stderr)
        o.seconds = time.monotonic() - t
        o.blocks, o.steps, o.checks = ctx.agent.blocks, sb.steps, ctx.checks
        o.settle()
        if not keep:
            sb.cleanup()
        return o

    if jobs <= 1:
        return [one(j) for j in chosen]
    # journeys share nothing but the frameworks' stores, which lock themselves, and the
    # plain template (built once under a lock). The slow ones (a tool to install, a
    # framework's environment to build) start first, so none of them is left running
    # alone at the end; the outcomes come back in the catalog's order.
    order = sorted(range(len(chosen)), key=lambda i: (not chosen[i].needs, i))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        done = dict(zip(order, pool.map(one, [chosen[i] for i in order]), strict=True))
    return [done[i] for i in range(len(chosen))]
