"""The one line refusing a discard of writer work a stash holds
(:func:`gentle_hooks.services.discard.stash_refusal`; issue 13, refuter r13c): it names
each stash entry and drops them newest last, so each ``stash@{N}`` it names is still that
entry when its ``git stash drop`` runs."""

from __future__ import annotations

from gentle_hooks.services.discard import stash_refusal


def test_one_entry_is_named_with_its_drop_and_the_pop() -> None:
    line = stash_refusal({"app.py": "stash@{0}"})
    assert "\n" not in line
    assert line.startswith("app.py: the writer's change is held in stash@{0}; ")
    assert "`git stash drop 'stash@{0}'`" in line
    assert "or pop it first" in line


def test_several_entries_are_dropped_oldest_first() -> None:
    line = stash_refusal({"b.py": "stash@{2}", "a.py": "stash@{10}", "c.py": "stash@{2}"})
    assert line.startswith("a.py, b.py, c.py: the writer's change is held in stash@{2}, ")
    drops = line.split("`")[1]
    assert drops == "git stash drop 'stash@{10}' && git stash drop 'stash@{2}'"
