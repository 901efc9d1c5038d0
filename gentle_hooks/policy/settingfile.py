"""Content made only of settings, patterns and headings: what every project copies from a
template (SPEC §3 "Attribution follows content", §8: a blob id alone does not tell who
wrote a file).

Room ``policy`` (pure: bytes in, answers out). A person who writes a ``.gitattributes``
holding ``* text=auto``, a minimal ``setup.cfg``, ``pyproject.toml``, ``tox.ini`` or
``.editorconfig``, a four-line ``.gitignore`` or a README of one title and one sentence
gets the very blob an unverified writer's note lists whenever they both copied the same
template: such content says nothing of who wrote it. Code says more (a call, a statement, a
shell command), and so do a setting that opens a door and a line that runs or reaches
something: those are the writer's evidence however short
(:func:`~gentle_hooks.policy.wholefile.identifies_writer`).

Each non-blank line of a file, stripped, is of the first row that matches, in the order
below (row S10 is read third); rows S3-S9 are read only for lines that are no trivial line
(rows L1-L6 of :mod:`~gentle_hooks.policy.linekeys`: ``[options]``, ``*.pyc``, ``version =
0.1.0`` tell nothing), rows S1, S2 and S10 for every line (``debug = 1`` is trivial, and
tells). An import (row L5: ``import os``, ``from evil import *``) is trivial, yet code
(row S9), never a setting: a file holding one is no template's settings.

=====  =======================================================================  ========
row    the line                                                                 is
=====  =======================================================================  ========
S1     a call of what runs a process, runs code or reaches the network            tells
       (:func:`~gentle_hooks.policy.distinctive.reaches`: ``os.system(...)``), or
       a setting whose value is a shell command with arguments (row D3 of
       :mod:`~gentle_hooks.policy.distinctive`: ``commands = rm -rf /``)
S2     a setting whose key names a security matter (:data:`SECURITY_WORDS`,      tells
       any value: ``ALLOWED_HOSTS = ["*"]``, ``DEBUG = True``, ``SECRET_KEY=x``,
       ``SELINUX=disabled``), an ssh-style ``CamelCaseKey value`` too
       (``StrictHostKeyChecking no``, ``UserKnownHostsFile /dev/null``)
S10    a setting that opens a door: it selects which tests are collected or       tells
       skipped, where packages come from, what a package installs or builds
       with, what runs, a workflow run with secrets on others' code; or an
       import of every name of a module (rows G1-G6 of :mod:`.doors`:
       ``collect_ignore = [...]``, ``registry=...``, ``entry: ./run.sh``,
       ``on: pull_request_target``, ``from evil import *``)
S3     an action: a call or a shell command (:func:`~.linekeys.is_action`:       code
       ``rm -rf build``, ``setup()``)
S4     a section header: ``[metadata]``, ``[tool.pytest.ini_options]``,        setting
       ``[*.{js,py}]``, ``[[tool.mypy.overrides]]``
S5     a plain setting: ``key = value``, ``key: value`` or ``"key": value`` (a    setting
       YAML item's ``- `` before it), its value one word, number, glob or
       version, quoted or not, or a list of such separated by commas; never a
       phrase or a command line (``"node evil.js"``, ``pytest {posargs}``: words
       apart by whitespace in one value), a URL (``://``) or shell or code
       punctuation (``( ) | ; & $`` backquote, backslash)
S6     a path pattern and its attributes, as ``.gitignore`` and                  setting
       ``.gitattributes`` write them: ``__pycache__/``, ``!keep.txt``,
       ``* text=auto eol=lf``, ``*.png binary``
S7     a comment or a heading: ``#``, ``;`` or ``//`` first                      setting
S8     prose: a sentence (a capital first, or ``. ! ?`` last) of words and      prose
       sentence punctuation, no code punctuation (``= { } [ ] < > /``), its first
       word no keyword (:data:`~.linekeys.COMMON_WORDS`); or a setting whose value,
       its quotes aside, is one (``description = "A small demo project"``);
       ``pip install x``, ``cat /etc/passwd``, ``"node evil.js"`` are not
S9     anything else                                                            code
=====  =======================================================================  ========

:func:`setting_only` says a file is of rows S4-S8 only: no line tells (S1, S2, S10), none
is code (S3, S9). Its prose lines alone may still tell (two of them: a paragraph of one's own;
:func:`~gentle_hooks.policy.wholefile.identifies_writer` counts them), its settings never.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gentle_hooks.policy.distinctive import distinctive_row, reaches
from gentle_hooks.policy.doors import door_row
from gentle_hooks.policy.linekeys import (
    COMMON_WORDS,
    LINES_KEPT,
    LineRow,
    first_row,
    is_action,
    trivial_row,
)

#: Words that make a setting's key a security matter (row S2): the hot tokens of SPEC §4
#: (auth, security, secret, webhook, payments and their senses) and the words of settings
#: that open a door, hold a credential or confine what runs (``selinux``, ``apparmor``). A
#: key is split into words at ``_ . - /``, spaces and a lower-to-upper case change, each
#: word lowercased.
SECURITY_WORDS = frozenset(
    b"""
    acl admin allow allowed apikey apparmor auth authn authz authentication authorization
    billing cert certs certificate cipher cookie cookies cors credential credentials crypto csrf
    debug encryption expose firewall host hosts hsts https insecure jwt key keys login
    oauth origin origins passphrase passwd password passwords payment payments permission
    permissions pwd saml sandbox secret secrets secure security selinux session sso ssl
    tls token tokens trust trusted verify webhook webhooks xss
    """.split()
)

_KEY = rb'(?:-\s+)?(?P<key>"[\w.@/ -]+"|\'[\w.@/ -]+\'|[A-Za-z_][\w.@/-]*)'
_SETTING = re.compile(_KEY + rb"\s*(?:=|:(?=\s|$))\s*(?P<value>.*)")
#: An ssh-style setting (``ssh_config``, ``sshd_config``): a key of two capitalised words or
#: more, then one value that is no sentence's last word (``OAuth tokens.`` is prose).
_SPACED = re.compile(
    rb"(?P<key>[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)[ \t]+"  # StrictHostKeyChecking
    rb"[^\s.!?,:]\S*(?<![.!?,:])"  # no, /dev/null; not ``tokens.``
)
_KEY_WORDS = re.compile(rb"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_SECTION = re.compile(rb"\[\[?[\w.*?{},:\"'/@ -]+\]\]?")
#: One value of a plain setting: a word, number, glob or version, quoted or not.
_ITEM = rb"""(?:"[^"\s]*"|'[^'\s]*'|[^\s"',\[\]{}]+)"""
_PLAIN = re.compile(
    rb"(?:|[\[{]|\[\]|\{\}|"
    + _ITEM
    + rb"(?:\s*,\s*"
    + _ITEM
    + rb")*\s*,?|\[\s*(?:"
    + _ITEM
    + rb"(?:\s*,\s*"
    + _ITEM
    + rb")*\s*,?)?\s*\]\s*,?)"
)
_CODE_PUNCTUATION = re.compile(rb"[()|;&$`\\]|://")
_PATTERN = re.compile(rb"!?[\w.*?/\[\]{}~@+-]+(?P<attrs>(?:\s+[-!]?[\w-]+(?:=[\w.-]+)?)*)")
_PATTERN_CHARS = re.compile(rb"[*?/.\[!]")
_ATTRIBUTE = re.compile(rb"(?:^|\s)[-!]|=")
_COMMENT = re.compile(rb"(?:#|;|//)")
_PROSE = re.compile(rb"[^\W\d_][\w'-]*(?:[ \t]+[\w'\"().,:;!?-]+)*[.,:;!?]?")
_SENTENCE = re.compile(rb"[A-Z].*|.*[.!?]")
_PROSE_NOT = re.compile(rb"[={}\[\]<>]")


def _setting(stripped: bytes) -> re.Match[bytes] | None:
    return _SETTING.fullmatch(stripped)


def is_security_setting(stripped: bytes) -> bool:
    """Whether a stripped line is a setting (``key = value``, ``key: value``, an ssh-style
    ``CamelCaseKey value``) whose key names a security matter (row S2,
    :data:`SECURITY_WORDS`), whatever its value."""
    m = _setting(stripped) or _SPACED.fullmatch(stripped)
    if m is None:
        return False
    words = _KEY_WORDS.findall(m.group("key").strip(b"\"'"))
    return any(w.lower() in SECURITY_WORDS for w in words)


def runs_something(stripped: bytes) -> bool:
    """Whether a stripped line runs a process, runs code or reaches the network (row S1:
    :func:`~gentle_hooks.policy.distinctive.reaches`, or a setting whose value is a shell
    command with arguments)."""
    if reaches(stripped):
        return True
    m = _setting(stripped)
    value = m.group("value").strip().strip(b"\"'") if m is not None else b""
    return bool(value) and distinctive_row(value) == "D3"


def tells_alone(stripped: bytes) -> bool:
    """Whether a stripped line tells who wrote a file however short it is: rows S1, S2 and
    S10 (a statement a line leaves open, ``requires = [``, is decided joined:
    :func:`~gentle_hooks.policy.doors.opens_door`)."""
    return (
        runs_something(stripped) or is_security_setting(stripped) or door_row(stripped) is not None
    )


def _plain_setting(stripped: bytes) -> bool:
    m = _setting(stripped)
    if m is None:
        return False
    value = m.group("value").strip()
    return not _CODE_PUNCTUATION.search(value) and _PLAIN.fullmatch(value) is not None


def _pattern(stripped: bytes) -> bool:
    m = _PATTERN.fullmatch(stripped)
    if m is None:
        return False
    # with attributes after it, the first word must be a pattern or one of them look like
    # one (``-diff``, ``eol=lf``): ``by hand`` is prose, not a file name and an attribute
    first = stripped[: m.start("attrs")]
    return not m.group("attrs") or bool(
        _PATTERN_CHARS.search(first) or _ATTRIBUTE.search(m.group("attrs"))
    )


def _prose(stripped: bytes) -> bool:
    if _PROSE_NOT.search(stripped) or not _PROSE.fullmatch(stripped):
        return False
    if not _SENTENCE.fullmatch(stripped):  # ``pip install x``: a command, not a sentence
        return False
    return stripped.split(None, 1)[0].rstrip(b".,:;!?") not in COMMON_WORDS


def _prose_setting(stripped: bytes) -> bool:
    m = _setting(stripped)
    return m is not None and _prose(m.group("value").strip().rstrip(b",").strip(b"\"'"))


SETTING_ROWS: tuple[LineRow, ...] = (
    LineRow("S1", "runs a process, runs code or reaches the network", runs_something),
    LineRow("S2", "a setting whose key names a security matter", is_security_setting),
    LineRow("S10", "a setting that opens a door", lambda s: door_row(s) is not None),
    LineRow("S3", "an action: a call or a shell command", is_action),
    LineRow("S4", "a section header", lambda s: _SECTION.fullmatch(s) is not None),
    LineRow("S5", "a plain setting", _plain_setting),
    LineRow("S6", "a path pattern and its attributes", _pattern),
    LineRow("S7", "a comment or a heading", lambda s: bool(_COMMENT.match(s))),
    LineRow("S8", "prose, or a setting of prose", lambda s: _prose(s) or _prose_setting(s)),
    LineRow("S9", "anything else", lambda s: True),
)

#: Rows of lines a template holds (:func:`setting_only`).
SETTING_KINDS = frozenset({"S4", "S5", "S6", "S7", "S8"})


@lru_cache(maxsize=LINES_KEPT)
def setting_row(stripped: bytes) -> str:
    """The id of the first row of :data:`SETTING_ROWS` a stripped, non-blank line is of."""
    return first_row(SETTING_ROWS, stripped) or "S9"


def setting_only(data: bytes) -> tuple[bytes, ...] | None:
    """The prose lines (row S8, stripped) of ``data`` when each of its non-blank lines that
    is not trivial (rows L1-L6) is of rows S4-S8: settings, patterns, headings and prose
    only. None when one line tells (S1, S2, S10; a trivial one too: ``debug = 1``) or is
    code (S3, S9; an import too, trivial as it is)."""
    prose: list[bytes] = []
    for line in data.splitlines():
        s = line.strip()
        if not s:
            continue
        if tells_alone(s):  # rows S1, S2, S10, trivial or not
            return None
        trivial = trivial_row(s)
        # an import is code, trivial as it is (``package = demo`` is a setting, no import)
        if trivial == "L5" and _setting(s) is None:
            return None
        if trivial is not None:
            continue
        row = setting_row(s)
        if row not in SETTING_KINDS:
            return None
        if row == "S8":
            prose.append(s)
    return tuple(prose)
