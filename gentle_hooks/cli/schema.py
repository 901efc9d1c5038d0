"""``gentle-hook schema NAME``: the JSON Schema of an envelope (SPEC §7)."""

from __future__ import annotations

import importlib
import json

import click

from gentle_hooks.errors import EXIT_OK

#: Schema name -> "module:Model".
SCHEMAS: dict[str, str] = {
    "assess": "gentle_hooks.models:AssessEnvelope",
    "brief": "gentle_hooks.verdict:DelegationBrief",
    "doctor": "gentle_hooks.ledger_models:DoctorEnvelope",
    "quorum-report": "gentle_hooks.quorum:SurvivalReport",
    "quorum-tally": "gentle_hooks.quorum:TallyRecord",
    "quorum-verdict": "gentle_hooks.quorum:VerifierVerdict",
    "rdd-line": "gentle_hooks.rdd_models:RddLineEnvelope",
    "rdd-loadout": "gentle_hooks.rdd_models:RddLoadout",
    "rdd-status": "gentle_hooks.rdd_models:RddStatusEnvelope",
    "recorded": "gentle_hooks.ledger_models:RecordedEnvelope",
    "records": "gentle_hooks.ledger_models:RecordListEnvelope",
    "review-assessment": "gentle_hooks.models:ReviewAssessment",
    "status": "gentle_hooks.ledger_models:StatusEnvelope",
    "verdict": "gentle_hooks.verdict:DelegationVerdict",
}


@click.command()
@click.argument("name", type=click.Choice(sorted(SCHEMAS)))
def schema(name: str) -> int:
    """Print the JSON Schema (draft 2020-12) of envelope NAME."""
    module, _, attr = SCHEMAS[name].partition(":")
    model = getattr(importlib.import_module(module), attr)
    click.echo(
        json.dumps(
            model.model_json_schema(by_alias=True, mode="serialization"), indent=2, sort_keys=True
        )
    )
    return EXIT_OK
