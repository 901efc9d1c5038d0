"""The way a block verifies a commit that is not HEAD (CI, a server, a pre-push): in a
linked worktree of its own.

Room ``report``. A block cannot know the user's work tree (uncommitted changes stop a
``git switch``, and the lines after it would run on another commit): the commit is
checked out under the repository's common git directory, reported and spot-checked there
(or run by a verifier there, in a worktree of that run's own), its note shared where the
judge reads notes, and the worktree removed. Each line runs from anywhere in the user's clone.
Before its commands, a CI or server block prints once the line that puts the copy of the CLI
the clone's hooks run on PATH where ``gentle-hook`` is not (:func:`path_steps`).
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.report.shortfall_text import NO_RECEIPT, PREFIX_NOTE

#: A labelled line of a way out (:data:`gentle_hooks.report.fixes.Step`).
Step = tuple[str, str]


def git_share_notes(remote: str = "origin", named: bool = True) -> str:
    """:data:`GIT_SHARE_NOTES` for ``remote`` (a remote's name; ``named`` False: a
    repository's URL or path, its notes fetched where ``sync`` fetches them,
    :func:`~gentle_hooks.notes.where.tracking_ref`), quoted for a POSIX shell."""
    from gentle_hooks.notes.where import tracking_ref
    from gentle_hooks.policy.shellwords import quote

    where = quote(remote)
    tracking = tracking_ref(remote, named)
    fetch = quote(f"+refs/notes/gentle-hooks:{tracking}")
    return (
        f"git ls-remote --exit-code {where} refs/notes/gentle-hooks && git fetch -q {where} "
        f"{fetch} && git notes --ref=gentle-hooks merge -q -s cat_sort_uniq {quote(tracking)}; "
        f"git push -q {where} refs/notes/gentle-hooks"
    )


#: ``sync push`` with git alone, for a clone where ``gentle-hook`` is not on PATH (a
#: pre-commit framework or prek install only: the framework's copy is on PATH only while a
#: hook runs, so a printed ``gentle-hook`` exits 127 there): the remote's notes, when it has
#: any (``ls-remote --exit-code``: no redirection in a printed command), fetched where
#: ``install --share`` fetches them and merged as ``sync`` merges
#: (``cat_sort_uniq``), then the notes pushed. It shares the notes the clone's post-commit
#: wrote; the ones its ledger lacks need ``sync push`` itself.
GIT_SHARE_NOTES = git_share_notes()


#: Said before a server block's ``sync push``: the server cannot know the remote's name in
#: the pusher's clone, and ``sync push`` defaults to the remote the branch pushes to.
SERVER_REMOTE = (
    "share the notes with the remote you pushed to: put its name after sync push when the "
    "branch pushes to another (a fork's clone: git remote -v)"
)


#: Where a range gate's (CI's) ``sync push`` must send the notes: the repository the range
#: is judged in, which a pull request from a fork's clone does not push to by default.
RANGE_REMOTE = (
    "share the notes with the repository this range is judged in: in the clone the commits "
    "were pushed from, put that repository's remote name after sync push when the branch "
    "pushes to another (a pull request from a fork: git remote -v)"
)


def to_remote(fix: Sequence[Step], remote: str, words: str = "") -> list[Step]:
    """``fix`` with ``remote`` (quoted for a POSIX shell) after each ``sync push``, and
    in its :data:`GIT_SHARE_NOTES` line instead of ``origin``: the notes go where a push
    sent the commits (a pre-push's remote name), or to the repository a range is judged in
    (the range gate's URL: a pull request from a fork), not to the branch's default
    remote (the one it pushes to, else the only one). A ``remote`` holding ``/`` or ``:``
    that is a URL or path (:func:`~gentle_hooks.notes.where.is_location`) is fetched where
    ``sync`` fetches a URL's notes, and its ``sync push`` has the plain one as its ``or:``
    line (a writer with no login for that URL's transport; ``sync push URL`` itself pushes
    through a remote naming the same repository). ``remote`` empty: ``fix`` as it is, with ``words``
    (:data:`SERVER_REMOTE` on a server, :data:`RANGE_REMOTE` in a range gate; empty:
    none) before each ``sync push``."""
    from gentle_hooks.notes.where import is_location
    from gentle_hooks.policy.shellwords import quote

    end = f" {quote(remote)}" if remote else ""
    out: list[Step] = []
    for k, t in fix:
        if t.endswith(" sync push") and k == "run":
            out.extend([("do", words)] if words and not remote else [])
            if remote and is_location(remote):
                # a URL the writer's clone cannot push to (no login for that transport):
                # the remote it pushes to, the same repository unless it is a fork's clone
                out.extend([(k, t + end), ("or", t)])
                continue
            t += end
        elif k == "or" and t == GIT_SHARE_NOTES and remote:
            t = git_share_notes(remote, named=not is_location(remote))
        out.append((k, t))
    return out


#: The Python a pre-commit framework hook runs reads (its ``INSTALL_PYTHON``: PyYAML and
#: sqlite3 are there): from the clone's framework configuration (argv 2), the repositories
#: whose hooks are gentle-hooks' and their ``rev``; from pre-commit's store (argv 1,
#: ``db.db``: repository, ref, directory) the directory it checked each out in; the
#: ``gentle-hook`` of its hook environments there, one a line. One line, no ``'``, ``$``,
#: ``\\`` or backquote (its ``"`` escaped, it is one double-quoted word of the script).
_PRE_COMMIT_COPY = (
    "import glob,sqlite3,sys,yaml;d,f=sys.argv[1:3];c=yaml.safe_load(open(f));"
    "q=sqlite3.connect(d).execute;"
    '[print(g) for r in c.get("repos") or [] if "rev" in r and any('
    'str(h.get("id","")).startswith("gentle-hooks") for h in r.get("hooks") or []) '
    'for (p,) in q("SELECT path FROM repos WHERE (repo = ? OR repo LIKE ?) AND ref = ?",'
    '(r["repo"],r["repo"]+":%",r["rev"])) '
    'for g in sorted(glob.glob(p+"/py_env-*/bin/gentle-hook"))]'
)
_PRE_COMMIT_HOME = '"${PRE_COMMIT_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/pre-commit}"'
_PREK_HOME = '"${PREK_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/prek}"'
#: The script :data:`PATH_LINE` runs in ``sh -c`` (one line, no ``'``): the copies, best
#: first; a link to the first one made in ``gentle-hooks/bin`` under the git directory
#: (outside a repository, under ``$XDG_CACHE_HOME`` or ``~/.cache``), that directory
#: printed with a ``:`` after it.
_PATH_SCRIPT = "; ".join(
    (
        'h="$(git rev-parse --git-path hooks 2>/dev/null)/pre-commit"',
        'p="$(sed -n "s,^GENTLE_HOOK_PYTHON=\\(/.*\\)/[^/]*\\$,\\1/gentle-hook,p" "$h" '
        '2>/dev/null)"',
        'i="$(sed -n "s,^INSTALL_PYTHON=,,p" "$h" 2>/dev/null | tr -d "\\047\\042")"',
        'f="$(sed -n "s,.*--config=\\([^ )]*\\).*,\\1,p" "$h" 2>/dev/null | head -n 1)"',
        'g="$({ if test -n "$p"; then ls -d "$p"; '
        'elif test -x "$i"; then "$i" -c "' + _PRE_COMMIT_COPY.replace('"', '\\"') + '" '
        f"{_PRE_COMMIT_HOME}/db.db "
        '"$(git rev-parse --show-toplevel)/${f:-.pre-commit-config.yaml}"; '
        # prek: the environments whose .prek-hook.json names a rev the configuration names
        'elif grep -q "^PREK=" "$h"; then for r in $(sed -n "s,^[ -]*rev: *,,p" '
        '"$(git rev-parse --show-toplevel)/.pre-commit-config.yaml" | tr -d "\\047\\042" '
        '| sed "s,[ #].*,,"); do '
        f'grep -lE "\\"rev\\": *\\"$r\\"" {_PREK_HOME}/hooks/python-*/.prek-hook.json '
        '| sed "s,/\\.prek-hook\\.json\\$,/bin/gentle-hook,"; done '
        '| while read -r g; do if test -x "$g"; then echo "$g"; fi; done; fi; '
        f"ls -td {_PRE_COMMIT_HOME}/repo*/py_env-*/bin/gentle-hook "
        f"{_PREK_HOME}/hooks/python-*/bin/gentle-hook; }} 2>/dev/null "
        '| sed -n "/\\/gentle-hook\\$/{p;q;}")"',
        # a directory holding only a link to that copy goes on PATH, not the copy's own bin
        # directory: that one also holds its environment's python3, pip, pytest
        'test -n "$g" && b="$(git rev-parse --git-path gentle-hooks/bin 2>/dev/null '
        '|| echo "${XDG_CACHE_HOME:-$HOME/.cache}/gentle-hooks/bin")" && mkdir -p "$b" '
        '&& ln -sf "$g" "$b/gentle-hook" && cd "$b" '
        '&& printf "%s:" "$(pwd)"; exit 0',
    )
)
#: Puts the copy of the CLI that this clone's hooks run on PATH for the shell that runs it,
#: when ``gentle-hook`` is not on PATH there, as a link in ``gentle-hooks/bin`` under the
#: git directory: only ``gentle-hook`` becomes reachable, never the ``python3`` or ``pip``
#: of the copy's environment. Does nothing otherwise, and prints nothing either way. The
#: copy, read from the clone's ``pre-commit`` hook (the hooks directory as git resolves it,
#: ``core.hooksPath`` included): a plain ``gentle-hook install``'s, beside the interpreter
#: it pinned (its unquoted ``GENTLE_HOOK_PYTHON=/...`` line,
#: :data:`gentle_hooks.services.install.PYTHON_ASSIGNMENT`); under the pre-commit framework
#: (its ``INSTALL_PYTHON`` line), the one in the hook environment pre-commit's store made
#: for the ``rev`` the clone's configuration names (:data:`_PRE_COMMIT_COPY`), not another
#: repository's; under prek (its ``PREK=`` line), the one in a hook environment whose
#: ``.prek-hook.json`` names a ``rev`` of ``.pre-commit-config.yaml``; only when none of
#: these names one (no hook here, another framework), the newest of
#: pre-commit's (``repo*/py_env-*/bin`` under ``PRE_COMMIT_HOME``, default
#: ``$XDG_CACHE_HOME/pre-commit``, ``~/.cache/pre-commit``) and prek's
#: (``hooks/python-*/bin`` under ``PREK_HOME``, default ``.../prek``). None: PATH stays as
#: it was (``sed`` prints nothing, so no empty entry, which would be the current
#: directory). Exit 0 either way.
PATH_LINE = (
    # the globs expand in sh -c, not in the user's shell: zsh stops at a glob matching nothing
    f"command -v gentle-hook >/dev/null || PATH=\"$(sh -c '{_PATH_SCRIPT}')$PATH\""
)
#: Words saying what :data:`PATH_LINE` is for (README "Install").
PATH_WORDS = (
    "first, in each shell that runs the lines below: where gentle-hook is not on PATH (a "
    "clone whose hooks the pre-commit framework, prek or gentle-hook install installed), "
    "this puts the copy its hooks run there; elsewhere it does nothing"
)


def path_steps(fix: Sequence[Step]) -> list[Step]:
    """What a CI or server block prints once, before its commands, when a command of
    ``fix`` (its ``run``/``prefix`` lines) starts with ``gentle-hook``: they run in the
    user's clone, where a framework's copy of the CLI may be on PATH only while its hook
    runs. :data:`PATH_WORDS`, then :data:`PATH_LINE`; empty otherwise (commands of git
    alone, or the CLI by its absolute path, need no PATH)."""
    named = any(
        label in ("run", "prefix") and text.startswith("gentle-hook ") for label, text in fix
    )
    return [("do", PATH_WORDS), ("run", PATH_LINE)] if named else []


def worktree_steps(
    commit: str, gh: str, declared: str | None = None, report: bool = True, share: bool = True
) -> list[Step]:
    """Verify ``commit`` in a linked worktree under the repository's common git directory
    (a name no earlier step made; each line runs from anywhere in the user's clone and
    leaves the user's work tree, index and HEAD as they are), share the note (``share``:
    CI and a server read notes; a local pre-push reads the clone's own records), remove it;
    with ``share`` the first line says these lines run in the writer's clone
    (:data:`WRITERS_CLONE`).
    ``report``: no report that counts is recorded for it, so the writer makes one there:
    ``declared``, the declared verification command (shell words), else its own after a
    prefix."""
    where = worktree_dir(commit)
    # the writer's command runs in the worktree's copy of the directory the user is in
    # (a test command written for it, such as one importing from it, works as there), or
    # at the worktree's top when the commit has no such directory (an untracked one)
    here = (
        '"$(p="$(git rev-parse --show-prefix)"; '
        f'cd {where} && if test -d "./$p"; then cd "./$p"; fi && pwd)"'
    )
    reported: list[Step] = []
    if report and declared:
        reported.append(("do", f"the writer reports the declared command there ({NO_RECEIPT})"))
        run = f"{gh} receipt run --committed --cwd {where} -- {declared}"
        reported.append(("run", run))
    elif report:
        reported.append(
            (
                "do",
                f"{PREFIX_NOTE}; it runs in that worktree, in the directory you are in (at "
                f"its top when the commit has no such directory) ({NO_RECEIPT})",
            )
        )
        reported.append(("prefix", f"{gh} receipt run --committed --cwd {here} --"))
    return [
        *worktree_add(commit, elsewhere=share),
        *reported,
        ("run", f"{gh} spot-check --committed --cwd {where}"),
        *([("run", f"{gh} sync push")] if share else []),
        worktree_remove(commit),
    ]


def worktree_dir(commit: str, kind: str = "verify") -> str:
    """The linked worktree ``commit`` is verified in, as a shell word: under the
    repository's common git directory (``git rev-parse``, so it names the same directory
    from anywhere in the clone), in double quotes. ``kind``: ``verify`` for the writer's
    report and its spot check, ``verifier`` for a verifier's run: each way adds and removes
    its own, so a block naming both runs either way alone, or one after the other."""
    return f'"$(git rev-parse --git-common-dir)/gentle-hooks/{kind}-{commit[:12]}"'


#: Where a CI or server block's worktree lines run: the records they read and make are
#: in that clone's ledger (a CI checkout has none of them), and its ``sync push`` shares
#: them where the judge reads notes.
WRITERS_CLONE = (
    "in the writer's clone (the one this commit was made in: its ledger holds the "
    "commit's records; a CI checkout or the server holds none)"
)


def worktree_add(commit: str, kind: str = "verify", elsewhere: bool = False) -> list[Step]:
    """The lines that check ``commit`` out in :func:`worktree_dir` (detached: no branch is
    made or moved; the user's work tree, index and HEAD stay as they are). The line first
    removes that worktree where an earlier try left it (a step that failed before its
    ``remove`` line ran; its directory deleted by hand), so the block pasted again runs.
    ``elsewhere``: a CI or server block, printed away from the clone the lines run in: the
    words say which (:data:`WRITERS_CLONE`)."""
    where = worktree_dir(commit, kind)
    clone = f"{WRITERS_CLONE}, " if elsewhere else ""
    yours = "that clone's work tree" if elsewhere else "yours"
    return [
        (
            "do",
            f"{clone}check commit {commit[:12]} out in a worktree of its own ({yours} stays "
            "as it is; one an earlier try left there is removed first)",
        ),
        # `add -f` also takes the place of one still registered whose directory is gone
        (
            "run",
            f"test ! -e {where} || git worktree remove --force {where}; "
            f"git worktree add -f -q --detach {where} {commit}",
        ),
    ]


def worktree_remove(commit: str, kind: str = "verify") -> Step:
    """The line that removes :func:`worktree_dir` once the commit is verified there."""
    return ("run", f"git worktree remove --force {worktree_dir(commit, kind)}")
