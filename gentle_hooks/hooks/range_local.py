"""``gate --range`` in the writer's own clone (SPEC §3 "Attribution follows content", §8):
a commit no note nor trailer names, judged from this clone's ledger as the push gate will.

Room ``hooks``. A commit made with hooks off (``git -c core.hooksPath=/dev/null commit``)
on writer work has no note and no trailer until a push gate records it. Judged from notes
alone it reads as a human's commit; in the clone whose ledger holds the writer's pending
records, its content says otherwise. Each range commit the notes leave undelegated is
judged by :func:`~gentle_hooks.hooks.push_gate.judge_push_commits` (delegated by the
writer content it carries, judged by the records bound to its committed candidate). Its
commit record and note are not written here (the push gate writes them when it is pushed);
what every gate does on the way stands: discarded writer work a commit holds is recorded
with its override, and pending work whose content is nowhere expires (one status line).
A clone without a ledger (CI, a server) and a bare repository judge from notes alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.config.load import LoadedConfig
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.judgement import CommitVerdict
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.store import Ledger


def with_local_work(
    repo: Repository, config: LoadedConfig, verdicts: Sequence[CommitVerdict]
) -> list[CommitVerdict]:
    """``verdicts`` with each commit the notes leave undelegated judged again from this
    clone's ledger (module docstring): delegated when it carries writer content (or a
    writer's commit record names it), then blocked or passed as the push gate would judge
    it; the others as they were.

    Raises:
        GitError: git failed; StoreError: the ledger exists but cannot be read (a gate
            that cannot decide fails closed).
    """
    plain = [v.commit for v in verdicts if v.delegated_by is None]
    if not plain or repo.paths.toplevel is None:
        return list(verdicts)
    path = ledger_path(repo.paths.common_dir)
    led = Ledger.open_existing(path)
    if led is None:
        return list(verdicts)
    led.close()
    from gentle_hooks.hooks.push_gate import judge_push_commits

    found = judge_push_commits(
        repo,
        config,
        path,
        None,  # no runtime evidence: the environment judging is not the one that committed
        False,  # gate.applies_to = all: the notes' judgement said so already
        repo.head,
        lambda: None,
        [[c] for c in plain],  # each its own range: any subset of the range will do
    )
    out = []
    for v in verdicts:
        judged = found.get(v.commit) if v.delegated_by is None else None
        if judged is None:
            out.append(v)
            continue
        result = judged[0]
        why = result.delegated_by or "writer content in this clone's ledger"
        blocked = result.decision.blocked
        shortfalls = result.decision.shortfalls
        out.append(CommitVerdict(v.commit, v.ref, why, result, blocked, shortfalls))
    return out
