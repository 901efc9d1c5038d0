"""Delegated evidence that needs no ledger: AI co-author trailers and markers in commits,
and an agent runtime in the hook's environment (SPEC §5 "Decision": who the gate applies to).

Room ``policy``, pure functions over strings and mappings (standard library only); the
caller reads commit messages and the environment. What counts as a marker in a commit is
the table :data:`gentle_hooks.policy.markers.MARKERS` (sources in ``docs/markers.md``);
the runtimes' environment variables are :data:`RUNTIME_ENV` below.
"""

from __future__ import annotations

from gentle_hooks.errors import quoted, shown, shown_field
from gentle_hooks.policy.markers import MARKERS, Marker

TYPE_CHECKING = False  # the hook pass path calls runtime_evidence: keep imports light
if TYPE_CHECKING:
    import re
    from collections.abc import Mapping

AI_AGENT = "AI_AGENT"

#: Environment variables an agent runtime sets for the processes it runs: (name, value or
#: None for "any non-empty value", runtime).
RUNTIME_ENV: tuple[tuple[str, str | None, str], ...] = (
    ("CLAUDECODE", None, "claude-code"),
    ("CLAUDE_CODE_ENTRYPOINT", None, "claude-code"),
    ("CODEX_SANDBOX", None, "codex"),
    ("CODEX_SANDBOX_NETWORK_DISABLED", None, "codex"),
    # Codex exports the thread id to every shell it runs, also without a sandbox (full
    # access), where the CODEX_SANDBOX* variables are not set
    ("CODEX_THREAD_ID", None, "codex"),
    # Copilot CLI's subprocesses (its hooks reference: COPILOT_AGENT_SESSION_ID, and
    # COPILOT_CLI=1 for git hooks to tell a Copilot run)
    ("COPILOT_CLI", None, "copilot"),
    ("COPILOT_AGENT_SESSION_ID", None, "copilot"),
    ("GEMINI_CLI", None, "gemini-cli"),
    ("CLINE_ACTIVE", "true", "cline"),
    ("CURSOR_AGENT", None, "cursor"),
    ("OPENCODE", None, "opencode"),
    # Amp's and Auggie's shell commands (docs/agents/amp.md, augment.md, "Detected"): no
    # upstream page found names them; agent detectors do (unjs/std-env src/agents.ts @
    # 09d5e780: AUGMENT_AGENT; a detector table of providers: AGENT=amp, AUGMENT_AGENT=1).
    # AGENT is a generic name: only its value amp counts
    ("AGENT", "amp", "amp"),
    ("AUGMENT_AGENT", None, "augment"),
    # the generic variable any tool may set to say an AI agent runs it, its value the
    # agent's name (vercel/vercel packages/detect-agent/README.md, "The AI_AGENT Standard";
    # unjs/std-env src/agents.ts @ 09d5e780 reads it before any runtime's own variable): an
    # unknown value is an agent too, named by :func:`runtime_evidence`
    (AI_AGENT, None, "ai-agent"),
    ("GENTLE_WRITER_MODEL", None, "gentle-hooks env recorder"),
)

#: ``PATH`` entries an agent runtime puts there for the processes it runs: (the entry's
#: ending, runtime). Pi prepends its tool directory ``~/.pi/agent/bin`` (unjs/std-env
#: src/agents.ts @ 09d5e780: "Verified by pi (can be detected using PATH containing
#: .pi/agent/bin)"). Only a whole entry ending so counts, with at most one trailing slash,
#: as the installed hooks' ``case`` patterns read it too
#: (:func:`gentle_hooks.services.fastpath.path_patterns`).
RUNTIME_PATH: tuple[tuple[str, str], ...] = ((".pi/agent/bin", "pi"),)

_COAUTHOR = r"(?im)^co-authored-by:\s*(.+)$"
_COMPILED: dict[str, re.Pattern[str]] = {}


def _rx(pattern: str) -> re.Pattern[str]:
    """Compile lazily (``re`` is imported only when a message is inspected)."""
    if pattern not in _COMPILED:
        import re

        _COMPILED[pattern] = re.compile(pattern)
    return _COMPILED[pattern]


def _split_ident(ident: str) -> tuple[str, str]:
    """``Name <email>`` into (name, lowercase email); a bare name has no email."""
    name, sep, rest = ident.partition(" <")
    return name.strip(), rest.rstrip(">").strip().lower() if sep else ""


def _address_agent(address: str) -> str | None:
    low = address.lower().rstrip(">").strip()
    for m in MARKERS:
        if m.where == "address" and low.endswith(m.pattern):
            return m.agent
    return None


class Evidence:
    """Why a commit or a hook run counts as delegated: the agent and what showed it."""

    __slots__ = ("agent", "detail")

    def __init__(self, agent: str, detail: str) -> None:
        self.agent, self.detail = agent, detail

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Evidence) and (self.agent, self.detail) == (
            other.agent,
            other.detail,
        )

    def __hash__(self) -> int:
        return hash((self.agent, self.detail))

    def __repr__(self) -> str:
        return f"Evidence({self.agent!r}, {self.detail!r})"


def strip_comments(message: str) -> str:
    """A commit message without git's comment lines (those starting with ``#``)."""
    return "\n".join(line for line in message.splitlines() if not line.startswith("#"))


def message_evidence(message: str, author: str = "", committer: str = "") -> Evidence | None:
    """AI evidence in a commit, by the table :data:`gentle_hooks.policy.markers.MARKERS`:
    co-author trailers naming an agent's address, an agent as author or committer (by name
    or address; an ``author`` row's name mark only on the author: aider's ``(aider)`` on the
    committer alone is a person's own change aider committed), agent trailers
    (``Assisted-by:``...), and message markers.

    Args:
        message: the full commit message; author/committer: ``Name <email>`` or the name
            alone.

    Returns:
        The first :class:`Evidence` found, or None for an ordinary human commit.
    """
    for match in _rx(_COAUTHOR).finditer(message):
        who = match.group(1).strip()
        agent = _address_agent(_split_ident(who)[1] or who)
        if agent:
            return Evidence(agent, f"Co-authored-by: {shown_field(who)}")
    for ident, role in ((author, "author"), (committer, "committer")):
        name, email = _split_ident(ident)
        for m in _name_markers(role):
            if name and _rx(m.pattern).search(name):
                return Evidence(m.agent, f"{role} {shown(quoted(name))}")
        agent = _address_agent(email) if email else None
        if agent:
            return Evidence(agent, f"{role} {shown(quoted(ident))}")
    for m in MARKERS:
        if m.where in ("trailer", "message"):
            found = _rx(m.pattern).search(message)
            if found:
                # a marker holds what the message says, however long: echoed bounded
                return Evidence(m.agent, f"message marker {shown(quoted(found.group(0).strip()))}")
    return None


def _name_markers(role: str) -> tuple[Marker, ...]:
    """The markers read in the name of an ``author`` or a ``committer``: the ``identity``
    rows, and for the author the ``author`` rows too."""
    wanted = ("identity", "author") if role == "author" else ("identity",)
    return tuple(m for m in MARKERS if m.where in wanted)


#: The identity variables git reads for the commit being made, with the role each names;
#: an agent that commits by itself puts its marker there, where the commit's hooks see it
#: before the commit exists (aider: ``(aider)`` after the author name of its own edits, and
#: after the committer name of every commit it makes, a person's dirty files included).
IDENTITY_ENV = ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME")
_ROLE = {"GIT_AUTHOR_NAME": "author", "GIT_COMMITTER_NAME": "committer"}


#: Values of a runtime variable that say no agent runs (compared without case, blanks
#: stripped): a switch set off, or a word for nobody or for a person, never a tool's name.
NOT_AN_AGENT = ("", "0", "false", "no", "off", "none", "null", "human", "person", "user")


def names_agent(value: str) -> bool:
    """Whether a runtime variable set to ``value`` says an agent runs. The AI_AGENT
    standard's value is the tool's name (vercel/vercel packages/detect-agent README, "The
    AI_AGENT Standard": ``export AI_AGENT="your-tool-name"``; its ``src/index.ts`` trims
    the value and takes an empty one for none), a runtime's own variable a flag
    (``CURSOR_AGENT=1``): a blank value, or one of :data:`NOT_AN_AGENT` (a switch set off,
    a word for nobody or a person), says none."""
    return value.strip().lower() not in NOT_AN_AGENT


def on_path(entry: str, ending: str) -> bool:
    """Whether the ``PATH`` entry ``entry`` is the directory ``ending`` (a relative path
    such as ``.pi/agent/bin``): the entry is it, or ends with ``/`` and it, with at most
    one trailing slash; a run of slashes counts as one (POSIX path resolution:
    ``.pi/agent//bin`` is the same directory)."""
    while "//" in entry:
        entry = entry.replace("//", "/")
    entry = entry[:-1] if entry.endswith("/") else entry
    return entry == ending or entry.endswith("/" + ending)


def _agent_named(value: str) -> str:
    """The agent ``AI_AGENT=value`` names, as a trailer may carry it: the value lowercased
    when it is a plain name (letters, digits, ``.-_@/+``, at most 64), else ``ai-agent``."""
    name = value.strip().lower()
    plain = all(c.isascii() and (c.isalnum() or c in ".-_@/+") for c in name)
    return name if plain and 0 < len(name) <= 64 else "ai-agent"


def runtime_evidence(env: Mapping[str, str]) -> Evidence | None:
    """An agent runtime detected in the hook's environment, or None: a runtime's own
    variable (:data:`RUNTIME_ENV`; for ``AI_AGENT`` the agent its value names), its tool
    directory on ``PATH`` (:data:`RUNTIME_PATH`), or an agent's name marker (the
    ``identity`` rows of :data:`gentle_hooks.policy.markers.MARKERS`) in ``GIT_AUTHOR_NAME`` or
    ``GIT_COMMITTER_NAME``, an ``author`` row's in ``GIT_AUTHOR_NAME`` only (aider sets
    ``GIT_COMMITTER_NAME`` to ``<name> (aider)`` for the person's dirty files it commits
    before editing, too)."""
    for name, value, agent in RUNTIME_ENV:
        got = env.get(name)
        if got and (got == value if value is not None else names_agent(got)):
            if name == AI_AGENT:
                agent = _agent_named(got)
            return Evidence(agent, f"{name} is set in the hook's environment")
    for entry in env.get("PATH", "").split(":"):
        for ending, agent in RUNTIME_PATH:
            if on_path(entry, ending):
                return Evidence(agent, f"PATH holds {shown(quoted(entry))}, {agent}'s tools")
    for name in IDENTITY_ENV:
        who = env.get(name, "").strip()
        if not who:
            continue
        for m in _name_markers(_ROLE[name]):
            if _rx(m.pattern).search(who):
                return Evidence(m.agent, f"{name} {who!r} in the commit's environment")
    return None
