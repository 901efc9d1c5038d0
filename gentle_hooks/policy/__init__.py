"""The pure policy core (SPEC §5): tables as data, pure functions, no I/O.

Room ``policy``, bottom. May import only the standard library and :mod:`gentle_hooks.errors`;
never click, pygit2, pydantic, ``os.environ``, the clock or files. Time and environment
are arguments. ``tests/unit/test_policy_purity.py`` proves it.
"""
