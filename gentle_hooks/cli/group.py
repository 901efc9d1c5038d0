"""The ``gentle-hook`` click group (SPEC §7). Thin: parse, call a service, render.

Room ``cli``. Subcommands load lazily from :data:`COMMANDS` (``name ->
"module:attribute"``), so a command imports only what it needs and adding one is a line here.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from gentle_hooks import __version__

#: Every subcommand: name -> "module:attribute" under gentle_hooks.cli.
COMMANDS: dict[str, str] = {
    "assess": "gentle_hooks.cli.assess:assess",
    "brief": "gentle_hooks.cli.quorum_cmds:brief",
    "discard": "gentle_hooks.cli.discard:discard",
    "doctor": "gentle_hooks.cli.doctor:doctor",
    "escalate": "gentle_hooks.cli.escalate:escalate",
    "gate": "gentle_hooks.cli.gate:gate",
    "hook": "gentle_hooks.cli.hook:hook",
    "install": "gentle_hooks.cli.install:install",
    "quorum": "gentle_hooks.cli.quorum_cmds:quorum",
    "rdd": "gentle_hooks.cli.rdd:rdd",
    "receipt": "gentle_hooks.cli.receipt:receipt",
    "record": "gentle_hooks.cli.record:record",
    "review": "gentle_hooks.cli.review:review",
    "schema": "gentle_hooks.cli.schema:schema",
    "spot-check": "gentle_hooks.cli.spot_check:spot_check",
    "status": "gentle_hooks.cli.status:status",
    "sync": "gentle_hooks.cli.sync:sync",
    "uninstall": "gentle_hooks.cli.install:uninstall",
    "verdict": "gentle_hooks.cli.verdict_cmd:verdict",
    "verify": "gentle_hooks.cli.verify:verify",
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        cmd: Any = getattr(importlib.import_module(module), attr)
        return cmd  # type: ignore[no-any-return]


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gentle-hook")
def cli() -> None:
    """gentle-hooks: verify AI-written changes as much as their risk calls for.

    Exit codes: 0 allowed or informational, 1 blocked by policy, 2 usage, bad input,
    config or unreadable store, 3 unexpected (traceback in the log file).
    """
