"""Rows of :func:`gentle_hooks.services.checkout.editable_redirects`: which places of the work
tree an editable install in a linked virtual environment imports from (the temporary
checkout puts the same places first on ``PYTHONPATH``), and of
:mod:`gentle_hooks.services.editable`: the interpreters outside the repository a run
reaches, the places their editable installs name in a work tree, and the same places in a
room."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.services.checkout import Checkout, editable_redirects, run_env
from gentle_hooks.services.editable import (
    import_places,
    in_trees,
    python_path,
    site_dirs,
    tree_relative,
)


def _site(root: Path, venv: str = ".venv") -> Path:
    (root / venv).mkdir()
    (root / venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    site = root / venv / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    return site


@pytest.mark.parametrize(
    ("pth", "expected"),
    [
        ("{root}/src\n", ("src",)),  # pip / hatchling / pdm: the source directory
        ("{root}\n", (".",)),  # a flat layout: the work tree root
        ("# comment\n\n{root}/src\n{root}/src\n", ("src",)),  # each place once
        ("import _virtualenv\n", ()),  # a line that runs code adds no place
        ("/usr/lib/python3/dist-packages\n", ()),  # outside the work tree
        ("{root}/.venv/lib/extra\n", ()),  # inside the linked folder itself
        ("../../../../src\n", ("src",)),  # relative: from site-packages
    ],
)
def test_pth_lines(tmp_path: Path, pth: str, expected: tuple[str, ...]) -> None:
    (tmp_path / "src").mkdir()
    site = _site(tmp_path)
    (site / "_p.pth").write_text(pth.format(root=tmp_path))
    assert editable_redirects(str(tmp_path), (".venv",)) == expected


def test_a_setuptools_finder_mapping_names_the_packages_parent(tmp_path: Path) -> None:
    (tmp_path / "lib" / "pkg").mkdir(parents=True)
    site = _site(tmp_path)
    (site / "__editable___pkg_0_1_finder.py").write_text(
        f"import sys\nMAPPING = {{'pkg': {str(tmp_path / 'lib' / 'pkg')!r}}}\n"
    )
    assert editable_redirects(str(tmp_path), (".venv",)) == ("lib",)


def test_a_folder_without_pyvenv_cfg_or_a_broken_finder_adds_nothing(tmp_path: Path) -> None:
    site = _site(tmp_path)
    (site / "__editable___x_finder.py").write_text("MAPPING = {\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.pth").write_text(f"{tmp_path}\n")
    assert editable_redirects(str(tmp_path), (".venv", "node_modules")) == ()


def test_run_env_puts_the_checkouts_places_first() -> None:
    co = Checkout("/tmp/c/w", "0" * 40, (".venv",), ("src", "."))
    env = run_env(co, {"PYTHONPATH": "/opt/x", "A": "1"})
    cache = {"PYTHONPYCACHEPREFIX": "/tmp/c/pycache"}  # outside the tree: no __pycache__ read
    assert env == {"PYTHONPATH": "/tmp/c/w/src:/tmp/c/w:/opt/x", "A": "1", **cache}
    assert run_env(Checkout("/tmp/c/w", "0" * 40, ()), {"A": "1"}) == {"A": "1", **cache}


# --- services.editable: interpreters outside the repository --------------------------------


def _venv(where: Path, system: bool = False) -> Path:
    """A virtual environment's skeleton at ``where``; its site-packages."""
    (where / "bin").mkdir(parents=True)
    cfg = "home = /usr/bin\n" + ("include-system-site-packages = true\n" if system else "")
    (where / "pyvenv.cfg").write_text(cfg)
    site = where / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    return site


def test_the_site_dirs_of_venvs_on_path_virtual_env_and_a_shebang(tmp_path: Path) -> None:
    on_path, active, named = (_venv(tmp_path / n) for n in ("a", "b", "c"))
    script = tmp_path / "tool"
    script.write_text(f"#!{tmp_path / 'c' / 'bin' / 'python'}\nimport sys\n")
    env = {"PATH": f"{tmp_path / 'a' / 'bin'}:relative/bin", "VIRTUAL_ENV": str(tmp_path / "b")}
    assert site_dirs(env, [str(script)], user_site=False) == (
        str(on_path),
        str(active),
        str(named),
    )
    assert site_dirs({"PATH": str(tmp_path / "nowhere")}) == ()


def test_the_user_site_counts_only_with_the_users_home(tmp_path: Path) -> None:
    user = tmp_path / ".local" / "lib" / "python3.11" / "site-packages"
    user.mkdir(parents=True)
    assert site_dirs({"HOME": str(tmp_path)}) == (str(user),)
    assert site_dirs({"HOME": str(tmp_path)}, user_site=False) == ()


def test_an_annotated_setuptools_mapping_and_an_egg_link_are_read(tmp_path: Path) -> None:
    """setuptools writes ``MAPPING: dict[str, str] = {...}``; a legacy install an
    ``.egg-link`` whose first line is the project's directory."""
    site = _venv(tmp_path / "v")
    (site / "__editable___pkg_0_1_finder.py").write_text(
        "MAPPING: dict[str, str] = {'pkg': '/r/src/pkg', 'mod': '/r/lib/mod.py'}\n"
        "NAMESPACES: dict[str, list[str]] = {'ns': ['/r/ns/part']}\n"
    )
    (site / "old.egg-link").write_text("/r/legacy\n.\n")
    places = [p for p, _ in import_places([str(site)])]
    assert places == ["/r/src", "/r/lib", "/r/ns", "/r/legacy"]


def test_a_place_maps_to_its_innermost_work_tree_once(tmp_path: Path) -> None:
    outer, inner = tmp_path / "main", tmp_path / "main" / "wt" / "feat"
    (inner / "src").mkdir(parents=True)
    (outer / "src").mkdir(parents=True)
    found = in_trees(
        [(str(inner / "src"), "a.pth"), (str(outer / "src"), "b.pth"), ("/elsewhere", "c.pth")],
        [str(outer), str(inner)],
    )
    assert [(r.tree, r.rel, r.source) for r in found] == [(str(inner), "src", "a.pth")]
    assert in_trees([(str(outer / "src"), "b.pth")], [str(outer)], [str(outer / "src")]) == ()


def test_python_path_puts_the_rooms_places_first_and_maps_the_kept_entries(
    tmp_path: Path,
) -> None:
    tree = str(tmp_path / "w")
    kept = f"lib:{tree}/vendor:/opt/x:{tree}/src"
    assert python_path("/room/tree", ["src", "."], kept, [tree]) == (
        "/room/tree/src:/room/tree:lib:/room/tree/vendor:/opt/x"
    )
    env = tree_relative({"PYTHONPATH": "/room/tree/src:lib:/opt/x", "A": "1"}, "/room/tree")
    assert env == {"PYTHONPATH": "src:lib:/opt/x", "A": "1"}


def test_a_checkout_says_what_it_redirected_and_what_it_cannot_hold() -> None:
    co = Checkout("/tmp/c/w", "0" * 40, (), ("src",), ("/r",), ("/r/build/lib",))
    assert co.said == (
        " (an editable install of src imports the checkout's; an editable install imports "
        "/r/build/lib from your work tree: the candidate's tree does not hold it)"
    )
    assert run_env(co, {"PYTHONPATH": "/r/extra"})["PYTHONPATH"] == "/tmp/c/w/src:/tmp/c/w/extra"


def _pyenv(root: Path) -> Path:
    """A pyenv root: ``shims/python3`` (the shell script pyenv writes) and two versions."""
    (root / "shims").mkdir(parents=True)
    shim = root / "shims" / "python3"
    shim.write_text(f'#!/usr/bin/env bash\nexport PYENV_ROOT="{root}"\nexec pyenv exec "$@"\n')
    shim.chmod(0o755)
    (root / "versions" / "3.13.0rc1").mkdir(parents=True)
    for v in ("3.11.4", "3.12.1"):
        (root / "versions" / v / "bin").mkdir(parents=True)
        (root / "versions" / v / "lib" / f"python{v[:4]}" / "site-packages").mkdir(parents=True)
    return root


def _version_site(root: Path, v: str) -> str:
    return str((root / "versions" / v / "lib" / f"python{v[:4]}" / "site-packages").resolve())


@pytest.mark.parametrize(
    ("version_env", "local", "global_", "expected"),
    [
        ("3.12.1", "3.11.4", "3.11.4", ("3.12.1",)),  # PYENV_VERSION first
        ("", "3.12.1\n", "3.11.4\n", ("3.12.1",)),  # then .python-version from cwd up
        ("", None, "# comment\n3.11.4\n", ("3.11.4",)),  # then <root>/version
        ("3.12.1:3.11.4", None, None, ("3.12.1", "3.11.4")),  # several, each counts
        ("system", None, None, ()),  # system: PATH's other directories
        # issue 18 MED: a prefix is the latest installed version it starts, as pyenv-latest
        ("", "3.11\n", None, ("3.11.4",)),
        ("3", None, None, ("3.12.1",)),
        ("python-3.12.1", None, None, ("3.12.1",)),  # pyenv strips "python-"
        ("", None, "python-3.11\n", ("3.11.4",)),
        ("3.1", None, None, ()),  # 3.11.4 does not start "3.1." or "3.1-"
        ("3.13", None, None, ()),  # only a pre-release: never the latest
    ],
)
def test_a_pyenv_shim_on_path_counts_the_version_pyenv_would_run(
    tmp_path: Path,
    version_env: str,
    local: str | None,
    global_: str | None,
    expected: tuple[str, ...],
) -> None:
    """pyenv's ``shims/python3`` is a shell script: the installation it runs is read from
    pyenv's own choice (``PYENV_VERSION``, ``.python-version``, ``<root>/version``)."""
    root = _pyenv(tmp_path / "pyenv")
    cwd = tmp_path / "proj" / "sub"
    cwd.mkdir(parents=True)
    if local is not None:
        (tmp_path / "proj" / ".python-version").write_text(local)
    if global_ is not None:
        (root / "version").write_text(global_)
    env = {"PATH": str(root / "shims"), "PYENV_VERSION": version_env}
    sites = site_dirs({**env, "PWD": str(cwd)}, user_site=False)
    assert sites == tuple(_version_site(root, v) for v in expected)
