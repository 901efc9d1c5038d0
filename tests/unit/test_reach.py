"""policy/reach.py: which words of a verifier's check reach outside the clean room (rule B4).

Every :data:`REACH_ROWS` row has a case; refuter r18x F1 ("cd /abs && pytest", "pytest
/abs") and F2 (a brief's PATH into the work tree) among them.
"""

from __future__ import annotations

import pytest

from gentle_hooks.policy.reach import REACH_ROWS, env_faults, reach_faults

#: (id, shell line, the rows met, in order).
CASES: list[tuple[str, str, list[str]]] = [
    ("cd-abs", "cd /tmp/r2 && pytest -q", ["R-abs"]),
    ("arg-abs", "pytest -q /tmp/r3", ["R-abs"]),
    ("opt-abs", "pytest --rootdir=/home/me/repo", ["R-abs"]),
    ("short-opt-abs", "make -C/home/me/repo test", ["R-abs"]),
    ("assignment-abs", "PYTHONPATH=/home/me/repo pytest", ["R-abs"]),
    ("redirect-abs", "pytest < /home/me/input", ["R-abs"]),
    ("sh-c-nested", "sh -c 'cd /tmp/r2 && pytest'", ["R-abs"]),
    ("wrapped", "timeout 60 pytest /tmp/r3", ["R-abs"]),
    ("home", "cd ~ && pytest", ["R-home"]),
    ("other-home", "pytest ~alice/repo", ["R-home"]),
    ("bare-cd", "cd && pytest", ["R-home"]),
    ("cd-back", "cd - && pytest", ["R-home"]),
    ("up-out", "pytest ../../repo", ["R-up"]),
    ("up-after-cd", "cd .. && pytest ../repo", ["R-up"]),
    ("pwd-up", "python3 -m pytest -q $PWD/../../goodsuite/tests", ["R-up"]),  # refuter r18y
    ("pwd-braces-up", 'grep -q SECRET "${PWD}/../../x/secret.txt"', ["R-up"]),
    ("pwd-command-up", "cat $(pwd)/../../x", ["R-up"]),
    ("var-up", "cat $SRC/../x", ["R-up"]),
    ("pwd-in-tree", "python3 -m pytest -q $PWD/tests", []),
    ("pwd-base", "test ! -e $PWD/../base", []),
    ("cd-var", "cd $HOME && pytest", ["R-cd-var"]),
    ("in-tree", "python3 -m pytest -q tests", []),
    ("room-base", "test ! -e ../base", []),
    ("cd-sub-up", "cd sub && cat ../x", []),
    ("system", "/usr/bin/python3 -m pytest 2>/dev/null", []),
    ("variable-arg", 'test "$(basename "$PWD")" = base', []),
    # refuter r18l (issue 18): a system prefix then `..` is not the system's directory
    ("usr-up-arg", "node --test /usr/../tmp/r18l-d/repo/test", ["R-abs"]),
    ("dev-up-arg", "cat /dev/../home/me/repo/x", ["R-abs"]),
    ("usr-bin-up-up", "node --test /usr/bin/../../tmp/r18l-d/repo/test", ["R-abs"]),
    ("env-C-usr-up", "env -C /usr/../tmp/r18l-d/repo node --test test", ["R-abs"]),
    ("opt-usr-up", "pytest --rootdir=/usr/../tmp/x", ["R-abs"]),
    ("short-opt-usr-up", "make -C/usr/../tmp/x test", ["R-abs"]),
    ("cd-usr-up", "cd /usr/../tmp/x && pytest", ["R-abs"]),
    ("redirect-dev-up", "pytest < /dev/../tmp/input", ["R-abs"]),
    ("dot-dot-normalises-inside", "cat /usr/lib/../lib/os-release", ["R-abs"]),
    ("dev-shm", "pytest /dev/shm/repo/tests", ["R-abs"]),
    ("assignment-list", "PYTHONPATH=/usr/lib:/home/me/repo pytest", ["R-abs"]),
    ("system-dot", "/usr/./bin/python3 -m pytest", []),
    ("system-list", "PYTHONPATH=/usr/lib/python3:/usr/local/lib pytest", []),
    ("option-list", "pytest --pythonpath=/usr/lib:/home/me/repo", ["R-abs"]),
    ("option-list-system", "pytest --pythonpath=/usr/lib:/usr/lib64", []),
    ("option-url", "pytest --base-url=http://localhost:8000/x", []),
    # refuter r18o finding 2 (issue 18): an option's KEY=VALUE value, and pytest's
    # space-separated ini lists
    ("override-ini-eq", "pytest -q t.py --override-ini=pythonpath=/tmp/copy/src", ["R-abs"]),
    ("o-eq", "pytest -o=pythonpath=/abs", ["R-abs"]),
    ("o-attached", "pytest -opythonpath=/abs", ["R-abs"]),
    ("o-word", "pytest -o pythonpath=/abs", ["R-abs"]),
    ("o-space-list", 'pytest -o "pythonpath=. /abs"', ["R-abs"]),
    ("override-ini-space-list", "pytest '--override-ini=pythonpath=src /abs'", ["R-abs"]),
    ("c-eq", "pytest -c=/abs/pytest.ini", ["R-abs"]),
    ("rootdir-eq", "pytest --rootdir=/abs", ["R-abs"]),
    ("confcutdir-eq", "pytest --confcutdir=/abs", ["R-abs"]),
    ("override-ini-up", "pytest --override-ini=pythonpath=../../x", ["R-up"]),
    ("o-home", "pytest -o=pythonpath=~/x", ["R-home"]),
    ("o-eq-in-tree", "pytest -o=pythonpath=src", []),
    ("o-space-list-in-tree", 'pytest -o "pythonpath=. src"', []),
    ("env-S-abs", "env -S 'pytest -q /tmp/r3'", ["R-abs"]),  # read like env (r18o finding 4)
    # refuter r18p open item 3 (issue 18): a path built by command substitution is refused
    # (R-subst), and the substituted command is read as written
    ("subst-printf-abs", "cat $(printf /tmp/x)", ["R-subst", "R-abs"]),
    ("subst-printf-escapes", r"cat $(printf '\057tmp\057x')", ["R-subst"]),
    ("subst-printf-parts", "cat $(printf %s%s / tmp)/x", ["R-subst", "R-abs"]),
    ("subst-quoted-prefix", "cat \"$(printf '%s' /tmp)/x\"", ["R-subst", "R-abs"]),
    ("subst-base64", "cat $(echo L3RtcA== | base64 -d)", ["R-subst"]),
    ("subst-backquote", "cat `printf /tmp/x`", ["R-subst", "R-abs"]),
    ("subst-backquote-in-quotes", 'cat "`printf /tmp/x`"', ["R-subst", "R-abs"]),
    ("subst-relative", "pytest -q $(printf tests)", ["R-subst"]),
    ("subst-program", "$(printf /bin/cat) a", ["R-subst"]),
    ("subst-wrapped", "timeout 5 cat $(printf x)", ["R-subst"]),
    ("subst-nested-sh", "sh -c 'cat $(printf /tmp/x)'", ["R-subst", "R-abs"]),
    ("subst-assignment", "X=$(printf src) pytest", ["R-subst"]),
    ("subst-redirect", "pytest > $(printf out)", ["R-subst"]),
    ("subst-file-test", 'test -e "$(printf /tmp/x)"', ["R-subst", "R-abs"]),
    ("subst-newer-than", "[ a -nt $(printf x) ]", ["R-subst"]),
    ("subst-inner-read", 'test "$(cat /tmp/x)" = 1', ["R-abs"]),
    ("subst-compared", "test \"$(python3 -c 'import app; print(app.mul(2, 3))')\" = 6", []),
    ("subst-compared-bracket", '[ "$(cat VERSION)" = 1.2 ]', []),
    ("subst-compared-bash", '[[ "$(cat VERSION)" == 1.2 ]]', []),
    ("subst-printed", "echo $(printf x)", []),
    ("subst-pwd", "python3 -m pytest -q $(pwd)/tests", []),
    ("subst-single-quoted", "python3 -c 'print(\"$(x)\")'", []),
    ("subst-arithmetic", "test $((1 + 2)) = 3", []),
    ("subst-cd", 'cd "$(mktemp -d)" && pytest', ["R-cd-var"]),
]


@pytest.mark.parametrize(("line", "rows"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_reach_rows(line: str, rows: list[str]) -> None:
    assert [f.row.id for f in reach_faults(("sh", "-c", line))] == rows


def test_every_row_has_a_case() -> None:
    met = {r for c in CASES for r in c[2]}
    assert met == {r.id for r in REACH_ROWS}


def test_an_argv_is_judged_word_by_word() -> None:
    assert [f.word for f in reach_faults(("pytest", "-q", "/tmp/r3"))] == ["/tmp/r3"]


def test_env_entries_outside_the_room_are_named() -> None:
    found = env_faults(
        {"PATH": "/home/me/repo/bin:/usr/bin:/bin", "PYTHONPATH": "src", "X": "../../a"}
    )
    assert [(name, f.word, f.row.id) for name, f in found] == [
        ("PATH", "/home/me/repo/bin", "R-abs"),
        ("X", "../../a", "R-up"),
    ]


def test_env_entries_climbing_from_a_system_prefix_are_named() -> None:
    found = env_faults({"PATH": "/usr/bin:/usr/../tmp/r18l-d/bin", "PYTHONPATH": "/dev/../x"})
    assert [(name, f.word) for name, f in found] == [
        ("PATH", "/usr/../tmp/r18l-d/bin"),
        ("PYTHONPATH", "/dev/../x"),
    ]
