"""``gentle-hook schema NAME``: the JSON Schema of an envelope or an input (SPEC §7).

Room ``cli``. Imports the model named in :data:`SCHEMAS` and prints its pydantic schema.
"""

from __future__ import annotations

import importlib
import json

import click

from gentle_hooks.errors import EXIT_OK

#: Schema name -> "module:Model".
SCHEMAS: dict[str, str] = {
    "assess": "gentle_hooks.report.models:AssessEnvelope",
    "brief": "gentle_hooks.artifacts.brief:DelegationBrief",
    "doctor": "gentle_hooks.report.record_models:DoctorEnvelope",
    "quorum-audit": "gentle_hooks.quorum.audit:AuditReport",
    "quorum-report": "gentle_hooks.quorum.survival:SurvivalReport",
    "quorum-tally": "gentle_hooks.quorum.ruling:TallyRecord",
    "quorum-verdict": "gentle_hooks.quorum.votes:VerifierVerdict",
    "quorum-verdicts": "gentle_hooks.quorum.ballot:VerdictSet",
    "rdd-line": "gentle_hooks.report.rdd_models:RddLineEnvelope",
    "rdd-loadout": "gentle_hooks.report.rdd_models:RddLoadout",
    "rdd-status": "gentle_hooks.report.rdd_models:RddStatusEnvelope",
    "recorded": "gentle_hooks.report.record_models:RecordedEnvelope",
    "records": "gentle_hooks.report.record_models:RecordListEnvelope",
    "review-assessment": "gentle_hooks.report.models:ReviewAssessment",
    "status": "gentle_hooks.report.record_models:StatusEnvelope",
    "verdict": "gentle_hooks.artifacts.verdict:DelegationVerdict",
    "verify-prepare": "gentle_hooks.report.verify_report:PrepareEnvelope",
    "verify-run": "gentle_hooks.report.verify_report:RunEnvelope",
}

#: Documents the tool reads: their schema describes what the parser *accepts* (validation
#: mode: a list field given as one string, ``2.0`` for an integer). Every other schema
#: describes what the tool prints (serialization mode).
INPUTS: frozenset[str] = frozenset(
    {"brief", "verdict", "quorum-verdict", "quorum-verdicts", "quorum-tally"}
)


def schema_for(name: str) -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of envelope or input ``name`` (a key of :data:`SCHEMAS`).

    Inputs (:data:`INPUTS`) get the validation-mode schema, so that a JSON Schema validator
    and the parser agree on every JSON value; outputs get the serialization-mode schema.

    Raises:
        KeyError: ``name`` is not in :data:`SCHEMAS` (the command's choice list prevents it).
    """
    module, _, attr = SCHEMAS[name].partition(":")
    model = getattr(importlib.import_module(module), attr)
    mode = "validation" if name in INPUTS else "serialization"
    result: dict[str, object] = model.model_json_schema(by_alias=True, mode=mode)
    return result


@click.command()
@click.argument("name", type=click.Choice(sorted(SCHEMAS)))
def schema(name: str) -> int:
    """Print the JSON Schema (draft 2020-12) of envelope or input NAME.

    For an input the tool reads (brief, verdict, quorum-verdict, quorum-verdicts,
    quorum-tally) it is the schema of what the parser accepts; for the rest, of what the
    tool prints.
    """
    click.echo(json.dumps(schema_for(name), indent=2, sort_keys=True))
    return EXIT_OK
