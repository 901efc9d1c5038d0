"""The pure policy core (SPEC §5): tables as data, pure functions, no I/O.

Room ``policy``, above ``values`` only. May import the standard library,
:mod:`gentle_hooks.errors` and :mod:`gentle_hooks.values` (frozen value types); never
click, pydantic, ``os.environ``, the clock or files. Time and environment
are arguments. ``tests/unit/test_policy_purity.py`` proves it.

One module per table or rule set:

* :mod:`.vocabulary` — the vocabulary as enums: tiers, outcomes, sources, efforts
* :mod:`.shell` — a POSIX shell command line read into its structure
* :mod:`.shellwords` — shell words quoted on one line, for every command printed
* :mod:`.wrappers` — commands that run the command in their arguments (``env``, ``sh -c``)
* :mod:`.noop_args` — arguments that make ``python -c`` and ``test``/``[`` verify nothing
* :mod:`.noop_files` — file and text tools (``touch``, ``sort``, ``sed -n``) that verify nothing
* :mod:`.nocheck` — commands that verify nothing, and shell lines that can pass while every
  check fails
* :mod:`.hiding` — checks whose failure the line hides (``make -i``, ``--if-present``, a
  pipeline without pipefail), and the same command without the hiding part
* :mod:`.hidden` — shell lines that can pass while one of their checks fails (N-hidden)
* :mod:`.checkshape` — the one shape a verifier's criterion may have: simple commands
  joined by ``&&``
* :mod:`.checkdefs` — which files define what a verifier's check runs (the script, the
  Makefile, ``package.json``'s scripts, a test runner's configuration)
* :mod:`.runnerfiles` — files a test runner or the interpreter loads by name alone
  (``conftest.py``, ``pytest.ini``, ``*.pth``): an ignored one is more than the candidate
* :mod:`.defparts` — the parts of a file that define a check (``package.json``'s
  ``scripts``), and whether a change touches them
* :mod:`.syspath` — where a Python program finds a module ahead of the one a check means
  (the directory run in, the script's, ``PYTHONPATH``)
* :mod:`.testdirs` — modules a change puts beside the test modules pytest imports, hiding
  the product's (``tests/app.py`` before ``src/app.py``)
* :mod:`.plugins` — which pytest plugins a check loads by name (``-p NAME``, a test
  module's ``pytest_plugins``)
* :mod:`.importable` — which file names Python imports as a module (``NAME.py``, a
  sourceless ``NAME.pyc``, an extension ``NAME.*.so``)
* :mod:`.entrypoints` — installed-package metadata in the tree that loads code unasked (a
  ``*.dist-info/entry_points.txt``'s ``[pytest11]``, ``*.pth``, ``*.egg-link``)
* :mod:`.loadenv` — which of a brief's variables change what a runner or the interpreter
  loads (PYTEST_PLUGINS, NODE_OPTIONS, LD_PRELOAD...)
* :mod:`.assignments` — the variables a shell line sets for what it runs, read from its
  structure (``NAME=value``, ``export``, ``env``'s operands), not from its text
* :mod:`.reach` — which words of a verifier's check reach outside the clean room (an
  absolute path, a home directory, ``../..``)
* :mod:`.selection` — whether a test run selected some of the tests (not the full suite)
* :mod:`.suite_coverage` — whether an observed pytest run ran every test of the whole
  suite's collection
* :mod:`.programs` — the programs a verifier's check starts, by name
* :mod:`.pythonpath_line` — a check's own ``PYTHONPATH=`` with a room's entries put first,
  and a Python started with ``-I``, ``-E`` or ``-S``
* :mod:`.outputs` — where a check's own command says it writes its report
  (``--junitxml=out.xml``): its outputs, not a change of the artifact
* :mod:`.testcount` — how many tests a test runner's output says it ran,
  and whether it reports failures
* :mod:`.failed_tests` — which tests a failing full suite failed (an observed pytest run,
  unittest's report), and whether the candidate fails one its base tree did not
* :mod:`.doctests` — how many examples a ``python -m doctest FILE`` run tried (its
  ``-v`` summary, else the examples its files hold)
* :mod:`.skipmarks` — the markers a change adds that skip a test or expect its failure
  (``@unittest.skip``, ``pytest.mark.xfail``, ``test.skip``)
* :mod:`.skipreports` — which tests a runner's output names as skipped, and which added
  markers they tie to
* :mod:`.toolmissing` — the lines an unavailable tool leaves in a check's output
  (``No module named pytest``, ``command not found``)
* :mod:`.probes` — the row type of commands that verify nothing, and the rows only a
  receipt meets (a file probe, a byte-compile, a text search)
* :mod:`.selfcheck` — which writer reports count as self-verification, and when a re-run
  agrees
* :mod:`.inputs` — parsers for what the recording commands accept: receipt lines, paths,
  short texts
* :mod:`.markers` — the table of AI markers in commits (``docs/markers.md``)
* :mod:`.delegation` — delegated evidence that needs no ledger: trailers, markers, an agent
  runtime
* :mod:`.linekeys` — what one line says about who wrote it: its key, trivial lines
* :mod:`.importpairs` — a Python import line as the one-name imports it means (a sorter's lines)
* :mod:`.keyform` — a line as no formatter changes it: the form its key is taken of
* :mod:`.formatcall` — a ``str.format`` call on a literal read as the f-string it means
* :mod:`.fixforms` — a line as ``ruff check --fix`` leaves it (UP018, RUF010, UP034, UP039
  and the comparisons of :mod:`.comparisons`)
* :mod:`.comparisons` — comparisons as ``ruff check --fix`` leaves them (F632, E711-E714)
* :mod:`.linetokens` — a line of Python read as tokens, for those two
* :mod:`.shapes` — a line's token shape: two lines of one shape are a mechanical rename
* :mod:`.attribution` — attribution follows content: does a change carry what a writer wrote
* :mod:`.delta` — a writer's delta (what one write did to one path, as line keys), its
  rule-only fields computed when first read
* :mod:`.literals` — a writer's line with a string or a number changed, still the writer's
* :mod:`.spans` — a writer's line split, or its lines joined, where no bracket is open
* :mod:`.delivery` — whether the pushed commits that took a writer's entry delivered all of it
* :mod:`.placement` — where a line sits among its neighbours (a writer's line in its place)
* :mod:`.starts` — which version a writer's write started from (the nearest by lines)
* :mod:`.proposal` — a writer's proposal a person modified: which lines stay the writer's
* :mod:`.replacement` — whether a file is an edit tool's replacements made once more (a
  derived call id's replay or a new call)
* :mod:`.preimage` — a file as it was before an edit tool wrote it: its replacements undone
* :mod:`.renames` — which deleted and added paths of a change are one path renamed
* :mod:`.hunks` — the writer's edits as replacements of lines: one staged alone is its edit
  (row A6)
* :mod:`.renamededit` — the writer's edit with its names renamed on top: the block it put
  there, still its edit (row A6)
* :mod:`.rewrite` — whether a change of the writer's path is a person's own version of the
  file (row A9: the writer's edit thrown away, the file written anew)
* :mod:`.boilerplate` — lines every project writes alike: idioms are nobody's evidence alone
* :mod:`.settingfile` — content of settings, patterns, headings and one sentence: what every
  project copies from a template, and the lines that tell its writer however short
* :mod:`.doors` — settings that open a door (what runs, which tests are collected, where
  packages come from, what is trusted): the writer's evidence however short
* :mod:`.wholefile` — a file the writer created, moved or copied whole to another path;
  whether a whole file's content tells who wrote it
* :mod:`.movedfile` — a writer's file moved or copied to another path with one line's
  strings or numbers edited
* :mod:`.distinctive` — lines nobody types alike by chance: one of the writer's counts in
  another worktree, and brings expired writer work back at its own
* :mod:`.across` — a change of another path: the writer's content moved or copied there
  (one line counts alone only where it runs or reaches something)
* :mod:`.coincidence` — which writer lines at another path are a copy, not a coincidence
  (lines anyone types never; others side by side as the writer wrote them)
* :mod:`.renamedcopy` — a writer's block copied to another path with its names
  consistently renamed (one of its lines of literal content among them)
* :mod:`.writer` — writer profile resolution (seed 000)
* :mod:`.review` — review outcome resolution (seed 000)
* :mod:`.escalation` — naming one Task Size high-risk item raises the plan to ``high``
* :mod:`.stakes` — how many verifier verdicts a decision needs (seed 003)
* :mod:`.rdd` — RDD mode: the ``Receipt-driven development: on|off|unknown`` line
* :mod:`.rddline` — the pinned RDD line of a harness session and the loadout that follows it
* :mod:`.loadout` — the review tool loadout a harness declares: full, or lean while RDD is
  ``off``
* :mod:`.shortfall` — what a candidate lacks, as values: one frozen shortfall per missing
  item
* :mod:`.plan` — the verification plan and the gate decision (seed 000 tier table)
* :mod:`.decision_form` — the fixed parts of a gate's JSON decision object
"""
