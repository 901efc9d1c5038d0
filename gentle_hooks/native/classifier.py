"""The built-in native classifier (SPEC §4): the diff's native tier, with its reasons.

Layer: pure domain logic over value types (no process, no file, no clock). The caller
gathers the inputs through the git adapter: per-path diff stats, the bytes of the
documentation files to prove, and the added lines git preselected for process execution.

Tiers: ``passive`` when every changed path is documentation proven by its bytes and none is
an agent-instruction file; ``high`` for a hot-path token in a path, a shell script, a CI
workflow or gate configuration file, an exec-bit flip (or a new executable file), or
process execution in the added lines; ``medium`` for everything else. Size never sets the
tier.
"""

from __future__ import annotations

import bisect
import fnmatch
import functools
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.parse import AddedLine
from gentle_hooks.native.prefilter import needles
from gentle_hooks.native.result import NativeAssessment, NativeCandidate, NativeReason
from gentle_hooks.values.candidate import (
    MODE_EXEC,
    MODE_FILE,
    MODE_GITLINK,
    MODE_SYMLINK,
    PathChange,
)
from gentle_hooks.values.frozen import frozen

#: A path's tokens in one pass: runs of ASCII letters and digits, split where a lowercase
#: letter or digit meets an uppercase one (``authService`` -> ``auth`` ``Service``).
_TOKEN = re.compile(r"[A-Z]*[a-z0-9]*")
_CONFIG_EXT = (".toml", ".yaml", ".yml", ".json", ".ini", ".cfg", ".conf", ".env", ".lock")
_ORDER = {"passive": 0, "medium": 1, "high": 2}
#: High reasons listed one by one up to this count; the rest are summarised in one line.
MAX_HIGH_REASONS = 50


@frozen
class PathClass:
    """One path's class: its tier, a stable reason code and a detail line."""

    tier: str
    code: str
    detail: str


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


class _Matchers:
    """One settings' lists as sets, and each glob list as one compiled regex: a candidate
    of 10,000 paths asks every rule of every path (built once per settings)."""

    __slots__ = (
        "agent_dirs",
        "agent_upper",
        "delivery",
        "doc_extensions",
        "doc_name_extensions",
        "doc_names",
        "generated",
        "generated_hint",
        "hot_substring",
        "hot_tokens",
        "rules",
        "shell_extensions",
    )

    def __init__(self, s: RiskSettings) -> None:
        self.rules: _PathRules | None = None
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
def _cached_matchers(s: RiskSettings) -> _Matchers:
    return _Matchers(s)


def _matchers(s: RiskSettings) -> _Matchers:
    try:
        return _cached_matchers(s)
    except TypeError:  # settings holding lists are not hashable: build them each time
        return _Matchers(s)


def _glob(path: str, rx: re.Pattern[str] | None) -> bool:
    return rx is not None and rx.match(path) is not None


def is_agent_instruction(path: str, s: RiskSettings) -> bool:
    """True for agent-instruction files: AGENTS.md, CLAUDE.md, SKILL.md..., or any path
    inside a prompt/skill/agent folder or ``.github/``."""
    return _is_agent_instruction(path, _matchers(s))


def _is_agent_instruction(path: str, m: _Matchers) -> bool:
    if _basename(path).upper() in m.agent_upper:
        return True
    dirs = path.split("/")[:-1]
    return any(d.lower() in m.agent_dirs for d in dirs)


def is_doc_path(path: str, s: RiskSettings) -> bool:
    """True when the path looks like documentation: a doc extension, or a README /
    CHANGELOG / LICENSE / CONTRIBUTING name (bare or with a doc or ``.txt`` extension)."""
    return _is_doc_path(path, _matchers(s))


def _is_doc_path(path: str, m: _Matchers) -> bool:
    ext = _ext(path)
    if ext in m.doc_extensions:
        return True
    base = _basename(path)
    stem = base[: len(base) - len(ext)] if ext else base
    return stem.upper() in m.doc_names and ext in m.doc_name_extensions


def is_generated(path: str, s: RiskSettings) -> bool:
    """True for generated golden files (excluded from ``changed_lines``)."""
    return _is_generated(path, _matchers(s))


def _is_generated(path: str, m: _Matchers) -> bool:
    return _glob(path, m.generated) or _glob("/" + path, m.generated)


def prepare_paths(paths: Iterable[str], s: RiskSettings) -> None:
    """Learn what the path rules say of these paths now (say, while git counts lines), so
    that :func:`doc_blobs_to_prove` and :func:`classify` of changes to them only look the
    answers up."""
    _rules(_matchers(s)).learn(paths)


def doc_blobs_to_prove(changes: Sequence[PathChange], s: RiskSettings) -> list[str]:
    """Blob ids whose bytes must be read to prove documentation (deleted docs: old blob)."""
    m = _matchers(s)
    oids = []
    rules = _rules(m)
    for c in changes:
        if rules.facts(c.path)[3] and not c.submodule:
            oids.append(c.old_oid if c.status == "D" else c.new_oid)
    return oids


def is_proven_doc(data: bytes | None) -> bool:
    """Documentation proven by its bytes: UTF-8, no NUL, no shebang."""
    if data is None or b"\0" in data or data.startswith(b"#!"):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def classify_path(c: PathChange, blobs: Mapping[str, bytes], s: RiskSettings) -> PathClass:
    """Classify one changed path (before process-execution lines are considered)."""
    return _classify_path(c, blobs, _matchers(s))


def _classify_path(c: PathChange, blobs: Mapping[str, bytes], m: _Matchers) -> PathClass:
    paths = [c.path] + ([c.old_path] if c.old_path else [])
    for p in paths:
        hits = sorted(m.hot_tokens.intersection(path_tokens(p)))
        if hits:
            return PathClass("high", "hot_path", f"path token {hits[0]!r} in {p}")
    if any(_glob(p, m.delivery) for p in paths):
        return PathClass("high", "delivery_config", "CI workflow or gate configuration")
    if any(_ext(p) in m.shell_extensions for p in paths):
        return PathClass("high", "shell_script", "shell script")
    if c.exec_flip:
        return PathClass("high", "exec_bit", f"mode {c.old_mode} -> {c.new_mode}")
    if c.status in ("A", "C") and c.new_mode == MODE_EXEC:
        return PathClass("high", "exec_bit", "new executable file (mode 100755)")
    if any(_is_agent_instruction(p, m) for p in paths):
        return PathClass("medium", "agent_instruction", "agent-instruction file")
    if c.submodule:
        return PathClass("medium", "submodule", "submodule commit changed")
    if MODE_SYMLINK in (c.old_mode, c.new_mode):
        return PathClass("medium", "symlink", "symbolic link")
    if all(_is_doc_path(p, m) for p in paths):
        mode = c.old_mode if c.status == "D" else c.new_mode
        oid = c.old_oid if c.status == "D" else c.new_oid
        if mode == MODE_FILE and is_proven_doc(blobs.get(oid)):
            return PathClass("passive", "documentation", "documentation proven by its bytes")
        return PathClass(
            "medium",
            "unproven_documentation",
            "documentation name, but its bytes or mode are not plain text",
        )
    if c.binary:
        return PathClass("medium", "binary", "binary file")
    if _ext(c.path) in _CONFIG_EXT:
        return PathClass("medium", "configuration", "configuration file")
    return PathClass("medium", "source", "source or other file")


def _found_in(rx: re.Pattern[str] | None, texts: list[str]) -> set[int]:
    """Indexes of the texts where ``rx`` finds a match (a match holds no NUL)."""
    if rx is None:
        return set()
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    return {bisect.bisect_right(starts, hit.start()) - 1 for hit in rx.finditer("\0".join(texts))}


#: What :class:`_PathRules` knows of one path: (smallest hot token or None, extension,
#: agent instruction, documentation name, a delivery glob matches, a generated glob matches).
_Facts = tuple[str | None, str, bool, bool, bool, bool]
#: The facts used for the old path of a change that has none (they change no rule).
_NO_PATH: _Facts = (None, "", False, True, False, False)
#: Directory, name and path answers kept per settings, up to this many of each.
_MAX_REMEMBERED = 100_000


def _rules(m: _Matchers) -> _PathRules:
    """The settings' :class:`_PathRules`: what it learnt of a directory or a name serves
    every later call with the same settings (:func:`doc_blobs_to_prove`, then
    :func:`classify`, see the same paths)."""
    rules = m.rules
    if rules is None or max(len(rules.names), len(rules.dirs), len(rules.paths)) > _MAX_REMEMBERED:
        rules = m.rules = _PathRules(m)
    return rules


_DELIVERY = PathClass("high", "delivery_config", "CI workflow or gate configuration")
_SHELL = PathClass("high", "shell_script", "shell script")
_NEW_EXEC = PathClass("high", "exec_bit", "new executable file (mode 100755)")
_AGENT = PathClass("medium", "agent_instruction", "agent-instruction file")
_SUBMODULE = PathClass("medium", "submodule", "submodule commit changed")
_SYMLINK = PathClass("medium", "symlink", "symbolic link")
_PASSIVE_DOC = PathClass("passive", "documentation", "documentation proven by its bytes")
_UNPROVEN_DOC = PathClass(
    "medium",
    "unproven_documentation",
    "documentation name, but its bytes or mode are not plain text",
)
_BINARY = PathClass("medium", "binary", "binary file")
_CONFIGURATION = PathClass("medium", "configuration", "configuration file")
_SOURCE = PathClass("medium", "source", "source or other file")


class _PathRules:
    """:func:`_classify_path` for many paths at once, with the same answers.

    Every path rule but the two glob lists reads either the directory part of a path or its
    last component, never both: hot tokens split at ``/`` (a token is letters and digits), so
    a path's tokens are its directory's followed by its name's. A candidate of 10,000 paths
    has far fewer distinct directories and names, so each is asked once per call.
    """

    __slots__ = ("dirs", "m", "names", "paths")

    def __init__(self, m: _Matchers) -> None:
        self.m = m
        #: directory part -> (smallest hot token in it or None, a component is an agent dir)
        self.dirs: dict[str, tuple[str | None, bool]] = {}
        #: last component -> (smallest hot token or None, extension, agent file, doc name)
        self.names: dict[str, tuple[str | None, str, bool, bool]] = {}
        #: path -> what :meth:`facts` says of it
        self.paths: dict[str, _Facts] = {}

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

    def _dir(self, d: str, maybe_hot: bool = True) -> tuple[str | None, bool]:
        agent = any(part.lower() in self.m.agent_dirs for part in d.split("/"))
        return self._hot(d, maybe_hot), agent

    def _name(self, name: str, maybe_hot: bool = True) -> tuple[str | None, str, bool, bool]:
        m = self.m
        dot = name.rfind(".")
        ext = name[dot:].lower() if dot > 0 else ""
        doc = ext in m.doc_extensions or (
            name[: len(name) - len(ext)].upper() in m.doc_names and ext in m.doc_name_extensions
        )
        return self._hot(name, maybe_hot), ext, name.upper() in m.agent_upper, doc

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

    def facts(self, path: str) -> _Facts:
        """(smallest hot token or None, extension, agent instruction, documentation name,
        a delivery glob matches, a generated glob matches)."""
        known = self.paths.get(path)
        if known is None:
            known = self.paths[path] = self._facts(path)
        return known

    def _facts(self, path: str, maybe_hot: bool = True, maybe_generated: bool = True) -> _Facts:
        m = self.m
        delivery = m.delivery is not None and m.delivery.match(path) is not None
        slashed = "/" + path
        generated = (
            maybe_generated
            and m.generated is not None
            and (m.generated_hint is None or m.generated_hint.search(slashed) is not None)
            and _is_generated(path, m)
        )
        cut = path.rfind("/")
        name = path[cut + 1 :]
        nf = self.names.get(name)
        if nf is None:
            nf = self.names[name] = self._name(name, maybe_hot)
        if cut < 0:
            return (*nf, delivery, generated)
        d = path[:cut]
        df = self.dirs.get(d)
        if df is None:
            df = self.dirs[d] = self._dir(d, maybe_hot)
        hot = nf[0] if df[0] is None else df[0] if nf[0] is None else min(df[0], nf[0])
        return hot, nf[1], df[1] or nf[2], nf[3], delivery, generated

    def classify(self, c: PathChange, blobs: Mapping[str, bytes]) -> PathClass:
        """The class :func:`_classify_path` gives ``c``, rule for rule in the same order."""
        m = self.m
        hot, ext, agent, doc, delivery, _ = self.facts(c.path)
        old = c.old_path
        if hot is not None:
            return PathClass("high", "hot_path", f"path token {hot!r} in {c.path}")
        o_hot, o_ext, o_agent, o_doc, o_delivery, _ = self.facts(old) if old else _NO_PATH
        if o_hot is not None:
            return PathClass("high", "hot_path", f"path token {o_hot!r} in {old}")
        if delivery or o_delivery:
            return _DELIVERY
        shell = m.shell_extensions
        if ext in shell or (old and o_ext in shell):
            return _SHELL
        old_mode, new_mode = c.old_mode, c.new_mode
        if old_mode != new_mode and {old_mode, new_mode} == {MODE_FILE, MODE_EXEC}:
            return PathClass("high", "exec_bit", f"mode {old_mode} -> {new_mode}")
        if new_mode == MODE_EXEC and c.status in ("A", "C"):
            return _NEW_EXEC
        if agent or (old and o_agent):
            return _AGENT
        if MODE_GITLINK in (old_mode, new_mode):
            return _SUBMODULE
        if MODE_SYMLINK in (old_mode, new_mode):
            return _SYMLINK
        if doc and (not old or o_doc):
            deleted = c.status == "D"
            mode = old_mode if deleted else new_mode
            oid = c.old_oid if deleted else c.new_oid
            if mode == MODE_FILE and is_proven_doc(blobs.get(oid)):
                return _PASSIVE_DOC
            return _UNPROVEN_DOC
        if c.additions is None:
            return _BINARY
        if ext in _CONFIG_EXT:
            return _CONFIGURATION
        return _SOURCE


#: A shebang: an added first line that starts with it is process execution.
SHEBANG = b"#!"


@functools.lru_cache(maxsize=8)
def _cached_needles(patterns: tuple[str, ...]) -> tuple[bytes, ...] | None:
    return needles(patterns)


def process_needles(s: RiskSettings) -> tuple[bytes, ...] | None:
    """Byte strings one of which an added line holds if :func:`process_hits` flags it
    other than as a shebang (:func:`gentle_hooks.native.prefilter.needles`), or None when the
    patterns have none: a blob holding none of them, and not starting with
    :data:`SHEBANG`, brings no process-execution hit whatever its diff."""
    return _cached_needles(tuple(s.process_patterns))


def process_hits(lines: Iterable[AddedLine], s: RiskSettings) -> list[AddedLine]:
    """Added lines that execute a process: a shebang on line 1, or a process call."""
    patterns: list[re.Pattern[str]] = []
    hits = []
    for line in lines:
        if not patterns:  # compiled on the first line: most candidates bring none to scan
            patterns = [re.compile(p) for p in s.process_patterns]
        if (line.line == 1 and line.text.startswith("#!")) or any(
            p.search(line.text) for p in patterns
        ):
            hits.append(line)
    return hits


def classify(
    changes: Sequence[PathChange],
    blobs: Mapping[str, bytes],
    added: Iterable[AddedLine],
    s: RiskSettings,
    *,
    kind: str,
    base_ref: str | None,
    consumed: bool | None = None,
) -> NativeAssessment:
    """Classify a candidate's diff into the ``gentle-ai.review-assessment/v1`` envelope.

    Args:
        changes: per-path diff stats (base tree -> candidate tree).
        blobs: blob id -> bytes for the ids :func:`doc_blobs_to_prove` asked for.
        added: added lines of the files git preselected for process execution.
        s: classifier settings.
        kind: the candidate's projection (``committed``...); base_ref: its base ref.
        consumed: a review ack recorded for this exact candidate (builtin
            ``candidate.consumed``), or None when unknown.

    Returns:
        The envelope: risk, reasons (every tier carries them), changed paths and lines,
        candidate, ``review_due`` and ``review_due_reason``.
    """
    high: list[NativeReason] = []
    groups: dict[tuple[str, str], list[str]] = {}
    tier = "passive"
    m = _matchers(s)
    rules = _rules(m)
    lines = 0
    for c in changes:
        pc = rules.classify(c, blobs)
        if pc.tier == "high":
            tier = "high"
            high.append(NativeReason(code=pc.code, path=c.path, detail=pc.detail))
        else:
            if pc.tier == "medium" and tier == "passive":
                tier = "medium"
            key = (pc.tier, pc.code)
            paths = groups.get(key)
            if paths is None:
                groups[key] = [c.path]
            else:
                paths.append(c.path)
        # changed_lines: not binary, not mode-only, not a generated golden file
        if (
            c.additions is not None
            and not (c.old_mode != c.new_mode and c.old_oid == c.new_oid and c.status in ("M", "T"))
            and not rules.facts(c.path)[5]
        ):
            lines += c.additions + (c.deletions or 0)
    for hit in process_hits(added, s):
        tier = "high"
        what = "shebang" if hit.line == 1 and hit.text.startswith("#!") else "process call"
        high.append(
            NativeReason(
                code="process_execution",
                path=hit.path,
                detail=f"{what} at line {hit.line}: {hit.text.strip()[:120]}",
            )
        )
    if not changes:
        tier = "medium"
        groups[("medium", "empty")] = []
    reasons = high[:MAX_HIGH_REASONS]
    if len(high) > MAX_HIGH_REASONS:
        reasons.append(
            NativeReason(
                code="more",
                path=None,
                detail=f"{len(high) - MAX_HIGH_REASONS} more high-risk reasons",
            )
        )
    for (_, code), paths in sorted(groups.items(), key=lambda kv: -_ORDER[kv[0][0]]):
        if code == "empty":
            reasons.append(
                NativeReason(code="empty", path=None, detail="the candidate changes nothing")
            )
            continue
        more = f" (and {len(paths) - 1} more)" if len(paths) > 1 else ""
        reasons.append(
            NativeReason(
                code=code, path=paths[0], detail=f"{len(paths)} path(s) classified {code}{more}"
            )
        )
    if consumed:
        due, why = False, "already_reviewed"
    elif tier == "high":
        due, why = True, "high_risk"
    elif tier == "passive":
        due, why = False, "passive"
    elif lines >= s.slice_budget:
        due, why = True, "slice_budget_reached"
    else:
        due, why = False, "under_budget"
    return NativeAssessment(
        risk=tier,
        reasons=tuple(reasons),
        changed_paths=tuple(c.path for c in changes),
        changed_lines=lines,
        candidate=NativeCandidate(kind=kind, base_ref=base_ref, consumed=consumed),
        review_due=due,
        review_due_reason=why,
    )
