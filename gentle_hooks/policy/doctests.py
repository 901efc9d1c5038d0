"""How many examples a ``python -m doctest FILE...`` run tried (SPEC §5 "Spot check"; seed
001 "Guardrails": "do not accept a claim whose criteria have no observable check").

Room ``policy`` (pure: the caller reads the files). doctest prints nothing when every
example passed, and nothing when a file holds no example at all: ``python -m doctest
app.py`` of a file with no ``>>>`` exits 0 having run no test, which verifies nothing,
like unittest's ``Ran 0 tests`` (:data:`~gentle_hooks.policy.selfcheck.RAN_NO_TESTS`).
So the count comes from, in this order:

* the run's own ``-v`` summary lines (``N tests in M items.``, one per file), summed,
  when there is one per file named (:func:`verbose_count`);
* else the files themselves (:func:`examples_in`): the examples doctest collects from a
  text file (the whole text) or from a Python file (the docstrings of the module and of
  the functions and classes it defines outside function bodies, methods included). A
  module-level ``__test__`` makes the count unknown (its values may be any object).

Fewer examples read than doctest runs (a docstring set at run time) can only make a run
that tested something look like one that tested nothing: the run is refused, never a run
of nothing accepted; ``-v`` makes doctest's own count decide.
"""

from __future__ import annotations

import ast
import doctest
import re

#: The words of ``python -m doctest`` that take a value (``-o NAME``, ``--option NAME``).
_VALUED = frozenset({"-o", "--option"})

#: A ``-v`` summary line of one file: ``3 tests in 2 items.`` (``1 test in 1 item.``).
_SUMMARY = re.compile(r"^(\d+) tests? in \d+ items?\.\s*$", re.MULTILINE)


def doctest_files(argv: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The files ``argv`` gives ``python -m doctest`` (paths as written, relative to where
    it runs): the words after ``-m doctest`` that are no option (``-v``, ``-f``, ``-o NAME``,
    ``-oNAME``, ``--option=NAME``; ``--`` ends the options). Empty when ``argv`` runs no
    doctest module (a ``-c`` program, ``sh -c``: not read)."""
    words = list(argv)
    start = next(
        (i + 2 for i, w in enumerate(words[:-1]) if w == "-m" and words[i + 1] == "doctest"),
        None,
    )
    if start is None or any(w in ("-c", "-m") for w in words[: start - 2]):
        return ()
    files: list[str] = []
    value = False  # the word is the value of the option before it
    options = True
    for word in words[start:]:
        if value:
            value = False
        elif options and word == "--":
            options = False
        elif options and word in _VALUED:
            value = True
        elif not (options and word.startswith("-") and word != "-"):
            files.append(word)
    return tuple(files)


def verbose_count(output: str, files: int) -> int | None:
    """The tests doctest's ``-v`` summary lines in ``output`` say it tried, summed over the
    ``files`` files it was given; None unless there is one such line per file (no ``-v``,
    or part of the output not kept)."""
    found = _SUMMARY.findall(output)
    return sum(int(n) for n in found) if found and len(found) == files else None


def examples_in(name: str, text: str) -> int | None:
    """How many examples ``python -m doctest`` collects from the file ``name`` holding
    ``text``: a ``.py`` file's docstrings (see the module docstring), any other file's whole
    text; None when that cannot be told (a module-level ``__test__``, a syntax error, an
    example doctest cannot parse: doctest fails on those itself)."""
    parser = doctest.DocTestParser()
    try:
        if not name.endswith(".py"):
            return len(parser.get_examples(text, name))
        tree = ast.parse(text, name)
        if _declares_test(tree):
            return None
        return sum(len(parser.get_examples(doc, name)) for doc in _docstrings(tree))
    except (SyntaxError, ValueError):
        return None


def _declares_test(tree: ast.Module) -> bool:
    """Whether the module binds ``__test__`` (doctest runs the examples its values hold)."""
    return any(
        isinstance(node, ast.Name) and node.id == "__test__" and isinstance(node.ctx, ast.Store)
        for node in ast.walk(tree)
    )


def _docstrings(node: ast.AST) -> list[str]:
    """The docstrings doctest's finder reaches from ``node``: its own, and those of the
    functions and classes in its body (through ``if``/``try``/``with``/loop blocks), a
    class's body searched the same way, a function's body not (a nested function is no
    attribute doctest finds)."""
    found: list[str] = []
    if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        doc = ast.get_docstring(node, clean=True)
        if doc:
            found.append(doc)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return found
    for child in _reachable(getattr(node, "body", [])):
        found += _docstrings(child)
    return found


def _reachable(body: list[ast.stmt]) -> list[ast.stmt]:
    """The definitions of ``body`` and of the blocks it holds (not a definition's own)."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(stmt)
            continue
        for field in ("body", "orelse", "finalbody"):
            out += _reachable(getattr(stmt, field, []) or [])
        for handler in getattr(stmt, "handlers", []) or []:
            out += _reachable(handler.body)
        for case in getattr(stmt, "cases", []) or []:
            out += _reachable(case.body)
    return out
