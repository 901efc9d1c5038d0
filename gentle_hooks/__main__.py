"""``python -m gentle_hooks``: the same entry point as the ``gentle-hook`` script."""

from gentle_hooks.main import entry

entry()
