"""Compiled settings: the runtime form of configuration, as plain frozen values.

Room ``config``, pure value types (standard library only). :mod:`gentle_hooks.config.load`
validates TOML, git config and environment into these; the classifier and the plan read only
these, so the packaged defaults and a user's file go through the same path.
"""

from __future__ import annotations

from gentle_hooks.values.frozen import field, frozen

#: Upstream gentle-ai's hot tokens (``hotPathRiskSignals`` in
#: ``internal/reviewtransaction/risk.go``): whole path tokens, split on ``/ \\ . - _``.
DEFAULT_HOT_PATH_TOKENS: tuple[str, ...] = ("auth", "update", "security", "webhook", "payments")
DEFAULT_DOC_EXTENSIONS: tuple[str, ...] = (".md", ".mdx", ".rst", ".adoc")
DEFAULT_DOC_NAMES: tuple[str, ...] = ("README", "CHANGELOG", "LICENSE", "CONTRIBUTING")
DEFAULT_AGENT_FILES: tuple[str, ...] = (
    "AGENTS.md",
    "CLAUDE.md",
    "SKILL.md",
    "GEMINI.md",
    ".cursorrules",
    ".windsurfrules",
    "copilot-instructions.md",
)
DEFAULT_AGENT_DIRS: tuple[str, ...] = (
    "prompt",
    "prompts",
    "skill",
    "skills",
    "agent",
    "agents",
    ".agents",
    ".claude",
    ".cursor",
    ".github",
    ".codex",
    ".gemini",
    ".windsurf",
    ".factory",
    ".clinerules",
    ".opencode",
    ".pi",
    ".kiro",
    ".amp",
    ".augment",
)
#: Upstream's shell sources (``isShellReviewPath``): ``.sh .bash .zsh``.
DEFAULT_SHELL_EXTENSIONS: tuple[str, ...] = (".sh", ".bash", ".zsh")
#: Upstream's other shell sources: GitHub workflow YAML (``isShellReviewPath``).
DEFAULT_DELIVERY_GLOBS: tuple[str, ...] = (".github/workflows/*.yml", ".github/workflows/*.yaml")
#: Process execution in added lines (Python regex, searched per line): upstream gentle-ai's
#: ``processBoundaryPattern``, case-insensitive (``internal/reviewtransaction/risk.go`` as
#: santiago-ramos-02/gentle-ai mirrors it at d7ef8022693c316492643c180d8c18c3f77d2e07, the
#: version the official rows of ``risk_test.go`` at 38030fa2 test): a bare spawn word that
#: is not a member of another value (``db.Exec(`` and ``/re/.exec(`` are not), or a spawn
#: call that exists only in member form. ``(?a)``: ASCII case folding, as the prefilter
#: folds it.
DEFAULT_PROCESS_PATTERNS: tuple[str, ...] = (
    r"(?ai)(?:^|[^a-z0-9_.])(?:subprocess|child_process|execute_process|exec)(?:[^a-z0-9_]|$)",
    r"(?ai)execSync\(|getRuntime\(\)\.exec\(|ProcessBuilder|os\.system\(|os\.exec[lv]p?e?\("
    r"|posix_spawn|proc_open\(|shell_exec\(|passthru\(|popen\(|Process\.Start\(",
)

#: :func:`~gentle_hooks.native.prefilter.needles` of :data:`DEFAULT_PROCESS_PATTERNS`,
#: written out: reading them from the patterns runs Python's regular-expression parser
#: over them in every gate that assesses a change (tests/unit/test_prefilter.py proves
#: this is what that reading gives).
DEFAULT_PROCESS_NEEDLES: tuple[bytes, ...] = (
    b"child_process",
    b"exec",
    b"os.system(",
    b"passthru(",
    b"popen(",
    b"posix_spawn",
    b"proc_open(",
    b"process.start(",
    b"processbuilder",
    b"subprocess",
)
#: :func:`~gentle_hooks.native.prefilter.folds` of :data:`DEFAULT_PROCESS_PATTERNS`
#: (``(?ai)``: the needles are looked for in lowercased lines).
DEFAULT_PROCESS_FOLDS = True


def _any_case(word: str) -> str:
    """``word`` as a POSIX ERE matching it in any ASCII case (git's ``-G`` has no flag)."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


#: Git ``-G`` preselection (POSIX ERE, no ``\b``, any case): a superset of the patterns
#: above (every match holds one of these words, or is a shebang).
DEFAULT_PROCESS_PRESELECT = "|".join(
    [*(_any_case(w) for w in ("exec", "proc", "system", "spawn", "passthru", "popen")), "^#!"]
)
#: Upstream's generated golden files (``isGeneratedGoldenPath``): ``.golden`` files under a
#: ``testdata/golden/`` folder (matched against the path with a leading ``/``).
DEFAULT_GENERATED_GLOBS: tuple[str, ...] = ("*/testdata/golden/*.golden",)


#: Ignored folders a project's tests need that a temporary checkout of a candidate lacks
#: (SPEC §5 "Spot check"): virtual environments and installed packages, detected at the
#: work tree root; ``verification.dependency_dirs`` names more (nested ones too).
DEFAULT_DEPENDENCY_DIRS: tuple[str, ...] = (
    ".venv",
    "venv",
    "node_modules",
    "bower_components",
    "vendor",
    ".bundle",
)


#: Where ``gentle-hook verify run`` writes a verdict's JSON and Markdown view: seed 001
#: "Artifact", ``.agents/skills/platform/artifacts/verify-delegation/{id}.json|.md``.
DEFAULT_ARTIFACT_DIR = ".agents/skills/platform/artifacts/verify-delegation"


@frozen
class VerificationSettings:
    """What counts as the writer's self-verification and what a re-run needs (SPEC §5).

    Attributes:
        commands: the declared verification commands; when any are declared, only a
            receipt of one of them counts (empty: none declared).
        dependency_dirs: ignored folders to make available in a temporary checkout, besides
            the detected :data:`DEFAULT_DEPENDENCY_DIRS`.
        require_observed: a verdict counts only when ``gentle-hook verify run`` observed its
            evidence for that candidate (default on: a hand-written verdict's claims cannot
            be checked; ``false`` in the config file opts out, and only a base commit's
            configuration can turn it off for the candidates it judges).
        artifact_dir: where verdict artifacts are written, relative to the work tree root.
        full_suite: the project's full suite (a shell line), or None when none is declared;
            ``verify run`` counts only the one committed at the candidate's base commit.
    """

    commands: tuple[str, ...] = ()
    dependency_dirs: tuple[str, ...] = ()
    require_observed: bool = True
    artifact_dir: str = DEFAULT_ARTIFACT_DIR
    full_suite: str | None = None


@frozen
class RiskSettings:
    """Settings of the built-in classifier (SPEC §4).

    Attributes:
        hot_path_tokens: whole path tokens that make a change high (lowercase).
        doc_extensions / doc_names: what documentation looks like (proven by bytes later).
        agent_files / agent_dirs: agent-instruction file names and folder names.
        shell_extensions: shell script extensions (high).
        delivery_globs: CI workflow and gate configuration paths (high), fnmatch.
        process_patterns: regexes for process execution in added lines (high).
        process_preselect: git ``-G`` ERE selecting the files to scan.
        generated_globs: generated golden files, excluded from ``changed_lines``.
        slice_budget: changed lines at which a medium candidate is ``slice_budget_reached``.
    """

    hot_path_tokens: tuple[str, ...] = DEFAULT_HOT_PATH_TOKENS
    doc_extensions: tuple[str, ...] = DEFAULT_DOC_EXTENSIONS
    doc_names: tuple[str, ...] = DEFAULT_DOC_NAMES
    agent_files: tuple[str, ...] = DEFAULT_AGENT_FILES
    agent_dirs: tuple[str, ...] = DEFAULT_AGENT_DIRS
    shell_extensions: tuple[str, ...] = DEFAULT_SHELL_EXTENSIONS
    delivery_globs: tuple[str, ...] = DEFAULT_DELIVERY_GLOBS
    process_patterns: tuple[str, ...] = DEFAULT_PROCESS_PATTERNS
    process_preselect: str = DEFAULT_PROCESS_PRESELECT
    generated_globs: tuple[str, ...] = DEFAULT_GENERATED_GLOBS
    slice_budget: int = 400


@frozen
class Settings:
    """All compiled settings, with where each overridden value came from.

    Attributes:
        base_ref: configured base ref or None (then origin/HEAD and the fallback chain).
        rdd_file: the config file's RDD value, unparsed (the policy resolves precedence).
        mode: ``enforce`` or ``warn``.
        applies_to: ``delegated`` or ``all``.
        honour_overrides: whether CI/server gates honour recorded overrides.
        require_signed: whether CI/server gates count spot checks, verdicts and overrides
            only when signed by a principal of the allowed-signers file.
        allowed_signers: that file (git's allowed-signers format), or None;
            allowed_signers_in_tree: True when it is a path in the repository (read from
            the range's base commit), False when it is a file on this machine (git config
            ``gentle.allowedSigners``, relative to the git directory).
        native_provider: ``builtin``, ``gentle-ai`` or ``auto``; native_timeout: seconds.
        stakes: ``ordinary``, ``shipping`` or ``audit``.
        risk: classifier settings.
        verification: declared verification commands and dependency folders.
        config_file: the file the settings were read from, or None.
    """

    base_ref: str | None = None
    rdd_file: str | None = None
    mode: str = "enforce"
    applies_to: str = "delegated"
    honour_overrides: bool = False
    require_signed: bool = False
    allowed_signers: str | None = None
    allowed_signers_in_tree: bool = False
    native_provider: str = "builtin"
    native_timeout: float = 30.0
    stakes: str = "ordinary"
    risk: RiskSettings = field(default_factory=RiskSettings)
    verification: VerificationSettings = field(default_factory=VerificationSettings)
    config_file: str | None = None
