"""A person's new file sharing common lines with the writer's new file is the person's
(SPEC §3 "Attribution follows content": a copy carries the writer's content, a coincidence
does not; a human's change is never blocked or labelled AI work): real git, ``gentle-hook
install --share origin``, a bare remote with the server gate.

Refuter (issue 13, HIGH): the writer wrote ``tool.py``; a person wrote ``report.py`` by hand,
which happens to share two or more lines anyone types (``import os``, ``return None``,
``print("done")``, ``sys.exit(1)``, ``#!/usr/bin/env bash``...) with it, and committed it
alone: the commit was blocked as writer content in ``report.py`` (was ``tool.py``), or,
pushed, carried a ``Gentle-Writer`` trailer. Each row below is such a person's file, with
the writer's file pending in the work tree, or verified and committed first.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Run, World
from tests.e2e.test_attribution_generic import served

__all__ = ["served"]  # the fixture, imported for pytest

WRITER = {
    "python": (
        "tool.py",
        "import os\nimport sys\n\n\ndef main():\n"
        '    token = os.environ.get("DEPLOY_TOKEN")\n    if not token:\n'
        '        print("done")\n        sys.exit(1)\n    else:\n        pass\n'
        "    upload_release(token, os.getcwd())\n    return None\n\n\n"
        'if __name__ == "__main__":\n    main()\n',
    ),
    "shell": (
        "deploy.sh",
        "#!/usr/bin/env bash\nset -euo pipefail\n\n"
        'rsync_release "$RELEASE_DIR" deploy@staging\necho done\n',
    ),
}

HUMAN = [
    # (id, the writer's file, the person's own new file)
    (
        "the idioms and keywords only",
        "python",
        (
            "report.py",
            "import os\nimport sys\n\n\ndef main():\n    if len(sys.argv) < 2:\n"
            "        pass\n    else:\n        count_lines(sys.argv[1])\n    return None\n\n\n"
            'if __name__ == "__main__":\n    main()\n',
        ),
    ),
    (
        "two common calls",
        "python",
        (
            "report.py",
            "import os\nimport sys\n\n\ndef main():\n"
            "    for name in sorted(os.listdir(sys.argv[1])):\n        print(name.upper())\n"
            '    print("done")\n    sys.exit(1)\n\n\nif __name__ == "__main__":\n    main()\n',
        ),
    ),
    (
        "two common calls apart",
        "python",
        (
            "report.py",
            "import sys\n\n\ndef main():\n    if not sys.argv[1:]:\n        sys.exit(1)\n"
            '    summarise(sys.argv[1])\n    print("done")\n',
        ),
    ),
    (
        "a script's preamble and last line",
        "shell",
        (
            "build.sh",
            "#!/usr/bin/env bash\nset -euo pipefail\n\nmake -C docs html\necho done\n",
        ),
    ),
]


def _passes(r: Run) -> None:
    assert r.code == 0 and not [ln for ln in r.said if "BLOCKED" in ln], r


@pytest.mark.parametrize("writer_first", [False, True], ids=["writer pending", "writer first"])
@pytest.mark.parametrize(("kind", "own"), [h[1:] for h in HUMAN], ids=[h[0] for h in HUMAN])
def test_a_persons_new_file_sharing_common_lines_with_the_writers_passes(
    served: World, kind: str, own: tuple[str, str], writer_first: bool
) -> None:
    w = served
    rel, text = WRITER[kind]
    w.write(rel, text)
    r = w.gh("record", rel, "--model", "gpt-4o-mini", "--effort", "low")
    assert r.code == 0, r
    if writer_first:  # the writer's file verified and committed before the person's
        w.ok("add", rel)
        w.report()
        w.spot_check()
        _passes(w.git("commit", "-qm", "writer: tool"))
        assert "Gentle-Writer:" in w.ok("log", "-1", "--format=%B")
    path, mine = own
    w.write(path, mine)
    w.ok("add", path)
    _passes(w.git("commit", "-qm", f"human: {path}"))
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B")
    if writer_first:
        push = w.git("push", "-q", "origin", "main")  # the pre-push gate and the server gate
        assert push.code == 0, push
        assert w.remote_ref("main") == w.rev("HEAD")
    else:
        w.ok("add", rel)  # the writer's own work is pending still
        blocked = w.git("commit", "-qm", "writer")
        assert blocked.code == 1 and rel in blocked.err, blocked


def test_the_writers_function_body_copied_to_a_new_file_is_blocked(served: World) -> None:
    """The other way: the writer's ``main`` body, its common lines and all, copied into a
    new file (one run of the writer's lines holding two of its own) is the writer's content
    there: blocked at commit, and at push when committed with the hooks off."""
    w = served
    rel, text = WRITER["python"]
    w.write(rel, text)
    assert w.gh("record", rel, "--model", "gpt-4o-mini", "--effort", "low").code == 0
    body = text.split("def main():\n")[1].split("\n\n\n")[0]
    w.write("copy.py", "import os\nimport sys\n\n\ndef run():\n" + body + "\n")
    w.ok("add", "copy.py")
    r = w.git("commit", "-qm", "copy")
    assert r.code == 1 and "copy.py (was tool.py)" in r.err, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "copy")
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and f"BLOCKED commit {w.rev('HEAD')[:12]}" in push.err, push
