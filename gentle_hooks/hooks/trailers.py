"""The ``Gentle-Writer`` trailer of the commit being made (SPEC §3 "Attribution follows
content": "human commits never receive a writer trailer; amended writer commits keep
theirs").

Room ``hooks``. One rule, :func:`trailer_rule`, says which writers the commit being made
carries (its staged index against ``HEAD``, or against ``HEAD``'s parent when amending),
and two stages write it, neither ever blocking:

* prepare-commit-msg (:func:`prepare_commit_msg`) adds a trailer per writer before the
  editor opens; without writer content, an agent runtime in the hook's environment
  (``CLAUDECODE``...: :func:`~gentle_hooks.policy.delegation.runtime_evidence`) adds
  ``Gentle-Writer: <agent> (agent runtime)``; a human's commit gets none, an amend that
  took every writer line out (or a message reused with ``-C``/``-c`` or copied with
  ``-F``/``-m``, or replayed by a rebase or cherry-pick onto a base already holding the
  writer's content) loses the one its message brought along, and an empty message stays
  empty (git then aborts the commit);
* commit-msg (:func:`restore_trailers`) puts back a writer's trailer the editor deleted
  (``git commit --amend`` of a delegated commit, the line removed by hand), with one line
  saying so: the note names the writer, so the message does too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from gentle_hooks.bounded import InputFileError
from gentle_hooks.errors import EXIT_OK, UsageError
from gentle_hooks.hooks.call import HookCall, read_message
from gentle_hooks.policy.delegation import runtime_evidence, strip_comments
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from gentle_hooks.git.delta import BlobChange
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.records import WriterEntryRecord
    from gentle_hooks.ledger.store import Ledger

#: Where the pre-commit framework passes prepare-commit-msg's second argument (the source).
SOURCE_ENV = "PRE_COMMIT_COMMIT_MSG_SOURCE"
#: The trailer key naming a writer.
KEY = "Gentle-Writer"


@frozen
class TrailerRule:
    """What the commit being made carries, for its message.

    Attributes:
        writers: ``model/effort`` of each writer whose content it carries (discarded work
            it holds by the writer's own lines too: the gates judge it delegated), in the
            order they wrote; empty for a human's commit.
        paths: the paths holding that content, sorted.
        expired: pending entries that expired on the way (their content is nowhere).
        dropped: the ``Gentle-Writer`` trailer the message brought along goes (an amend
            that took every writer line out, a message reused from another commit).
    """

    writers: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    expired: tuple[WriterEntryRecord, ...] = ()
    dropped: bool = False


def _kept_as_is(message: str, env: Mapping[str, str]) -> bool:
    """Whether git keeps ``message``'s ``#`` lines: no editor runs (git sets
    ``GIT_EDITOR=:`` for the hook then) and ``commit.cleanup`` is not ``strip``, so the
    cleanup is ``whitespace`` and ``git commit -m "#42 fix add"`` is that message, not an
    empty one (git's own comment lines come only with an editor). ``git commit
    --cleanup=strip`` on the command line is not visible to the hook."""
    if not message.strip() or env.get("GIT_EDITOR") != ":":
        return False
    from gentle_hooks.git.process import run_git

    proc = run_git(["config", "--get", "commit.cleanup"], os.getcwd(), env)
    return proc.stdout.strip().lower() != b"strip"


def _message(call: HookCall, hook: str, env: Mapping[str, str]) -> str | None:
    """The message file's text, or None when it is empty (an empty message stays an
    aborted commit: nothing is added to it).

    Raises:
        UsageError: the file cannot be read (fail closed: a trailer that cannot be added is
            attribution the gates never see).
    """
    try:
        message = read_message(call.args[0])
    except InputFileError as exc:
        raise UsageError(f"hook {hook}: {exc}") from None
    if not strip_comments(message).strip() and not _kept_as_is(message, env):
        return None
    return message


def trailer_rule(
    path: str, source: str | None, named: str, env: Mapping[str, str], message_file: str = ""
) -> TrailerRule:
    """Which writers the commit being made carries, from the staged index and the ledger
    at ``path`` (:func:`~gentle_hooks.services.attribution.carried`, an amend's writer
    commit revised, pushed or not: :func:`~gentle_hooks.services.settle.kept_by_amend`,
    discarded work held by the writer's own lines).

    Args:
        path: the ledger; source / named: prepare-commit-msg's second and third arguments
            (None: not known, as in commit-msg); env: the hook's environment;
            message_file: the message being written ("": not read), whose
            ``Gentle-Writer`` trailers naming only writers this ledger recorded were
            copied from a writer commit's message when source is ``message`` (``-F``,
            ``-m``) and the commit carries no writer content.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read or written.
    """
    from gentle_hooks.git.probe import sequencer_pick
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.services.attribution import carried, carried_of, expire_shaped, revised
    from gentle_hooks.services.change_facts import held_discarded
    from gentle_hooks.services.settle import kept_by_amend, rewrite_keeps_writer_content

    repo = Repository.open()
    head = repo.head()
    parent = head
    amend = head is not None and is_amend(repo, head, env, source, named)
    if head is not None and amend:
        infos = repo.read_commits([head])
        parents = infos[0].parents if infos else ()
        parent = parents[0] if parents else None
    base = repo.tree_of(parent) if parent else repo.empty_tree
    led = Ledger.open_existing(path)
    if led is None:
        return TrailerRule()
    with led:
        staged = repo.staged_tree()
        changes = repo.tree_delta(base, staged)
        for other in [] if amend else repo.merge_heads():
            # a merge brings only what differs from every parent, as the push gate reads it:
            # the merged branch's commits carry their own writer work
            theirs = {c.path for c in repo.tree_delta(repo.tree_of(other), staged)}
            changes = [c for c in changes if c.path in theirs]
        work = carried(repo, led, changes)
        expired = expire_shaped(repo, path, [work])
        if expired:
            work = carried(repo, led, changes)
        if work.delegated and not amend:  # content reset away and typed again, unchecked
            from gentle_hooks.hooks.push_record import left_to_discard

            work = left_to_discard(repo, led, work, lambda: _staged_identity(repo, env))
        if amend and head is not None:  # the writer's commit revised keeps its trailer
            work = revised(repo, led, work, head, staged)
            if not work.delegated:  # pushed: its entries settled, no live record holds it
                kept = kept_by_amend(repo, led, head, staged)
                work = carried_of(led, kept, {e.id for e in kept})
        # discarded work held by the writer's own lines delegates the commit at every gate
        # (its note names the writer): its message names the writer too
        held = held_discarded(repo, led, {"": changes})[""]
        writers = tuple(dict.fromkeys((*work.writers(), *held.writers())))
        # an amend that took every line of the writer's out is the human's commit: the
        # trailer the amended message brings along goes with the writer's content; so does
        # the trailer of a message reused from another commit (-C/-c: source ``commit``),
        # and of a commit a rebase or cherry-pick replays onto a base that already holds
        # its writer's content (it adds none of it), unless it re-applies content a push
        # delivered elsewhere (the push gate judges that delegated)
        copied = source == "message" and _copied_trailer(led, message_file)
        reused = (source == "commit" or copied or sequencer_pick(env)) and not amend
        dropped = not writers and (
            (reused and not _reapplies(repo, led, changes))
            or (
                amend
                and head is not None
                and not rewrite_keeps_writer_content(repo, led, head, staged)
            )
        )
    paths = tuple(sorted({*work.paths(), *held.paths()}))
    return TrailerRule(writers, paths, tuple(expired), dropped)


def _staged_identity(repo: Repository, env: Mapping[str, str]) -> str:
    """The identity of the staged candidate (the commit being made, as post-commit's
    record will name it).

    Raises:
        GitError: git failed; ConfigError: the config cannot be read.
    """
    from gentle_hooks.config.load import load_config
    from gentle_hooks.values.candidate import Projection

    config = load_config(repo.paths.toplevel, repo.gentle_config(), env)
    return repo.candidate(Projection.STAGED, config_ref=config.settings.base_ref).identity


def _copied_trailer(led: Ledger, message_file: str) -> bool:
    """Whether the message file's ``Gentle-Writer`` trailers all name writers this ledger
    recorded: a message copied from a writer commit's (``git commit -F``, ``-m``), not a
    trailer an unrecorded agent runtime wrote ("" or an unreadable file: False, the
    trailer stays)."""
    if not message_file:
        return False
    from gentle_hooks.git.message import trailer_values

    try:
        values = trailer_values(message_file, KEY)
    except OSError:
        return False
    return bool(values) and set(values) <= led.writer_names()


def _reapplies(repo: Repository, led: Ledger, changes: Sequence[BlobChange]) -> bool:
    """Whether the change being committed re-applies writer content a push settled
    (:func:`~gentle_hooks.services.reapplied.reapplied_by_change`)."""
    from gentle_hooks.services.reapplied import reapplied_by_change

    return bool(reapplied_by_change(repo, led, {"": changes}))


def prepare_commit_msg(call: HookCall, path: str, env: Mapping[str, str]) -> int:
    """Append a ``Gentle-Writer`` trailer per writer whose content the commit being made
    carries (:func:`trailer_rule`), in the message's last trailer block (``Gentle-Writer``
    lines elsewhere in it, as a squash leaves them, move there); nothing for a human's
    commit, nothing to an empty message. A trailer the message brings along (an amend,
    ``-C``/``-c`` reusing another commit's message, ``-F``/``-m`` copying one that names
    only recorded writers) is dropped when the commit carries no writer content."""
    if not call.args or _message(call, "prepare-commit-msg", env) is None:
        return EXIT_OK
    from gentle_hooks.git.message import add_trailers, drop_trailer_lines, trailer_values
    from gentle_hooks.services.attribution import expiry_lines

    source = call.args[1] if len(call.args) > 1 else env.get(SOURCE_ENV, "")
    named = call.args[2] if len(call.args) > 2 else env.get("PRE_COMMIT_COMMIT_OBJECT_NAME", "")
    rule = trailer_rule(path, source, named, env, call.args[0])
    from gentle_hooks.hooks.decision import aside

    aside([f"gentle-hooks: {line}" for line in expiry_lines(rule.expired)], env)
    if rule.dropped:
        drop_trailer_lines(call.args[0], KEY)
    if rule.writers:
        # one trailer block at the end: a squash (rebase --autosquash) brings the first
        # commit's trailer mid-message; it moves down, once, with the ones added now
        kept = trailer_values(call.args[0], KEY)
        if kept:
            drop_trailer_lines(call.args[0], KEY)
        listed = dict.fromkeys([*kept, *rule.writers])
        add_trailers(call.args[0], [f"{KEY}: {w}" for w in listed], env)
    elif (runtime := runtime_evidence(env)) is not None:
        # an agent runtime makes this commit (the commit gate judged it delegated): the
        # message says so, so post-commit records it with a note, and the CI and server
        # gates judge it as delegated even where its note never arrives
        add_trailers(call.args[0], [f"{KEY}: {runtime.agent} (agent runtime)"], env)
    return EXIT_OK


def restore_trailers(call: HookCall, env: Mapping[str, str]) -> int:
    """commit-msg: put back the ``Gentle-Writer`` trailer of each writer whose content the
    commit holds (:func:`trailer_rule`, as prepare-commit-msg decides it) and the message
    no longer names, printing one line saying so; nothing for a human's commit or an empty
    message. Never blocks.

    Raises:
        UsageError: the message file cannot be read.
    """
    from gentle_hooks.git.probe import locate
    from gentle_hooks.ledger.location import ledger_path

    where = locate(env)
    if not call.args or where is None or where.root is None:
        return EXIT_OK
    path = ledger_path(where.common_dir)
    message = _message(call, "commit-msg", env)
    if message is None or not os.path.exists(path):
        return EXIT_OK
    rule = trailer_rule(path, None, "", env)
    named = {line.strip() for line in strip_comments(message).splitlines()}
    missing = [w for w in rule.writers if f"{KEY}: {w}" not in named]
    if not missing:
        return EXIT_OK
    from gentle_hooks.git.message import add_trailers
    from gentle_hooks.hooks.decision import aside
    from gentle_hooks.policy.shellwords import shown_paths

    if add_trailers(call.args[0], [f"{KEY}: {w}" for w in missing], env):
        restored = (
            f"gentle-hooks: restored the {KEY} trailer ({', '.join(missing)}) the message "
            f"lost: the commit holds writer content in {', '.join(shown_paths(rule.paths))}"
        )
        aside([restored], env)
    return EXIT_OK


def is_amend(
    repo: Repository, head: str, env: Mapping[str, str], source: str | None, named: str
) -> bool:
    """Whether the commit being made replaces ``HEAD`` (``commit --amend``).

    git says so only for an amend that opens the editor (prepare-commit-msg's source
    ``commit`` with ``HEAD``'s id; the pre-commit framework passes them as
    ``PRE_COMMIT_COMMIT_MSG_SOURCE`` and ``PRE_COMMIT_COMMIT_OBJECT_NAME``); ``--amend -m``
    gives source ``message``, ``--amend -C <other commit>`` source ``commit`` with that
    commit's id, and ``-C HEAD`` (no amend) source ``commit`` with ``HEAD``'s; commit-msg is
    told nothing (``source`` None). Then the ``git commit``
    process's own arguments tell (:func:`~gentle_hooks.git.probe.amend_flag`), else its
    author identity and date: an amend keeps ``HEAD``'s, which git hands the hook.
    """
    from gentle_hooks.git.probe import amend_flag, sequencer_pick

    if source == "commit" and named and repo.peel_commit(named) == head:
        # ``-C HEAD``/``-c HEAD`` reuse HEAD's message alike: the process's arguments tell
        # them apart where they are known (a sequencer's squash or fixup amends too)
        flag = amend_flag()
        return flag is not False or sequencer_pick(env)
    # source ``commit`` naming another commit is ``-C``/``-c <commit>``: its message is
    # reused, with or without ``--amend``, so only the process's arguments tell
    found = amend_flag()
    if found is not None:
        return found
    if source not in ("message", None):
        return False
    if sequencer_pick(env):  # a pick replays a commit: its author is the picked one's
        return False
    infos = repo.read_commits([head])
    wanted = (env.get("GIT_AUTHOR_NAME"), env.get("GIT_AUTHOR_DATE", "").lstrip("@"))
    return bool(infos) and wanted == (infos[0].author, _author_date(repo, head))


def _author_date(repo: Repository, commit: str) -> str:
    """``<seconds> <zone>`` of a commit's author line, as git hands it to a hook."""
    raw = repo.read_blobs([commit]).get(commit, b"")
    for line in raw.split(b"\n\n", 1)[0].split(b"\n"):
        if line.startswith(b"author "):
            return " ".join(line.decode("utf-8", "replace").rsplit(" ", 2)[-2:])
    return ""
