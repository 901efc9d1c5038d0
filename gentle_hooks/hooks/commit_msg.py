"""The commit-msg gate (SPEC §5 "Decision", §7 "Hooks"): the staged candidate judged when
only the message shows delegation (an AI co-author trailer).

Room ``hooks``. What decides that the commit gate judged this candidate already (an agent
runtime in the environment, a staged path a writer wrote, ``applies_to = all``) needs the
standard library and the light probes only, so a delegated commit's commit-msg hook imports
the judging (:mod:`gentle_hooks.hooks.commit`) only when it judges.
"""

from __future__ import annotations

from gentle_hooks.bounded import InputFileError
from gentle_hooks.errors import EXIT_OK, UsageError
from gentle_hooks.hooks.call import HookCall, read_message
from gentle_hooks.policy.delegation import message_evidence, runtime_evidence, strip_comments

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def commit_msg_gate(call: HookCall, env: Mapping[str, str]) -> int:
    """Judge the staged candidate when the message carries AI attribution (commit-msg).

    Only when the commit gate did not already judge it (no runtime in the environment, no
    staged path a writer wrote, not ``applies_to = all``): one judgement per commit.

    Returns:
        0 allowed (or nothing to judge here), 1 blocked.

    Raises:
        UsageError: no message file argument, or one that cannot be read; GentleError:
            what :func:`~gentle_hooks.hooks.commit.commit_gate` raises.
    """
    if not call.args:
        raise UsageError("hook commit-msg: git passes the message file; none given")
    try:
        message = read_message(call.args[0])
    except InputFileError as exc:
        raise UsageError(f"hook commit-msg: {exc}") from None
    evidence = message_evidence(strip_comments(message))
    if evidence is None or runtime_evidence(env) is not None:
        return EXIT_OK
    from gentle_hooks.config.probe import applies_to_all
    from gentle_hooks.git.probe import commit_paths, config_value, locate
    from gentle_hooks.ledger.probe import writer_paths_touched

    where = locate(env)
    if (
        where is None
        or writer_paths_touched(where.common_dir, lambda: commit_paths(env))
        or applies_to_all(where.root, env, lambda key: config_value(key, env))
    ):
        return EXIT_OK  # the commit gate judged this candidate already
    from gentle_hooks.hooks.commit import commit_gate

    return commit_gate(call, env, evidence)
