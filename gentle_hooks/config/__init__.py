"""Configuration (SPEC §7 "Config"): ``[tool.gentle-hooks]`` or ``.gentle-hooks.toml``, git
config and environment, validated and compiled into settings.

Room ``config``. Two stages: the raw TOML table is validated into a pydantic model, then
compiled with the overrides into frozen settings. Imports flow up this list:

* :mod:`.keys` — the precedence table: which git keys and variables override what.
* :mod:`.settings` — the compiled settings, frozen values (the runtime form).
* :mod:`.regex_shape` — the regex shapes that backtrack exponentially, refused at load.
* :mod:`.schema` — the file's pydantic schema (imported only when a table exists).
* :mod:`.load` — read, validate and compile; the range gate reads the base's file.
* :mod:`.probe` — the hook pass path's one question (``gate.applies_to``).
"""
