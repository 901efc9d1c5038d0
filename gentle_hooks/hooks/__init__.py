"""Git hooks (SPEC §5 "Decision", §7 "Hooks", §8): the gates and the recorders.

Room ``hooks``. :mod:`.dispatch` is the table every ``gentle-hook hook <name>`` goes
through: a light probe per hook decides "nothing can apply" with the standard library, and
only then is the handler imported.

* :mod:`.call` — one invocation (name, arguments, stdin, chaining)
* :mod:`.dispatch` — the table, chaining of a foreign hook, the pass path
* :mod:`.commit` — the commit gate, and how a fix binds the staged change
* :mod:`.commit_msg` — the commit-msg gate: judges only what the commit gate did not
* :mod:`.push_gate` — the push gate: the commits of every update, judged as a batch
* :mod:`.push_record` — the push gate records a writer's commit no hook recorded (hooks off)
* :mod:`.worker_pool` — the ordered thread pool the push gate judges on
* :mod:`.push_input` — what a push sends (pre-push stdin, the framework's variables)
* :mod:`.push_early` — the push gate's walks, started from git's lines before its imports
* :mod:`.pushed_commits` — the commits an update sends, why each is delegated, the ledger's
  facts
* :mod:`.notes_sharing` — the notes sent along with an allowed push
* :mod:`.outcome` — what a gate concludes: block lines, exit code, warn mode
* :mod:`.overrides` — a block let through, recorded
* :mod:`.decision` — the conclusion as one JSON object for agents
* :mod:`.elsewhere` — a block's commands bound to the repository when the user is outside it
* :mod:`.judgement` — commits judged from notes and trailers alone
* :mod:`.verdict_text` — those verdicts' lines, ways out and JSON
* :mod:`.same_tree` — a commit judged by another commit's note of its exact tree
* :mod:`.changed_tree` — a commit judged by another commit's note of the writer content
  it brings in
* :mod:`.range` — ``gate --range A..B`` for CI
* :mod:`.range_local` — ``gate --range`` in the writer's clone: a commit no note names,
  judged from the ledger as the push gate will (hooks off)
* :mod:`.server` — the server's pre-receive
* :mod:`.recorders` — prepare-commit-msg, post-commit, post-rewrite: never block
* :mod:`.trailers` — the ``Gentle-Writer`` trailer of the commit being made: added by
  prepare-commit-msg, put back by commit-msg when the editor took it out
* :mod:`.rewrites` — the ``(old, new)`` pairs of a rewrite, for post-rewrite
"""
