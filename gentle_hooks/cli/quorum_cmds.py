"""``gentle-hook brief check`` and ``gentle-hook quorum tally|report|audit`` (SPEC §9; seeds
001, 003).

Room ``cli``. Thin: read the files, call :mod:`gentle_hooks.artifacts.brief` and
:mod:`gentle_hooks.quorum` (ballot, ruling, survival), render. Exit codes: 0 informational
or accepted, 1 a brief rejected by policy, 2 input that cannot be read as what it claims
to be (raised as :class:`~gentle_hooks.errors.GentleError`).
"""

from __future__ import annotations

import os

import click

from gentle_hooks.artifacts.brief import check_brief, parse_brief
from gentle_hooks.bounded import read_regular, read_stdin
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK, UsageError
from gentle_hooks.policy.stakes import Stakes
from gentle_hooks.quorum.ballot import (
    named_candidates,
    parse_verdict_file,
    resolve_claim,
    resolve_evidence,
)
from gentle_hooks.quorum.judging import NO_TREE
from gentle_hooks.quorum.ruling import TallyRecord, build_record, parse_tally_records
from gentle_hooks.quorum.survival import survival_report
from gentle_hooks.report.jsontext import model_json
from gentle_hooks.services.brief_checks import brief_command_faults

#: Most bytes of verdict files one ``quorum tally`` reads, in all (a handful of verdicts of
#: at most :data:`~gentle_hooks.quorum.votes.MAX_TEXT` characters each fit): with it, a
#: tally's time is bounded.
MAX_TALLY_BYTES = 64 * 1024
#: Most bytes of tally record files one ``quorum report`` or ``quorum audit`` reads, in
#: all: each stored vote is judged again (a record is re-derived from its votes, never
#: believed), ~10 µs a byte of dense vote text, linear; a thousand findings fit.
MAX_RECORDS_BYTES = 1024 * 1024


def read_input(path: str) -> bytes:
    """The bytes of ``path``, or of standard input for ``-``.

    Raises:
        InputFileError: the file cannot be read (missing, no permission, not a regular file:
            a directory, a FIFO, a device; larger than the cap), never waited on.
    """
    if path == "-":
        return read_stdin(_label(path))
    return read_regular(path)


_CONTROL = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0)], " ")


def _line(text: str | None) -> str:
    """Verifier-supplied text as one printable line: it cannot forge output lines or send
    terminal escapes."""
    return " ".join((text or "").translate(_CONTROL).split())


def _label(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _tally_records(paths: tuple[str, ...]) -> list[TallyRecord]:
    """The tally records of ``paths`` (``-``: standard input, once), every file read and
    its size checked before any record is judged.

    Raises:
        UsageError: more than :data:`MAX_RECORDS_BYTES` in all; InputFileError /
            an inconsistent record: as :func:`read_input` / :func:`parse_tally_records`.
    """
    _one_stdin(paths)
    data: list[tuple[bytes, str]] = []
    total = 0
    for path in paths:
        data.append((read_input(path), _label(path)))
        total += len(data[-1][0])
        if total > MAX_RECORDS_BYTES:
            # judging the votes again costs time linear in their text: this bounds it
            raise UsageError(
                f"the tally record files hold more than {MAX_RECORDS_BYTES // 1024 // 1024} "
                "MiB in all: report on fewer findings at a time (a lens, a period)"
            )
    return [r for raw, label in data for r in parse_tally_records(raw, label)]


def _one_stdin(paths: tuple[str, ...]) -> None:
    if paths.count("-") > 1:
        raise UsageError("standard input (-) can be read only once")


def _distinct_files(paths: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each file once, compared by real path (``a.json``, ``./a.json`` and a symlink to it
    are one file), and one note per file given more than once."""
    first: dict[str, str] = {}
    counts: dict[str, int] = {}
    unique: list[str] = []
    for path in paths:
        key = path if path == "-" else os.path.realpath(path)
        if key not in first:
            first[key] = path
            unique.append(path)
        counts[key] = counts.get(key, 0) + 1
    notes = tuple(
        f"{_label(first[key])} given {n} times: read once" for key, n in counts.items() if n > 1
    )
    return tuple(unique), notes


@click.group()
def brief() -> None:
    """Delegation briefs (seed 001 verify-delegation): check one before a worker starts."""


@brief.command("check")
@click.argument("file", metavar="FILE|-")
def brief_check(file: str) -> int:
    """Check the DelegationBrief in FILE (or - for standard input).

    Rejected, exit 1, naming each fault: no boundaries, no stopCondition, readOnly false
    without a declared mutating side effect, a check whose command observes nothing
    (`true` as a criterion, `false` as a negative test: verify run refuses them too), or a
    check or env entry that reaches outside the clean room's tree (B4: cd /abs, an
    absolute path, ~, ../..).
    Exit 2 when FILE is not a DelegationBrief (see `gentle-hook schema brief`).
    """
    label = _label(file)
    parsed = parse_brief(read_input(file), label)
    # a brief is ok only when verify run would run it: no command that observes nothing
    faults = [*check_brief(parsed), *brief_command_faults(parsed)]
    if faults:
        for fault in faults:
            click.echo(f"{label}: brief rejected: {_line(fault)}", err=True)
        return EXIT_BLOCKED
    click.echo(f"{label}: brief ok")
    return EXIT_OK


@click.group()
def quorum() -> None:
    """Adversarial verification of findings (seed 003): tally verdicts, report survival."""


@quorum.command("tally")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--claim",
    metavar="TEXT",
    help="The finding's claim (required here or as a verdict set's claim field).",
)
@click.option(
    "--evidence",
    metavar="TEXT",
    help="The miner's evidence for the claim (or a verdict set's evidence field): a "
    "whatIChecked restating it abstains.",
)
@click.option("--finding", metavar="ID", help="The finding's id, kept in the record.")
@click.option("--lens", metavar="NAME", help="The lens that mined the finding (for `report`).")
@click.option(
    "--stakes",
    type=click.Choice([s.value for s in Stakes]),
    default=Stakes.ORDINARY.value,
    show_default=True,
    help="Valid verdicts needed to confirm: ordinary 1, shipping 1 (2 with --critical), "
    "audit 3, lens-diverse 3 each with a different lens.",
)
@click.option("--critical", is_flag=True, help="The finding is marked critical.")
@click.option(
    "--observed",
    metavar="VERDICT",
    help="A DelegationVerdict `verify run` wrote here: an upheld verdict supports only "
    "when a file:line quote of it is at that line of that candidate's tree, or a "
    "command of it is one the clean room ran; else it refutes.",
)
@click.option(
    "--tree",
    metavar="REV",
    help="The candidate's commit in this repository (HEAD, a branch, a commit id): an "
    "upheld verdict supports only when a file:line quote of it is at that line of REV's "
    "tree; one resting on a command it ran alone stays unchecked (PLAUSIBLE). A verdict "
    "set's candidate, when it names one, must be REV's tree.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the tally record as JSON.")
def quorum_tally(
    files: tuple[str, ...],
    claim: str | None,
    evidence: str | None,
    finding: str | None,
    lens: str | None,
    stakes: str,
    critical: bool,
    observed: str | None,
    tree: str | None,
    as_json: bool,
) -> int:
    """Tally the verifier verdicts of one finding and print its ruling.

    Each FILE (or -) holds one verdict {refuted, reason, whatIChecked, correctedImpact?,
    verifier?, lens?, durationMs?} or a JSON array of them, or a verdict set {"claim": TEXT,
    "verdicts": [...], "candidate"?: ID} (`gentle-hook schema quorum-verdicts`). The claim
    is required, from --claim or a verdict set; when several name it they must agree. An errored
    ({"error": ...}), timed-out ({"timedOut": true}) or malformed verdict, a FILE that is
    not JSON at all, a blank reason, or a whatIChecked that is empty, restates the claim or
    the miner's --evidence, or names no evidence abstains, as does a refutation that
    cites evidence with no act of checking ("app.py:12 `return x`": say it was opened,
    run, grepped or read). A whatIChecked that is a
    narrative ("It is well known that...", "I believe...") refutes. A part that says the
    check failed or never happened ("I could not open a.py:4 (permission denied)", "I did
    not run `grep ...`") is not
    evidence whatever it cites: the verdict counts on the rest, else an errored check
    abstains and a missing, unreproduced or skipped one refutes. A verdict whose durationMs
    is shorter than its evidence could be opened is flagged. Ruling: CONFIRMED
    (uncontested upheld, its evidence checked in the candidate's tree), PLAUSIBLE (no
    valid verdict, a tie, contested, fewer valid verdicts or lenses than the stakes need,
    upheld but checked in no tree; it says what would settle it), REFUTED
    (majority refuted). A FILE given twice is
    read once, and copies of one verdict (the same answer, even under another "verifier"
    label) count once; the output says so. Informational: exits 0 whatever the ruling; 2
    when a FILE cannot be read, the FILEs hold more than 64 KiB in all, a verdict set is
    malformed, there is no claim, or one verifier id gives two different verdicts.

    With --observed VERDICT (a verdict `verify run` wrote and this repository's ledger
    recorded; exit 2 otherwise) evidence reproduces or it refutes: an upheld verdict
    supports only when a file:line it cites with a quote (`...` or "...") has that quote
    at that line of the verdict's candidate tree, or a command it names in backticks is
    one the clean room ran (with the exit status it states, if any). With --tree REV the
    same holds for a file:line quote, against REV's tree; a command no clean room recorded
    checks nothing, so a verdict resting on one alone is unchecked.

    A verdict set's "candidate" (the full commit or tree id the verdicts judged) is read
    as --tree reads a commit. Exit 2, one line: an id that is not a full object id, is no
    object of this repository or names a blob; two sets naming different trees; a set
    naming one tree and --tree or --observed another.

    Without --observed, --tree or a candidate no tree is read (the tally cannot know which
    tree is the candidate: HEAD, the index or the work tree), so no upheld verdict's
    evidence is shown to reproduce: the ruling is at most PLAUSIBLE, and "to settle" names
    --tree/--observed.
    """
    _one_stdin(files)
    unique, repeats = _distinct_files(files)
    data = [(read_input(path), _label(path)) for path in unique]
    if sum(len(d) for d, _ in data) > MAX_TALLY_BYTES:
        # judging a verdict costs time linear in its text: this bounds a tally's time
        raise UsageError(
            f"the verdict files hold more than {MAX_TALLY_BYTES // 1024} KiB in all: one "
            "tally is one finding's verdicts, a few per verifier"
        )
    parsed = tuple(parse_verdict_file(d, label) for d, label in data)
    the_claim = resolve_claim(claim, parsed)
    the_evidence = resolve_evidence(evidence, parsed)
    verdicts = [v for f in parsed for v in f.verdicts]
    source = None
    named = named_candidates(parsed)
    if observed is not None or tree is not None or named:
        from gentle_hooks.services.quorum_source import tally_source

        source = tally_source(named, observed, tree)
    record = build_record(
        verdicts,
        the_claim,
        finding=finding,
        lens=lens,
        stakes=stakes,
        critical=critical,
        duplicates=repeats,
        evidence=the_evidence,
        source=source,
    )
    if as_json:
        click.echo(model_json(record, by_alias=True, indent=2))
        return EXIT_OK
    t = record.tally
    name = f" {_line(finding)}" if finding else ""
    # the rule's id is in --json (row); people read why in words
    click.echo(f"{record.ruling}{name}  ({record.why})")
    lenses = f" of {t.required} different lenses" if t.diverse else ""
    click.echo(
        f"  survives {'yes' if t.survives else 'no'}; upheld {t.upheld}, refuted {t.refuted}, "
        f"abstained {t.abstained}, contested {'yes' if t.contested else 'no'}; "
        f"stakes {record.stakes.value}{' critical' if critical else ''} "
        f"needs {t.required} valid verdict{'' if t.required == 1 else 's'}{lenses}"
    )
    if record.settle is not None:
        click.echo(f"  to settle: {record.settle}")
    for note in record.duplicates:
        click.echo(f"  counted once: {_line(note)}")
    for vote in record.votes:
        if vote.abstention is not None:
            click.echo(f"  abstained: {_line(vote.abstention)}")
        elif vote.overruled is not None:
            click.echo(f"  refuted, though it upheld: {_line(vote.overruled)}")
        elif vote.refuted:
            impact = vote.correctedImpact
            tail = f" (corrected impact: {_line(impact)})" if impact else ""
            click.echo(f"  refuted: {_line(vote.reason)}{tail}")
        elif vote.unchecked is not None and vote.unchecked != NO_TREE:
            # no tree at all is said once, by the ruling and its settle line
            click.echo(f"  upheld, unchecked: {_line(vote.unchecked)}")
        if vote.tooFast is not None:
            who = f" {_line(vote.verifier)}" if vote.verifier else ""
            click.echo(f"  flag too-fast{who}: {_line(vote.tooFast)}")
    return EXIT_OK


@quorum.command("report")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def quorum_report(files: tuple[str, ...], as_json: bool) -> int:
    """Survival rate overall and per lens over stored tally records, with calibration flags.

    Each FILE (or -) holds tally records as `quorum tally --json` writes them: one object or
    a JSON array. (The ledger will feed this command its stored tallies; until then, pass
    the files.) Flags: 100% survival, under 50%, sharp variation by lens, each with its
    likely meaning. A finding counted twice would pad the rate, so it is refused: the same
    finding id, or the same claim, in two records (identical records included).
    Informational: exits 0; 2 when a FILE is unreadable, not JSON, holds an inconsistent
    record, or repeats a finding, or the FILEs hold more than 1 MiB in all.
    """
    report = survival_report(_tally_records(files))
    if as_json:
        click.echo(model_json(report, by_alias=True, indent=2))
        return EXIT_OK
    if not report.findings:
        click.echo("no tally records: no survival rate")
        return EXIT_OK
    click.echo(f"survival: {report.survived} of {report.findings} findings ({_pct(report.rate)})")
    for ls in report.lenses:
        click.echo(
            f"  lens {_line(ls.lens) or '(none)'}: {ls.survived} of {ls.findings} ({_pct(ls.rate)})"
        )
    for flag in report.flags:
        click.echo(f"flag: {_line(flag.detail)}")  # its code is in --json
        click.echo(f"  means: {flag.meaning}")
    if not report.flags:
        click.echo("no flags")
    return EXIT_OK


def _sampled(taken: int, wanted: int) -> str:
    """The audit's sample line: how many upheld findings it sampled, and when fewer than
    ``wanted`` exist, that it took them all (seed 003: "Sample two upheld findings")."""
    if taken == 0:
        return (
            "re-check yourself: no upheld (CONFIRMED) finding to sample; a PLAUSIBLE one is "
            "not upheld"
        )
    if taken < wanted:
        return (
            f"re-check yourself (only {taken} upheld finding(s), fewer than the {wanted} to "
            "sample: all of them):"
        )
    return f"re-check yourself ({taken} sampled upheld finding(s)):"


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate * 100:.0f}%"


@quorum.command("audit")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    metavar="N",
    help="The sample's seed (default: a fresh one, printed so the audit can be re-run).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the audit as JSON.")
def quorum_audit(files: tuple[str, ...], seed: int | None, as_json: bool) -> int:
    """Audit the verifiers themselves (seed 003 "Verifying a verification").

    Each FILE (or -) holds tally records as `quorum tally --json` writes them. Prints two
    upheld (CONFIRMED) findings sampled for you to re-check yourself, with what each
    upholding verifier says it opened (every upheld finding when fewer than two exist,
    saying so; a PLAUSIBLE finding is never upheld); findings with a whatIChecked that
    restated the claim; verdicts returned faster than their evidence could be opened;
    upheld verdicts overruled (narrative, no act of checking, failed check). Informational:
    exits 0; 2 when a FILE is unreadable or holds an inconsistent record, or the FILEs hold
    more than 1 MiB in all.
    """
    import secrets

    from gentle_hooks.quorum.audit import AuditedFinding, audit

    records = _tally_records(files)
    chosen = secrets.randbelow(2**31) if seed is None else seed
    report = audit(records, chosen)
    if as_json:
        click.echo(model_json(report, by_alias=True, indent=2))
        return EXIT_OK
    from gentle_hooks.errors import cli
    from gentle_hooks.report.fixes import command_text

    again = command_text(cli("quorum", "audit", "--seed", str(report.seed), *files))
    click.echo(
        f"audit of {report.findings} finding(s), {report.upheld} upheld (CONFIRMED); seed "
        f"{report.seed} (again: {again})"
    )

    def finding(f: AuditedFinding) -> str:
        name = f"{_line(f.finding)}: " if f.finding else ""
        return f"  {name}{_line(f.claim)}  ({f.ruling})"

    click.echo(_sampled(len(report.sample), report.wanted))
    for f in report.sample:
        click.echo(finding(f))
        for v in f.votes:
            who = _line(v.verifier) or "a verifier"
            click.echo(f"    {who} opened: {_line(v.whatIChecked)}")
    for title, group in (
        ("whatIChecked restating the claim", report.restating),
        ("verdicts faster than their evidence could be opened", report.too_fast),
        (
            "upheld verdicts overruled (narrative, no act of checking, failed check)",
            report.narrative,
        ),
    ):
        click.echo(f"{title}: {len(group) or 'none'}")
        for f in group:
            click.echo(finding(f))
            for v in f.votes:
                who = _line(v.verifier) or "a verifier"
                click.echo(f"    {who}: {_line(v.note)}")
    return EXIT_OK
