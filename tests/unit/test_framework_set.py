"""Which gentle-hooks ids a ``.pre-commit-config.yaml`` lists, and at which stages
(:mod:`gentle_hooks.services.framework_set`): the README's two set-ups and the shapes YAML
allows, read without a YAML parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gentle_hooks.services.framework_set import HOOK_IDS, configured_stages, gives_up

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_is_the_hook_repository_s_manifest() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    found = dict(re.findall(r"- id: (\S+)\n(?:  .*\n)*?  stages: \[([^\]]*)\]", text))
    assert {k: tuple(v.split(", ")) for k, v in found.items()} == HOOK_IDS


def _readme_sets() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "gentle-hooks-" in b]


def test_the_readme_s_full_set_and_smallest_set() -> None:
    full, smallest = _readme_sets()[:2]
    assert configured_stages(full) == HOOK_IDS
    assert configured_stages(smallest) == {
        "gentle-hooks-commit-gate": ("pre-commit", "pre-merge-commit"),
        "gentle-hooks-push-gate": ("pre-push",),
    }


CONFIG = """\
repos:
  - repo: https://example.invalid/gentle-hooks  # gentle-hooks-post-commit (a comment)
    rev: v0
    hooks:
      - id: gentle-hooks-commit-gate
        stages:
          - commit
      # - id: gentle-hooks-commit-msg-gate
      - id: "gentle-hooks-push-gate"
        stages: [pre-commit]
      - {id: gentle-hooks-prepare-commit-msg, stages: [prepare-commit-msg]}
      -   id: gentle-hooks-post-rewrite
  - repo: local
    hooks:
    - name: x
      id: 'gentle-hooks-post-commit'
    - id: other-hook
"""


@pytest.mark.parametrize(
    ("hook_id", "stages"),
    [
        pytest.param("gentle-hooks-commit-gate", ("pre-commit",), id="block-list-old-name"),
        pytest.param("gentle-hooks-commit-msg-gate", None, id="commented-out"),
        pytest.param("gentle-hooks-push-gate", None, id="stage-outside-its-own"),
        pytest.param("gentle-hooks-prepare-commit-msg", ("prepare-commit-msg",), id="flow-mapping"),
        pytest.param("gentle-hooks-post-rewrite", ("post-rewrite",), id="wide-dash"),
        pytest.param("gentle-hooks-post-commit", ("post-commit",), id="id-not-first-key"),
    ],
)
def test_each_shape(hook_id: str, stages: tuple[str, ...] | None) -> None:
    assert configured_stages(CONFIG).get(hook_id) == stages


def test_nothing_listed_and_what_is_given_up() -> None:
    assert configured_stages("repos: []\n") == {}
    assert configured_stages("") == {}
    assert gives_up(set(HOOK_IDS["gentle-hooks-commit-gate"])) and not gives_up(
        {s for ss in HOOK_IDS.values() for s in ss}
    )
