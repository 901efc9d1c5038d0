"""Delegation briefs: the model, the brief rules and the parser (seed 001; SPEC §9).

Room: artifacts (imports pydantic, the standard library, :mod:`gentle_hooks.errors`,
:mod:`gentle_hooks.values`, :mod:`gentle_hooks.policy.reach` and :mod:`.jsonio`); no I/O,
no clock. Seed ``001_3bc4c9b08e2f7709.txt`` (verify-delegation) defines the shape; field
names are its spellings (``outputFormat``, ``stopCondition``...).

* *Is it a brief?* :func:`parse_brief` refuses what is not (exit 2, one line).
* *May a worker start on it?* :func:`check_brief` names every rule of :data:`BRIEF_RULES`
  it fails.
* *What does its verifier re-run?* ``successCriteria``, ``negativeTests`` and ``fullSuite``
  (:class:`BriefCheck`): the seed's "success criteria for the delegated objective" as
  commands, so that ``gentle-hook verify run`` observes each one instead of believing it
  (seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
  check"). They are this tool's extension of the brief; a brief without them is still a
  brief, and its verifier gets the commands from flags.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable
from typing import Annotated

from pydantic import Field, StrictBool, StrictStr

from gentle_hooks.artifacts.jsonio import (
    Budget,
    Command,
    StrictModel,
    Strings,
    parse_object_model,
)
from gentle_hooks.policy.loadenv import loading_assignments, loading_env
from gentle_hooks.policy.reach import Reach, env_faults, reach_faults
from gentle_hooks.values.frozen import frozen

#: Declared side effects that never count as mutating, even though they name a mutating verb
#: (seed 001 itself declares ``write-temp-file`` for a read-only verifier). Compared after
#: stripping and lower-casing.
NON_MUTATING_SIDE_EFFECTS: frozenset[str] = frozenset(
    {"none", "read-only", "read-file", "read-network", "network-read", "write-temp-file"}
)

#: Verbs that make a declared side effect mutating (:func:`is_mutating_side_effect`), each
#: with its regular inflections (``writes``, ``writing``, ``deleted``, ``committed``). Words
#: that are as often nouns of a read (``tag``, ``release``, ``patch``) are left out.
MUTATING_VERBS: frozenset[str] = frozenset(
    {"write", "overwrite", "append", "create", "modify", "update", "upsert", "insert", "edit"}
    | {"delete", "remove", "rm", "drop", "truncate", "move", "mv", "rename", "mutate"}
    | {"commit", "push", "merge", "rebase", "reset", "install", "uninstall", "upgrade"}
    | {"migrate", "migration", "deploy", "publish", "send", "post", "upload", "exec"}
    | {"execute", "apply", "provision", "destroy", "restart", "kill", "chmod", "chown"}
)

#: Segments that negate a declaration (``no-write``, ``does-not-write``, ``write-nothing``).
NEGATION_SEGMENTS: frozenset[str] = frozenset(
    {"no", "not", "non", "none", "never", "nothing", "without", "zero", "dont", "doesnt", "nor"}
)

#: A kebab-case identifier: lower-case segments of letters and digits joined by single ``-``.
_KEBAB = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def _inflections(verb: str) -> frozenset[str]:
    """``verb`` and its regular inflections: write, writes, writing; commit, committed."""
    if verb.endswith("e"):
        more = {verb + "d", verb[:-1] + "ing"}
    elif verb.endswith("y"):
        more = {verb[:-1] + "ies", verb[:-1] + "ied", verb + "ing"}
    else:
        doubled = verb + verb[-1]
        more = {verb + "es", verb + "ed", verb + "ing", doubled + "ed", doubled + "ing"}
    return frozenset({verb, verb + "s", *more})


_MUTATING_FORMS: frozenset[str] = frozenset().union(*(_inflections(v) for v in MUTATING_VERBS))


NonBlank = Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]


class BriefCheck(StrictModel):
    """One observable check a verifier re-runs: what it checks and the command.

    Attributes:
        criterion: the success criterion (or negative test) in words.
        run: the command: a string, run by ``sh -c`` in the clean room, or an argument
            vector (a JSON array of strings), run as it is.
    """

    criterion: NonBlank
    run: Command


class DelegationBrief(StrictModel):
    """A canonical delegation brief (seed 001, "inputs"; SPEC §9).

    Attributes:
        id: the brief's id, which a verdict names as ``briefId`` (optional).
        objective: what the worker must achieve (required).
        outputFormat: what the worker returns (required).
        toolGuidance: which tools to use and how.
        boundaries: what the worker must not touch or do; :func:`check_brief` rejects none.
        stopCondition: when the worker stops; :func:`check_brief` rejects none.
        effortBudget: tool calls allowed (an integer) or a budget in words.
        readOnly: the worker may not mutate anything; default true, the restrictive reading.
        sideEffects: declared side effects (``write-temp-file``, ``write-repo``...). A brief
            with ``readOnly: false`` must declare at least one mutating effect: a kebab-case
            id naming a mutating verb (:func:`is_mutating_side_effect`).
        successCriteria: the checks that must pass (:class:`BriefCheck`).
        negativeTests: checks that must fail before the artifact can be trusted (seed 001
            "Rules": mandatory when the artifact mutates the repository).
        fullSuite: the full test suite's command (seed 001: "A pass verdict requires the
            full suite to have run").
        env: variables every check runs with in the clean room (``{"PYTHONPATH": "src"}``):
            the brief's own, part of its id; the caller's environment reaches the room only
            through an allowlist (:data:`gentle_hooks.services.room_env.ROOM_ENV_NAMES`).

    Missing ``boundaries``/``stopCondition`` parse, so that :func:`check_brief` can name them.
    A list field may be given as one string; ``effortBudget`` ``10.0`` is 10. The schema
    (``gentle-hook schema brief``) describes exactly this input.
    """

    id: StrictStr | None = None
    objective: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
    outputFormat: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
    toolGuidance: Strings = ()
    boundaries: Strings = ()
    stopCondition: StrictStr | None = None
    effortBudget: Budget | StrictStr | None = None
    readOnly: StrictBool = True
    sideEffects: Strings = ()
    successCriteria: tuple[BriefCheck, ...] = ()
    negativeTests: tuple[BriefCheck, ...] = ()
    fullSuite: Command | None = None
    env: (
        dict[Annotated[StrictStr, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")], StrictStr] | None
    ) = None


def brief_id(brief: DelegationBrief) -> str:
    """The id a verdict names as ``briefId``: the brief's own ``id`` (stripped) when it
    has one, else ``brief-`` and the first 12 hex digits of the SHA-256 of its canonical
    JSON (sorted keys, no whitespace), so one brief always gets one id."""
    import hashlib
    import json

    if brief.id is not None and brief.id.strip():
        return brief.id.strip()
    canonical = json.dumps(
        brief.model_dump(mode="json", exclude_none=True),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return "brief-" + hashlib.sha256(canonical.encode()).hexdigest()[:12]


def is_mutating_side_effect(effect: str) -> bool:
    """Whether one declared side effect declares a mutation (seed 001, "Rules"; SPEC §9).

    The rule is inverted on purpose: an effect is *not* mutating unless it says so in a form
    that cannot be a placeholder. After stripping and lower-casing, ``effect`` is mutating
    exactly when all of these hold:

    * it is a kebab-case identifier (``write-repo``, ``git-commit``, ``run-migration``):
      lower-case letters and digits in segments joined by single hyphens; prose
      (``"writes to the repo"``), punctuation (``"-"``, ``"n/a"``, ``"none."``) and blanks are
      not declarations;
    * one segment is a verb of :data:`MUTATING_VERBS` or an inflection of one (``writes``,
      ``deleting``, ``pushed``);
    * no segment negates it (:data:`NEGATION_SEGMENTS`: ``no-write``, ``does-not-write``);
    * it is not in :data:`NON_MUTATING_SIDE_EFFECTS` (``write-temp-file``, which seed 001
      declares for a read-only verifier).

    So ``"nothing"``, ``"readonly"``, ``"read"``, ``"no side effects"`` declare nothing.

    Args:
        effect: one entry of :attr:`DelegationBrief.sideEffects`.

    Returns:
        True when ``effect`` declares a mutating side effect. Never raises.
    """
    key = effect.strip().lower()
    if key in NON_MUTATING_SIDE_EFFECTS or not _KEBAB.fullmatch(key):
        return False
    segments = key.split("-")
    if any(s in NEGATION_SEGMENTS for s in segments):
        return False
    return any(s in _MUTATING_FORMS for s in segments)


def mutating_side_effects(brief: DelegationBrief) -> tuple[str, ...]:
    """The brief's declared side effects that count as mutating, stripped, in declared order.

    Each entry is judged by :func:`is_mutating_side_effect`. Seed 001, "Rules"
    (``readOnly: false`` needs a declared mutating side effect); rule B3 of :data:`BRIEF_RULES`.
    """
    return tuple(e.strip() for e in brief.sideEffects if is_mutating_side_effect(e))


#: Words that fill a field without saying anything (``"boundaries": ["none"]``,
#: ``"stopCondition": "n/a"``): such an entry counts as blank.
_PLACEHOLDERS = frozenset(
    {"none", "n/a", "na", "nothing", "null", "nil", "tbd", "todo", "tba", "-", "--", "..."}
    | {"?", "x", "xxx", "same", "see above", "as usual", "whatever", "anything", "no", "n.a"}
)


def _said(text: str | None) -> bool:
    """Whether ``text`` says something: not blank and not only a placeholder word."""
    words = " ".join((text or "").split()).lower().strip(" .,;:!")  # "None." is "none"
    return bool(words) and words not in _PLACEHOLDERS


def _boundary_faults(brief: DelegationBrief) -> tuple[str, ...]:
    if any(_said(b) for b in brief.boundaries):
        return ()
    return (
        "no boundaries: say what the worker must not touch or do "
        '("boundaries": ["..."]); a brief without them duplicates work',
    )


def _stop_faults(brief: DelegationBrief) -> tuple[str, ...]:
    if _said(brief.stopCondition):
        return ()
    return ('no stopCondition: say when the worker is done ("stopCondition": "...")',)


def _read_only_faults(brief: DelegationBrief) -> tuple[str, ...]:
    if brief.readOnly or mutating_side_effects(brief):
        return ()
    declared = ", ".join(e.strip() for e in brief.sideEffects if e.strip()) or "none"
    return (
        "readOnly is false but no mutating side effect is declared "
        f"(declared: {declared}); add one to sideEffects as a kebab-case id with a mutating "
        'verb, e.g. "write-repo"',
    )


def _argv(command: Command) -> tuple[str, ...]:
    return ("sh", "-c", command) if isinstance(command, str) else tuple(command)


def _reach_line(what: str, found: Reach) -> str:
    return (
        f"{what} {found.row.said} ({found.word}): it would observe another tree than the "
        "candidate's; checks run in the candidate's tree: name paths relative to it"
    )


def _checks(brief: DelegationBrief) -> list[tuple[str, Command]]:
    """The brief's checks, each with what to call it in a fault line."""
    return [
        *((f"criterion {c.criterion!r}", c.run) for c in brief.successCriteria),
        *((f"negative test {c.criterion!r}", c.run) for c in brief.negativeTests),
        *([("the full suite", brief.fullSuite)] if brief.fullSuite is not None else []),
    ]


def _room_faults(brief: DelegationBrief) -> tuple[str, ...]:
    checks = _checks(brief)
    out = [_reach_line(what, f) for what, cmd in checks for f in reach_faults(_argv(cmd))]
    out += [_reach_line(f"env {name}", f) for name, f in env_faults(brief.env or {})]
    return tuple(out)


def _load_faults(brief: DelegationBrief) -> tuple[str, ...]:
    in_env = tuple(
        f"env {name}: {row.loads} (row {row.id}): a check would observe what that code "
        "says, not the candidate's suite; remove it from the brief's env"
        for name, row in loading_env(brief.env or {})
    )
    return in_env + command_load_faults(
        (what, cmd if isinstance(cmd, str) else shlex.join(cmd)) for what, cmd in _checks(brief)
    )


def command_load_faults(checks: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """Rule B5 for the checks' own commands: one line per (what, shell line) that sets or
    exports a variable of :data:`~gentle_hooks.policy.loadenv.RUN_ROWS` for what it runs
    (``PYTEST_ADDOPTS=--ignore=x pytest``, ``env PYTEST_ADDOPTS=... pytest``, ``env -S``,
    ``export PYTEST_ADDOPTS=...; pytest``:
    :func:`~gentle_hooks.policy.loadenv.loading_assignments`), naming the variable, in
    order; empty when none does. The same variable in the brief's ``env`` is refused, and
    the same options on the runner's command line (``--ignore``, ``-k``, ``-o``...) block
    the verdict: set in front of the command they would narrow the suite unseen."""
    return tuple(
        f"{what} sets {name}: {row.loads} (row {row.id}): the check would run what those "
        "options say, not the candidate's suite; remove the assignment from the command"
        for what, command in checks
        for name, row in loading_env(dict.fromkeys(loading_assignments(command), ""))
    )


@frozen
class BriefRule:
    """One brief rule: a stable id, the rule in words, and a check naming its faults."""

    id: str
    rule: str
    faults: Callable[[DelegationBrief], tuple[str, ...]]


#: Seed 001 "Workflow" step 1 and "Rules": the reasons a brief is rejected (B1-B3; B4 for
#: its checks: seed 001 "Contract", the verifier gets the artifact and nothing else).
BRIEF_RULES: tuple[BriefRule, ...] = (
    BriefRule("B1", "the brief has boundaries", _boundary_faults),
    BriefRule("B2", "the brief has a stopCondition", _stop_faults),
    BriefRule("B3", "readOnly false declares a mutating side effect", _read_only_faults),
    # this tool's extension, as the checks are (:mod:`gentle_hooks.policy.reach`)
    BriefRule("B4", "every check stays in the clean room's tree", _room_faults),
    # :mod:`gentle_hooks.policy.loadenv`
    BriefRule(
        "B5",
        "the brief's env and its checks' commands change nothing a runner or the interpreter loads",
        _load_faults,
    ),
)


def check_brief(brief: DelegationBrief) -> list[str]:
    """Every reason to reject ``brief`` before a worker starts (seed 001, "Workflow" 1; SPEC §9).

    Args:
        brief: a parsed brief.

    Returns:
        One line per fault, each prefixed with its :data:`BRIEF_RULES` id, in rule order;
        empty when the brief is acceptable. B1 no boundaries (absent, empty, or only blank
        or placeholder entries: ``none``, ``n/a``); B2 no stopCondition (absent, blank or a
        placeholder); B3 ``readOnly: false`` without a
        declared mutating side effect (:func:`mutating_side_effects`); B4 a check, or a
        variable of its ``env``, that reaches outside the clean room's tree (an absolute
        path, a home directory, a path out of the room:
        :data:`~gentle_hooks.policy.reach.REACH_ROWS`); B5 a variable of its ``env`` that
        changes what a test runner or the interpreter loads
        (:data:`~gentle_hooks.policy.loadenv.LOAD_ENV_ROWS`), or one a check's command
        sets for what it runs (:func:`command_load_faults`).
    """
    return [f"{rule.id} {fault}" for rule in BRIEF_RULES for fault in rule.faults(brief)]


def parse_brief(data: bytes | str, source: str = "brief") -> DelegationBrief:
    """Parse a :class:`DelegationBrief` from JSON text or bytes.

    Args:
        data: the JSON document.
        source: what to call it in messages (a path, ``-``).

    Raises:
        ArtifactInputError: not UTF-8, not JSON, duplicate keys, not an object, unknown or
            mistyped fields, a missing or blank objective or outputFormat (exit 2).
    """
    return parse_object_model(data, source, DelegationBrief)
