"""``gentle-hook gate --range A..B`` (SPEC §8): CI judges a pushed range from notes and
trailers alone (:mod:`gentle_hooks.hooks.judgement`); in a clone with a ledger, a commit
they leave undelegated is judged from it as the push gate will
(:mod:`gentle_hooks.hooks.range_local`: writer work committed with hooks off).

Room ``hooks``. The configuration is read from ``A``, the base the range is judged
against. ``--reverify`` re-runs the spot checks the notes claim
(:mod:`gentle_hooks.services.reverify`). A shallow or partial history that cuts into the
range cannot be judged: exit 2, with the fetch that fixes it. Never a pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gentle_hooks.config.load import load_config
from gentle_hooks.config.settings import Settings
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK, GentleError, UsageError, quoted
from gentle_hooks.git.core import is_full_id
from gentle_hooks.git.refs import check_ref_name
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.judgement import CommitVerdict, judge_commits
from gentle_hooks.hooks.range_local import with_local_work
from gentle_hooks.notes.codec import NOTES_REF
from gentle_hooks.notes.sync import remote_notes_refs
from gentle_hooks.notes.trust import load_trust
from gentle_hooks.policy.selfcheck import Disagreement
from gentle_hooks.policy.shortfall import SpotCheckShortfall
from gentle_hooks.report import range_text
from gentle_hooks.report.text import short
from gentle_hooks.values.frozen import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.services.reverify import Rerun

#: Seconds one re-run command may take under ``--reverify`` (``--timeout``).
DEFAULT_RERUN_TIMEOUT = 600.0


class CannotAssess(GentleError):
    """The history does not reach far enough to judge the range (exit 2). ``fix``: the
    command to run next, runnable as printed (the fetch of what is missing, the range
    that is judgeable, the remote's branches), or None when nothing can help."""

    def __init__(self, message: str, fix: str | None = None) -> None:
        super().__init__(message)
        self.fix = fix


def parse_range(text: str) -> tuple[str | None, str]:
    """``A..B`` into (A, B); ``B`` alone into (None, B): every commit reachable from B, root
    commits included (what a server judges for a new repository's first push).

    Raises:
        UsageError: more than one ``..``, or an empty side (``A...B`` is refused).
    """
    if "..." in text or text.count("..") > 1:
        raise UsageError(f"--range {quoted(text)}: give A..B (two refs or commits), or B alone")
    if ".." not in text:
        if not text:
            raise UsageError("--range '': give A..B, or B alone")
        check_ref_name(text, "--range end")
        return None, text
    a, b = text.split("..")
    if not a or not b:
        raise UsageError(f"--range {quoted(text)}: give both sides, A..B")
    check_ref_name(a, "--range start")
    check_ref_name(b, "--range end")
    return a, b


def range_commits(repo: Repository, a: str | None, b: str) -> list[str]:
    """The commits of ``A..B``, oldest first (with ``a`` None: every commit reachable from
    ``B``, root commits included).

    Raises:
        CannotAssess: ``A`` or ``B`` is missing, or the range reaches a shallow boundary.
        GitError: ``A`` is a plain unknown name, or names a tree or a blob (one line).
    """
    shallow = repo.shallow_commits()
    tip = repo.peel_commit(b)
    if tip is None:
        if repo.peel_commit("HEAD") is None and not repo.ref_names("refs/"):
            raise CannotAssess(*range_text.no_commits(a, b))
        if b.startswith("HEAD") and repo.peel_commit("HEAD") is None:
            # an unborn HEAD (a clone whose remote's HEAD names a branch it does not have):
            # the branches it fetched are there to check out
            fetched = [r for r in repo.ref_names("refs/remotes/") if not r.endswith("/HEAD")]
            if fetched:
                raise CannotAssess(*range_text.unborn_head(b, fetched))
        raise CannotAssess(*range_text.missing_end(b, bool(shallow)))
    start = repo.peel_commit(a) if a is not None else None
    if a is not None and start is None:
        gap = start_gap(repo, a, bool(shallow))
        if gap is not None:
            raise gap
        if not is_past_history(repo, a):  # a typo, or a tree: no history is too short
            raise repo.not_a_commit(a, "--range start")
        count = len(repo.new_commits(tip, exclude=[]))
        raise CannotAssess(*range_text.missing_start(a, b, False, count))
    commits = repo.new_commits(tip, exclude=[start] if start is not None else [])
    cut = shallow & set(commits)
    if cut:
        raise CannotAssess(*range_text.shallow_cut(a or "", b, short(sorted(cut)[0])))
    return commits


def start_gap(repo: Repository, a: str, shallow: bool) -> CannotAssess | None:
    """Why ``a``, a start (or base) that is not a commit here, is missing when more history
    would make it known: a remote-tracking branch never fetched (or that the remote lacks),
    a full commit id (a shallow clone left it out, or it is on a branch a single-branch
    clone did not fetch: its fetch by id from the first remote, ``origin`` first), a branch
    only a remote has, a shallow clone. None: the history is complete and ``a``
    is not in it (the caller says what can be judged instead).

    A name relative to one that is here (``origin/main~1``, ``origin/main^2``) reaches past
    the history rather than naming a branch: its remote-tracking branch is looked up
    without the revision suffix (:func:`revision_stem`), and only when that is missing."""
    stem = revision_stem(a)
    known = stem != a and repo.peel_commit(stem) is not None
    tracking = None if known else _remote_branch(repo, stem)
    if tracking is not None:
        if repo.has_remote_branch(*tracking) is False:
            return CannotAssess(*range_text.absent_remote_branch(a, *tracking))
        return CannotAssess(*range_text.unfetched_start(a, *tracking))
    fetch_from = _first_remote(repo) if is_full_id(a) else None
    if fetch_from is not None:
        # a commit id: left out by a shallow clone, or on a branch a single-branch clone
        # did not fetch; git cannot tell which without the remote, and one fetch of it by
        # id (with the whole history when shallow) covers both
        return CannotAssess(*range_text.unfetched_commit(a, fetch_from, shallow))
    if shallow:
        return CannotAssess(*range_text.missing_start(a, "HEAD", True, 0))
    remote = _remote_with_branch(repo, a)
    if remote is not None:
        return CannotAssess(*range_text.unfetched_local(a, remote))
    return None


def base_gap(cwd: str | None, base_ref: str, words: tuple[str, ...]) -> CannotAssess | None:
    """Why ``assess --base-ref`` found no commit for ``base_ref``, in ``gate --range``'s
    words (:func:`start_gap`): no commit yet, a shallow clone, a branch never fetched, or a
    complete history too short for a relative name (:func:`is_past_history`;
    :func:`~gentle_hooks.report.range_text.missing_base`, whose fix keeps ``words``). None
    when ``base_ref`` does resolve, when HEAD has no commit while other refs exist, or for
    a plain unknown name or a tree in a complete history (the caller's own error stands)."""
    check_ref_name(base_ref, "--base-ref")  # a range or an option-like name: its own error
    repo = Repository.open(cwd)
    if repo.peel_commit(base_ref) is not None:
        return None
    tip = repo.peel_commit("HEAD")
    if tip is None:
        if repo.ref_names("refs/"):
            return None
        return CannotAssess(
            f"cannot assess against {quoted(base_ref)}: this repository has no commits yet: "
            "commit first, then name a base"
        )
    gap = start_gap(repo, base_ref, bool(repo.shallow_commits()))
    if gap is not None:
        return gap
    if not is_past_history(repo, base_ref):
        return None  # a name that is simply unknown (a typo), or a tree: the caller's error
    commits = repo.new_commits(tip, exclude=[])
    return CannotAssess(*range_text.missing_base(base_ref, len(commits), commits[0], words))


def is_past_history(repo: Repository, name: str) -> bool:
    """Whether ``name``, which names no commit here, is a name relative to one that does
    (``HEAD~3``, ``main^2``) and names no object at all: it reaches past the history. A
    plain unknown name, or one naming a tree or a blob (``HEAD^{tree}``), is not."""
    stem = re.split(r"[~^]", name, maxsplit=1)[0]
    if stem == name or not stem or repo.peel_commit(stem) is None:
        return False
    return repo.object_kind(name) is None


def revision_stem(name: str) -> str:
    """``name`` without its revision suffix (``~N``, ``^N``, ``^{type}``, ``@{...}``): the
    ref it is relative to (``origin/main~1`` -> ``origin/main``); ``name`` itself when it
    has none. A ref name holds no ``~``, ``^`` or ``@{``, so the first one starts it."""
    return re.split(r"[~^]|@\{", name, maxsplit=1)[0]


def _remote_with_branch(repo: Repository, name: str) -> str | None:
    """The remote (``origin`` first) that has a branch ``name``, when ``name`` reads as a
    plain branch name (a single-branch clone never fetched the others); else None. Asks
    the remotes (``git ls-remote``): only on the way to an error."""
    if any(c in name for c in "~^:@") or name == "HEAD" or name.startswith("refs/"):
        return None
    remotes = sorted(repo.config_remotes(), key=lambda r: (r != "origin", r))
    return next((r for r in remotes if repo.has_remote_branch(r, name)), None)


def _first_remote(repo: Repository) -> str | None:
    """The remote to fetch a commit from: ``origin``, else the first configured; None
    without any."""
    remotes = sorted(repo.config_remotes(), key=lambda r: (r != "origin", r))
    return remotes[0] if remotes else None


def _remote_branch(repo: Repository, name: str) -> tuple[str, str] | None:
    """(remote, branch) when ``name`` reads as a remote-tracking branch of a configured
    remote (``origin/main``, ``refs/remotes/origin/main``); else None."""
    short_name = name.removeprefix("refs/remotes/")
    for remote in sorted(repo.config_remotes(), key=len, reverse=True):
        branch = short_name.removeprefix(f"{remote}/")
        if branch != short_name and branch:
            return remote, branch
    return None


def gate_range(
    cwd: str | None,
    range_text: str,
    env: Mapping[str, str],
    reverify: bool = False,
    timeout: float = DEFAULT_RERUN_TIMEOUT,
) -> tuple[int, list[CommitVerdict]]:
    """``gentle-hook gate --range A..B``: (exit code, per-commit verdicts).

    The configuration file is read from ``A`` (the base the range is judged against), not
    from the work tree: a pull request cannot loosen the gate that judges it.

    A commit the notes and trailers leave undelegated is judged from this clone's ledger
    when it has one (:func:`~gentle_hooks.hooks.range_local.with_local_work`), as the push
    gate will judge it. With ``reverify``, every delegated commit the notes pass is re-verified
    (:func:`reverify_verdicts`): a claimed re-run that fails now blocks it.

    Raises:
        CannotAssess: the history does not cover the range (exit 2).
        UsageError / GitError / ConfigError: bad range, git or config failures (exit 2).
    """
    a, b = parse_range(range_text)
    repo = Repository.open(cwd, allow_bare=True)
    if a is not None and a in (repo.empty_tree, repo.empty_tree[:7]):
        a = None  # from the empty tree: every commit of B, root commits included
    commits = range_commits(repo, a, b)
    start = a
    if start is None:
        # no base to read a configuration file from: git config and the environment only,
        # as a server's pre-receive reads them (a range cannot bring its own file)
        config = load_config(None, repo.gentle_config(), env)
    else:
        config = load_config(
            f"{start}:" if repo.paths.toplevel else None,
            repo.gentle_config(),
            env,
            read=lambda name: repo.read_path(start, name),
        )
    sources = [NOTES_REF, *remote_notes_refs(repo)]
    trust = load_trust(repo, config.settings, repo.peel_commit(a) if a is not None else None)
    label = f"{a}..{b}" if a is not None else b
    verdicts = judge_commits(repo, config, commits, label, sources, trust)
    verdicts = with_local_work(repo, config, verdicts)  # hooks off: this clone's ledger
    if reverify:
        verdicts = reverify_verdicts(repo, config.settings, verdicts, timeout, env)
    return (EXIT_BLOCKED if any(v.blocked for v in verdicts) else EXIT_OK), verdicts


def reverify_verdicts(
    repo: Repository,
    settings: Settings,
    verdicts: list[CommitVerdict],
    timeout: float,
    env: Mapping[str, str],
) -> list[CommitVerdict]:
    """Re-run the spot checks each passing delegated commit's note claims, on that commit's
    tree (:func:`gentle_hooks.services.reverify.rerun_claims`).

    A claimed success that fails is ``refuted by re-run`` and blocks, unless it could not
    run in this job (``Rerun.lacks``): it blocks then as the job's want, not the commit's
    fault (no ``rewrite the branch``: install what it lacks, run the job again); a command
    outside the base's ``verification.commands``, or one that runs what the commit itself defines
    (row C1-own), is neither run nor counted, so a commit whose every claim is such a
    command blocks too.

    Raises:
        UsageError: a bare repository (nothing to check out the commits in).
        GitError: a checkout could not be made.
    """
    from gentle_hooks.services.reverify import Claim, rerun_claims  # checkouts: --reverify only

    root = repo.paths.toplevel
    if root is None:
        raise UsageError("--reverify needs a clone with a work tree (a CI checkout)")
    ver = settings.verification
    out = []
    for v in verdicts:
        if v.blocked or v.result is None or not v.claims:
            out.append(v)
            continue
        claims = [Claim(cmd, rep, cwd) for cmd, rep, cwd in v.claims]
        reruns = rerun_claims(
            repo, root, v.result.candidate, claims, ver.commands, ver.dependency_dirs, timeout, env
        )
        lines = []
        for r in reruns:
            if r.absent:
                lines.append(
                    f"not re-run, not counted: {r.command!r} ran in {r.cwd!r}, a directory "
                    "this commit's tree does not hold, so its re-run would test nothing the "
                    "commit holds"
                )
            elif r.defined_by:
                shown = ", ".join(r.defined_by[:3]) + (", …" if len(r.defined_by) > 3 else "")
                lines.append(
                    f"not re-run, not counted: {r.command!r} runs what the commit itself "
                    f"defines ({shown}), so its re-run would be the change's own word"
                )
            elif not r.ran:
                lines.append(
                    f"not re-run, not counted: {r.command!r} is not one of the base's "
                    "verification.commands"
                )
            elif r.lacks:
                lines.append(
                    f"could not re-run here: {r.command!r}{_where(r)} {r.observed}: this CI job's "
                    f"environment lacks {r.lacks}"
                )
                lines += [f"  | {t}" for t in r.output_tail]
            elif r.refuted:
                lines.append(
                    f"refuted by re-run: {r.command!r}{_where(r)} {r.observed} (claimed exit 0)"
                )
                lines += [f"  | {t}" for t in r.output_tail]
            else:
                # counted: the note cannot say the reported run created them (docs/ci.md)
                rewrote = (
                    f" (it rewrote {', '.join(r.touched[:3])}, which the commit tracks: a file "
                    "the reported run writes, as the local spot check allows)"
                    if r.touched
                    else ""
                )
                lines.append(f"re-run agrees: {r.command!r}{_where(r)} {r.observed}{rewrote}")
        refuted = tuple(
            Disagreement(0, None, r.command, 0, r.exit_code) for r in reruns if r.refuted
        )
        counted = any(r.ran and not r.refuted and r.exit_code == 0 for r in reruns)
        if not counted and not refuted:
            lines.append("no claimed spot check could be re-verified: blocked")
        # a refuted claim is missing as a disagreeing re-run is: both results, its ways out;
        # one that could not run here is missing for the job's want (install, run again)
        lacks = tuple(f"{r.command!r}: {r.lacks}" for r in reruns if r.lacks)
        missing = SpotCheckShortfall(v.result.plan.risk, disagreements=refuted, job_lacks=lacks)
        shortfalls = v.shortfalls + ((missing,) if refuted or (lacks and not counted) else ())
        out.append(
            replace(
                v, blocked=bool(refuted) or not counted, shortfalls=shortfalls, reruns=tuple(lines)
            )
        )
    return out


def _where(r: Rerun) -> str:
    """Where a re-run ran, when not simply at the top: `` in 'sub'`` (the directory its
    receipt ran in), or at the top for a declared command the report ran elsewhere."""
    if r.moved:
        return (
            f" at the repository top, where the base's verification.commands run (its report "
            f"ran in {r.moved!r})"
        )
    return f" in {r.cwd!r}" if r.cwd != "." else ""
