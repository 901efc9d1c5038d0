"""Which candidate a command binds to (SPEC §3 "Binding").

Room ``values``, a pure value type (standard library and
:mod:`gentle_hooks.values.candidate`). A value every layer can hold without importing the
recording stack: the assess service carries it on its result, and :meth:`Binding.flags`
(through :func:`gentle_hooks.report.fixes.binding_flags`) turns it into the flags of the
commands a report prints.
"""

from __future__ import annotations

from gentle_hooks.values.candidate import Projection
from gentle_hooks.values.frozen import frozen, replace


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
        top: the work tree's absolute root, where git runs hooks and where the writer's
            reports a block names ran (a report's command is relative to it), or None
            when unknown; never a flag by itself: a printed ``receipt run`` carries it as
            ``--cwd`` when :attr:`cwd` is None, so it runs the same pasted anywhere.
    """

    cwd: str | None = None
    projection: Projection = Projection.SNAPSHOT
    base_ref: str | None = None
    brief: str | None = None
    top: str | None = None

    def words(self) -> tuple[str, ...]:
        """The arguments another command needs to bind to the same candidate (none for the
        default binding: the snapshot of the current directory): ``--cwd DIR``,
        ``--staged``/``--committed`` and ``--base-ref REF`` in that order; the report
        quotes them for a shell (:func:`gentle_hooks.report.fixes.binding_flags`)."""
        out: tuple[str, ...] = ()
        if self.cwd is not None:
            out += ("--cwd", self.cwd)
        if self.projection is not Projection.SNAPSHOT:
            out += (f"--{self.projection.value}",)
        if self.base_ref is not None:
            out += ("--base-ref", self.base_ref)
        return out

    def for_prefix(self) -> Binding:
        """The binding a printed ``prefix:`` line (``receipt run ... --``, completed with the
        writer's own test command) carries: this binding itself, never a ``--cwd`` it does
        not already name, so the writer's command runs in the directory the user pastes it
        in, where the writer runs it (SPEC §7)."""
        return replace(self, top=None)

    def for_report(self, rel: str, away: bool, on_server: bool) -> Binding:
        """The binding a printed ``receipt run`` of a command that ran in ``rel`` (relative
        to the work tree root, ``.`` for the root) carries, so it runs the same pasted where
        the user is: ``--cwd`` naming that directory under :attr:`top` when this binding
        names no ``--cwd`` and the command ran below the root or the user is ``away`` from
        it; this binding itself under a server's pre-receive (``on_server``: the server's
        paths mean nothing to the pusher) or when :attr:`top` is unknown."""
        if self.cwd is not None or self.top is None or on_server:
            return self
        if rel in ("", ".") and not away:
            return self
        where = self.top if rel in ("", ".") else f"{self.top.rstrip('/')}/{rel}"
        return replace(self, cwd=where)
