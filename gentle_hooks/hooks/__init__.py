"""Git hooks (SPEC §5 "Decision", §7 "Hooks", §8): the gates and the recorders.

Room ``hooks``. :mod:`.dispatch` is the table every ``gentle-hook hook <name>`` goes
through: a light probe per hook decides "nothing can apply" with the standard library, and
only then is the handler imported.

* :mod:`.call` — one invocation (name, arguments, stdin, chaining);
* :mod:`.dispatch` — the table, chaining of a foreign hook, the pass path;
* :mod:`.gates` — the commit, commit-msg and push gates, overrides and warn mode;
* :mod:`.rangegate` — ``gate --range`` for CI and the server's pre-receive, from notes;
* :mod:`.pushspec` — what a push sends (pre-push stdin, the framework's variables);
* :mod:`.recorders` — prepare-commit-msg, post-commit, post-rewrite: never block.
"""
