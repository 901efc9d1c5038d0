"""A file the writer created, moved or copied whole to another path (SPEC §3 "Attribution
follows content": a rename or a copy carries the writer's content).

Room ``policy`` (pure). A writer's new file never was in ``HEAD``, so moving it (``mv
deploy.py tools/setup_env.py``) and adding lines of one's own pairs no deletion with the
added path: no rename is read. Across paths, row A2 asks for two of the writer's
distinctive lines, which a small new file may not have (``import subprocess`` and one
``subprocess.run("curl ... | sh", shell=True)``). The other path holds the writer's file
whole when it introduces *every* line the writer added and at least one of them is telling
and of no boilerplate row: nobody writes all of a file's lines, a telling one among them,
the same way by chance. :func:`holds_whole_new_file` says so for
:func:`~gentle_hooks.policy.across.carries_row_across`.

A blob id alone is weaker evidence than the writer's lines: the server and CI find a
writer's file by the (path, blob) its note lists, with no ledger, and a person's
``.gitignore`` holding ``__pycache__/`` has the very blob id a writer's has.
:func:`identifies_writer` says when a file's content tells who wrote it: a distinctive
line, or two telling lines of no idiom (then nobody types the file alike by chance).
"""

from __future__ import annotations

from collections.abc import Iterable, Set

from gentle_hooks.policy.boilerplate import boilerplate_row
from gentle_hooks.policy.coincidence import coincidence_row
from gentle_hooks.policy.distinctive import is_distinctive
from gentle_hooks.policy.doors import opens_door
from gentle_hooks.policy.linekeys import stripped_key, trivial_row
from gentle_hooks.policy.settingfile import setting_only, tells_alone

#: Bytes git reads to decide whether content is binary (a NUL among them).
BINARY_PROBE = 8000


def holds_whole_new_file(
    created: bool,
    added: Set[str],
    telling: Set[str],
    introduced: Iterable[tuple[str, bool]],
) -> bool:
    """Whether a change of another path holds the whole file a writer created.

    Args:
        created: the writer created the file (it started from no blob);
        added: keys of the writer's added significant lines; telling: keys of its telling
            lines (:class:`~gentle_hooks.policy.delta.WriterDelta`);
        introduced: (key, is boilerplate) of each line the change's new side introduces
            (not on its old side).

    Returns:
        True when ``created``, the change introduces every key of ``added`` (at least one),
        and one of them, of ``telling`` and not boilerplate.
    """
    if not created or not added:
        return False
    keys: set[str] = set()
    told = False
    for key, boilerplate in introduced:
        keys.add(key)
        told = told or (key in telling and not boilerplate)
    return told and added <= keys


#: Telling lines a writer's file needs to say who wrote it when nothing else does
#: (:func:`identifies_writer`): as many as another worktree needs of the writer's lines
#: (:data:`~gentle_hooks.policy.attribution.MIN_ELSEWHERE`).
MIN_TELLING_LINES = 2


def identifies_writer(data: bytes) -> bool:
    """Whether a file's whole content, found at a writer's path by its blob id alone (a
    note's ``writes`` line, with no ledger: :mod:`gentle_hooks.hooks.changed_tree`), says
    the writer wrote it rather than a person who typed the same file.

    True for binary content; for text, in this order:

    * when one line calls what runs a process, runs code or reaches the network
      (:func:`~.distinctive.reaches`: ``os.system("curl … | sh")`` on one line is no
      common file; a setting of a shell command with arguments), or is a setting whose
      key names a security matter (``ALLOWED_HOSTS = ["*"]``), or one statement opens a
      door (``on: pull_request_target``, ``collect_ignore = [...]``, ``registry=...``,
      a ``requires = [`` list naming no build backend's package), however short: rows
      S1, S2 and S10 of :mod:`.settingfile` (:func:`~.settingfile.tells_alone`,
      :func:`~.doors.opens_door`);
    * for content of settings, patterns, headings and prose only (rows S4-S8 of
      :mod:`.settingfile`: a template's ``setup.cfg``, ``tox.ini``, ``.editorconfig``,
      ``.gitattributes``, ``.gitignore``; a README's title and sentence), when
      :data:`MIN_TELLING_LINES` of its prose lines differ: its settings never tell;
    * else reading only its telling lines (:func:`~.linekeys.trivial_row`) of no idiom
      row (:mod:`.boilerplate`) that are no line anyone types (rows C1-C2 of
      :mod:`.coincidence`: a preamble, a call of constants), when one of them is
      distinctive (rows D2-D4 of :mod:`.distinctive`: a URL, a shell command, names of
      its own) or there are :data:`MIN_TELLING_LINES` of them.

    False for content too short or common to tell anyone by: a ``.gitignore`` holding
    ``__pycache__/``, ``* text=auto``, a README's one title, ``print("done")``.
    """
    if b"\0" in data[:BINARY_PROBE]:
        return True
    if opens_door(data):  # row S10 of settingfile, its open statements joined
        return True
    prose = setting_only(data)
    if prose is not None:
        return len({stripped_key(s) for s in prose}) >= MIN_TELLING_LINES
    telling: set[str] = set()
    for line in data.splitlines():
        s = line.strip()
        if s and tells_alone(s):  # rows S1, S2, S10 of settingfile: however short
            return True
        if not s or trivial_row(s) is not None or boilerplate_row(s) is not None:
            continue
        if coincidence_row(s) in ("C1", "C2"):  # a preamble, a call of constants
            continue
        if is_distinctive(s):
            return True
        telling.add(stripped_key(s))
    return len(telling) >= MIN_TELLING_LINES
