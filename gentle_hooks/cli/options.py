"""Options shared by the recording commands: ``--cwd``, binding flags, ``--json``.

Room ``cli``. The binding flags select the candidate a record binds to (SPEC §3
"Binding"): the snapshot by default, ``--committed`` for HEAD's tree, ``--staged`` for
the index; ``--base-ref`` chooses the base.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import click

from gentle_hooks.errors import EXIT_OK, UsageError, shown, shown_field
from gentle_hooks.ledger.records import Record
from gentle_hooks.report.jsontext import model_json
from gentle_hooks.services.record import Binding, Bound, Recorded
from gentle_hooks.values.candidate import Projection

F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")
#: A service that lists one kind of record for the bound candidate.
Lister = Callable[[Binding, Mapping[str, str]], tuple[Bound, Sequence[Record]]]

# A record id as the ledger stores it (SQLite INTEGER, 64-bit, from 1 as every block and
# list counts them): 0 or a larger number is refused by click with one line and exit 2
# instead of a lookup that finds nothing or overflows in the query.
ROW_ID = click.IntRange(min=1, max=2**63 - 1)
# An exit status as a process reports it (negative for a signal on POSIX).
EXIT_STATUS = click.IntRange(min=-(2**31), max=2**31 - 1)


class RuntimeName(click.Choice):  # type: ignore[type-arg]
    """An agent runtime's name (``--from``, ``--agent``): one of the choices; anything else is
    bad input (one line, exit 2) that lists the valid names and suggests the closest
    (:func:`gentle_hooks.agents.runtimes.closest_name`: ``claude`` -> ``claude-code``), or,
    for a runtime we know that is not a choice (``record --from aider``), names its page."""

    name = "runtime"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value in self.choices:
            return value
        from gentle_hooks.agents.runtimes import NAMES, closest_name, runtime

        known = tuple(str(c) for c in self.choices)
        typed = str(value)
        near = closest_name(typed, known)
        what = f"'{shown_field(typed)}' is not an agent runtime gentle-hooks knows"
        if near is not None:
            what += f" (did you mean {near}?)"
        if typed in NAMES:  # a runtime with no hook input to decode: its page says what to do
            what = f"{typed!r} has no hook input to decode (see {runtime(typed).doc})"
        self.fail(
            f"{what}; valid names: {', '.join(known)}",
            param,
            ctx,
        )


def cwd_option(f: F) -> F:
    """``--cwd DIR``: run as if in this directory."""
    return click.option(
        "--cwd", type=click.Path(file_okay=False), help="Run as if in this directory."
    )(f)


def json_option(f: F) -> F:
    """``--json``: print the JSON envelope on stdout."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(f)


def sign_key_option(f: F) -> F:
    """``--sign-key KEY``: sign the record's note line with this SSH key (git's
    ``user.signingKey`` forms: a key file, or ``key::<public key>`` held by the agent)."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        # refused before anything is recorded: a record whose note cannot be signed as
        # asked would be shared unsigned
        import os

        is_literal = bool(value) and str(value).startswith("key::")
        if value and not is_literal and not os.path.isfile(os.path.expanduser(value)):
            raise UsageError(f"--sign-key {value}: no such file")
        # a key file named relative to where the user is: ssh-keygen signs elsewhere
        return os.path.abspath(os.path.expanduser(value)) if value and not is_literal else value

    return click.option(
        "--sign-key",
        metavar="KEY",
        callback=check,
        help="Sign the record's note line with this SSH key (default: user.signingKey "
        "when gentle.signRecords is true). The line is signed when the record is bound to "
        "a commit (--committed after the commit).",
    )(f)


def binding_options(f: Callable[..., R]) -> Callable[..., R]:
    """``--cwd``, ``--committed``/``--staged`` and ``--base-ref``: the candidate to bind to.

    The command receives them as one ``binding: Binding`` keyword argument (see
    :func:`make_binding`) instead of the three parsed values.
    """

    @functools.wraps(f)
    def bound(
        *args: Any, cwd: str | None, projection: str | None, base_ref: str | None, **kwargs: Any
    ) -> R:
        return f(*args, binding=make_binding(cwd, projection, base_ref), **kwargs)

    g: Callable[..., R] = bound
    g = click.option("--base-ref", help="Base ref; default: config, origin/HEAD, origin/main, ...")(
        g
    )
    g = click.option(
        "--staged",
        "projection",
        flag_value="staged",
        help="Bind to the index (the one git hands a hook).",
    )(g)
    g = click.option(
        "--committed",
        "--committed-only",
        "projection",
        flag_value="committed",
        help="Bind to HEAD's tree instead of the work tree.",
    )(g)
    return cwd_option(g)


def make_binding(cwd: str | None, projection: str | None, base_ref: str | None) -> Binding:
    """Build the :class:`Binding` from the parsed binding options."""
    return Binding(
        cwd=cwd,
        projection=Projection(projection) if projection else Projection.SNAPSHOT,
        base_ref=base_ref,
    )


def recorded_json(rec: Recorded) -> str:
    """The ``--json`` output of a recording command."""
    from gentle_hooks.report.record_models import RecordedEnvelope, record_out

    env = RecordedEnvelope(
        ledger=rec.ledger,
        identity=rec.candidate.identity if rec.candidate is not None else None,
        record=record_out(rec.record),
        notes=rec.notes,
    )
    return model_json(env, by_alias=True, indent=2)


def echo_recorded(rec: Recorded, as_json: bool, *, err: bool = False) -> None:
    """Print a recording command's result: JSON on stdout, or one line (``recorded: ...``,
    or ``spooled: ...`` when the ledger was busy) and then its notes, the same whichever
    way it was stored (a warning on the record, such as an effort recorded as unknown)."""
    from gentle_hooks.report.fixes import with_fix
    from gentle_hooks.report.records_text import describe, short_identity

    if as_json:
        click.echo(recorded_json(rec))
        return
    if rec.spooled is not None:
        click.echo(
            with_fix(
                f"spooled: {describe(rec.record)} in {shown(rec.spooled)}: {rec.spool_reason}; "
                "the next command that opens the ledger folds it in",
                rec.spool_fix,
            ),
            err=err,
        )
    else:
        where = f" for {short_identity(rec.candidate.identity)}" if rec.candidate else ""
        click.echo(f"recorded{where}: {describe(rec.record)}", err=err)
    for note in rec.notes:
        click.echo(f"note: {shown_field(note)}", err=err)  # a note may quote a payload


def echo_record_list(bound: Bound, records: Sequence[Record], noun: str, as_json: bool) -> None:
    """Print the records of the bound candidate: the ``RecordListEnvelope`` as JSON, or one
    line each (``no <noun> for <identity>`` when there are none)."""
    from gentle_hooks.report.record_models import RecordListEnvelope, record_out
    from gentle_hooks.report.records_text import describe, short_identity
    from gentle_hooks.services.record import store_path

    if as_json:
        env = RecordListEnvelope(
            ledger=store_path(bound.repo),
            identity=bound.candidate.identity,
            records=tuple(record_out(r) for r in records),
        )
        click.echo(model_json(env, by_alias=True, indent=2))
        return
    if not records:
        click.echo(f"no {noun} for {short_identity(bound.candidate.identity)}")
    for r in records:
        click.echo(describe(r))


def record_list_command(group: click.Group, noun: str) -> Callable[[Lister], Lister]:
    """Register ``<group> list`` for the decorated lister: the binding flags and
    ``--json``, then :func:`echo_record_list` of what the lister returns under the process
    environment (``noun`` names the records when there are none). The lister's docstring
    is the command's help; the lister is returned unchanged."""

    def register(lister: Lister) -> Lister:
        @group.command("list", help=lister.__doc__)
        @binding_options
        @json_option
        def list_(binding: Binding, as_json: bool) -> int:
            import os

            bound, records = lister(binding, os.environ)
            echo_record_list(bound, records, noun, as_json)
            return EXIT_OK

        return lister

    return register
