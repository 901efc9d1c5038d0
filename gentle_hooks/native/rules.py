"""The built-in classifier's rules (SPEC §4): tables as data, read by pure functions.

Room ``native``, pure (value types only: no process, no file, no clock, no settings). The
rules are upstream gentle-ai's (``internal/reviewtransaction/risk.go``,
``deriveSnapshotRiskReasons`` and ``fallbackRiskReason``); each row's id is the reason
code it gives, in upstream's vocabulary, so the envelope reads as the real binary's:

* :data:`SIGNAL_ROWS`: every row that holds for a change gives a reason with a *signal*
  (a signal makes the candidate ``high``): ``hot_path``, ``service_token``,
  ``shell_source``, ``executable_mode``;
* :data:`FALLBACK_ROWS`: the first row that holds gives the change its class when no signal
  explains the candidate: ``generated`` (a generated golden file, outside the tier),
  ``configuration_change``, ``non_executable_only`` (passive), ``empty_content``,
  ``executable_change``.

* :data:`CANDIDATE_ROWS`: reasons of the candidate as a whole: ``process_boundary`` (a
  process call in an eligible file's added lines, over what git found) and
  ``agent_escalation``; the candidate that changes nothing or only passive files reads
  ``empty_content`` and ``non_executable_only`` from :data:`FALLBACK_ROWS`
  (:mod:`gentle_hooks.native.classifier`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from gentle_hooks.values.frozen import frozen

# -- upstream's vocabularies (risk.go), as data ------------------------------------------

#: Extensions whose name and bytes may carry authored behaviour (``semanticSourceExtensions``).
SOURCE_EXTENSIONS = frozenset(
    [
        ".c",
        ".cc",
        ".cpp",
        ".cs",
        ".go",
        ".h",
        ".hpp",
        ".java",
        ".js",
        ".jsx",
        ".kt",
        ".kts",
        ".php",
        ".py",
        ".rb",
        ".rs",
        ".sh",
        ".bash",
        ".zsh",
        ".ts",
        ".tsx",
    ]
)
#: Segments whose files describe behaviour instead of performing it (``hasExcludedRiskSegment``).
EXCLUDED_SEGMENTS = frozenset({"docs", "testdata", "fixture", "fixtures", "__fixtures__"})
#: Configuration by name and by extension (``isConfigurationReviewPath``).
CONFIG_NAMES = frozenset(
    {
        "go.mod",
        "go.sum",
        "package.json",
        "package-lock.json",
        "pnpm-lock.yaml",
        "yarn.lock",
        "dockerfile",
        "makefile",
    }
)
CONFIG_EXTENSIONS = frozenset({".json", ".yaml", ".yml", ".toml", ".ini", ".env"})
#: gentle-ai's own review-authority sources: ``auth`` by path (``isNativeReviewAuthorityPath``).
AUTHORITY_PATHS = frozenset(
    f"internal/reviewtransaction/{name}.go"
    for name in ("compact", "transaction", "compact_store", "store", "compact_gate", "gate")
)
#: Markdown consumed as instructions (``isOperationalMarkdownPath``): names, segments,
#: second segments under ``internal/``, and name tokens.
OPERATIONAL_MD_BASENAMES = frozenset(
    {"agents.md", "claude.md", "gemini.md", "kimi.md", "skill.md", "copilot-instructions.md"}
)
OPERATIONAL_MD_SEGMENTS = frozenset(
    {".agent", ".agents", ".claude", ".codex", ".cursor", ".opencode", "openspec", "runtime"}
)
INTERNAL_OPERATIONAL = frozenset({"runtime", "assets", "templates"})
OPERATIONAL_MD_TOKENS = frozenset(
    [
        "agent",
        "agents",
        "skill",
        "skills",
        "prompt",
        "prompts",
        "instruction",
        "instructions",
        "orchestrator",
        "orchestrators",
        "workflow",
        "workflows",
    ]
)
#: Never nominated passive, whatever the extension (``isPassiveContentCandidatePath``).
NOT_PASSIVE_BASENAMES = frozenset(
    {
        "agents.md",
        "claude.md",
        "gemini.md",
        "kimi.md",
        "soul.md",
        "tools.md",
        "skill.md",
        "copilot-instructions.md",
    }
)
NOT_PASSIVE_STEM_TOKENS = frozenset(
    [
        "agent",
        "agents",
        "command",
        "commands",
        "prompt",
        "prompts",
        "rule",
        "rules",
        "runtime",
        "runtimes",
        "skill",
        "skills",
        "workflow",
        "workflows",
    ]
)
NOT_PASSIVE_SEGMENTS = NOT_PASSIVE_STEM_TOKENS | frozenset(
    {".github", ".claude", ".codex", ".cursor", ".gemini", ".kiro", ".kilo", ".opencode"}
    | {".windsurf"}
)
#: The signal a hot token gives. Upstream's tokens: auth, update, security, webhook
#: (security), payments; the settings' other defaults by their sense; a token only a user
#: configured reports ``security``.
HOT_SIGNALS = {
    **dict.fromkeys(
        ("auth", "authn", "authz", "authentication", "authorization", "oauth", "login"), "auth"
    ),
    **dict.fromkeys(("update", "updates", "updater"), "update"),
    **dict.fromkeys(("payment", "payments", "billing"), "payments"),
    **dict.fromkeys(
        ("security", "secure", "crypto", "secret", "secrets", "webhook", "webhooks"), "security"
    ),
}


def signal_of(token: str) -> str:
    """The signal of a hot token (:data:`HOT_SIGNALS`; ``security`` for any other)."""
    return HOT_SIGNALS.get(token, "security")


# -- what a row reads ---------------------------------------------------------------------


class PathFacts:
    """What the classifier's settings say of one path: everything a row reads of a name.

    Build them with :func:`facts_of`, which hands out one object per distinct value: equal
    facts are the same object, so identity is value equality at the cost of a pointer
    compare (:func:`classify_change` remembers its answer per facts). Never changed.

    Attributes:
        hot: the signals of the path's hot tokens, sorted (``auth`` too for gentle-ai's own
            review-authority sources).
        service: a segment names ``service`` + ``token``, and the name is eligible.
        shell: a shell script by extension (``risk.shell_extensions``), name eligible.
        delivery: a CI workflow or gate configuration file (``risk.delivery_globs``).
        scan: content-scan eligible: a source, ``.txt`` or configuration file outside
            ``docs``/``testdata``/``fixtures``.
        config: a configuration file.
        passive: nominated for the passive tier (the bytes still decide).
        image: an image extension (a binary image may be passive).
        generated: a generated golden file (``risk.generated_globs``).
    """

    __slots__ = (
        "config",
        "delivery",
        "generated",
        "hot",
        "image",
        "passive",
        "scan",
        "service",
        "shell",
    )

    def __init__(self, values: FactValues) -> None:
        (
            self.hot,
            self.service,
            self.shell,
            self.delivery,
            self.scan,
            self.config,
            self.passive,
            self.image,
            self.generated,
        ) = values

    def __repr__(self) -> str:
        body = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"PathFacts({body})"


#: A path's facts in the order of :func:`facts_of`'s arguments.
FactValues = tuple[tuple[str, ...], bool, bool, bool, bool, bool, bool, bool, bool]
_INTERNED: dict[FactValues, PathFacts] = {}


def facts_of(
    hot: tuple[str, ...],
    service: bool,
    shell: bool,
    delivery: bool,
    scan: bool,
    config: bool,
    passive: bool,
    image: bool,
    generated: bool,
) -> PathFacts:
    """The one :class:`PathFacts` holding these values (built on first use)."""
    values = (hot, service, shell, delivery, scan, config, passive, image, generated)
    facts = _INTERNED.get(values)
    if facts is None:
        facts = _INTERNED[values] = PathFacts(values)
    return facts


#: The old path of a change that has none: no row holds for it, and it leaves "passive"
#: (and "a binary image") to the new path alone.
NO_PATH = facts_of((), False, False, False, False, False, True, True, False)


@frozen
class ChangeFacts:
    """All a row reads of one change, so its class depends on these alone.

    Attributes:
        old_mode / new_mode: six-digit octal modes (``000000`` for a side that is absent).
        binary: git counted no lines; mode_only: only the mode changed.
        lines: git counted added or deleted lines.
        new / old: the facts of its path and of its old path (:data:`NO_PATH` without one).
        proven: every side that exists is passive by its bytes
            (:func:`~gentle_hooks.native.content.is_passive_document_content`).
    """

    old_mode: str
    new_mode: str
    binary: bool
    mode_only: bool
    lines: bool
    new: PathFacts
    old: PathFacts
    proven: bool


def inspectable(f: ChangeFacts) -> bool:
    """The change's bytes can carry authored evidence (upstream ``isInspectableStat``)."""
    return f.lines and not f.binary and not f.mode_only and not f.new.generated


def exec_bits_differ(old_mode: str, new_mode: str) -> bool:
    """The executable bits differ between the two modes (a side absent is ``000000``)."""
    return (int(old_mode, 8) & 0o111) != (int(new_mode, 8) & 0o111)


_PLAIN_MODES = ("000000", "100644")


def is_passive_stat(f: ChangeFacts) -> bool:
    """Nominated passive by name and mode (upstream ``isPassiveContentCandidateStat``): a
    regular non-executable file on both sides, not mode-only, binary only as an image."""
    return (
        f.new.passive
        and f.old.passive
        and not f.mode_only
        and (not f.binary or (f.new.image and f.old.image))
        and f.old_mode in _PLAIN_MODES
        and f.new_mode in _PLAIN_MODES
    )


# -- the tables ---------------------------------------------------------------------------


@frozen
class SignalRow:
    """One row of :data:`SIGNAL_ROWS`: ``id`` is the reason code; ``signals`` the signals
    the row gives a change (none: it does not hold)."""

    id: str
    signals: Callable[[ChangeFacts], tuple[str, ...]]


def _hot(f: ChangeFacts) -> tuple[str, ...]:
    new = () if f.new.generated else f.new.hot
    old = () if f.old.generated else f.old.hot
    return tuple(sorted({*new, *old}))


SIGNAL_ROWS: tuple[SignalRow, ...] = (
    SignalRow("hot_path", _hot),
    SignalRow(
        "service_token",
        lambda f: ("auth",) if inspectable(f) and (f.new.service or f.old.service) else (),
    ),
    SignalRow(
        "shell_source",
        lambda f: (
            ("shell_process",)
            if inspectable(f) and (f.new.shell or f.new.delivery or f.old.shell or f.old.delivery)
            else ()
        ),
    ),
    SignalRow(
        "executable_mode",
        lambda f: ("permissions",) if exec_bits_differ(f.old_mode, f.new_mode) else (),
    ),
)


@frozen
class FallbackRow:
    """One row of :data:`FALLBACK_ROWS`: ``id`` is the reason code, ``tier`` what the change
    counts as (None: nothing, a generated golden file), ``holds`` whether the row applies."""

    id: str
    tier: str | None
    holds: Callable[[ChangeFacts], bool]


FALLBACK_ROWS: tuple[FallbackRow, ...] = (
    FallbackRow("generated", None, lambda f: f.new.generated),
    FallbackRow("configuration_change", "medium", lambda f: f.new.config),
    FallbackRow("non_executable_only", "passive", lambda f: is_passive_stat(f) and f.proven),
    FallbackRow(
        "empty_content", "medium", lambda f: not f.binary and not f.mode_only and not f.lines
    ),
    FallbackRow("executable_change", "medium", lambda f: True),
)


#: The fallback rows by reason code: the candidate as a whole reads two of them
#: (``empty_content`` when it changes nothing, ``non_executable_only`` when every change is
#: passive; :func:`gentle_hooks.native.classifier.assessment`).
FALLBACK: dict[str, FallbackRow] = {row.id: row for row in FALLBACK_ROWS}


@frozen
class CandidateRow:
    """One row of :data:`CANDIDATE_ROWS`: a reason the candidate as a whole is given, not
    one change: ``id`` is the reason code, ``tier`` the tier it gives, ``signal`` its signal
    (empty: none)."""

    id: str
    tier: str
    signal: str


#: Reasons of the whole candidate: ``process_boundary`` (an added line of a content-scan
#: eligible file calls a process, over what git preselected) and ``agent_escalation`` (an
#: escalation passed in raises the envelope, as upstream's ``--escalate-item``).
CANDIDATE_ROWS: tuple[CandidateRow, ...] = (
    CandidateRow("process_boundary", "high", "shell_process"),
    CandidateRow("agent_escalation", "high", ""),
)
CANDIDATE: dict[str, CandidateRow] = {row.id: row for row in CANDIDATE_ROWS}


@frozen
class ChangeClass:
    """One change's class: the (code, signal) pairs of the signal rows that hold, and the
    first fallback row that holds."""

    signals: tuple[tuple[str, str], ...]
    fallback: FallbackRow


@functools.lru_cache(maxsize=4096)
def classify_change(
    old_mode: str,
    new_mode: str,
    binary: bool,
    mode_only: bool,
    lines: bool,
    new: PathFacts,
    old: PathFacts,
    proven: bool,
) -> ChangeClass:
    """The class of one change (remembered: a candidate of 10,000 paths has a few dozen
    distinct facts). Arguments are :class:`ChangeFacts`'s, in its order."""
    f = ChangeFacts(old_mode, new_mode, binary, mode_only, lines, new, old, proven)
    signals = tuple((row.id, s) for row in SIGNAL_ROWS for s in row.signals(f))
    for row in FALLBACK_ROWS:
        if row.holds(f):
            return ChangeClass(signals, row)
    raise AssertionError("the last fallback row holds for every change")
