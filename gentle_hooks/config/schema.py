"""The configuration file's schema: ``[tool.gentle-hooks]`` / ``.gentle-hooks.toml``.

Room ``config``, models (pydantic). Imported only when a config table exists, so that repositories
without one never pay for pydantic on the hook path. Unknown keys are errors naming the key.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    ValidationError,
    field_validator,
)

from gentle_hooks.config.settings import DEFAULT_ARTIFACT_DIR
from gentle_hooks.errors import ConfigError

Mode = Literal["enforce", "warn"]
AppliesTo = Literal["delegated", "all"]
Provider = Literal["builtin", "gentle-ai", "auto"]
Stakes = Literal["ordinary", "shipping", "audit"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RawRisk(_Strict):
    """``[risk]``: the built-in classifier's tables (each list replaces the default)."""

    hot_path_tokens: tuple[str, ...] | None = None
    doc_extensions: tuple[str, ...] | None = None
    doc_names: tuple[str, ...] | None = None
    agent_files: tuple[str, ...] | None = None
    agent_dirs: tuple[str, ...] | None = None
    shell_extensions: tuple[str, ...] | None = None
    delivery_globs: tuple[str, ...] | None = None
    process_patterns: tuple[str, ...] | None = None
    process_preselect: str | None = None
    generated_globs: tuple[str, ...] | None = None
    slice_budget: int | None = Field(default=None, ge=1)


class RawGate(_Strict):
    """``[gate]``: who the gate applies to, whether CI/server honour overrides, whether they
    count only records signed by an allowed signer (``require_signed``), and the
    allowed-signers file (git's format), a path in the repository read from the range's
    base commit."""

    applies_to: AppliesTo | None = None
    honour_overrides: bool | None = None
    require_signed: bool | None = None
    allowed_signers: str | None = Field(default=None, min_length=1)


class RawNative(_Strict):
    """``[native]``: the native assessment provider and its timeout in seconds."""

    provider: Provider | None = None
    timeout: StrictFloat | StrictInt | None = Field(default=None, gt=0, le=600)


class RawVerification(_Strict):
    """``[verification]``: the commands that count as the writer's self-verification (the
    parent's ``## Verification`` list, SPEC §5 "Spot check") and the ignored dependency
    folders a re-run in a temporary checkout needs (SPEC §5, §6 "spot check"); what the
    verifier requirement accepts (SPEC §9; seed 001): ``require_observed`` (a verdict counts
    only when ``gentle-hook verify run`` observed its evidence for that candidate; on when
    absent, ``false`` opts out) and
    ``artifact_dir`` (where ``verify run`` writes the verdict's JSON and Markdown pair,
    relative to the work tree root, or absolute); ``full_suite`` (the project's full
    suite, a shell line: ``verify run`` runs it as the full suite of every brief, read from
    the candidate's base commit, never from the change being verified)."""

    commands: tuple[str, ...] | None = None
    dependency_dirs: tuple[str, ...] | None = None
    require_observed: bool | None = None
    artifact_dir: str | None = Field(default=None, min_length=1)
    full_suite: str | None = Field(default=None, min_length=1)

    @field_validator("full_suite")
    @classmethod
    def _full_suite(cls, value: str | None) -> str | None:
        if value is None:
            return None
        text = value.strip()
        if not text or _has_control(text):
            raise ValueError(
                f"{value!r}: the full suite is one command line without control characters "
                '(e.g. "python3 -m pytest -q")'
            )
        return text

    @field_validator("commands")
    @classmethod
    def _commands(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is not None and not value:
            raise ValueError("declare at least one command, or leave the key out")
        return _each(value, _command)

    @field_validator("artifact_dir")
    @classmethod
    def _artifact_dir(cls, value: str | None) -> str | None:
        """A relative ``artifact_dir`` is normalised (``./x/`` is ``x``, ``x/../y`` is
        ``y``), so the ``info/exclude`` line written for it is one git matches; one that is
        the work tree's top (``.``) or leaves it (``../x``) is refused: the artifacts would
        land in the candidate they judge, or nowhere the work tree shows."""
        if value is None:
            return None
        if not value.strip() or _has_control(value):
            raise ValueError(
                f"{value!r}: name a directory, one line without control characters "
                f"(e.g. {DEFAULT_ARTIFACT_DIR})"
            )
        if posixpath.isabs(value):
            return posixpath.normpath(value)
        path = posixpath.normpath(value)
        if path == ".":
            raise ValueError(
                f"{value!r} is the work tree's top: artifacts there would be part of the "
                f"candidate they judge; name a directory under it (e.g. {DEFAULT_ARTIFACT_DIR})"
            )
        if path == ".." or path.startswith("../"):
            raise ValueError(
                f"{value!r} leaves the work tree; name a directory under it "
                f"(e.g. {DEFAULT_ARTIFACT_DIR}) or an absolute path"
            )
        return path

    @field_validator("dependency_dirs")
    @classmethod
    def _dependency_dirs(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return _each(value, _dependency_dir)


def _has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (below space, or DEL)."""
    return any(ord(c) < 32 or ord(c) == 127 for c in text)


def _each(value: tuple[str, ...] | None, check: Callable[[str], str]) -> tuple[str, ...] | None:
    """``check`` of each item of a list key (None, the key left out, stays None).

    Raises:
        ValueError: from ``check``, for the first item it refuses.
    """
    return None if value is None else tuple(check(item) for item in value)


def _command(command: str) -> str:
    """A ``[verification] commands`` item, stripped.

    Raises:
        ValueError: it is empty or holds a control character.
    """
    text = command.strip()
    if not text:
        raise ValueError("a command is empty")
    if _has_control(text):
        raise ValueError(f"{command!r}: a command is one line without control characters")
    return text


def _dependency_dir(raw: str) -> str:
    """A ``[verification] dependency_dirs`` item without its outer slashes.

    Raises:
        ValueError: it is not a path relative to the work tree root, inside it and outside
            ``.git``.
    """
    path = raw.strip().strip("/")
    parts = path.split("/")
    if (
        not path
        or raw.strip().startswith("/")
        or "\0" in path
        or any(p in ("", ".", "..") for p in parts)
        or parts[0] == ".git"
    ):
        raise ValueError(
            f"{raw!r}: a dependency folder is a path relative to the work tree root, "
            f"inside it and outside .git (e.g. .venv or web/node_modules)"
        )
    return path


class RawConfig(_Strict):
    """The whole ``[tool.gentle-hooks]`` table (or ``.gentle-hooks.toml``), unvalidated
    values rejected, unknown keys rejected."""

    base_ref: str | None = None
    rdd: Literal["on", "off", "unknown"] | None = None
    mode: Mode | None = None
    stakes: Stakes | None = None
    gate: RawGate = RawGate()
    native: RawNative = RawNative()
    risk: RawRisk = RawRisk()
    verification: RawVerification = RawVerification()


def format_error(where: str, exc: ValidationError) -> str:
    err = exc.errors()[0]
    key = ".".join(str(p) for p in err["loc"])
    if err["type"] == "extra_forbidden":
        return f"{where}: unknown key {key!r}"
    return f"{where}: {key}: {err['msg']}"


def validate_table(table: Mapping[str, object], where: str) -> RawConfig:
    """Validate a config table into :class:`RawConfig`.

    Raises:
        ConfigError: one line naming ``where`` and the first bad or unknown key.
    """
    try:
        return RawConfig.model_validate(table)
    except ValidationError as exc:
        raise ConfigError(format_error(where, exc)) from None
