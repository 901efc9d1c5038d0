"""Which candidate a command binds to (SPEC §3 "Binding").

Room ``values``, a pure value type (standard library and
:mod:`gentle_hooks.values.candidate`). A value every layer can hold without importing the
recording stack: the assess service carries it on its result, and :meth:`Binding.flags`
(through :func:`gentle_hooks.report.fixes.binding_flags`) turns it into the flags of the
commands a report prints.
"""

from __future__ import annotations

from gentle_hooks.values.candidate import Projection
from gentle_hooks.values.frozen import frozen


@frozen
class Binding:
    """Which candidate a command binds to (SPEC §3 "Binding").

    Attributes:
        cwd: directory inside the repository (``--cwd``), or None for the current one.
        projection: snapshot (default), committed (``--committed``) or staged.
        base_ref: ``--base-ref`` or None (config, origin/HEAD, fallback chain).
        brief: the absolute path a block names for the verifier's brief (outside the work
            tree: a file inside it changes the candidate), or None when the caller knows
            no such place; never a flag (:meth:`flags` and :meth:`words` leave it out).
    """

    cwd: str | None = None
    projection: Projection = Projection.SNAPSHOT
    base_ref: str | None = None
    brief: str | None = None

    def flags(self) -> str:
        """The flags another command needs to bind to the same candidate, each with a
        leading space (``""`` for the default binding: the snapshot of the current
        directory): ``--cwd DIR``, ``--staged``/``--committed`` and ``--base-ref REF`` in
        that order, ``DIR`` and ``REF`` quoted for a POSIX shell."""
        out = ""
        if self.cwd is not None:
            out += f" --cwd {_quote(self.cwd)}"
        if self.projection is not Projection.SNAPSHOT:
            out += f" --{self.projection.value}"
        if self.base_ref is not None:
            out += f" --base-ref {_quote(self.base_ref)}"
        return out

    def words(self) -> tuple[str, ...]:
        """:meth:`flags` as unquoted arguments, in the same order."""
        out: tuple[str, ...] = ()
        if self.cwd is not None:
            out += ("--cwd", self.cwd)
        if self.projection is not Projection.SNAPSHOT:
            out += (f"--{self.projection.value}",)
        if self.base_ref is not None:
            out += ("--base-ref", self.base_ref)
        return out


def _quote(text: str) -> str:
    import shlex  # only a --cwd or --base-ref binding needs quoting: off the gates' path

    return shlex.quote(text)
