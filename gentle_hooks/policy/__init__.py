"""The pure policy core (SPEC §5): tables as data, pure functions, no I/O.

Room ``policy``, above ``values`` only. May import the standard library,
:mod:`gentle_hooks.errors` and :mod:`gentle_hooks.values` (frozen value types); never
click, pydantic, ``os.environ``, the clock or files. Time and environment
are arguments. ``tests/unit/test_policy_purity.py`` proves it.
"""
