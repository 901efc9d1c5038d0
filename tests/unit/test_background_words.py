"""Which shell commands leave a process running after the call returns
(:mod:`gentle_hooks.agents.background`; docs/agents/claude-code.md, "A command that runs in
the background")."""

from __future__ import annotations

import pytest

from gentle_hooks.agents.background import is_background, leaves_process


@pytest.mark.parametrize(
    "command",
    [
        "(sleep 2; sed -i s/a/b/ app.py) &",
        "nohup python serve.py",
        "setsid ./gen.sh",
        "make watch & disown",
        "X=1 nohup ./gen.sh > log 2>&1",
        "true; /usr/bin/nohup ./gen.sh",
        "echo $(sleep 1 &)",
        "sleep 1 &\nwait",
        'echo "unterminated',
        # issue 17 (refuter r17p): the & or detacher inside a shell's -c script, or after a
        # wrapper, at any depth
        "bash -c '(sleep 2; sed -i s/a/b/ calc.py) >/dev/null 2>&1 &'",
        'sh -c "sleep 2; sed -i s/a/b/ calc.py" &',
        'nice setsid -f sh -c "sleep 2; sed -i s/a/b/ calc.py"',
        "env A=1 timeout 60 stdbuf -oL bash -c 'sh -c \"x &\"'",
        "sudo -u me nohup ./gen.sh",
        "command exec setsid ./gen.sh",
        "xargs -n1 sh -c 'gen \"$0\" &'",
        "ionice -c3 chrt 5 taskset 1 daemonize ./gen.sh",
        "start-stop-daemon --start --exec ./gen.sh",
        "systemd-run --user ./gen.sh",
        "echo 'sed -i s/a/b/ calc.py' | at now + 1 minute",
        "batch < job.txt",
        "screen -dmS gen ./gen.sh",
        "tmux new -d ./gen.sh",
        "tmux send-keys -t gen './gen.sh' Enter",
        "{ sleep 1; gen; } & echo started",
        "x=$(bash -c 'gen &')",
        "echo `gen &`",
        # eval, or the program is made at run time: fail closed (an unclosed quote: above)
        'eval "$CMD"',
        "$(which gen) --watch",
        "$RUNNER ./gen.sh",
        'for f in *.py; do gen "$f" & done',
        # interpreter code that starts a process (cheap words)
        'python3 -c \'import subprocess; subprocess.Popen(["sh", "-c", "sleep 2"])\'',
        'python3 -c \'import os; os.fork() or os.execvp("gen", ["gen"])\'',
        'python -c \'import os; os.spawnlp(os.P_NOWAIT, "gen", "gen")\'',
        "python3.12 -c 'import subprocess as s; s.run(\"gen\", start_new_session=True)'",
        "python3 -c 'import os; os.system(\"gen &\")'",
        'node -e \'require("child_process").spawn("gen", {detached: true})\'',
        "perl -e 'fork or exec \"gen\"'",
        "ruby -e 'Process.detach(Process.spawn(\"gen\"))'",
    ],
)
def test_a_command_that_leaves_a_process_behind(command: str) -> None:
    assert leaves_process(command)


@pytest.mark.parametrize(
    "command",
    [
        "a && b",
        "make 2>&1 | tee log",
        "cmd &> log",
        "cmd >&2",
        "a |& b",
        'echo "a & b"',
        "echo 'nohup &'",
        "echo nohup",
        "echo a\\&b",
        "# sleep &\nls",
        "sed -i s/x/y/ f.py",
        "a || b",
        "bash -c 'a && b'",
        'sh -c "make 2>&1 | tee log"',
        "nice -n 5 timeout 60 pytest -q",
        "env A=1 sudo -u me pytest",
        "python3 -c 'print(1)'",
        "python3 -c 'import os; os.system(\"a && b\")'",
        "node -e 'console.log(1)'",
        "bash job.sh",
        "screen -ls",
        "tmux ls",
        'echo "$(date)"',
        'echo `date` "`hostname`"',
    ],
)
def test_a_command_that_does_not(command: str) -> None:
    assert not leaves_process(command)


def test_the_runtimes_flags() -> None:
    assert is_background({"command": "ls", "run_in_background": True})
    assert is_background({"command": "ls", "is_background": True})
    assert not is_background({"command": "ls", "run_in_background": False})
    assert not is_background({"command": "ls", "is_background": "true"})
    assert not is_background(["ls &"])
