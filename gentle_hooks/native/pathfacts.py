"""What a path's name tells the classifier: the facts the rules read (SPEC §4).

Room ``native``, pure (settings and strings in, :class:`~gentle_hooks.native.rules.PathFacts`
out: no process, no file, no clock). The facts follow upstream gentle-ai's path predicates
(``internal/reviewtransaction/risk.go``: hot paths, service-token names, name and content
eligibility, configuration, the passive-document nomination), widened only where the
settings say so (``risk.*``: more hot tokens, shell extensions, delivery globs, agent files
and folders, README-like names). :func:`path_facts` computes one path from its parts;
:class:`FactCache` gives the same answers for many paths, asking each distinct directory and
file name once (a property test holds the two equal).
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import re
from collections.abc import Iterable

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.native.content import IMAGE_EXTENSIONS
from gentle_hooks.native.rules import (
    AUTHORITY_PATHS,
    CONFIG_EXTENSIONS,
    CONFIG_NAMES,
    EXCLUDED_SEGMENTS,
    INTERNAL_OPERATIONAL,
    NOT_PASSIVE_BASENAMES,
    NOT_PASSIVE_SEGMENTS,
    NOT_PASSIVE_STEM_TOKENS,
    OPERATIONAL_MD_BASENAMES,
    OPERATIONAL_MD_SEGMENTS,
    OPERATIONAL_MD_TOKENS,
    SOURCE_EXTENSIONS,
    ChangeClass,
    PathFacts,
    facts_of,
    signal_of,
)
from gentle_hooks.values.candidate import PathChange

#: Upstream's hot-path token separators (``hotPathRiskSignals``): ``/ \\ . - _``.
_TOKEN_SPLIT = r"[/\\._-]+"
#: Upstream's token splits: stems on ``- _ . space``; Markdown names on any non-alphanumeric.
_STEM_SPLIT = r"[-_. ]+"
_ALNUM_SPLIT = re.compile(r"[^a-z0-9]+")
_SERVICE_SPLIT = re.compile(r"[-_]+")
#: Directory, name and path answers kept per settings, up to this many of each.
_MAX_REMEMBERED = 100_000


def path_tokens(path: str) -> list[str]:
    """Upstream's hot-path tokens of a path: the path lowercased, split on ``/ \\ . - _``
    (``strings.FieldsFunc``); no other character separates (``authService``, ``auth2`` and
    ``auth v2`` are one token each).

    ``src/Auth/login_view.py`` -> ``src auth login view py``.
    """
    return [t for t in re.split(_TOKEN_SPLIT, path.lower()) if t]


def go_ext(name: str) -> str:
    """Upstream's ``path.Ext``: the suffix from the last dot of a name (a leading dot
    included), lowercased; ``""`` without a dot."""
    dot = name.rfind(".")
    return name[dot:].lower() if dot >= 0 else ""


def is_configuration(path: str) -> bool:
    """Upstream ``isConfigurationReviewPath``, by the path's last component: ``.env`` and
    ``.env.*``, dependency manifests and lock files, Dockerfile, Makefile, and ``.json
    .yaml .yml .toml .ini .env`` files."""
    base = path.rsplit("/", 1)[-1].lower()
    return _configuration_name(base, go_ext(base))


def _configuration_name(lower: str, ext: str) -> bool:
    """:func:`is_configuration` of a lowercased last component and its :func:`go_ext`."""
    return (
        lower == ".env"
        or lower.startswith(".env.")
        or lower in CONFIG_NAMES
        or ext in CONFIG_EXTENSIONS
    )


def _service_token(segment: str) -> bool:
    """A path segment names ``service`` then ``token`` as adjacent ``-``/``_`` tokens (a
    source or configuration extension stripped first)."""
    ext = go_ext(segment)
    if ext and (ext in SOURCE_EXTENSIONS or is_configuration(segment)):
        segment = segment[: len(segment) - len(ext)]
    tokens = [t for t in _SERVICE_SPLIT.split(segment.lower()) if t]
    return any(a == "service" and b == "token" for a, b in itertools.pairwise(tokens))


def _md_tokens(segment: str) -> set[str]:
    """Upstream's Markdown-name tokens of one segment: extension dropped, split on every
    character that is not a lowercase ASCII letter or digit."""
    segment = segment.lower()
    ext = go_ext(segment)
    stem = segment[: len(segment) - len(ext)] if ext else segment
    return {t for t in _ALNUM_SPLIT.split(stem) if t}


class Matchers:
    """One settings' lists as sets and each glob list as one compiled regex, built once per
    settings (:func:`matchers`); ``cache`` holds the settings' :class:`FactCache`."""

    __slots__ = (
        "agent_dirs",
        "agent_upper",
        "cache",
        "delivery",
        "delivery_hint",
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
            re.compile("|".join(re.escape(t) for t in sorted(self.hot_tokens) if t))
            if any(self.hot_tokens)
            else None
        )
        self.agent_upper = frozenset(f.upper() for f in s.agent_files)
        self.agent_dirs = frozenset(d.lower() for d in s.agent_dirs)
        self.doc_extensions = frozenset(e.lower() for e in s.doc_extensions)
        self.doc_names = frozenset(n.upper() for n in s.doc_names)
        self.doc_name_extensions = frozenset(("", ".txt", *self.doc_extensions))
        self.shell_extensions = frozenset(e.lower() for e in s.shell_extensions)
        self.delivery = _globs(s.delivery_globs)
        self.generated = _globs(s.generated_globs)
        #: a literal every path a glob list matches contains (None: none known), so most
        #: paths are answered by one substring search instead of the globs
        self.delivery_hint = _hint(s.delivery_globs)
        self.generated_hint = _hint(s.generated_globs)


def _globs(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """fnmatchcase against any of ``patterns`` as one regex (None: no pattern)."""
    parts = [f"(?:{fnmatch.translate(p)})" for p in patterns]
    return re.compile("|".join(parts)) if parts else None


def _hint(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """For each glob its longest run of plain characters, as one search: a string that
    anything the glob matches contains (``*.golden`` -> ``.golden``). None when some glob
    has no such run or holds a ``[`` (a character class is not read here)."""
    literals = []
    for p in patterns:
        longest = max(re.split(r"[*?]", p), key=len)
        if "[" in p or not longest:
            return None
        literals.append(re.escape(longest))
    return re.compile("|".join(literals)) if literals else None


@functools.lru_cache(maxsize=8)
def _cached_matchers(s: RiskSettings) -> Matchers:
    return Matchers(s)


#: The settings object :func:`matchers` was last asked for, and its answer (one item,
#: read and replaced whole): a push asks for the same object once per candidate, and
#: hashing it each time costs more than the look-up.
_LAST: list[tuple[RiskSettings, Matchers] | None] = [None]


def matchers(s: RiskSettings) -> Matchers:
    """The :class:`Matchers` of ``s``, built once per (hashable) settings."""
    last = _LAST[0]
    if last is not None and last[0] is s:
        return last[1]
    try:
        m = _cached_matchers(s)
    except TypeError:  # settings holding lists are not hashable: build them each time
        return Matchers(s)
    _LAST[0] = (s, m)
    return m


def _glob(path: str, rx: re.Pattern[str] | None) -> bool:
    return rx is not None and rx.match(path) is not None


def _delivery(path: str, m: Matchers) -> bool:
    if m.delivery_hint is not None and m.delivery_hint.search("/" + path) is None:
        return False
    return _glob(path, m.delivery)


def _generated(path: str, m: Matchers) -> bool:
    if m.generated is None:
        return False
    if m.generated_hint is not None and m.generated_hint.search("/" + path) is None:
        return False
    return _glob(path, m.generated) or _glob("/" + path, m.generated)


def is_generated(path: str, s: RiskSettings) -> bool:
    """A generated golden file (``risk.generated_globs``): outside the tier and
    ``changed_lines``."""
    return _generated(path, matchers(s))


#: What one directory says: (hot signals, a service-token segment, an excluded segment, an
#: agent folder (settings), a segment that is never passive, a segment that makes Markdown
#: operational).
_DirFacts = tuple[frozenset[str], bool, bool, bool, bool, bool]
#: What one file name says: (hot signals, service-token name, excluded name, README-like,
#: source, ``.txt``, configuration, shell, no extension, agent file (settings), nominated
#: passive, operational when Markdown, Markdown, image).
_NameFacts = tuple[
    frozenset[str], bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool
]


def _hot(text: str, m: Matchers) -> frozenset[str]:
    """The signals of the hot tokens among ``text``'s tokens."""
    if m.hot_substring is None or m.hot_substring.search(text.lower()) is None:
        return frozenset()  # most names hold no hot token: one search says so
    return frozenset(signal_of(t) for t in m.hot_tokens.intersection(path_tokens(text)))


def _dir_facts(d: str, m: Matchers) -> _DirFacts:
    segments = d.lower().split("/")
    internal = len(segments) >= 2 and segments[0] == "internal"
    return (
        _hot(d, m),
        any(_service_token(s) for s in d.split("/")),
        any(s in EXCLUDED_SEGMENTS for s in segments),
        any(s in m.agent_dirs for s in segments),
        any(s in NOT_PASSIVE_SEGMENTS for s in segments) or (internal and segments[1] == "assets"),
        any(s in OPERATIONAL_MD_SEGMENTS or _md_tokens(s) & OPERATIONAL_MD_TOKENS for s in segments)
        or (internal and segments[1] in INTERNAL_OPERATIONAL),
    )


def _name_facts(name: str, m: Matchers) -> _NameFacts:
    lower = name.lower()
    dot = lower.rfind(".")
    ext = lower[dot:] if dot >= 0 else ""  # upstream's path.Ext
    own_ext = ext if dot > 0 else ""  # the settings' lists: a leading dot is a name
    doc = own_ext in m.doc_extensions or own_ext in IMAGE_EXTENSIONS
    readme_like = (
        name[: len(name) - len(own_ext)].upper() in m.doc_names and own_ext in m.doc_name_extensions
    )
    nominated = (doc or readme_like) and not (
        lower in NOT_PASSIVE_BASENAMES
        or lower in NOT_PASSIVE_SEGMENTS
        or any(
            t in NOT_PASSIVE_STEM_TOKENS
            for t in re.split(_STEM_SPLIT, lower[: dot if dot >= 0 else None])
        )
    )
    md = ext == ".md"
    return (
        _hot(name, m),
        "service" in lower and "token" in lower and _service_token(name),
        lower in EXCLUDED_SEGMENTS,
        lower.startswith("readme"),
        ext in SOURCE_EXTENSIONS,
        ext == ".txt",
        _configuration_name(lower, ext),
        own_ext in m.shell_extensions,
        ext == "",
        name.upper() in m.agent_upper,
        nominated,
        md
        and (
            lower in OPERATIONAL_MD_BASENAMES
            or lower in OPERATIONAL_MD_SEGMENTS
            or bool(_md_tokens(name) & OPERATIONAL_MD_TOKENS)
        ),
        md,
        own_ext in IMAGE_EXTENSIONS,
    )


def _combine(path: str, dir_facts: _DirFacts | None, nf: _NameFacts, m: Matchers) -> PathFacts:
    """The facts of ``path`` from those of its directory (None at the top) and its name."""
    d_hot, d_service, d_excluded, d_agent, d_block, d_block_md = dir_facts or _TOP
    (
        n_hot,
        n_service,
        n_excluded,
        readme,
        source,
        text,
        config,
        shell,
        no_ext,
        agent_file,
        nominated,
        n_block_md,
        md,
        image,
    ) = nf
    signals = d_hot | n_hot
    if path in AUTHORITY_PATHS:
        signals = signals | {"auth"}
    excluded = d_excluded or n_excluded
    named = not excluded and not readme
    passive = (
        nominated
        and not config
        and not d_block
        and not d_agent
        and not agent_file
        and not (md and (d_block_md or n_block_md))
    )
    return facts_of(
        tuple(sorted(signals)) if signals else (),
        (d_service or n_service) and named and (source or config),
        shell and named,
        named and (source or config or no_ext) and _delivery(path, m),
        not excluded and (source or text or config),
        config,
        passive,
        image,
        _generated(path, m),
    )


#: A top-level path's directory facts: it has none.
_TOP: _DirFacts = (frozenset(), False, False, False, False, False)


def path_facts(path: str, m: Matchers) -> PathFacts:
    """The facts of one path, computed from its parts (nothing kept)."""
    cut = path.rfind("/")
    d = _dir_facts(path[:cut], m) if cut >= 0 else None
    return _combine(path, d, _name_facts(path[cut + 1 :], m), m)


def fact_cache(m: Matchers) -> FactCache:
    """The settings' :class:`FactCache`: what it learnt of a directory or a name serves
    every later call with the same settings (the blobs to prove, then the classification,
    see the same paths)."""
    cache = m.cache
    sizes = (
        (len(cache.names), len(cache.dirs), len(cache.paths), len(cache.changes)) if cache else ()
    )
    if cache is None or max(sizes) > _MAX_REMEMBERED:
        cache = m.cache = FactCache(m)
    return cache


class FactCache:
    """:func:`path_facts` for many paths, each distinct directory and file name asked once
    (a candidate of 10,000 paths has far fewer of them)."""

    __slots__ = ("changes", "dirs", "m", "names", "paths")

    def __init__(self, m: Matchers) -> None:
        self.m = m
        self.dirs: dict[str, _DirFacts] = {}
        self.names: dict[str, _NameFacts] = {}
        self.paths: dict[str, PathFacts] = {}
        #: the classifier's answers per change object, keyed by ``id()`` and holding the
        #: object (so the id is not reused while remembered): candidates composed commit
        #: by commit share most of their change objects
        #: (:func:`gentle_hooks.native.classifier.fold_changes`)
        self.changes: dict[
            int, tuple[PathChange, ChangeClass, PathFacts, bool, int, tuple[str, ...]]
        ] = {}

    def learn(self, paths: Iterable[str]) -> None:
        """:meth:`facts` of many paths now (say, while git counts lines)."""
        for path in paths:
            if path not in self.paths:
                self.paths[path] = self._facts(path)

    def facts(self, path: str) -> PathFacts:
        """What :func:`path_facts` says of ``path``."""
        known = self.paths.get(path)
        if known is None:
            known = self.paths[path] = self._facts(path)
        return known

    def _facts(self, path: str) -> PathFacts:
        m = self.m
        cut = path.rfind("/")
        name = path[cut + 1 :]
        nf = self.names.get(name)
        if nf is None:
            nf = self.names[name] = _name_facts(name, m)
        df = None
        if cut >= 0:
            d = path[:cut]
            df = self.dirs.get(d)
            if df is None:
                df = self.dirs[d] = _dir_facts(d, m)
        return _combine(path, df, nf, m)
