"""Lines the policy shell parser does not read (compound commands, ``[[ ]]``, ``(( ))``,
function definitions, here-documents), read by :mod:`gentle_hooks.agents.shellscan`: a
foreground one opens no window, a background one inside them does (issue 17;
docs/agents/claude-code.md, "A command that runs in the background")."""

from __future__ import annotations

import pytest

from gentle_hooks.agents.background import leaves_process
from gentle_hooks.agents.shellscan import Heredoc, scan

FOREGROUND = [
    'for f in *.py; do sed -i s/a/b/ "$f"; done',
    "cat > x.py <<'EOF'\nimport subprocess\nsubprocess.Popen(['x'])  # & fork\nEOF",
    "cat > x.sh <<EOF\nsleep 1 &\nnohup y\nEOF",
    "cat <<-EOF | sort\n\tb & a\n\tEOF",
    "if test -f x; then echo yes; else echo no; fi",
    'while read -r l; do echo "$l"; done < list.txt',
    "until make; do sleep 1; done",
    'case "$x" in a|b) echo a;; *) echo other;; esac',
    "case x in a) echo;& b) echo;;& esac",
    '[[ -f x && -n "$y" ]] && echo ok',
    "if [[ $x =~ ^a|b$ ]]; then echo; fi",
    "f() { sed -i s/a/b/ x.py; }; f",
    "function g { echo hi; }",
    "for ((i=0; i<3; i++)); do echo $i; done",
    "(( x & 1 )) && echo odd",
    "echo $(( 5 & 3 ))",
    "python3 - <<'EOF'\nimport pathlib\npathlib.Path('x.py').write_text('y')\nEOF",
    "python3 job.py <<EOF\nfork\nEOF",
    "sudo bash script.sh <<EOF\nsleep 1 &\nEOF",
    "bash <<'EOF'\nset -e\nsed -i s/a/b/ x.py\nEOF",
    'for f in a b; do echo "$f" >&2; done 2>&1 | tee log',
    "x=$(for f in a; do echo $f; done)",
    'for f in a; do echo "a & b"; done',
    "for f in a; do cmd &> log; done",
    "for f in a; do a |& b; done",
    'arr=(a b "c d"); for x in "${arr[@]}"; do echo "$x"; done',
    "echo ${x:-'a)b'}; for f in a; do :; done",
    "diff <(sort a) <(sort b); if true; then :; fi",
    "# comment & here\nfor f in a; do :; done",
    "for f in a; do echo done nohup; done",
    "select x in a b; do break; done",
]

BACKGROUND = [
    "for f in a b; do sleep 1 & done",
    "if x; then nohup y; fi",
    "bash <<EOF\n(sleep 2; sed -i s/a/b/ x.py) &\nEOF",
    "python3 - <<EOF\nimport subprocess; subprocess.Popen(['x'])\nEOF",
    "python3 <<'EOF'\nimport os\nos.fork()\nEOF",
    "sh -s <<EOF\nnohup gen\nEOF",
    "sudo -u me bash <<'EOF'\ngen &\nEOF",
    "while true; do gen; done &",
    "case $1 in start) setsid srv;; esac",
    "[[ -f x ]] && nohup y",
    "f() { gen & }; f",
    'for f in a; do eval "$f"; done',
    "for f in a; do $CMD; done",
    "cat > x <<EOF\n$(sleep 1 &)\nEOF",
    'if true; then x=$(bash -c "gen &"); fi',
    "for f in a; do echo `gen &`; done",
    "until false; do (gen) & done",
    "coproc gen",
    "if x; then tmux new -d gen; fi",
    'for f in a; do python3 -c "import os; os.fork()"; done',
    'if true; then echo "unterminated; fi',
    "for f in a; do :; done; echo $(( $(gen &) + 1 ))",
    "while x; do { gen; } & done",
    "for f in a; do screen -dmS x gen; done",
    "diff <(gen &) b; if true; then :; fi",
    "for f in a; do env A=1 nice setsid gen; done",
    "for f in a\ndo\n  gen &\ndone",
    "if ((1)); then gen & fi",
    'for f in a; do xargs sh -c "gen &"; done',
]


@pytest.mark.parametrize("command", FOREGROUND)
def test_a_foreground_compound_line_opens_no_window(command: str) -> None:
    assert not leaves_process(command)


@pytest.mark.parametrize("command", BACKGROUND)
def test_a_background_command_inside_one_does(command: str) -> None:
    assert leaves_process(command)


def test_the_reader_keeps_commands_here_documents_and_substitutions() -> None:
    found = scan("for f in a; do X=1 cat <<-'E' > \"$f\" $(date)\n\tbody & $(x)\n\tE\ndone")
    assert not found.background
    assert [c.words for c in found.commands] == [("cat", "$(date)")]  # the target of > dropped
    assert found.commands[0].heredocs == (Heredoc("body & $(x)", quoted=True),)
    assert found.substitutions == ("date",)


@pytest.mark.parametrize(
    "nested", ["$(" * 3000 + ")" * 3000, '"$(' * 3000, "arr=(" * 3000, "$((" * 3000, "<(" * 3000]
)
def test_a_line_nested_too_deep_fails_closed_without_a_traceback(nested: str) -> None:
    assert leaves_process(f"for f in a; do echo {nested}; done")
