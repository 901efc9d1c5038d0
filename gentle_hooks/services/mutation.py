"""Recording a writer's pending mutation (SPEC §6 "pending mutation"): the ``record``
command and the runtime adapters' recorder; keyed by the work tree root, not a candidate.

Room ``services``. Validates the writer and the paths, attributes the written content
(:func:`gentle_hooks.services.attribution.entries_for_write`) and stores the mutation once
per runtime tool call; returns what it recorded, never prints.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from gentle_hooks.errors import UsageError, cli
from gentle_hooks.git.location import root_relative
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger import spool
from gentle_hooks.ledger.records import PendingMutation, WriterEntryRecord
from gentle_hooks.ledger.rows import to_row
from gentle_hooks.ledger.sqlite_file import StoreError, unspooled
from gentle_hooks.policy.attribution import writer_delta
from gentle_hooks.policy.inputs import validate_label, validate_paths
from gentle_hooks.policy.writer import parse_effort
from gentle_hooks.services.attribution import entries_for_write
from gentle_hooks.services.confined import confined
from gentle_hooks.services.record import Recorded, open_root, open_store
from gentle_hooks.services.repeat import (
    is_new_call,
    repeated_edit,
    replay_note,
    reset_starts,
    retry_note,
    same_write,
)
from gentle_hooks.services.shell_commits import (
    Written,
    committed_entries,
    original_start,
    written_again,
)
from gentle_hooks.services.shell_modes import named_flips
from gentle_hooks.values.frozen import frozen, replace

#: Environment variables ``record`` reads when ``--model`` / ``--effort`` are absent.
ENV_MODEL = "GENTLE_WRITER_MODEL"
ENV_EFFORT = "GENTLE_WRITER_EFFORT"


@frozen
class MutationRequest:
    """``gentle-hook record`` flags (SPEC §6 "pending mutation").

    Attributes:
        cwd: directory inside the repository; model / effort: the writer (None: read
            ``GENTLE_WRITER_MODEL`` / ``GENTLE_WRITER_EFFORT``); source: the runtime hook;
        session_id / tool_call_id: the runtime's ids; paths: root-relative paths touched.
        allow_unknown: accept ``unknown`` as model and effort (runtime adapters: a writer
            nobody named is recorded, and counts as small).
        here_paths: paths touched as a command line names them: relative to ``cwd`` (the
            current directory when None), like every git command, or absolute inside the
            work tree.
        proposal: when a person modified the writer's proposal before the tool wrote it,
            the content the writer proposed for the one path written (UTF-8): only its
            lines that survive in the file are the writer's
            (:func:`gentle_hooks.policy.proposal.person_start`); None otherwise.
        edited: with ``proposal``, the content the person left (None: unknown, so no line
            is the person's).
        replacements: the text replacements ``(old, new)`` the call made in its one path
            (:attr:`gentle_hooks.agents.event.RuntimeEvent.replacements`): a derived id
            recorded already is a new call when they explain the file
            (:func:`repeated_edit`); undone on the file the call left, they give the file
            it started from, which the write is measured from (:func:`from_preimage`).
        replace_all: the indexes of ``replacements`` made at every occurrence.
        original: the file just before the call as the runtime gave it (None: not given):
            with ``replacements``, the exact start where consistent (:func:`from_preimage`).
        starts: ``(path, blob)``: each path named is measured from that blob (None: from
            nothing), the work tree before a shell call (:mod:`.agent_shell`).
        written: what a shell call left in commits it made, recorded as written there
            (:mod:`.shell_commits`); with it, only the paths ``starts`` names are read from
            the work tree (a person's unsaved edit of a path only committed is not read).
        modes: the generic ``record``, whose paths are all the writer's: a path whose mode
            alone differs from ``HEAD`` is its mode change (:func:`.shell_modes.named_flips`),
            and content a ``git reset`` threw away written again is measured from the file
            the reset put back (:func:`.repeat.reset_starts`).
    """

    cwd: str | None = None
    model: str | None = None
    effort: str | None = None
    source: str | None = None
    session_id: str | None = None
    tool_call_id: str | None = None
    paths: tuple[str, ...] = ()
    allow_unknown: bool = False
    here_paths: tuple[str, ...] = ()
    proposal: str | None = None
    edited: str | None = None
    replacements: tuple[tuple[str, str], ...] = ()
    replace_all: frozenset[int] = frozenset()
    original: str | None = None
    starts: tuple[tuple[str, str | None], ...] = ()
    written: tuple[Written, ...] = ()
    modes: bool = False


def record_mutation(req: MutationRequest, env: Mapping[str, str]) -> Recorded:
    """Record a pending mutation for the work tree root (keyed by root, not candidate).

    Recording is idempotent, so a caller that saw no acknowledgement (its output could not
    be written: a full disk, a closed descriptor; the row is durable before anything is
    printed) retries safely: a tool call already recorded (same source, session and call id;
    a derived id whose earlier work has all ended names another call: :func:`ended_derived`,
    and so does one whose file is the earlier call's result with the same replacements made
    once more: :func:`repeated_edit`), or the same writer (model, effort, source, session)
    naming the same paths again while its mutation is still pending and no path differs from
    that write, is stored once; the result then has ``replayed`` set and a note saying it
    was already recorded. When another process holds the ledger's write lock past the wait,
    the mutation is appended to the spool instead (durable; the next command that opens the
    ledger folds it in) and the result has ``spooled`` set, whichever read or write after
    the open the lock stopped (one stopped before the write was measured is measured from
    git alone, as for a refused open); so it is when the held lock refuses even the ledger's
    open (any lock kind: SQLite's EXCLUSIVE locking mode keeps readers out too), and when a
    stale rollback journal refuses it (the reason then names the journal and its fix).

    Raises:
        UsageError: missing model or effort (flag and environment), a bad label, or an
            invalid path (absolute, escaping the root, NUL).
        PolicyInputError: an unknown effort level.
        GitError / StoreError: as :func:`open_root` / :func:`open_store`.
    """
    model = validate_label(req.model if req.model is not None else env.get(ENV_MODEL), "--model")
    if model is None:
        raise UsageError(f"--model is required (or set {ENV_MODEL})")
    effort_text = req.effort if req.effort is not None else env.get(ENV_EFFORT)
    if effort_text is None or not effort_text.strip():
        raise UsageError(f"--effort is required (or set {ENV_EFFORT})")
    effort_value = (
        "unknown"
        if req.allow_unknown and effort_text.strip() == "unknown"
        else parse_effort(effort_text).value
    )
    source = validate_label(req.source, "--source")
    session_id = validate_label(req.session_id, "--session")
    tool_call_id = validate_label(req.tool_call_id, "--tool-call")
    repo, root = open_root(req.cwd)
    here = os.path.abspath(req.cwd) if req.cwd else os.getcwd()
    paths = validate_paths((*req.paths, *(root_relative(root, here, p) for p in req.here_paths)))
    for p in paths:
        why = not_a_file(root, p)
        if why is not None:
            raise UsageError(f"--paths: {p!r} {why}; name the files the writer wrote")
    if not paths:  # the generic form: every path that differs from HEAD is the writer's
        paths = changed_paths(repo)
    try:
        led = open_store(repo)
    except StoreError as exc:
        if exc.journal is None and not exc.busy:
            raise
        rec = PendingMutation(root, model, effort_value, source, session_id, tool_call_id, paths)
        return _spooled_unopened(repo, rec, exc, req)
    measured: list[WriterEntryRecord] | None = None
    with led:
        try:
            earlier = (
                led.mutation_for_call(source, session_id, tool_call_id) if tool_call_id else None
            )
            since: str | None = None
            while (
                earlier is not None
                and tool_call_id
                and is_new_call(repo, led, earlier, req.replacements, paths)
            ):
                # the same call made again (its first one's work ended, or the same edit
                # made once more): a new call, judged next against the latest call of that id
                since = repeated_edit(repo, led, earlier, req.replacements, paths)
                tool_call_id = f"{earlier.tool_call_id}+{earlier.id}"
                earlier = led.mutation_for_call(source, session_id, tool_call_id)
            if earlier is not None:  # a replayed tool call records once (SPEC §6)
                return Recorded(led.path, earlier, notes=(replay_note(earlier),), replayed=True)
            entries = entries_for_write(repo, led, root, _in_tree(paths, req))
            if since is not None:
                # the edit made once more after a person's edit: only its lines are its own
                entries = measured_from(repo, entries, since.encode("utf-8"))
            else:  # lines the file held before the edit (a person's unsaved ones) are not its
                entries = from_preimage(repo, entries, req)
            starts = req.starts or original_start(repo, paths, entries, req.original)
            if req.modes and not starts:  # the generic record: its content written again
                starts = reset_starts(repo, led, root, paths, entries)
            entries += written_again(repo, root, entries, starts)
            entries += committed_entries(repo, root, req.written)
            if req.modes:
                entries += committed_entries(
                    repo, root, named_flips(repo, led, root, paths, entries)
                )
            proposed = _utf8(req.proposal) if len(paths) == 1 else None
            if proposed is not None:
                entries = confined(repo, entries, proposed, _utf8(req.edited) or b"")
            measured = entries
            rec = PendingMutation(
                root, model, effort_value, source, session_id, tool_call_id, paths
            )
            again = None if entries or tool_call_id else led.last_pending_mutation(root)
            if again is not None and same_write(again, rec, repo, led):
                return Recorded(led.path, again, notes=(retry_note(again),), replayed=True)
            stored, kept, new = led.add_mutation_once(rec, entries)
        except StoreError as exc:
            if not exc.busy:
                raise
            # another process took the write lock after the open (or a lock kept a read
            # out): whichever statement it stopped, the mutation is kept in the spool; one
            # stopped before the write was measured is measured from git alone
            rec = PendingMutation(
                root, model, effort_value, source, session_id, tool_call_id, paths
            )
            if measured is None:
                measured = _measured(repo, root, paths, req)
            return _spooled(led.path, rec, measured, exc)
        if not new:
            return Recorded(led.path, stored, notes=(replay_note(stored),), replayed=True)
        notes = (
            ()
            if kept
            else (
                "no line the writer proposed is left in the file as written (the person "
                "replaced them): no content is attributed to the writer"
                if proposed is not None
                else "no path differs from where the writer started (HEAD, or its last "
                "write): no content is attributed to the writer",
            )
        )
        return Recorded(led.path, stored, notes=notes)


def _spooled(
    path: str, rec: PendingMutation, entries: list[WriterEntryRecord], busy: StoreError
) -> Recorded:
    """Keep a mutation the held write lock (or a refused open) kept out of the store in the
    spool (:mod:`gentle_hooks.ledger.spool`), durably; what was kept.

    Raises:
        StoreError: the spool cannot be written either, naming the system's reason and
            ``busy``'s (:func:`~gentle_hooks.ledger.sqlite_file.unspooled`).
    """
    rec = replace(rec, recorded_at=time.time())
    line = spool.line_of(to_row(rec), [to_row(e) for e in entries])
    try:
        where = spool.append(path, line)
    except OSError as exc:
        raise unspooled(busy, spool.spool_path(path), exc) from None
    return Recorded(path, rec, spooled=where)


def _spooled_unopened(
    repo: Repository, rec: PendingMutation, refused: StoreError, req: MutationRequest
) -> Recorded:
    """Keep a mutation in the spool when another process's lock (``refused.busy``) or a
    stale rollback journal (:attr:`~gentle_hooks.ledger.sqlite_file.StoreError.journal`)
    refuses the ledger's open: measured from git alone (no earlier write of the writer can
    be read) or from the file just before an edit (:func:`from_preimage`), durable, and
    folded in by the next command that opens the ledger (for a journal, once
    ``doctor --fix`` moved it aside: the reason then names the journal and that command).

    Raises:
        StoreError: the spool cannot be written either (:func:`_spooled`).
    """
    entries = _measured(repo, rec.root, rec.paths, req)
    spooled = _spooled(refused.path, rec, entries, refused)
    if refused.journal is None:
        return spooled
    why = f"{refused.problem}; the fix moves the journal aside"
    return replace(spooled, spool_reason=why, spool_fix=cli("doctor", "--fix"))


def _in_tree(paths: tuple[str, ...], req: MutationRequest) -> tuple[str, ...]:
    """The ``paths`` whose write is read from the work tree (:attr:`MutationRequest.written`)."""
    return tuple(p for p in paths if p in dict(req.starts)) if req.written else paths


def _measured(
    repo: Repository, root: str, paths: tuple[str, ...], req: MutationRequest
) -> list[WriterEntryRecord]:
    """The entries of ``req``'s write measured from git alone (no ledger to read)."""
    entries = from_preimage(repo, entries_for_write(repo, None, root, _in_tree(paths, req)), req)
    entries += committed_entries(repo, root, req.written)
    flips = named_flips(repo, None, root, paths, entries) if req.modes else []
    return entries + committed_entries(repo, root, flips)


def _utf8(text: str | None) -> bytes | None:
    """``text`` as UTF-8; None for text no file holds (a lone surrogate): the write is then
    recorded whole, never measured against a proposal its lines cannot match."""
    try:
        return text.encode("utf-8") if text is not None else None
    except UnicodeEncodeError:
        return None


def from_preimage(
    repo: Repository, entries: list[WriterEntryRecord], req: MutationRequest
) -> list[WriterEntryRecord]:
    """``entries`` of a call whose input names what it changed (``req.replacements``, in its
    one path), measured from the file as it was just before the call: the replacements
    undone on what it left (:func:`~gentle_hooks.policy.preimage.preimage`). A person's
    unsaved lines there are not the writer's. ``entries`` as they are (measured from the
    writer's last write, the index or ``HEAD``: fail closed) when there are no
    replacements, when the file is not UTF-8 text, or when they cannot be undone exactly;
    with ``req.original`` (the runtime's own pre-image), from it where it is consistent
    (:func:`~gentle_hooks.policy.preimage.exact_start`), else as they are too.

    Raises:
        GitError: git failed.
    """
    if req.starts:  # each path from its own start: a shell call's work tree before it ran
        held = repo.read_blobs([b for _, b in req.starts if b])
        starts = {p: held.get(b) if b else b"" for p, b in req.starts}
        out = [
            [e] if (s := starts.get(e.path)) is None else measured_from(repo, [e], s)
            for e in entries
        ]
        return [m for ms in out for m in ms]
    if not req.replacements or len(req.paths) != 1 or len(entries) != 1 or not entries[0].blob:
        return entries  # replacements are of a call's one path
    from gentle_hooks.policy.preimage import exact_start, preimage

    written = repo.read_blobs([entries[0].blob]).get(entries[0].blob)
    try:
        after = written.decode("utf-8") if written is not None else None
    except UnicodeDecodeError:
        return entries
    if after is None:
        return entries
    start = (
        preimage(after, req.replacements, req.replace_all)
        if req.original is None
        else exact_start(after, req.replacements, req.replace_all, req.original)
    )
    return entries if start is None else measured_from(repo, entries, start.encode("utf-8"))


def measured_from(
    repo: Repository, entries: list[WriterEntryRecord], start: bytes
) -> list[WriterEntryRecord]:
    """``entries`` of the one path a call wrote, measured from ``start`` (the content the
    call's edit was made in: :func:`repeated_edit`), stored as a blob so the rule recomputes
    the same delta: a person's edits made before the call are not its lines. An entry
    already measured from ``start``, a deletion or a binary side is kept as it is."""
    base = repo.write_blob(start)
    out = []
    for rec in entries:
        if rec.blob is None or rec.binary or rec.before_blob == base:
            out.append(rec)
            continue
        written = repo.read_blobs([rec.blob]).get(rec.blob)
        if written is None:
            out.append(rec)
            continue
        delta = writer_delta(start, written, detail=False)
        out.append(
            replace(
                rec,
                before_blob=base,
                added=tuple(sorted(delta.added)),
                removed=tuple(sorted(delta.removed)),
            )
        )
    return out


def not_a_file(root: str, path: str) -> str | None:
    """Why the root-relative ``path`` cannot be a file a writer wrote, or None when it can:
    a path inside ``.git`` (the repository's own data, any case) or an existing directory."""
    if path.split("/", 1)[0].lower() == ".git":
        return "is inside .git"
    full = os.path.join(root, path)
    if os.path.isdir(full) and not os.path.islink(full):
        return "is a directory"
    return None


def changed_paths(repo: Repository) -> tuple[str, ...]:
    """Root-relative paths whose work-tree content differs from ``HEAD`` (tracked and
    untracked, as ``git add -A`` would stage them), sorted."""
    head = repo.head()
    base = repo.tree_of(head) if head else repo.empty_tree
    return tuple(sorted({c.path for c in repo.tree_delta(base, repo.snapshot_tree())}))
