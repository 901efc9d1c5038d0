"""Other hook managers for the human-commit comparison: lefthook and prek, each running
``true`` in the hooks of an ordinary ``git commit``.

Each is installed under the fixtures directory with its ordinary client (``npm install
lefthook``: the npm package ships a prebuilt binary; ``pip install prek`` into a venv of its
own), asked to install its hooks into a throwaway repository, and its generated scripts are
copied into a hooks directory the benchmark points ``core.hooksPath`` at. The tool's
configuration goes into the benchmark repository's work tree (excluded from git). When a
tool cannot be installed, :class:`Unavailable` says why and the bench line says SKIP.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

#: The hooks of an ordinary ``git commit``.
COMMIT_HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit")

LEFTHOOK_YML = "".join(f'{h}:\n  commands:\n    noop:\n      run: "true"\n' for h in COMMIT_HOOKS)
PREK_YAML = (
    "repos:\n- repo: local\n  hooks:\n  - id: noop\n    name: noop\n    entry: 'true'\n"
    "    language: system\n    always_run: true\n    pass_filenames: false\n"
    f"    stages: [{', '.join(COMMIT_HOOKS)}]\n"
)


class Unavailable(Exception):
    """The tool could not be installed here: the message says why."""


@dataclass
class ToolHooks:
    """A hook manager's hooks: their directory, the config file to place in the work tree,
    and the variables its scripts get."""

    name: str
    hooks: str
    config_name: str
    config_text: str
    env: dict[str, str]

    def place_config(self, repo: str) -> None:
        """Write the tool's configuration into ``repo``'s work tree, excluded from git."""
        with open(os.path.join(repo, self.config_name), "w", encoding="utf-8") as fh:
            fh.write(self.config_text)
        exclude = os.path.join(repo, ".git", "info", "exclude")
        os.makedirs(os.path.dirname(exclude), exist_ok=True)
        with open(exclude, "a", encoding="utf-8") as fh:
            fh.write(f"/{self.config_name}\n")


def _run(argv: list[str], cwd: str, env: dict[str, str], what: str) -> None:
    try:
        proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Unavailable(f"{what}: {exc}") from None
    if proc.returncode != 0:
        last = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:] or ["no output"]
        raise Unavailable(f"{what}: exit {proc.returncode}: {last[0][:120]}")


def _throwaway(tools: str, name: str, config: str, text: str, env: dict[str, str]) -> str:
    repo = os.path.join(tools, f"{name}-install-repo")
    shutil.rmtree(repo, ignore_errors=True)
    _run(["git", "init", "-q", repo], tools, env, "git init")
    with open(os.path.join(repo, config), "w", encoding="utf-8") as fh:
        fh.write(text)
    return repo


def _copy_hooks(repo: str, dest: str) -> str:
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for h in COMMIT_HOOKS:
        src = os.path.join(repo, ".git", "hooks", h)
        if not os.path.exists(src):
            raise Unavailable(f"its install wrote no {h} hook")
        shutil.copy2(src, os.path.join(dest, h))
    return dest


def lefthook(tools: str, dest: str, env: dict[str, str]) -> ToolHooks:
    """lefthook from npm, its hooks running ``true``; ``LEFTHOOK_BIN`` names the native
    binary (its scripts' fastest way to it, no node start)."""
    if shutil.which("npm", path=env.get("PATH")) is None:
        raise Unavailable("npm is not on PATH (lefthook ships as an npm package)")
    prefix = os.path.join(tools, "lefthook-npm")
    found = glob.glob(os.path.join(prefix, "node_modules", "lefthook-*", "bin", "lefthook"))
    if not found:
        os.makedirs(prefix, exist_ok=True)
        _run(
            # --ignore-scripts: lefthook's postinstall runs `lefthook install` in whatever
            # repository encloses the current directory (this checkout's shared hooks)
            [
                "npm",
                "install",
                "--prefix",
                prefix,
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
                "lefthook",
            ],
            tools,
            env,
            "npm install lefthook",
        )
        found = glob.glob(os.path.join(prefix, "node_modules", "lefthook-*", "bin", "lefthook"))
    if not found:
        raise Unavailable("npm installed lefthook without its prebuilt binary package")
    binary = found[0]
    repo = _throwaway(tools, "lefthook", "lefthook.yml", LEFTHOOK_YML, env)
    _run([binary, "install"], repo, {**env, "LEFTHOOK_BIN": binary}, "lefthook install")
    return ToolHooks(
        "lefthook",
        _copy_hooks(repo, dest),
        "lefthook.yml",
        LEFTHOOK_YML,
        {"LEFTHOOK_BIN": binary},
    )


def prek(tools: str, dest: str, env: dict[str, str]) -> ToolHooks:
    """prek from PyPI in a venv of its own, its hooks running ``true`` (a local hook)."""
    venv = os.path.join(tools, "prek-venv")
    exe = os.path.join(venv, "bin", "prek")
    if not os.access(exe, os.X_OK):
        _run([sys.executable, "-m", "venv", venv], tools, env, "python -m venv")
        pip = os.path.join(venv, "bin", "pip")
        _run([pip, "install", "-q", "prek"], tools, env, "pip install prek")
    repo = _throwaway(tools, "prek", ".pre-commit-config.yaml", PREK_YAML, env)
    _run(
        [exe, "install", *[a for h in COMMIT_HOOKS for a in ("-t", h)]],
        repo,
        env,
        "prek install",
    )
    return ToolHooks("prek", _copy_hooks(repo, dest), ".pre-commit-config.yaml", PREK_YAML, {})
