"""Rows of :mod:`gentle_hooks.agents.settings_keys`: the top-level settings of Claude Code's
files gentle-hooks reads, and the keys it does not document."""

from __future__ import annotations

import pytest

from gentle_hooks.agents.settings_keys import (
    CLAUDE_CODE_KEYS,
    READ_KEYS,
    read_key_faults,
    unknown_keys,
)


def test_every_key_read_is_one_claude_code_documents() -> None:
    assert set(READ_KEYS["claude-code"]) | {"hooks"} <= CLAUDE_CODE_KEYS


@pytest.mark.parametrize(
    ("doc", "faults"),
    [
        ({"disableAllHooks": True, "effortLevel": "xhigh"}, []),
        ({"disableAllHooks": 1}, ["disableAllHooks is a JSON number, not a boolean"]),
        ({"allowManagedHooksOnly": None}, ["allowManagedHooksOnly is a JSON null, not a boolean"]),
        (
            {"effortLevel": "max"},
            ['effortLevel is "max", not one of low, medium, high, xhigh'],
        ),
        (
            {"effortLevel": True},
            ["effortLevel is a JSON boolean, not one of low, medium, high, xhigh"],
        ),
        (
            {"effortLevel": ["high"]},
            ["effortLevel is a JSON array, not one of low, medium, high, xhigh"],
        ),
    ],
    ids=["documented", "int-for-bool", "null", "max", "bool-for-level", "array"],
)
def test_read_key_faults(doc: dict[str, object], faults: list[str]) -> None:
    assert read_key_faults(doc, "claude-code") == faults


def test_unknown_keys_in_file_order_and_other_runtimes_unchecked() -> None:
    doc: dict[str, object] = {"zeta": 1, "model": "m", "disableAllhooks": True, "hooks": {}}
    assert unknown_keys(doc, "claude-code") == ["zeta", "disableAllhooks"]
    assert unknown_keys(doc, "gemini-cli") == []
    assert read_key_faults({"disableAllHooks": "yes"}, "gemini-cli") == []
