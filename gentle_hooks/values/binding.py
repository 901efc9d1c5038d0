"""Which candidate a command binds to (SPEC §3 "Binding"), and the flags that name it again.

Layer: pure value type (standard library and :mod:`gentle_hooks.values.candidate`). Its own module so
``assess`` can print fix commands without importing the recording stack; records, the
spot check and the CLI import it from :mod:`gentle_hooks.services.record` as before.
"""

from __future__ import annotations

import shlex

from gentle_hooks.values.candidate import Projection
from gentle_hooks.values.frozen import frozen


@frozen
class Binding:
    """Which candidate a command binds to (SPEC §3 "Binding").

    Attributes:
        cwd: directory inside the repository (``--cwd``), or None for the current one.
        projection: snapshot (default), committed (``--committed``) or staged.
        base_ref: ``--base-ref`` or None (config, origin/HEAD, fallback chain).
    """

    cwd: str | None = None
    projection: Projection = Projection.SNAPSHOT
    base_ref: str | None = None

    def flags(self) -> str:
        """The flags another command needs to bind to the same candidate, with a
        leading space (``""`` for the default), for the fix commands we print."""
        out = ""
        if self.cwd is not None:
            out += f" --cwd {shlex.quote(self.cwd)}"
        if self.projection is not Projection.SNAPSHOT:
            out += f" --{self.projection.value}"
        if self.base_ref is not None:
            out += f" --base-ref {shlex.quote(self.base_ref)}"
        return out
