"""What the classifier settings say of a path: the facts the path rules read (SPEC §4).

Layer: native, pure (settings and strings in, :class:`~gentle_hooks.native.rules.PathFacts`
out: no process, no file, no clock). :func:`path_facts` defines each fact of one path;
:class:`FactCache` gives the same facts for many paths at once, asking each distinct
directory and file name once, and is what the classifier uses (a property test holds the
two equal).
"""

from __future__ import annotations

import bisect
import fnmatch
import functools
import itertools
import re
from collections.abc import Iterable

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.native.rules import CONFIG_EXTENSIONS, FactValues, PathFacts, facts_of

#: A path's tokens in one pass: runs of ASCII letters and digits, split where a lowercase
#: letter or digit meets an uppercase one (``authService`` -> ``auth`` ``Service``).
_TOKEN = re.compile(r"[A-Z]*[a-z0-9]*")
#: Directory, name and path answers kept per settings, up to this many of each.
_MAX_REMEMBERED = 100_000


def path_tokens(path: str) -> list[str]:
    """Lowercase whole tokens of a path: split on non-alphanumerics and camelCase.

    ``src/authService/login_view.py`` -> ``src auth service login view py``.
    """
    return [t.lower() for t in _TOKEN.findall(path) if t]


def _basename(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _ext(path: str) -> str:
    base = _basename(path)
    dot = base.rfind(".")
    return base[dot:].lower() if dot > 0 else ""


class Matchers:
    """One settings' lists as sets, and each glob list as one compiled regex: a candidate
    of 10,000 paths asks every fact of every path (built once per settings, see
    :func:`matchers`)."""

    __slots__ = (
        "agent_dirs",
        "agent_upper",
        "cache",
        "delivery",
        "doc_extensions",
        "doc_name_extensions",
        "doc_names",
        "generated",
        "generated_hint",
        "hot_substring",
        "hot_tokens",
        "shell_extensions",
    )

    def __init__(self, s: RiskSettings) -> None:
        self.cache: FactCache | None = None
        self.hot_tokens = frozenset(s.hot_path_tokens)
        #: any hot token as a substring (a necessary condition for a whole-token hit)
        self.hot_substring = (
            re.compile("|".join(re.escape(t) for t in sorted(self.hot_tokens)))
            if self.hot_tokens
            else None
        )
        self.agent_upper = frozenset(f.upper() for f in s.agent_files)
        self.agent_dirs = frozenset(s.agent_dirs)
        self.doc_extensions = frozenset(s.doc_extensions)
        self.doc_names = frozenset(s.doc_names)
        self.doc_name_extensions = frozenset(("", ".txt", *s.doc_extensions))
        self.shell_extensions = frozenset(s.shell_extensions)
        self.delivery = _globs(s.delivery_globs)
        self.generated = _globs(s.generated_globs)
        #: finds, in ``"/" + path``, a literal that every path some generated glob matches
        #: contains; None when there is no such literal (then every path is matched)
        literals = _glob_literals(s.generated_globs)
        self.generated_hint = (
            re.compile("|".join(re.escape(t) for t in literals)) if literals else None
        )


def _globs(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """fnmatchcase against any of ``patterns`` as one regex (None: no pattern)."""
    parts = [f"(?:{fnmatch.translate(p)})" for p in patterns]
    return re.compile("|".join(parts)) if parts else None


def _glob_literals(patterns: Iterable[str]) -> tuple[str, ...] | None:
    """For each glob, its longest run of plain characters: a string that anything the glob
    matches contains (``*.golden`` -> ``.golden``). None when some glob has no such run or
    holds a ``[`` (a character class is not read here), so every path must be matched."""
    out = []
    for p in patterns:
        if "[" in p:
            return None
        longest = max(re.split(r"[*?]", p), key=len)
        if not longest:
            return None
        out.append(longest)
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _cached_matchers(s: RiskSettings) -> Matchers:
    return Matchers(s)


def matchers(s: RiskSettings) -> Matchers:
    """The :class:`Matchers` of ``s``, built once per (hashable) settings."""
    try:
        return _cached_matchers(s)
    except TypeError:  # settings holding lists are not hashable: build them each time
        return Matchers(s)


def _glob(path: str, rx: re.Pattern[str] | None) -> bool:
    return rx is not None and rx.match(path) is not None


def is_agent_instruction(path: str, s: RiskSettings) -> bool:
    """True for agent-instruction files: AGENTS.md, CLAUDE.md, SKILL.md..., or any path
    inside a prompt/skill/agent folder or ``.github/``."""
    return _is_agent_instruction(path, matchers(s))


def _is_agent_instruction(path: str, m: Matchers) -> bool:
    if _basename(path).upper() in m.agent_upper:
        return True
    dirs = path.split("/")[:-1]
    return any(d.lower() in m.agent_dirs for d in dirs)


def is_doc_path(path: str, s: RiskSettings) -> bool:
    """True when the path looks like documentation: a doc extension, or a README /
    CHANGELOG / LICENSE / CONTRIBUTING name (bare or with a doc or ``.txt`` extension)."""
    return _is_doc_path(path, matchers(s))


def _is_doc_path(path: str, m: Matchers) -> bool:
    ext = _ext(path)
    if ext in m.doc_extensions:
        return True
    base = _basename(path)
    stem = base[: len(base) - len(ext)] if ext else base
    return stem.upper() in m.doc_names and ext in m.doc_name_extensions


def is_generated(path: str, s: RiskSettings) -> bool:
    """True for generated golden files (excluded from ``changed_lines``)."""
    return _is_generated(path, matchers(s))


def _is_generated(path: str, m: Matchers) -> bool:
    return _glob(path, m.generated) or _glob("/" + path, m.generated)


def path_facts(path: str, m: Matchers) -> PathFacts:
    """The facts of one path, each by its definition (one path at a time, nothing kept)."""
    hits = m.hot_tokens.intersection(path_tokens(path))
    ext = _ext(path)
    return facts_of(
        hot=min(hits) if hits else None,
        shell=ext in m.shell_extensions,
        config=ext in CONFIG_EXTENSIONS,
        agent=_is_agent_instruction(path, m),
        doc=_is_doc_path(path, m),
        delivery=_glob(path, m.delivery),
        generated=_is_generated(path, m),
    )


def fact_cache(m: Matchers) -> FactCache:
    """The settings' :class:`FactCache`: what it learnt of a directory or a name serves
    every later call with the same settings (the doc blobs to prove, then the
    classification, see the same paths)."""
    cache = m.cache
    if cache is None or max(len(cache.names), len(cache.dirs), len(cache.paths)) > _MAX_REMEMBERED:
        cache = m.cache = FactCache(m)
    return cache


def _found_in(rx: re.Pattern[str] | None, texts: list[str]) -> set[int]:
    """Indexes of the texts where ``rx`` finds a match (a match holds no NUL)."""
    if rx is None:
        return set()
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    return {bisect.bisect_right(starts, hit.start()) - 1 for hit in rx.finditer("\0".join(texts))}


#: What :class:`FactCache` knows of a directory: (smallest hot token in it or None, a
#: component is an agent folder).
_DirFacts = tuple[str | None, bool]
#: What it knows of a last component: (smallest hot token or None, shell extension,
#: configuration extension, agent-instruction name, documentation name).
_NameFacts = tuple[str | None, bool, bool, bool, bool]


class FactCache:
    """:func:`path_facts` for many paths at once, with the same answers.

    Every fact but the two glob lists reads either the directory part of a path or its last
    component, never both: hot tokens split at ``/`` (a token is letters and digits), so a
    path's tokens are its directory's followed by its name's. A candidate of 10,000 paths
    has far fewer distinct directories and names, so each is asked once.
    """

    __slots__ = ("dirs", "interned", "m", "names", "paths")

    def __init__(self, m: Matchers) -> None:
        self.m = m
        self.dirs: dict[str, _DirFacts] = {}
        self.names: dict[str, _NameFacts] = {}
        self.paths: dict[str, PathFacts] = {}
        #: the values of the facts met so far -> their one object (:func:`facts_of`)
        self.interned: dict[FactValues, PathFacts] = {}

    def _hot(self, text: str, maybe: bool = True) -> str | None:
        """The smallest hot token among ``text``'s tokens, or None (``maybe`` False: known
        to hold no hot token, see :meth:`learn`)."""
        m = self.m
        # A token equal to a hot token is a substring of the lowercased text: most names
        # hold none, and one search says so without splitting them into tokens.
        if not maybe or m.hot_substring is None or m.hot_substring.search(text.lower()) is None:
            return None
        hits = m.hot_tokens.intersection(path_tokens(text))
        return min(hits) if hits else None

    def _dir(self, d: str, maybe_hot: bool = True) -> _DirFacts:
        agent = any(part.lower() in self.m.agent_dirs for part in d.split("/"))
        return self._hot(d, maybe_hot), agent

    def _name(self, name: str, maybe_hot: bool = True) -> _NameFacts:
        m = self.m
        dot = name.rfind(".")
        ext = name[dot:].lower() if dot > 0 else ""
        doc = ext in m.doc_extensions or (
            name[: len(name) - len(ext)].upper() in m.doc_names and ext in m.doc_name_extensions
        )
        return (
            self._hot(name, maybe_hot),
            ext in m.shell_extensions,
            ext in CONFIG_EXTENSIONS,
            name.upper() in m.agent_upper,
            doc,
        )

    def learn(self, paths: Iterable[str]) -> None:
        """:meth:`facts` of many paths at once. The two searches most paths fail (a hot
        token as a substring, a generated glob's literal) run once over all of them joined
        with NULs (no path, token or literal holds one), so only the paths they find are
        searched alone. The hot-token search is sound for a path's directory and name too:
        lowercasing maps each character on its own but for a final sigma, never ASCII."""
        m = self.m
        todo = [p for p in dict.fromkeys(paths) if p not in self.paths]
        if not todo:
            return
        hot = _found_in(m.hot_substring, [p.lower() for p in todo])
        hint = m.generated_hint
        hinted = None if hint is None else _found_in(hint, ["/" + p for p in todo])
        for i, path in enumerate(todo):
            self.paths[path] = self._facts(path, i in hot, hinted is None or i in hinted)

    def facts(self, path: str) -> PathFacts:
        """What :func:`path_facts` says of ``path``."""
        known = self.paths.get(path)
        if known is None:
            known = self.paths[path] = self._facts(path)
        return known

    def _facts(self, path: str, maybe_hot: bool = True, maybe_generated: bool = True) -> PathFacts:
        m = self.m
        delivery = m.delivery is not None and m.delivery.match(path) is not None
        generated = (
            maybe_generated
            and m.generated is not None
            and (m.generated_hint is None or m.generated_hint.search("/" + path) is not None)
            and _is_generated(path, m)
        )
        cut = path.rfind("/")
        name = path[cut + 1 :]
        nf = self.names.get(name)
        if nf is None:
            nf = self.names[name] = self._name(name, maybe_hot)
        hot, shell, config, agent, doc = nf
        if cut >= 0:
            d = path[:cut]
            df = self.dirs.get(d)
            if df is None:
                df = self.dirs[d] = self._dir(d, maybe_hot)
            if df[0] is not None and (hot is None or df[0] < hot):
                hot = df[0]
            agent = df[1] or agent
        values = (hot, shell, config, agent, doc, delivery, generated)
        # a local lookup before facts_of: one call fewer per path learnt
        return self.interned.get(values) or self._intern(values)

    def _intern(self, values: FactValues) -> PathFacts:
        facts = self.interned[values] = facts_of(*values)
        return facts
