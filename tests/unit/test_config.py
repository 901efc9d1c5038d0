"""Configuration: validation, unknown keys, and precedence flag > env > git config > file."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.config.load import load_config, parse_git_config_z
from gentle_hooks.errors import ConfigError


def write_cfg(root: Path, text: str, name: str = ".gentle-hooks.toml") -> None:
    (root / name).write_text(text)


def test_no_config_gives_defaults(tmp_path: Path) -> None:
    s = load_config(str(tmp_path), b"", {}).settings
    assert (s.mode, s.applies_to, s.native_provider, s.stakes, s.base_ref) == (
        "enforce",
        "delegated",
        "builtin",
        "ordinary",
        None,
    )
    assert s.risk.slice_budget == 400 and "auth" in s.risk.hot_path_tokens


def test_pyproject_table(tmp_path: Path) -> None:
    write_cfg(
        tmp_path,
        '[tool.gentle-hooks]\nmode = "warn"\n[tool.gentle-hooks.risk]\n'
        'slice_budget = 50\nhot_path_tokens = ["Ledger"]\n',
        "pyproject.toml",
    )
    loaded = load_config(str(tmp_path), b"", {})
    assert loaded.settings.mode == "warn" and loaded.settings.risk.slice_budget == 50
    assert loaded.settings.risk.hot_path_tokens == ("ledger",)
    assert loaded.settings.config_file.endswith("pyproject.toml [tool.gentle-hooks]")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bogus = 1\n", "unknown key 'bogus'"),
        ('[risk]\nhot_tokens = ["x"]\n', "unknown key 'risk.hot_tokens'"),
        ('mode = "loud"\n', "mode"),
        ('[gate]\napplies_to = "everyone"\n', "gate.applies_to"),
        ("[risk]\nslice_budget = 0\n", "risk.slice_budget"),
        ('[risk]\nprocess_patterns = ["(unclosed"]\n', "process_patterns"),
        ("mode = \n", "cannot read config"),
        ('[verification]\ncheck = ["x"]\n', "unknown key 'verification.check'"),
        ("[verification]\ncommands = []\n", "verification.commands"),
        ('[verification]\ncommands = ["  "]\n', "a command is empty"),
        ('[verification]\ncommands = ["a\\nb"]\n', "one line"),
        ('[verification]\ncommands = "pytest"\n', "verification.commands"),
        ('[verification]\ndependency_dirs = ["/opt/venv"]\n', "relative to the work tree"),
        ('[verification]\ndependency_dirs = ["../venv"]\n', "inside it"),
        ('[verification]\ndependency_dirs = [".git/x"]\n', "outside .git"),
        ('[verification]\ndependency_dirs = ["a/./b"]\n', "dependency_dirs"),
    ],
)
def test_bad_config_names_the_key(tmp_path: Path, text: str, message: str) -> None:
    write_cfg(tmp_path, text)
    with pytest.raises(ConfigError) as exc:
        load_config(str(tmp_path), b"", {})
    assert message in str(exc.value) and exc.value.exit_code == 2


def test_verification_table(tmp_path: Path) -> None:
    """``[verification]``: the declared commands (stripped) and the dependency folders
    (trailing slashes dropped); absent, nothing is declared."""
    assert load_config(str(tmp_path), b"", {}).settings.verification.commands == ()
    write_cfg(
        tmp_path,
        '[tool.gentle-hooks.verification]\ncommands = [" pytest -q ", "npm test"]\n'
        'dependency_dirs = ["web/node_modules/", ".cache/deps"]\n',
        "pyproject.toml",
    )
    v = load_config(str(tmp_path), b"", {}).settings.verification
    assert v.commands == ("pytest -q", "npm test")
    assert v.dependency_dirs == ("web/node_modules", ".cache/deps")


def test_two_config_files_is_an_error(tmp_path: Path) -> None:
    write_cfg(tmp_path, 'mode = "warn"\n')
    write_cfg(tmp_path, '[tool.gentle-hooks]\nmode = "warn"\n', "pyproject.toml")
    with pytest.raises(ConfigError, match=r"keep one"):
        load_config(str(tmp_path), b"", {})


def test_pyproject_without_our_table_is_ignored(tmp_path: Path) -> None:
    write_cfg(tmp_path, '[project]\nname = "x"\n', "pyproject.toml")
    assert load_config(str(tmp_path), b"", {}).settings.config_file is None


@pytest.mark.parametrize(
    ("file", "git", "env", "expected"),
    [
        (None, None, None, "delegated"),
        ("all", None, None, "all"),
        ("all", "delegated", None, "delegated"),
        ("delegated", "all", None, "all"),
        ("delegated", "delegated", "all", "all"),
        (None, "all", "delegated", "delegated"),
    ],
    ids=["default", "file", "git-over-file", "git-over-file-2", "env-over-git", "env-over-git-2"],
)
def test_precedence_env_over_git_over_file(tmp_path, file, git, env, expected) -> None:
    if file:
        write_cfg(tmp_path, f'[gate]\napplies_to = "{file}"\n')
    gitz = f"gentle.appliesTo\n{git}\0".encode() if git else b""
    envd = {"GENTLE_HOOKS_APPLIES_TO": env} if env else {}
    assert load_config(str(tmp_path), gitz, envd).settings.applies_to == expected


def test_bad_git_config_and_env_values_name_their_source(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"git config gentle\.mode"):
        load_config(str(tmp_path), b"gentle.mode\nloud\0", {})
    with pytest.raises(ConfigError, match="GENTLE_HOOKS_NATIVE_TIMEOUT"):
        load_config(str(tmp_path), b"", {"GENTLE_HOOKS_NATIVE_TIMEOUT": "soon"})


def test_rdd_sources_are_passed_through(tmp_path: Path) -> None:
    write_cfg(tmp_path, 'rdd = "off"\n')
    loaded = load_config(str(tmp_path), b"gentle.rdd\non\0", {"GENTLE_RDD": "unknown"})
    assert (loaded.settings.rdd_file, loaded.rdd_git, loaded.rdd_env) == ("off", "on", "unknown")


def test_git_config_parser_lowercases_keys() -> None:
    assert parse_git_config_z(b"gentle.baseRef\norigin/dev\0gentle.mode\nwarn\0") == {
        "gentle.baseref": "origin/dev",
        "gentle.mode": "warn",
    }


def test_packaged_defaults_equal_an_empty_validated_table() -> None:
    from gentle_hooks.config.load import compile_settings
    from gentle_hooks.config.schema import RawConfig

    assert compile_settings(RawConfig(), None, {}, {}) == compile_settings(None, None, {}, {})


@pytest.mark.parametrize("value", ["true", '"5"', "0", "601"])
def test_native_timeout_must_be_a_number_of_seconds(tmp_path: Path, value: str) -> None:
    write_cfg(tmp_path, f"[native]\ntimeout = {value}\n")
    with pytest.raises(ConfigError, match=r"native\.timeout"):
        load_config(str(tmp_path), b"", {})


def test_origin_names_the_source_that_won() -> None:
    """Environment > git config > config file > packaged default, as compiled."""
    from gentle_hooks.config.load import Origin, compile_settings
    from gentle_hooks.config.schema import RawConfig

    raw = RawConfig.model_validate({"mode": "warn"})
    both = compile_settings(
        raw, "/r/.gentle-hooks.toml", {"gentle.mode": "enforce"}, {"GENTLE_HOOKS_MODE": "warn"}
    )
    assert both.settings.mode == "warn"
    assert both.origin("mode") == Origin("env", "GENTLE_HOOKS_MODE")
    git_only = compile_settings(raw, "/r/.gentle-hooks.toml", {"gentle.mode": "enforce"}, {})
    assert git_only.origin("mode") == Origin("git", "gentle.mode")
    assert git_only.settings.mode == "enforce"
    file_only = compile_settings(raw, "/r/.gentle-hooks.toml", {}, {"GENTLE_HOOKS_MODE": ""})
    assert file_only.origin("mode") == Origin("file", "/r/.gentle-hooks.toml")
    assert compile_settings(None, None, {}, {}).origin("mode") == Origin("default", "")
