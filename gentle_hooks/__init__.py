"""gentle-hooks: a git delivery gate for AI-written code.

Layer: package root. Imports nothing, so that ``import gentle_hooks`` stays free on the
hook's pass path (SPEC §2 "Start-up is part of the product").
"""

__version__ = "0.1.0"
