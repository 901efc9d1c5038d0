"""The scripted agent: it resolves a block only by running, literally, what the block printed.

What it reads (the block's shape, :mod:`gentle_hooks.report.fixes`):

* text: each ``run: CMD`` line is one command, run as printed (``sh -c CMD``); a
  ``prefix: WORDS`` line is the start of the writer's report, completed with the agent's
  own test command (the one thing the agent knows and the gate cannot); an ``or: CMD``
  line is the printed alternative of the command above it, run when that one fails (a
  ``gentle-hook`` not on PATH: the same with git alone; under a ``prefix:`` line it is a
  prefix too, completed the same way); a printed command that sets ``PATH`` (a CI or
  server block's line putting the framework's copy on PATH) changes the shell the agent
  runs the block's commands in: it opens every way of its block, and the commands after
  it in a way run in the same shell (after it, in one ``sh -c``); a ``write: PATH``
  line gets the brief the agent wrote, copied there (its corrected brief, when it has one,
  once a block says the brief is at fault: :data:`BRIEF_AT_FAULT`); a ``human: CMD`` line
  is the way out the block offers a person whose own change it is: a writer agent never
  runs it, a person (``Agent.human``) runs only those; a command whose quoted word ends in
  a newline goes on over the lines its open quote spans (:func:`logical_lines`); lines
  may carry a ``gentle-hooks:`` or ``remote: gentle-hooks:`` prefix; every other line is
  words;
* json (``GENTLE_HOOKS_FORMAT=json``): the ``gentle-hooks.decision/v1`` object; per
  missing item its ``report_prefix`` (completed the same way), then its ``run`` list;
  then the object's ``then_run`` list.

Each block is classified (:data:`CLASSES`): ``in_band`` — one of its printed ways (tried
in order, the next after one whose command failed or after which the same block came
back) ran without a failure and the retried action passed or met a later block (another
:func:`signature`); ``self_recovered`` — a printed command failed but named, in its own
``run:`` lines, the command that then worked; ``by_design`` — a documented refusal (the
journey quotes the documentation) that stands after its printed ways ran, or prints none;
``dead_end`` — nothing printed, every printed way failed or left the same block, or the
same commands were printed again; ``out_of_band`` — only a step the journey knew and the
block did not print got past it.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from bench.journeys.sandbox import Sandbox, Step

CLASSES = ("in_band", "self_recovered", "by_design", "dead_end", "out_of_band")
#: How many blocks one action may raise before the agent gives up.
MAX_ROUNDS = 6
_OTHERWISE = re.compile(r"^\s*(?:remote:\s*)?(?:gentle-hooks:\s*)?\s*otherwise\b")
#: Opens the lines every way ends with (the branch back, the notes shared): ``then,``
#: (``then, either way,`` when more than one way is printed above it).
_THEN = re.compile(r"^\s*(?:remote:\s*)?(?:gentle-hooks:\s*)?\s*then, ")
_LABEL = re.compile(
    r"^\s*(?:remote:\s*)?(?:gentle-hooks:\s*)?\s*(run|prefix|write|human):\s(.*)$", re.S
)
#: A printed alternative of the command on the line above it.
_OR = re.compile(r"^\s*(?:remote:\s*)?(?:gentle-hooks:\s*)?\s*or:\s(.*)$", re.S)
#: A printed command that sets PATH for the shell it runs in (its commands after it, there).
_SETS_PATH = re.compile(r"(?:^|\|\|\s*)PATH=")
#: An error's one line: its words, then ``; run: CMD`` / ``; prefix: CMD`` segments.
_ERROR = re.compile(r"^(?:remote:\s*)?gentle-hook: error: ")
_SEGMENT = re.compile(r"; (run|prefix): ")
#: Words of a block that says the verifier's brief, not the change, failed (or that a check
#: of it changed the candidate's files in the clean room): the agent corrects its brief
#: (what only it knows, as its test command) before the printed steps.
BRIEF_AT_FAULT = re.compile(
    r"(?:failed only on its brief|changed .* in the clean room)\b.*\bcorrect the brief\b"
)


@dataclass
class ByDesign:
    """A documented refusal: ``pattern`` matches the block; ``text`` is quoted word for word
    from the file ``doc`` of this repository (a test holds every quote to its file)."""

    pattern: str
    doc: str
    text: str

    @property
    def quote(self) -> str:
        """``doc: "text"``, as the results print it."""
        return f'{self.doc}: "{self.text}"'


@dataclass
class Block:
    """One block the agent met: the action, what it printed to run, how it ended."""

    action: str
    cls: str = ""
    why: str = ""
    printed: list[str] = field(default_factory=list)
    quote: str | None = None
    first_line: str = ""


def complete(prefix: str, test_command: str, brief: str) -> str:
    """A ``prefix:`` line completed with what only the agent knows: the brief it wrote
    (after ``--brief``), else its test command."""
    if prefix.rstrip().endswith("--brief"):
        return f"{prefix} {brief or 'brief.json'}"
    return f"{prefix} {test_command}"


def write_to(path: str, brief: str) -> str:
    """A ``write: PATH`` line done with what only the agent knows: the brief's content
    (the one it wrote, copied to the path the block named)."""
    return f"cp {shlex.quote(brief or 'brief.json')} {shlex.quote(path)}"


def _done(kind: str, text: str, test_command: str, brief: str) -> str:
    """A labelled line as the command the agent runs for it."""
    if kind == "prefix":
        return complete(text, test_command, brief)
    if kind == "write":
        return write_to(text, brief)
    return text


def printed_commands(out: str, test_command: str, fmt: str = "text", brief: str = "") -> list[str]:
    """The commands a block printed, in order, completed where it says so."""
    if fmt == "json":
        for line in reversed(out.splitlines()):
            line = line.strip()
            if line.startswith("{") and "gentle-hooks.decision/v1" in line:
                return _from_decision(json.loads(line), test_command, brief)
        return []
    ways = printed_ways(out, test_command, brief)
    return ways[0] if ways else []


def printed_ways(
    out: str, test_command: str, brief: str = "", human: bool = False
) -> list[list[str]]:
    """The text block's ways out: the commands before the first ``otherwise`` line, then
    those after each ``otherwise`` line (empty ways left out); the commands after a
    ``then,`` line end every way. Several blocks (a push of several blocked
    commits) are done one after the other: way N is each block's way N (its first way
    when it has fewer), in order. ``human``: the ``human:`` lines only (a person's way)."""
    return [[cmd for cmd, _ in way] for way in placed_ways(out, test_command, brief, human)]


#: A printed command, and whether the block says to run it in another clone (the writer's,
#: the one that verified the commit) rather than where the block was printed.
Placed = tuple[str, bool]
#: Words of a ``where``/``otherwise`` line that send the commands after it to another clone.
_ELSEWHERE = re.compile(r"in the writer's clone|in the clone that verified")
#: Words of a line that bring them back where the block was printed.
_HERE = re.compile(r"^\s*(?:remote:\s*)?(?:gentle-hooks:\s*)?\s*here\b")


def placed_ways(
    out: str, test_command: str, brief: str = "", human: bool = False
) -> list[list[Placed]]:
    """:func:`printed_ways`, each command with where the block says it runs."""
    per_block = [_block_ways(b, test_command, brief, human) for b in _blocks(out)]
    per_block = [w for w in per_block if w]
    if not per_block:
        return []
    out_ways: list[list[Placed]] = []
    for n in range(max(len(w) for w in per_block)):
        out_ways.append([c for w in per_block for c in (w[n] if n < len(w) else w[0])])
    return out_ways


def alternatives(out: str, test_command: str, brief: str = "") -> dict[str, list[str]]:
    """Each printed command with the ``or:`` lines right below it (its alternatives, in
    order), completed as :func:`printed_ways` completes it."""
    alts: dict[str, list[str]] = {}
    above, kind = "", ""
    for line in logical_lines(out):
        m = _OR.match(line)
        if m and above:
            # the alternative of a prefix is a prefix too: completed the same way
            alt = m.group(1).rstrip()
            alts.setdefault(above, []).append(_done(kind, alt, test_command, brief))
            continue
        labelled = _labelled(line.rstrip())
        kind = labelled[-1][0] if labelled else ""
        above = _done(*labelled[-1], test_command, brief) if labelled else ""
    return alts


#: The first line of a blocked candidate's lines.
_BLOCKED = re.compile(r"^\s*(?:remote:\s*)?(?:gentle-hooks:\s*)?BLOCKED ")


def _blocks(out: str) -> list[list[str]]:
    """``out``'s lines, split before each ``BLOCKED`` line."""
    blocks: list[list[str]] = [[]]
    for line in logical_lines(out):
        if _BLOCKED.match(line) and blocks[-1]:
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def logical_lines(out: str) -> list[str]:
    """``out``'s lines, a labelled command (``run:``, ``or:``, ``human:`` ...) joined with
    the lines after it while a quote it opened is open: a printed word that ends in a
    newline spans lines inside single quotes (:func:`gentle_hooks.policy.shellwords.quote`),
    and a paste of the command takes them all."""
    lines = out.splitlines()
    joined: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        m = _LABEL.match(line) or _OR.match(line)
        # such a word's lines: its raw newlines, then the closing quote and the rest
        while m and i < len(lines) and lines[i][:1] in ("", "'") and _open_quote(m.groups()[-1]):
            line += "\n" + lines[i]
            i += 1
            m = _LABEL.match(line) or _OR.match(line)
        joined.append(line)
    return joined


def _open_quote(cmd: str) -> bool:
    """Whether the shell would read on past the end of ``cmd`` (a quote left open)."""
    try:
        shlex.split(cmd)
    except ValueError:
        return True
    return False


def _block_ways(
    lines: list[str], test_command: str, brief: str, human: bool = False
) -> list[list[Placed]]:
    """:func:`placed_ways` of one block's lines (``human``: its ``human:`` lines only, and
    a writer's ways leave them out)."""
    ways: list[list[Placed]] = [[]]
    ending: list[Placed] | None = None
    shell: list[Placed] = []  # lines that set PATH: every way opens with them
    there = False
    for line in lines:
        if _OTHERWISE.match(line):
            ways.append([])
            there = bool(_ELSEWHERE.search(line))
            continue
        if _THEN.match(line):
            ending = [] if ending is None else ending  # a second ``then`` adds to the first
            continue
        labelled = _labelled(line.rstrip())
        if not labelled:  # words: a ``where`` line may say where the commands below run
            if _ELSEWHERE.search(line):
                there = True
            elif _HERE.match(line):
                there = False
            continue
        for kind, text in labelled:
            if (kind == "human") != human:
                continue  # a person's way is not the writer's, nor the writer's theirs
            cmd = (_done(kind, text, test_command, brief), there)
            into = ways[-1] if ending is None else ending
            if kind == "run" and _SETS_PATH.search(text):
                into = shell
            if cmd not in into:
                into.append(cmd)
    return [shell + w + [c for c in ending or [] if c not in w] for w in ways if w]


def _labelled(line: str) -> list[tuple[str, str]]:
    """The (label, command) pairs of one line: a ``run:``/``prefix:`` line, or an error
    line's trailing segments."""
    if _ERROR.match(line):
        parts = _SEGMENT.split(line)
        return list(zip(parts[1::2], parts[2::2], strict=True))
    m = _LABEL.match(line)
    return [(m.group(1), m.group(2))] if m else []


def _from_decision(obj: dict[str, object], test_command: str, brief: str) -> list[str]:
    """The first way of every missing item of a decision object, in order, then its
    ``then_run`` commands."""
    cmds: list[str] = []
    for cand in obj.get("candidates", []):  # type: ignore[attr-defined]
        for item in cand.get("missing", []):
            inside = True
            for st in item.get("steps", []):
                if st["label"] in ("otherwise", "then"):
                    inside = st["label"] == "then"
                if not inside or st["label"] not in ("run", "prefix", "write"):
                    continue
                cmd = _done(st["label"], st["text"], test_command, brief)
                if cmd not in cmds:
                    cmds.append(cmd)
    for cmd in obj.get("then_run", []):  # type: ignore[attr-defined]
        if cmd not in cmds:
            cmds.append(cmd)
    return cmds


@dataclass
class Agent:
    """Walks a journey's actions through their blocks."""

    sb: Sandbox
    test_command: str
    brief: str = ""
    blocks: list[Block] = field(default_factory=list)
    #: The brief the agent writes once a block says its brief is at fault (empty: none).
    corrected_brief: str = ""
    #: A person whose own change it is: they run a block's ``human:`` lines, nothing else.
    human: bool = False
    #: The run of a printed command that did the action itself (:func:`runs_action`).
    _action_step: Step | None = None

    def attempt(
        self,
        cwd: Path,
        action: str,
        *,
        where: Path | None = None,
        fmt: str = "text",
        by_design: ByDesign | None = None,
        manual: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> Step:
        """Run ``action`` in ``cwd`` until it passes, resolving each block by its printed
        commands (run in ``where``, default ``cwd``). Returns the last run of the action."""
        run_env = dict(env or {})
        if fmt == "json":
            run_env["GENTLE_HOOKS_FORMAT"] = "json"
        step = self.sb.sh(cwd, action, who="writer", env=run_env)
        seen: set[tuple[str, ...]] = set()
        rounds = 0
        while step.exit != 0 and rounds < MAX_ROUNDS:
            rounds += 1
            block = Block(action, first_line=_first_line(step.out))
            self.blocks.append(block)
            if self.corrected_brief and BRIEF_AT_FAULT.search(step.out):
                self.brief = self.corrected_brief
            ways: list[list[Placed]]
            if fmt == "json":  # the decision's first way, run where ``where`` says
                first = printed_commands(step.out, self.test_command, fmt, self.brief)
                ways = [[(c, True) for c in first]] if first else []
            else:
                ways = placed_ways(step.out, self.test_command, self.brief, self.human)
            alts = alternatives(step.out, self.test_command, self.brief) if fmt != "json" else {}
            block.printed = [c for w in ways for c, _ in w]
            designed = by_design is not None and re.search(by_design.pattern, step.out)
            if not ways or tuple(block.printed) in seen:
                if designed:  # a documented refusal that prints nothing more to run
                    return _by_design(block, by_design, step)
                block.cls, block.why = (
                    "dead_end",
                    (
                        "nothing to run was printed"
                        if not ways
                        else "the same commands were printed again: a loop"
                    ),
                )
                return self._fallback(block, cwd, where, action, manual, run_env) or step
            seen.add(tuple(block.printed))
            before = signature(step.out)
            number = 0
            failed_ways: list[str] = []
            recovered = ""
            for number, way in enumerate(ways, 1):
                # a command runs where the block was printed, unless the block sends it to
                # another clone (the journey's ``where``: the writer's)
                placed = [(c, (where or cwd) if there else cwd) for c, there in way]
                self._action_step = None
                failed, recovered = self._run_all(placed, alts, action)
                if not failed and self._action_step is not None:
                    step = self._action_step  # a printed override ran the action itself
                    break
                step = self.sb.sh(cwd, action, who="writer", env=run_env)
                if failed:
                    failed_ways.append(f"way {number} failed: {failed}")
                    continue  # the block's ``otherwise``: the next way it printed
                if step.exit == 0 or signature(step.out) != before:
                    break  # past this block: passed, or a later block
                failed_ways.append(f"way {number} ran, and the same block came back")
            else:
                if designed:  # its printed ways ran and the documented refusal stands
                    return _by_design(block, by_design, step, "; ".join(failed_ways))
                block.cls, block.why = "dead_end", "; ".join(failed_ways)
                return self._fallback(block, cwd, where, action, manual, run_env) or step
            if recovered:
                block.cls, block.why = "self_recovered", recovered
            else:
                way_no = "" if number == 1 else f" (way {number} of {len(ways)})"
                if failed_ways:
                    way_no += " after " + "; ".join(failed_ways)
                block.cls, block.why = "in_band", f"its printed commands resolved it{way_no}"
        return step

    def _run_all(
        self,
        cmds: list[tuple[str, Path]],
        alts: dict[str, list[str]] | None = None,
        action: str = "",
    ) -> tuple[str, str]:
        """Run the printed commands in order, each in its directory (a failed one's printed
        ``or:`` alternatives next, until one works), in one shell: after a command that sets
        PATH, each runs after it (:data:`_SETS_PATH`): (why one failed, how one
        self-recovered). A command that is ``action`` itself with an environment set in
        front (:func:`runs_action`: the recorded override) is kept in ``_action_step``: it
        did the action, which is not run again."""
        recovered = ""
        shell = ""  # the commands that set PATH, run before each command after them
        for cmd, cwd in cmds:
            s = self.sb.sh(cwd, shell + cmd, who="agent")
            if s.exit == 0 and action and runs_action(cmd, action):
                # the override did the action: the block it prints, let through, is done
                self._action_step = s
                continue
            for alt in (alts or {}).get(cmd, []) if s.exit != 0 else []:
                s = self.sb.sh(cwd, shell + alt, who="agent")
                if s.exit == 0:
                    break
            if s.exit == 0 and _SETS_PATH.search(cmd):
                shell += "" if cmd + "\n" in shell else cmd + "\n"
                continue
            if s.exit == 0:
                for n in printed_commands(s.out, self.test_command, "text", self.brief):
                    t = self.sb.sh(cwd, shell + n, who="agent")  # what it says to run next
                    if t.exit != 0:
                        return f"the command {cmd} printed failed (exit {t.exit}): {n}", ""
                continue
            nested = printed_commands(s.out, self.test_command, "text", self.brief)
            if not nested:
                return f"printed command failed (exit {s.exit}): {cmd}: {_first_line(s.out)}", ""
            for n in nested:
                t = self.sb.sh(cwd, shell + n, who="agent")
                if t.exit != 0:
                    return (
                        f"printed command failed (exit {s.exit}): {cmd}; its own suggestion "
                        f"failed too (exit {t.exit}): {n}: {_first_line(t.out)}",
                        "",
                    )
            recovered = f"{cmd} failed, and named {nested[0]}, which worked"
        return "", recovered

    def _fallback(
        self,
        block: Block,
        cwd: Path,
        where: Path | None,
        action: str,
        manual: list[str] | None,
        env: dict[str, str],
    ) -> Step | None:
        """Steps the journey knows and the block did not print: out of band when they work."""
        if not manual:
            return None
        for cmd in manual:
            self.sb.sh(where or cwd, cmd, who="agent")
        step = self.sb.sh(cwd, action, who="writer", env=env)
        if step.exit == 0:
            block.why = f"{block.why}; got past only by: {'; '.join(manual)}"
            block.cls = "out_of_band"
        return step


#: Environment assignments in front of a command (``NAME='value' ``), as a shell reads them.
_ASSIGNMENTS = re.compile(r"""^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|[^\s'"]+)\s+)+""")


def runs_action(cmd: str, action: str) -> bool:
    """Whether a printed command is ``action`` itself with environment assignments in front
    (the recorded override: ``GENTLE_HOOKS_SKIP='...' git commit -q -m '...'``): run, it did
    the action."""
    m = _ASSIGNMENTS.match(cmd)
    if not m:
        return False
    try:
        return shlex.split(cmd[m.end() :]) == shlex.split(action)
    except ValueError:
        return False


def _by_design(block: Block, by_design: ByDesign | None, step: Step, ran: str = "") -> Step:
    """Classify ``block`` a documented refusal (after its printed ways ``ran``, if any)."""
    assert by_design is not None
    block.cls, block.quote = "by_design", by_design.quote
    block.why = "a documented refusal" + (f"; its printed ways ran: {ran}" if ran else "")
    return step


#: The lines that say which block it is: a candidate blocked, and what it misses (the
#: headline, not the reasons' details, which name records by id).
_SIGNATURE = re.compile(r"^\s*(?:remote:\s*)?(?:gentle-hooks:\s*)?(BLOCKED .*|missing (?!:).*)$")


def signature(out: str) -> tuple[str, ...]:
    """What identifies the block in ``out``: its ``BLOCKED`` and headline lines, or each
    candidate's label and missing items of a JSON decision; a retried action that prints
    the same signature is the same block, however else its words changed."""
    for line in reversed(out.splitlines()):
        line = line.strip()
        if line.startswith("{") and "gentle-hooks.decision/v1" in line:
            obj = json.loads(line)
            return tuple(
                f"{c.get('label')}: {m.get('what')}"
                for c in obj.get("candidates", [])
                for m in c.get("missing", [])
            )
    return tuple(m.group(1) for line in out.splitlines() if (m := _SIGNATURE.match(line)))


def _first_line(out: str) -> str:
    for line in out.splitlines():
        if line.strip():
            return line.strip()[:240]
    return ""
