"""The hook pass path's read of configuration: does the gate apply to every commit?

Room ``config``, light probe: standard library only; the config file is parsed (``tomllib``)
only when it mentions gentle-hooks at all. Precedence and names come from
:mod:`gentle_hooks.config.keys`, the table the full load (:mod:`gentle_hooks.config.load`)
reads too; only ``gate.applies_to`` is read here, and every other path validates the whole
file, so a typo elsewhere is reported there.
"""

from __future__ import annotations

import os

from gentle_hooks.config.keys import CHOICES, env_var, git_key

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def applies_to_all(
    root: str | None, env: Mapping[str, str], git_value: Callable[[str], str | None]
) -> bool:
    """``gate.applies_to == "all"`` from the environment, git config or the config file.

    Args:
        root: the work tree root, or None (bare: no file).
        env: the hook's environment.
        git_value: reads one git config key (asked only when the environment is silent).

    Raises:
        ConfigError: the deciding value is not one of ``delegated``, ``all``.
    """
    var = env_var("applies_to")
    value, where_from = env.get(var), var
    if not value:
        key = git_key("applies_to")
        value, where_from = git_value(key), f"git config {key}"
    if not value and root is not None and _mentions_us(root):
        from gentle_hooks.config.load import raw_gate_value

        value, where_from = raw_gate_value(root, "applies_to")
    if not value:
        return False
    if value not in CHOICES["applies_to"]:
        from gentle_hooks.errors import ConfigError, quoted

        raise ConfigError(f"{where_from}: {quoted(value)} is not one of delegated, all")
    return value == "all"


def _mentions_us(root: str) -> bool:
    """Whether a config file at ``root`` may hold our table (cheap: no TOML parse)."""
    if os.path.lexists(os.path.join(root, ".gentle-hooks.toml")):
        return True
    from gentle_hooks.bounded import InputFileError, read_regular

    path = os.path.join(root, "pyproject.toml")
    if not os.path.lexists(path):
        return False
    try:
        return b"gentle-hooks" in read_regular(path)
    except InputFileError:
        return True  # unreadable or not a file: the full read says why, in one line
