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

import fnmatch
import functools
import re
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.candidate import MODE_EXEC, MODE_FILE, MODE_SYMLINK, PathChange
from gentle_hooks.gitparse import AddedLine
from gentle_hooks.native_result import NativeAssessment, NativeCandidate, NativeReason
from gentle_hooks.settings import RiskSettings
from gentle_hooks.values import frozen

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
        "hot_tokens",
        "shell_extensions",
    )

    def __init__(self, s: RiskSettings) -> None:
        self.hot_tokens = frozenset(s.hot_path_tokens)
        self.agent_upper = frozenset(f.upper() for f in s.agent_files)
        self.agent_dirs = frozenset(s.agent_dirs)
        self.doc_extensions = frozenset(s.doc_extensions)
        self.doc_names = frozenset(s.doc_names)
        self.doc_name_extensions = frozenset(("", ".txt", *s.doc_extensions))
        self.shell_extensions = frozenset(s.shell_extensions)
        self.delivery = _globs(s.delivery_globs)
        self.generated = _globs(s.generated_globs)


def _globs(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """fnmatchcase against any of ``patterns`` as one regex (None: no pattern)."""
    parts = [f"(?:{fnmatch.translate(p)})" for p in patterns]
    return re.compile("|".join(parts)) if parts else None


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


def doc_blobs_to_prove(changes: Sequence[PathChange], s: RiskSettings) -> list[str]:
    """Blob ids whose bytes must be read to prove documentation (deleted docs: old blob)."""
    m = _matchers(s)
    oids = []
    for c in changes:
        if _is_doc_path(c.path, m) and not c.submodule:
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
    for c in changes:
        pc = _classify_path(c, blobs, m)
        if _ORDER[pc.tier] > _ORDER[tier]:
            tier = pc.tier
        if pc.tier == "high":
            high.append(NativeReason(code=pc.code, path=c.path, detail=pc.detail))
        else:
            groups.setdefault((pc.tier, pc.code), []).append(c.path)
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
    lines = sum(
        c.lines for c in changes if not (c.binary or c.mode_only or _is_generated(c.path, m))
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
