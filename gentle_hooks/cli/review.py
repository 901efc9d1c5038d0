"""``gentle-hook review decline|unavailable|ack``: review outcome facts (SPEC §5).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os

import click

from gentle_hooks.cli.options import binding_options, echo_recorded, json_option
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.services.record import Binding, record_review


@click.command()
@binding_options
@json_option
@click.argument("verb", metavar="decline|unavailable|ack")
def review(binding: Binding, as_json: bool, verb: str) -> int:
    """Record the review outcome for this exact candidate.

    decline / unavailable: the native review was declined or is unavailable (wins over a
    closure). ack: you acknowledged the review of this candidate; it is shown, but only the
    native provider's own consumed fact closes a review (never a caller's word). No outcome
    removes a verifier the tier requires or authorizes delivery.
    """
    rec = record_review(binding, verb, os.environ)
    echo_recorded(rec, as_json)
    return EXIT_OK
