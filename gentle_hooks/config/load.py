"""Configuration: TOML, git config and environment, validated and compiled (SPEC §7 "Config").

Room ``config``. Two stages, as python-semantic-release does it: the raw TOML table is
validated into :class:`gentle_hooks.config.schema.RawConfig` (pydantic, ``extra="forbid"``:
an unknown key is an error naming the key), then compiled with git config and environment
overrides into :class:`gentle_hooks.config.settings.Settings`.

Precedence, highest first: command-line flag > environment > git config > config file >
packaged default. Files: ``.gentle-hooks.toml`` (keys at top level) or ``[tool.gentle-hooks]``
in ``pyproject.toml`` at the work tree root; both at once is an error.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping

from gentle_hooks.bounded import MAX_NESTING, InputFileError, nesting_depth, read_regular
from gentle_hooks.config.keys import CHOICES, ENV_KEYS, GIT_KEYS
from gentle_hooks.config.settings import (
    DEFAULT_ARTIFACT_DIR,
    DEFAULT_PROCESS_PATTERNS,
    DEFAULT_PROCESS_PRESELECT,
    RiskSettings,
    Settings,
    VerificationSettings,
)
from gentle_hooks.errors import ConfigError, quoted
from gentle_hooks.values.frozen import frozen, replace

TYPE_CHECKING = False  # typing and tomllib cost ~10 ms each: hooks load config on every run
if TYPE_CHECKING:
    from gentle_hooks.config.schema import RawConfig

CONFIG_FILE = ".gentle-hooks.toml"
PYPROJECT = "pyproject.toml"


@frozen
class Origin:
    """Where a compiled setting's value came from, by the precedence of
    :func:`compile_settings` (environment > git config > config file > packaged default).

    Attributes:
        kind: ``"env"``, ``"git"``, ``"file"`` or ``"default"``.
        name: the environment variable, the lowercase git config key, or the config file as
            it was reported; empty for ``"default"``.
    """

    kind: str
    name: str


@frozen
class LoadedConfig:
    """Compiled settings plus the raw RDD sources the policy resolves itself.

    Attributes:
        settings: the compiled settings.
        rdd_env / rdd_git: ``GENTLE_RDD`` and ``git config gentle.rdd`` values, or None.
        overridden: (setting name, :class:`Origin`) for each setting the environment or git
            config set, the winning source only.
    """

    settings: Settings
    rdd_env: str | None
    rdd_git: str | None
    overridden: tuple[tuple[str, Origin], ...] = ()

    def origin(self, name: str) -> Origin:
        """Where setting ``name`` came from: the environment or git config that set it, else
        the config file when one was read (which may leave it at the packaged default),
        else the packaged default."""
        for setting, origin in self.overridden:
            if setting == name:
                return origin
        where = self.settings.config_file
        return Origin("file", where) if where else Origin("default", "")


def read_file_config(
    root: str | None, read: Callable[[str], bytes | None] | None = None
) -> tuple[RawConfig | None, str | None]:
    """Read and validate the config file at the work tree root (or through ``read``).

    Args:
        root: the work tree root (a label when ``read`` is given); None: no config.
        read: file name -> bytes or None when absent; default reads ``root/name``. The
            range gate reads the files of the range's base commit this way, so a change
            cannot loosen the gate that judges it.

    Returns:
        (raw config, where it was read) or (None, None) when there is no config: pydantic
        is imported only when there is a table to validate.

    Raises:
        ConfigError: unreadable or invalid TOML, an unknown key, a bad value, or both
            ``.gentle-hooks.toml`` and ``[tool.gentle-hooks]`` present.
    """
    if root is None:
        return None, None

    def from_disk(name: str) -> bytes | None:
        return read_config_file(os.path.join(root, name))

    reader = read or from_disk
    found: list[tuple[str, Mapping[str, object]]] = []
    for name in (CONFIG_FILE, PYPROJECT):
        raw = reader(name)
        if raw is None:
            continue
        path = os.path.join(root, name)
        data = parse_toml(raw, path)
        if name == PYPROJECT:
            tool = data.get("tool", {})
            if isinstance(tool, dict) and "gentle-hooks" in tool:
                found.append((f"{path} [tool.gentle-hooks]", tool["gentle-hooks"]))
        else:
            found.append((path, data))
    if len(found) > 1:
        raise ConfigError(f"config found in both {found[0][0]} and {found[1][0]}; keep one")
    if not found:
        return None, None
    where, table = found[0]
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: must be a table")
    from gentle_hooks.config.schema import validate_table

    return validate_table(table, where), where


def parse_toml(raw: bytes, path: str) -> dict[str, object]:
    """Parse TOML bytes read from ``path``; ``tomllib`` is imported only when needed.

    Raises:
        ConfigError: not UTF-8 or invalid TOML.
    """
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: cannot read config: not UTF-8 ({exc.reason} at byte {exc.start})"
        ) from None
    # tomllib recurses once per level: a bound first, so no nesting exhausts the stack
    if nesting_depth(text) > MAX_NESTING:
        raise ConfigError(f"{path}: cannot read config: nested deeper than {MAX_NESTING} levels")
    try:
        parsed: dict[str, object] = tomllib.loads(text)
        return parsed
    except ValueError as exc:  # TOMLDecodeError, or a number too long to convert
        raise ConfigError(f"{path}: cannot read config: {exc}") from None


def read_config_file(path: str) -> bytes | None:
    """The bytes of a config file, or None when there is none (nothing at ``path``).

    Read as :func:`gentle_hooks.bounded.read_regular` reads: a FIFO, a device or a
    directory in its place, or a file over the size cap, is refused, never waited on.

    Raises:
        ConfigError: something is at ``path`` that cannot be read as a config file.
    """
    if not os.path.lexists(path):
        return None
    try:
        return read_regular(path, "cannot read config")
    except InputFileError as exc:
        raise ConfigError(exc.message) from None


def _load_toml(path: str) -> dict[str, object]:
    """Parse one TOML file (an empty table when there is none); ``tomllib`` is imported
    only when there is a file.

    Raises:
        ConfigError: unreadable or invalid TOML.
    """
    raw = read_config_file(path)
    return {} if raw is None else parse_toml(raw, path)


def parse_git_config_z(data: bytes) -> dict[str, str]:
    """Parse ``git config -z --get-regexp`` output (``key\\nvalue\\0`` records).

    Keys are lowercased (git config keys are case-insensitive); later values win.
    """
    out: dict[str, str] = {}
    for rec in data.split(b"\0"):
        if not rec:
            continue
        key, _, value = rec.partition(b"\n")
        out[key.decode("utf-8", "replace").lower()] = value.decode("utf-8", "surrogateescape")
    return out


def _coerce(name: str, value: str, where: str) -> object:
    value = value.strip()
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise ConfigError(f"{where}: {quoted(value)} is not one of {', '.join(CHOICES[name])}")
        return value
    if name in ("honour_overrides", "require_signed"):
        if value.lower() in ("true", "yes", "on", "1"):
            return True
        if value.lower() in ("false", "no", "off", "0"):
            return False
        raise ConfigError(f"{where}: {quoted(value)} is not a boolean")
    if name == "native_timeout":
        try:
            seconds = float(value)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= 600:
            raise ConfigError(
                f"{where}: {quoted(value)} is not a timeout in seconds (0 < t <= 600)"
            )
        return seconds
    return value or None


def compile_settings(
    raw: RawConfig | None,
    config_file: str | None,
    git_values: Mapping[str, str],
    env: Mapping[str, str],
) -> LoadedConfig:
    """Compile the raw file config with git config and environment into settings.

    Args:
        raw: validated file config, or None for none (packaged defaults).
        config_file: where it came from (reported).
        git_values: ``git config`` values keyed by lowercase key (``gentle.mode``).
        env: the process environment.

    Raises:
        ConfigError: an invalid value in git config or the environment, naming its source.
    """
    settings = Settings() if raw is None else _from_raw(raw, config_file)
    origins: dict[str, Origin] = {}
    for key, name in GIT_KEYS.items():
        if key in git_values:
            settings = replace(
                settings, **{name: _coerce(name, git_values[key], f"git config {key}")}
            )
            origins[name] = Origin("git", key)
    for var, name in ENV_KEYS.items():
        if env.get(var):
            settings = replace(settings, **{name: _coerce(name, env[var], var)})
            origins[name] = Origin("env", var)  # applied last: the environment wins
    if "gentle.allowedsigners" in git_values:  # a file on this machine, not in the tree
        settings = replace(settings, allowed_signers_in_tree=False)
    return LoadedConfig(
        settings,
        env.get("GENTLE_RDD") or None,
        git_values.get("gentle.rdd"),
        tuple(sorted(origins.items())),
    )


#: Characters a configured regex may have (a longer one is refused): a process pattern
#: is a few words, and the parser recurses on nesting.
MAX_PATTERN = 1000


def _check_patterns(risk: RiskSettings, config_file: str | None) -> None:
    """Refuse (one line naming the key) a ``risk.process_patterns`` entry that does not
    compile, is over :data:`MAX_PATTERN` characters or has a shape that backtracks
    exponentially (:func:`gentle_hooks.config.regex_shape.slow_shape`), and a
    ``risk.process_preselect`` with a back-reference, a counted repeat (``{m,n}``,
    ``{,n}``) or a repeated group (git's regex engine backtracks on those or expands them;
    a preselect is a plain word list:
    :func:`gentle_hooks.config.regex_shape.preselect_shape`).

    Raises:
        ConfigError: as above.
    """
    if risk.process_patterns != DEFAULT_PROCESS_PATTERNS:
        import warnings

        from gentle_hooks.config.regex_shape import slow_shape  # only for a file's own

        for pattern in risk.process_patterns:
            where = f"{config_file}: risk.process_patterns: {pattern[:80]!r}"
            if len(pattern) > MAX_PATTERN:
                raise ConfigError(f"{where}...: over {MAX_PATTERN} characters")
            try:
                with warnings.catch_warnings():
                    # Python's FutureWarning on a set it may read differently one day
                    # (``[[:alpha:]]``, ``[a--b]``) is this line, never warning text
                    warnings.simplefilter("error", FutureWarning)
                    re.compile(pattern)
                shape = slow_shape(pattern)
            except RecursionError:
                raise ConfigError(f"{where}: groups nested too deeply") from None
            except (re.error, OverflowError) as exc:
                raise ConfigError(f"{where}: {exc}") from None
            except FutureWarning as exc:
                raise ConfigError(f"{where}: {_set_syntax(pattern, exc)}") from None
            if shape:
                raise ConfigError(
                    f"{where}: {shape}, which can take exponential time to match; "
                    "write it so each text has one way to match"
                )
    preselect = risk.process_preselect
    where = f"{config_file}: risk.process_preselect: {preselect[:80]!r}"
    if len(preselect) > MAX_PATTERN:
        raise ConfigError(f"{where}...: over {MAX_PATTERN} characters")
    if preselect == DEFAULT_PROCESS_PRESELECT:
        return
    from gentle_hooks.config.regex_shape import preselect_shape  # only for a file's own

    shape = preselect_shape(preselect)
    if shape:
        raise ConfigError(
            f"{where}: {shape}, which git's -G can take exponential time and memory on; "
            "list plain words (a literal brace is written [{])"
        )


def _set_syntax(pattern: str, warned: FutureWarning) -> str:
    """Why a process pattern Python's regex parser warns about (:func:`_check_patterns`)
    is refused, in words: a POSIX class is not Python's syntax (``[[:alpha:]]`` is a set
    of the characters ``[:alph`` followed by ``]``), and any other ``[[``, ``--``, ``&&``,
    ``~~`` or ``||`` in a set is one a future Python reads as set syntax."""
    if "[:" in pattern:
        return (
            f"{warned}: a POSIX class such as [[:alpha:]] is not Python regex syntax; "
            "write the set itself ([a-zA-Z], [0-9]) or \\w, \\d, \\s"
        )
    return (
        f"{warned}: a future Python reads it as set syntax; escape the '[' or the doubled "
        "character (\\[, \\-) to mean it literally"
    )


def _from_raw(raw: RawConfig, config_file: str | None) -> Settings:
    changes: dict[str, object] = {
        name: tuple(v.lower() for v in value) if name == "hot_path_tokens" else value
        for name, value in raw.risk.model_dump(exclude_none=True).items()
    }
    risk = replace(RiskSettings(), **changes)
    _check_patterns(risk, config_file)
    return Settings(
        base_ref=raw.base_ref,
        rdd_file=raw.rdd,
        mode=raw.mode or "enforce",
        applies_to=raw.gate.applies_to or "delegated",
        honour_overrides=bool(raw.gate.honour_overrides),
        require_signed=bool(raw.gate.require_signed),
        allowed_signers=raw.gate.allowed_signers,
        allowed_signers_in_tree=raw.gate.allowed_signers is not None,
        native_provider=raw.native.provider or "builtin",
        native_timeout=raw.native.timeout or 30.0,
        stakes=raw.stakes or "ordinary",
        risk=risk,
        verification=VerificationSettings(
            commands=raw.verification.commands or (),
            dependency_dirs=raw.verification.dependency_dirs or (),
            require_observed=raw.verification.require_observed is not False,
            artifact_dir=raw.verification.artifact_dir or DEFAULT_ARTIFACT_DIR,
            full_suite=raw.verification.full_suite,
        ),
        config_file=config_file,
    )


def load_config(
    root: str | None,
    git_config_z: bytes,
    env: Mapping[str, str],
    read: Callable[[str], bytes | None] | None = None,
) -> LoadedConfig:
    """Read the config file at ``root`` and compile it with git config and the environment.

    Args:
        root: work tree root, or None (bare repository: no file).
        git_config_z: output of ``git config -z --get-regexp ^gentle\\.``.
        env: the process environment.

    Raises:
        ConfigError: see :func:`read_file_config` and :func:`compile_settings`.
    """
    raw, where = read_file_config(root, read)
    return compile_settings(raw, where, parse_git_config_z(git_config_z), env)


def raw_gate_value(root: str, key: str) -> tuple[str | None, str]:
    """One ``[gate]`` value from the config file, read without validating the whole file.

    The hook's pass path needs only ``gate.applies_to``; every other path validates the file
    in full (:func:`read_file_config`), so a typo elsewhere is reported there.

    Returns:
        (the raw value or None, where it was read for error messages).

    Raises:
        ConfigError: the file is not valid TOML, or the value is not a string.
    """
    for name, table_path in ((CONFIG_FILE, ()), (PYPROJECT, ("tool", "gentle-hooks"))):
        path = os.path.join(root, name)
        if not os.path.lexists(path):
            continue
        data: object = _load_toml(path)
        for part in (*table_path, "gate"):
            data = data.get(part, {}) if isinstance(data, dict) else {}
        value = data.get(key) if isinstance(data, dict) else None
        if value is None:
            continue
        if not isinstance(value, str):
            raise ConfigError(f"{path}: gate.{key} must be a string")
        return value, f"{path}: gate.{key}"
    return None, "config"
