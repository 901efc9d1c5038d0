"""Git hooks (SPEC §5 "Decision", §7 "Hooks", §8): the gates and the recorders.

Room ``hooks``. :mod:`.dispatch` is the table every ``gentle-hook hook <name>`` goes
through: a light probe per hook decides "nothing can apply" with the standard library, and
only then is the handler imported.

* :mod:`.call` — one invocation (name, arguments, stdin, chaining);
* :mod:`.dispatch` — the table, chaining of a foreign hook, the pass path;
* :mod:`.commit` — the commit and commit-msg gates, and how a fix binds the staged change;
* :mod:`.push_gate` — the push gate: the updates, the commits they send, judged as a batch;
* :mod:`.pushed_commits` — why a pushed commit is delegated, and the ledger's facts for it;
* :mod:`.push_input` — what a push sends (pre-push stdin, the framework's variables);
* :mod:`.outcome` — what a gate concludes: block lines, exit code, overrides, warn mode;
  :mod:`.decision` — that conclusion as one JSON object for agents;
* :mod:`.judgement` — commits judged from notes and trailers alone, their lines and JSON;
* :mod:`.range` — ``gate --range A..B`` for CI; :mod:`.server` — the server's pre-receive;
* :mod:`.recorders` — prepare-commit-msg, post-commit, post-rewrite: never block.
"""
