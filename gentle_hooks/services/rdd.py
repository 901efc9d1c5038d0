"""RDD line for agent harnesses: the live mode, and a session's pinned line in the ledger
(SPEC §9 "RDD line"; seed 000, first paragraph).

Room ``services``. Wires the git adapter, config, the pure transition table
(:mod:`gentle_hooks.policy.rddline`) and the ledger store; returns values, never prints.

* :func:`live_rdd` reads the live mode and its deciding source (``GENTLE_RDD`` > ``git
  config gentle.rdd`` > config file > ``unknown``). Review tools always read this.
* :func:`advance_session` applies one step of a session's pinned line: a new session
  renders the live line; an existing one keeps its text unless RDD turned off, or back on
  after being off. Renders are appended to the ledger (``rdd_render``, schema V3); a kept
  line writes nothing. ``rdd line`` and ``rdd loadout`` both advance, so whichever a
  harness calls first at the start of a run, both see the same pinned line.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.config.load import load_config
from gentle_hooks.ledger.records import RddRender
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.inputs import validate_label
from gentle_hooks.policy.rdd import ResolvedRdd, resolve_rdd
from gentle_hooks.policy.rddline import LineStep, PinnedLine, advance_line
from gentle_hooks.policy.vocabulary import RddMode, RddSource
from gentle_hooks.services.record import open_root, store_path
from gentle_hooks.values.frozen import frozen


@frozen
class LiveRdd:
    """The live RDD mode of a work tree.

    Attributes:
        rdd: mode and deciding source; root: the work tree root; ledger: the ledger file.
    """

    rdd: ResolvedRdd
    root: str
    ledger: str


@frozen
class SessionLine:
    """One step of a session's pinned line, as recorded.

    Attributes:
        session_id: the session; step: the pure decision (row, pinned line, live mode).
        render: the ledger row of the pinned line (recorded now when ``step.rendered``).
        renders: how many lines the session has rendered so far (first one included).
        ledger: the ledger file.
    """

    session_id: str
    step: LineStep
    render: RddRender
    renders: int
    ledger: str


def parse_session_id(text: str | None) -> str:
    """Validate ``--session ID``: required, one line, at most 200 characters.

    Raises:
        UsageError: missing, blank, control characters or too long (exit 2).
    """
    value = validate_label(text, "--session", required=True)
    assert value is not None
    return value


def live_rdd(cwd: str | None, env: Mapping[str, str]) -> LiveRdd:
    """Read the live RDD mode and its deciding source for the work tree at ``cwd``.

    Args:
        cwd: a directory inside the repository, or None for the current one.
        env: the process environment (``GENTLE_RDD``).

    Raises:
        GitError: not a repository, or a bare one.
        ConfigError: an invalid config file, git config or environment value.
    """
    repo, root = open_root(cwd)
    config = load_config(root, repo.gentle_config(), env)
    rdd = resolve_rdd(config.rdd_env, config.rdd_git, config.settings.rdd_file)
    return LiveRdd(rdd=rdd, root=root, ledger=store_path(repo))


def _pinned(render: RddRender | None) -> PinnedLine | None:
    if render is None:
        return None
    return PinnedLine(RddMode(render.mode), RddSource(render.source))


def advance_session(cwd: str | None, session_id: str, env: Mapping[str, str]) -> SessionLine:
    """Apply one step of a session's pinned line against the live mode, and record it.

    Args:
        cwd: a directory inside the repository; session_id: the harness session
            (:func:`parse_session_id`); env: the process environment.

    Returns:
        The step with the session's pinned line after it.

    Raises:
        GitError / ConfigError: as :func:`live_rdd`.
        StoreError: the ledger cannot be read or written.
    """
    live = live_rdd(cwd, env)
    steps: list[LineStep] = []

    def decide(current: RddRender | None) -> RddRender | None:
        step = advance_line(_pinned(current), live.rdd)
        steps.append(step)
        if not step.rendered:
            return None
        return RddRender(
            session_id=session_id,
            root=live.root,
            mode=step.pinned.mode.value,
            source=step.pinned.source.value,
            line=step.pinned.line,
            row=step.row.id,
            previous_mode=step.previous.mode.value if step.previous is not None else None,
        )

    with Ledger.open(live.ledger) as led:
        render, _ = led.rdd_advance(session_id, decide)
        renders = len(led.rdd_renders(session_id))
    return SessionLine(session_id, steps[-1], render, renders, live.ledger)


def session_renders(ledger: str, session_id: str) -> list[RddRender]:
    """Every line a session rendered, oldest first; empty when it rendered none (or there
    is no ledger yet). Never creates a ledger.

    Raises:
        StoreError: the ledger exists but cannot be read.
    """
    led = Ledger.open_existing(ledger)
    if led is None:
        return []
    with led:
        return led.rdd_renders(session_id)
