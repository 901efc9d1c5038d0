"""What ``gentle-hook assess`` does once its arguments are parsed (SPEC §3-§5, §7).

Room ``cli``, command body, without click: :mod:`gentle_hooks.cli.assess` (click) and the fast
path of :mod:`gentle_hooks.main` (a strict subset of the flags, parsed by hand so that
``assess`` does not pay click's ≈ 40 ms import)
both call :func:`assess_command`, so the two cannot drift.
"""

from __future__ import annotations

import os
import sys

from gentle_hooks.errors import EXIT_OK, GentleError, UsageError
from gentle_hooks.report.assess_json import build_envelope, envelope_json, failure_json
from gentle_hooks.report.text import caller_closed_note, render_assess
from gentle_hooks.services.assess import AssessRequest, parse_request, run_assess
from gentle_hooks.values.candidate import Projection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.hooks.range import CannotAssess
    from gentle_hooks.values.json import JsonObject

#: Flags :func:`fast_assess_args` takes; anything else is click's to parse.
FAST_FLAGS = {"--committed-only": "committed_only", "--staged": "staged", "--json": "as_json"}
FAST_OPTIONS = {"--base-ref": "base_ref"}


def assess_command(
    *,
    cwd: str | None = None,
    base_ref: str | None = None,
    committed_only: bool = False,
    staged: bool = False,
    as_json: bool = False,
    explain: bool = False,
    escalate_item: str | None = None,
    escalate_reason: str | None = None,
    review_outcome: str | None = None,
    writer_model: str | None = None,
    writer_effort: str | None = None,
    native: str | None = None,
) -> int:
    """Assess the candidate and print the plan (text, or the JSON envelope with
    ``as_json``) to stdout. Arguments are the ``assess`` options, by their names.

    Returns:
        0: informational, whatever the plan says.

    Raises:
        UsageError: ``--committed-only`` with ``--staged``; GentleError: as
            :func:`gentle_hooks.services.assess.run_assess`. With ``as_json`` the
            failure envelope (:func:`~gentle_hooks.report.assess_json.failure_json`) is
            printed on stdout first, as upstream's ``review assess --json`` does: an
            argument refused before the candidate is named (a bad escalation, effort,
            outcome or provider) reports ``current-changes``; a later refusal echoes
            ``--base-ref``.
    """
    projection = Projection.COMMITTED if committed_only else Projection.STAGED if staged else None
    if base_ref is not None:  # upstream trims --base-ref; a blank one names no base
        base_ref = base_ref.strip() or None
    request = AssessRequest(
        cwd=cwd,
        base_ref=base_ref,
        projection=projection,
        escalate_item=escalate_item,
        escalate_reason=escalate_reason,
        review_outcome=review_outcome,
        writer_model=writer_model,
        writer_effort=writer_effort,
        native=native,
    )
    named = None  # upstream names the candidate only once the arguments are accepted
    try:
        if committed_only and staged:
            raise UsageError("--committed-only and --staged are two different candidates; pick one")
        parse_request(request)
        named = base_ref
        result = run_assess(request, os.environ)
    except GentleError as exc:
        gap = _base_gap(cwd, named, projection, as_json) if named is not None else None
        message = gap.message if gap is not None else exc.message
        if as_json:
            kind = projection.value if projection is not None else None
            print_failure(failure_json(kind, named, message))
        if gap is None:
            raise
        if gap.fix is None:
            raise gap from exc
        # one line, the command that resolves it last (as every error line ends)
        sys.stderr.write(f"gentle-hook: error: {message}; run: {gap.fix}\n")
        return int(gap.exit_code)
    text = envelope_json(build_envelope(result)) if as_json else render_assess(result, explain)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    note = caller_closed_note(review_outcome, result)
    if note is not None:  # not silently: the caller's closed is not the outcome
        sys.stderr.write(note + "\n")
    return EXIT_OK


def _base_gap(
    cwd: str | None, base_ref: str, projection: Projection | None, as_json: bool
) -> CannotAssess | None:
    """:func:`~gentle_hooks.hooks.range.base_gap` of a failed assess, its fix keeping
    ``--cwd``, ``--json`` and the projection; None when it has nothing to add (or fails
    itself)."""
    from gentle_hooks.hooks.range import base_gap

    words: tuple[str, ...] = ("--cwd", cwd) if cwd is not None else ()
    if as_json:
        words = (*words, "--json")
    if projection is Projection.COMMITTED:
        words = (*words, "--committed-only")
    elif projection is Projection.STAGED:
        words = (*words, "--staged")
    try:
        return base_gap(cwd, base_ref, words)
    except GentleError:
        return None


def json_requested(args: list[str]) -> bool:
    """Whether ``assess`` arguments ask for JSON as upstream's ``reviewFlagProvided`` reads
    them: ``--json`` anywhere, or ``--json=VALUE`` with a value other than ``false``/``0``."""
    for arg in args:
        if arg == "--json":
            return True
        if arg.startswith("--json="):
            return arg[len("--json=") :] not in ("false", "0")
    return False


def usage_failure(args: list[str], message: str) -> None:
    """Print the failure envelope for ``assess`` arguments click refused (an unknown
    option, a bad value, an extra argument) when they ask for JSON (:func:`json_requested`),
    as upstream does for a flag it cannot parse: ``current-changes``, nothing named yet."""
    if json_requested(args):
        print_failure(failure_json(None, None, message))


def print_failure(envelope: JsonObject) -> None:
    """Write a failure envelope on stdout (the one line goes to stderr, by the caller)."""
    sys.stdout.write(envelope_json(envelope) + "\n")
    sys.stdout.flush()


def fast_assess_args(args: list[str]) -> dict[str, object] | None:
    """``assess`` arguments as :func:`assess_command` keywords, when they are only
    ``--committed-only``, ``--staged``, ``--json`` and ``--base-ref REF`` (or
    ``--base-ref=REF``), each at most once, values not starting with ``-``; None for
    anything else (help, other options, repeats, ``--``): click parses those.
    """
    out: dict[str, object] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition("=")
        if arg in FAST_FLAGS and FAST_FLAGS[arg] not in out:
            out[FAST_FLAGS[arg]] = True
        elif name in FAST_OPTIONS and FAST_OPTIONS[name] not in out:
            if not eq:
                i += 1
                if i >= len(args):
                    return None
                value = args[i]
            if not value or value.startswith("-"):
                return None
            out[FAST_OPTIONS[name]] = value
        else:
            return None
        i += 1
    return out
