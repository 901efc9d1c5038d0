"""The journey bench: a new user's way through every block, resolved only by what it prints.

* :mod:`.sandbox` — one journey's world: its own HOME, XDG directories and TMPDIR,
  ``GIT_CONFIG_NOSYSTEM=1``, a local bare remote, and every command it runs recorded
  (argv, exit code, output bytes);
* :mod:`.agent` — the scripted agent: it reads a block's printed commands (the ``run:``
  and ``prefix:`` lines, or the ``gentle-hooks.decision/v1`` object), runs them literally,
  retries, and classifies the block (:data:`.agent.CLASSES`);
* :mod:`.catalog` — the journeys: each builds its fixture, proves its edge case from git,
  then lets the agent walk through;
* :mod:`.refuted` — journeys of a change a re-run refuted (commit, push, CI) and of a push
  whose commit tracks a file untracked here;
* :mod:`.human_ways` — a person's own change blocked by a stale reading of the writer's
  work, resolved by pasting the block's ``human:`` line (the agent as that person);
* :mod:`.framework_twins` — recent plain-hook journeys again under the pre-commit
  framework installed as the README says, and under prek, ``gentle-hook`` off PATH;
* :mod:`.results` — the ``gentle-hooks.journeys/v1`` JSON document and the table.

``python bench/journeys.py`` runs them (``--fast`` the subset the test suite runs).
"""
