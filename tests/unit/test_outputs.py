"""Where a check's command says it writes its report (gentle_hooks.policy.outputs), row by
row: those paths are its outputs; anything else a check writes is not."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.outputs import OUTPUT_OPTIONS, OutputOption, declared_outputs, is_output

DECLARED = [
    pytest.param("pytest --junitxml=out.xml", ("out.xml",), id="O-junit-equals"),
    pytest.param("mypy --junit-xml reports/m.xml src", ("reports/m.xml",), id="O-junit-word"),
    pytest.param("pytest --report-log=log.json", ("log.json",), id="O-report"),
    pytest.param("pytest --cov-report=xml:cov/c.xml", ("cov/c.xml",), id="O-coverage"),
    pytest.param("pytest --cov-report term", (), id="O-coverage-terminal-only"),
    pytest.param("ruff check --output-file ruff.txt .", ("ruff.txt",), id="O-output-file"),
    pytest.param("go test -coverprofile=c.out ./...", ("c.out",), id="O-output-file-go"),
    pytest.param("pytest --junitxml=./a/../out.xml", ("out.xml",), id="normalized"),
    pytest.param("pytest --junitxml=/tmp/out.xml", (), id="absolute-is-outside"),
    pytest.param("pytest --junitxml=../out.xml", (), id="above-the-top-is-outside"),
    pytest.param("pytest --junitxml=$OUT", (), id="an-expansion-names-nothing"),
    pytest.param("pytest > out.xml", (), id="a-redirection-is-no-report-option"),
    pytest.param("pytest '", (), id="unreadable"),
]


@pytest.mark.parametrize(("command", "paths"), DECLARED)
def test_declared_outputs(command: str, paths: tuple[str, ...]) -> None:
    assert declared_outputs(command) == paths


#: An absolute path, with the work tree's root ``/w/repo`` given.
UNDER_TOP = [
    pytest.param("pytest --junitxml /w/repo/report.xml", ("report.xml",), id="absolute-under"),
    pytest.param("pytest --junitxml=/w/repo/a/../r/o.xml", ("r/o.xml",), id="absolute-normed"),
    pytest.param("pytest --junitxml /w/repox/o.xml", (), id="absolute-beside-the-top"),
    pytest.param("pytest --junitxml /w/repo", (), id="the-top-itself"),
    pytest.param("pytest --junitxml /tmp/o.xml", (), id="absolute-outside"),
    pytest.param("pytest --junitxml out.xml", ("out.xml",), id="relative-as-before"),
]


@pytest.mark.parametrize(("command", "paths"), UNDER_TOP)
def test_declared_outputs_under_the_top(command: str, paths: tuple[str, ...]) -> None:
    assert declared_outputs(command, "/w/repo") == paths


#: Run from the subdirectory ``pkg`` of the top ``/w/repo`` (``receipt run`` from there, or
#: ``--cwd pkg``; a receipt's ``cwd``): a relative report path is below it (refuter r14w F4).
FROM_PKG = [
    pytest.param("pytest --junitxml out/r.xml", ("pkg/out/r.xml",), id="relative-below-cwd"),
    pytest.param("pytest --junitxml ../r.xml", ("r.xml",), id="up-to-the-top"),
    pytest.param("pytest --junitxml ../../r.xml", (), id="above-the-top"),
    pytest.param("pytest --junitxml /w/repo/pkg/r.xml", ("pkg/r.xml",), id="absolute-as-before"),
]


@pytest.mark.parametrize(("command", "paths"), FROM_PKG)
def test_declared_outputs_from_a_subdirectory(command: str, paths: tuple[str, ...]) -> None:
    assert declared_outputs(command, "/w/repo", "pkg") == paths


@pytest.mark.parametrize("row", OUTPUT_OPTIONS, ids=[r.id for r in OUTPUT_OPTIONS])
def test_every_option_of_every_row_names_an_output(row: OutputOption) -> None:
    for name in row.names:
        value = "xml:r.out" if row.kind_prefix else "r.out"
        assert declared_outputs(f"tool {name}={value}") == ("r.out",), name
        assert declared_outputs(f"tool {name} {value}") == ("r.out",), name


def test_a_file_under_an_output_directory_is_an_output() -> None:
    assert is_output("htmlcov/index.html", ("htmlcov",))
    assert is_output("out.xml", ("out.xml",))
    assert not is_output("out.xml.py", ("out.xml",))
    assert not is_output("src/out.xml", ("out.xml",))
