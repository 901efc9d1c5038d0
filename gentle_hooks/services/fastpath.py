"""The installed hooks' fast path: ``sh`` that proves "nothing here can apply" without
starting Python (SPEC §2 "Start-up is part of the product", §7 "Hooks"; docs/fast-path.md).

Room ``services``, pure text: :func:`fast_block` returns the ``sh`` lines
:func:`gentle_hooks.services.install.script_text` puts before the interpreter's ``exec``.
Each check over-approximates the Python probe of the same hook
(:data:`gentle_hooks.hooks.dispatch.HOOKS`): the script passes only when the probe would
answer "nothing to do", and anything it cannot prove, or that looks odd, falls through to
Python, which decides exactly as before. The tables it reads are generated into the script
at install time: the agent-runtime variables (:data:`gentle_hooks.policy.delegation.RUNTIME_ENV`),
the configuration's variables (:data:`gentle_hooks.config.keys.ENV_KEYS`), the identity
and message markers (:data:`gentle_hooks.policy.markers.MARKERS`, through the words below),
and the idle sentinel's reading rule (:data:`gentle_hooks.ledger.probe.IDLE_ROWS`).

What each hook checks:

* pre-commit, pre-merge-commit: no agent-runtime or configuration variable is set; no
  author or committer name holds an agent's identity word; the ledger holds nothing pending
  (no ledger, or its idle sentinel, :func:`gentle_hooks.ledger.location.idle_path`, with
  neither the ledger file nor a non-empty write-ahead log changed since); no
  ``.gentle-hooks.toml`` at the root, no ``pyproject.toml`` that mentions ``gentle-hooks``;
  ``git config gentle.appliesto`` unset;
* prepare-commit-msg: no agent-runtime variable is set and no author or committer name
  holds an agent's identity word (its trailer), the ledger holds nothing pending, the
  staged change holds no ended writer blob, nor, when the commit may amend ``HEAD``,
  ``HEAD``'s change (an amend of a pushed writer commit keeps its trailer), and the message
  file (a readable regular file of at most the
  read cap) holds no ``Gentle-Writer`` word (a message brought along, whose trailer goes
  when the commit carries no writer content);
* post-commit: the ledger holds nothing pending and ``HEAD``'s change no ended writer blob;
* commit-msg: the message file is a readable regular file of at most the read cap, with no
  marker word in it, the ledger holds nothing pending and neither the staged change nor,
  when the commit may amend ``HEAD``, ``HEAD``'s holds an ended writer blob (its writer
  trailer).

The other hooks (pre-push, pre-receive, post-rewrite) always start Python.
"""

from __future__ import annotations

from gentle_hooks.bounded import READ_LIMIT
from gentle_hooks.config.keys import ENV_KEYS, git_key
from gentle_hooks.git.probe import SEQUENCERS
from gentle_hooks.ledger.kept import DAMAGED_KEPT, SPOOL_KEPT
from gentle_hooks.ledger.location import IDLE_FILE, LEDGER_FILE, SPOOL_FILE, STATE_DIR
from gentle_hooks.ledger.probe import CALLS_DIR, IDLE_LAST, IDLE_ROWS, WINDOWS_DIR
from gentle_hooks.policy.decision_form import ENV as FORMAT_ENV
from gentle_hooks.policy.decision_form import SPEAKS_FOR_EVERY_COMMIT, allowed_line
from gentle_hooks.policy.delegation import IDENTITY_ENV, RUNTIME_ENV, RUNTIME_PATH

#: Hooks with a fast path, and what it checks.
FAST_HOOKS = {
    "pre-commit": "commit",
    "pre-merge-commit": "commit",
    "prepare-commit-msg": "ledger",
    "post-commit": "recorder",
    "commit-msg": "message",
}

#: For each ``identity`` marker: a word every name its pattern matches contains, compared
#: without case (tests/unit/test_fast_path_tables.py checks both).
IDENTITY_WORDS = {
    "I-aider": "(aider)",
    "I-copilot-agent": "copilot-swe-agent",
    "I-jules": "google-labs-jules",
    "I-claude": "claude",
    "I-devin": "devin",
    "I-gemini-code-assist": "gemini-code-assist",
    "I-codex-connector": "chatgpt-codex-connector",
}
#: For each ``trailer`` and ``message`` marker, and for the co-author trailer: a word every
#: message it matches contains, compared without case.
MESSAGE_WORDS = {
    "co-authored-by": "co-authored-by:",
    "T-assisted-by": "assisted-by:",
    "T-gentle-writer": "gentle-writer:",
    "M-claude-code-link": "generated with [claude code]",
    "M-claude-code": "generated with claude code",
    "M-devin": "generated with ",
    "M-aider": "aider: ",
}
#: ASCII letters that Python's case-insensitive matching also pairs with a non-ASCII
#: character (U+0130, U+0131, U+212A Kelvin, U+017F long s): in ``sh`` they match any few
#: bytes.
FOLDING_LETTERS = "iks"


def env_names() -> tuple[str, ...]:
    """Every variable whose non-empty value sends a commit to Python: the agent runtimes'
    and the configuration's."""
    return tuple(dict.fromkeys([name for name, _, _ in RUNTIME_ENV] + list(ENV_KEYS)))


#: ``sh`` lines making each run of slashes in ``$gh_p`` one slash, as
#: :func:`~gentle_hooks.policy.delegation.on_path` reads an entry (builtins only: no process).
SQUEEZE = """\
        while :; do
            case $gh_p in *//*) gh_p=${gh_p%%//*}/${gh_p#*//} ;; *) break ;; esac
        done
"""


def path_patterns() -> str:
    """The ``case`` patterns matching ``:$PATH:`` (each run of slashes made one first)
    when an entry is a runtime's tool directory
    (:data:`~gentle_hooks.policy.delegation.RUNTIME_PATH`, as
    :func:`~gentle_hooks.policy.delegation.on_path` reads an entry): ``|``-joined."""
    return "|".join(
        f"*{sep}{ending}{slash}:*"
        for ending, _ in RUNTIME_PATH
        for sep in (":", "/")
        for slash in ("", "/")
    )


def glob_word(word: str) -> str:
    """A ``case`` pattern body matching ``word`` without case (a folding letter: ``*``)."""
    return _caseless(word, "*", "-_@.:", "' '")


def ere_word(word: str) -> str:
    """An extended regular expression (C locale) matching ``word`` without case (a folding
    letter: one to three bytes, its UTF-8 partner's length)."""
    return _caseless(word, ".{1,3}", "-_@:", " ")


def _caseless(word: str, folding: str, plain: str, space: str) -> str:
    """``word`` as a pattern: a folding letter as ``folding``, another ASCII letter as a
    bracket of both cases, a space as ``space``, letters, digits and ``plain`` as they are,
    anything else escaped with a backslash."""
    out = []
    for ch in word:
        if ch.lower() in FOLDING_LETTERS:
            out.append(folding)
        elif ch.isascii() and ch.isalpha():
            out.append(f"[{ch.upper()}{ch.lower()}]")
        elif ch == " ":
            out.append(space)
        elif ch.isalnum() or ch in plain:
            out.append(ch)
        else:
            out.append("\\" + ch)
    return "".join(out)


def message_pattern() -> str:
    """The ``grep -E`` pattern of every message word."""
    return "|".join(dict.fromkeys(ere_word(w) for w in MESSAGE_WORDS.values()))


def identity_patterns() -> str:
    """The ``case`` alternatives of every identity word."""
    return "|".join(f"*{glob_word(w)}*" for w in dict.fromkeys(IDENTITY_WORDS.values()))


_SH_PATH = {
    "state": '"$gh_s"',
    "ledger": '"$gh_l"',
    "idle": '"$gh_i"',
    "wal": '"$gh_l-wal"',
    "spool": f'"$gh_s/{SPOOL_FILE}"',
    # ``-any`` globs (the quoted directory, then the unquoted ``*``)
    "spool-kept": f'"$gh_s"/{SPOOL_KEPT}*',
    "damaged": f'"$gh_s"/{DAMAGED_KEPT}*',
}
_SH_SET = {
    "state": f"gh_s=$1/{STATE_DIR}",
    "ledger": f"gh_l=$gh_s/{LEDGER_FILE}",
    "idle": f"gh_i=$gh_s/{IDLE_FILE}",
}


def _sh_test(test: tuple[bool, str, str, str | None]) -> str:
    negated, op, path, other = test
    bang = "! " if negated else ""
    if op == "-any":
        return f"{bang}gh_any {_SH_PATH[path]}"
    if other is None:
        return f"[ {bang}{op} {_SH_PATH[path]} ]"
    return f"[ {bang}{_SH_PATH[path]} {op} {_SH_PATH[other]} ]"


def ledger_idle_sh() -> str:
    """``gh_ledger_idle COMMON_DIR``: the ``sh`` function of the idle sentinel's reading
    rule (:data:`gentle_hooks.ledger.probe.IDLE_ROWS` then ``IDLE_LAST``): exit 0 when the
    ledger under ``COMMON_DIR`` holds nothing pending, 1 when only Python can say. Each
    path is named (``gh_s``, ``gh_l``, ``gh_i``) before the first row that reads it.
    ``gh_any PATHS...`` (the ``-any`` test) is true when one of its arguments, a glob's
    matches, is a file or a link (a glob matching nothing stays itself, and is neither)."""
    lines = [
        "    gh_any() {",
        '        for gh_g in "$@"; do',
        '            if [ -e "$gh_g" ] || [ -L "$gh_g" ]; then return 0; fi',
        "        done",
        "        return 1",
        "    }",
        "    gh_ledger_idle() {",
    ]
    named: set[str] = set()

    def name(tests: tuple[tuple[bool, str, str, str | None], ...]) -> None:
        for _, _, path, other in tests:
            for p in (path, other):
                if p in _SH_SET and p not in named:
                    named.add(p)
                    lines.append(f"        {_SH_SET[p]}")

    for _id, form, tests, idle in IDLE_ROWS:
        name(tests)
        both = " && ".join(_sh_test(t) for t in tests)
        code = 0 if idle else 1
        if form == "unless":
            lines.append(f"        {both} || return {code}")
        else:
            lines.append(f"        if {both}; then return {code}; fi")
    for alt in IDLE_LAST:
        name(alt)
    lines.append(
        "        " + " || ".join(" && ".join(_sh_test(t) for t in alt) for alt in IDLE_LAST)
    )
    lines.append("    }")
    return "\n".join(lines) + "\n"


_LEDGER_IDLE = (
    ledger_idle_sh()
    + """\
    gh_where() {
        gh_nl='
'
        gh_w=$(git rev-parse --path-format=absolute --git-common-dir --show-toplevel \\
            2>/dev/null) || return 1
        gh_common=${gh_w%%"$gh_nl"*}
        gh_top=${gh_w#*"$gh_nl"}
        [ "$gh_common" != "$gh_w" ] || return 1
        case $gh_top in *"$gh_nl"* | "" | [!/]*) return 1 ;; esac
        case $gh_common in "" | [!/]*) return 1 ;; esac
    }
"""
)

_SMALL = f"""\
    gh_small() {{
        case $1 in /*) gh_f=$1 ;; *) gh_f=./$1 ;; esac
        [ -f "$gh_f" ] && [ -r "$gh_f" ] || return 1
        gh_ok=$(find "$gh_f" -prune -type f -size -{READ_LIMIT + 1}c 2>/dev/null) || return 1
        [ -n "$gh_ok" ]
    }}
"""


#: ``gh_ended SENTINEL``: true when the idle sentinel lists no ended writer blob, or none of
#: them is an old or new blob of the staged change (the probe's
#: :func:`gentle_hooks.ledger.probe.ended_blobs_staged`; a listed id found anywhere else in
#: git's lines only sends the commit to Python). One ``grep``: no ``tr`` to split fields.
_ENDED = """\
    gh_ended() {
        [ -n "$1" ] && [ -s "$1" ] || return 0
        gh_d=$(git diff-index --cached --raw --no-abbrev --no-renames HEAD -- 2>/dev/null) ||
            return 1
        printf '%s\\n' "$gh_d" | LC_ALL=C grep -q -F -f "$1"
        [ $? -eq 1 ]
    }
"""


def _no_agent_env(names: str) -> str:
    """``gh_idle``'s first ``sh`` lines: return 1 when one of the environment variables
    ``names`` (``${NAME-}`` each, concatenated) is set, or an identity variable
    (:data:`~gentle_hooks.policy.delegation.IDENTITY_ENV`) names an agent."""
    idents = " ".join(f'"${{{n}-}}"' for n in IDENTITY_ENV)
    return f"""\
        [ -z "{names}" ] || return 1
        gh_p=":${{PATH-}}:"
{SQUEEZE}        case $gh_p in {path_patterns()}) return 1 ;; esac
        for gh_n in {idents}; do
            case $gh_n in {identity_patterns()}) return 1 ;; esac
        done
"""


def _idle(helpers: str, body: str) -> str:
    """The ``sh`` functions of a fast path's check: :data:`_LEDGER_IDLE`, ``helpers`` (more
    functions it calls), then ``gh_idle``, whose lines are ``body``: it returns 0 only when
    nothing here can apply."""
    return f"{_LEDGER_IDLE}{helpers}    gh_idle() {{\n{body}    }}\n"


def _commit_check() -> str:
    names = "".join(f"${{{n}-}}" for n in env_names())
    return _idle(
        _SMALL + _ENDED,
        f"""\
{_no_agent_env(names)}        gh_where || return 1
        gh_i=
        gh_ledger_idle "$gh_common" || return 1
        ! gh_any "$gh_common"/{"/".join((STATE_DIR, *WINDOWS_DIR))}/*.json || return 1
        ! gh_any "$gh_common"/{"/".join((STATE_DIR, *CALLS_DIR))}/*.json || return 1
        gh_ended "$gh_i" || return 1
        gh_t=$gh_top/.gentle-hooks.toml
        [ ! -e "$gh_t" ] && [ ! -L "$gh_t" ] || return 1
        gh_t=$gh_top/pyproject.toml
        if [ -e "$gh_t" ] || [ -L "$gh_t" ]; then
            gh_small "$gh_t" || return 1
            LC_ALL=C grep -q -F -e gentle-hooks -- "$gh_t" >/dev/null 2>&1
            [ $? -eq 1 ] || return 1
        fi
        git config --get {git_key("applies_to")} >/dev/null 2>&1
        [ $? -eq 1 ]
""",
    )


def _ledger_check() -> str:
    # prepare-commit-msg writes an agent runtime's trailer (the environment's evidence,
    # :func:`gentle_hooks.policy.delegation.runtime_evidence`): with one set, Python decides
    names = "".join(f"${{{n}-}}" for n in dict.fromkeys(n for n, _, _ in RUNTIME_ENV))
    # a message that brings a writer's trailer along (a rebase's pick, ``-C``/``-c``): Python
    # decides whether the commit still carries that writer's content (else the trailer goes)
    # an amend of the writer's commit keeps its trailer, pushed too (its entries settled):
    # ``HEAD``'s change holding an ended writer blob sends a commit that may amend to Python
    return _idle(
        _SMALL + _ENDED + _HEAD_ENDED + _AMEND_ENDED,
        f"""\
{_no_agent_env(names)}        gh_i=
        gh_where && gh_ledger_idle "$gh_common" && gh_ended "$gh_i" || return 1
        gh_amend_ended "$gh_i" || return 1
        [ $# -ge 1 ] || return 0
        gh_small "$1" || return 1
        LC_ALL=C grep -q -E -e '{ere_word(MESSAGE_WORDS["T-gentle-writer"])}' -- "$gh_f" \\
            >/dev/null 2>&1
        [ $? -eq 1 ]
""",
    )


#: ``gh_head_ended SENTINEL``: :data:`_ENDED` for ``HEAD``'s change against its first parent
#: (post-commit: a commit holding writer content a discard claimed gets a note naming it,
#: :func:`gentle_hooks.ledger.probe.discarded_blob_in`).
_HEAD_ENDED = """\
    gh_head_ended() {
        [ -n "$1" ] && [ -s "$1" ] || return 0
        gh_d=$(git diff-tree -r --root --raw --no-abbrev --no-renames -m --first-parent \\
            --no-commit-id HEAD 2>/dev/null) || return 1
        printf '%s\\n' "$gh_d" | LC_ALL=C grep -q -F -f "$1"
        [ $? -eq 1 ]
    }
"""


def _sequencer_patterns() -> str:
    """The ``case`` alternatives of an argument line ``commit`` or a sequencer's verb,
    between ``$gh_nl`` marks."""
    verbs = ["commit", *sorted(v.decode() for v in SEQUENCERS)]
    return " | ".join(f'*"${{gh_nl}}{v}$gh_nl"*' for v in verbs)


#: ``gh_amend_ended SENTINEL``: :data:`_HEAD_ENDED` only when the commit being made may amend
#: ``HEAD``, as the probe asks it (:func:`gentle_hooks.hooks.dispatch._amends_ended_blob`, and
#: ``HEAD``'s paths in :func:`gentle_hooks.git.probe.commit_paths`: both only when
#: :func:`gentle_hooks.git.probe.amend_flag` is not False). ``gh_no_amend`` proves that flag
#: False the way the probe reads it: the hook's parent process is ``git`` (its first
#: argument's base name) holding a ``commit`` or sequencer argument
#: (:data:`gentle_hooks.git.probe.SEQUENCERS`) and no argument starting ``--am`` (``--amend``
#: and the prefixes git takes for it; a message's value too) (one ``tr``, each
#: NUL-ended argument a line, a newline inside one made ``_``, so no argument can pose as
#: another). Anything else (no ``/proc``, another parent, an ``--amend`` anywhere, even a
#: message's value) runs today's ``HEAD`` check: a human's commit on top of a large one pays
#: for ``HEAD``'s change only when it may amend it.
_AMEND_ENDED = f"""\
    gh_no_amend() {{
        gh_nl='
'
        gh_a=$(tr '\\000\\n' '\\n_' 2>/dev/null <"/proc/$PPID/cmdline") || return 1
        gh_0=${{gh_a%%"$gh_nl"*}}
        [ "${{gh_0##*/}}" = git ] || return 1
        case $gh_nl$gh_a$gh_nl in *"$gh_nl--am"*) return 1 ;; esac
        case $gh_nl$gh_a$gh_nl in {_sequencer_patterns()}) return 0 ;; esac
        return 1
    }}
    gh_amend_ended() {{
        [ -n "$1" ] && [ -s "$1" ] || return 0
        gh_no_amend || gh_head_ended "$1"
    }}
"""


def _recorder_check() -> str:
    # post-commit records a commit an agent's marker shows (its note is what CI reads),
    # so an idle ledger passes only when HEAD's commit object holds no marker word (and
    # its change no ended writer blob: a claimed one gets a note)
    return _idle(
        _HEAD_ENDED,
        f"""\
        gh_i=
        gh_where && gh_ledger_idle "$gh_common" && gh_head_ended "$gh_i" || return 1
        git cat-file commit HEAD 2>/dev/null |
            LC_ALL=C grep -q -E -e '{message_pattern()}' >/dev/null 2>&1
        [ $? -eq 1 ]
""",
    )


def _message_check() -> str:
    # commit-msg also puts back a writer's trailer the editor took out
    # (:func:`gentle_hooks.hooks.trailers.restore_trailers`): a message with no marker word
    # passes only while the ledger holds nothing pending and no ended writer blob is staged
    # (an amend of a pushed writer commit too: ``HEAD``'s change holds an ended writer blob;
    # read only when the commit may amend, as the probe reads it)
    return _idle(
        _SMALL + _ENDED + _HEAD_ENDED + _AMEND_ENDED,
        f"""\
        [ $# -ge 1 ] && gh_small "$1" || return 1
        LC_ALL=C grep -q -E -e '{message_pattern()}' -- "$gh_f" >/dev/null 2>&1
        [ $? -eq 1 ] || return 1
        gh_i=
        gh_where && gh_ledger_idle "$gh_common" && gh_ended "$gh_i" && gh_amend_ended "$gh_i"
""",
    )


#: Set by a gate's fast path for the Python it runs when the chained hook failed: that
#: hook's exit code (:func:`gentle_hooks.hooks.dispatch.chained_exit`).
CHAINED_EXIT = "GENTLE_HOOKS_CHAINED_EXIT"


def fast_block(hook_type: str, gates: bool, run_python: str) -> str | None:
    """The ``sh`` lines that run the chained hook, pass when nothing can apply, and else
    ``exec`` Python; None for a hook without a fast path.

    The chained hook (``<script>.gentle-legacy``) runs first, with the hook's arguments, as
    the Python side runs it (a gate fails with its exit code, said by Python, which it
    hands the code in :data:`CHAINED_EXIT`); so ``run_python`` is the command without
    ``--script``: the chained hook is not run twice.

    Args:
        hook_type: the hook; gates: a gating hook; run_python: the ``exec`` line's command.
    """
    kind = FAST_HOOKS.get(hook_type)
    if kind is None:
        return None
    check = {
        "commit": _commit_check,
        "ledger": _ledger_check,
        "recorder": _recorder_check,
        "message": _message_check,
    }[kind]
    if gates:  # Python says it failed, in the gate's output format (a decision object)
        legacy = (
            '        "$0.gentle-legacy" "$@" </dev/null || {\n'
            f'            {CHAINED_EXIT}=$? exec {run_python} "$@"\n'
            "        }\n"
        )
    else:
        legacy = '        "$0.gentle-legacy" "$@" </dev/null\n'
    return (
        "    # Fast path (docs/fast-path.md): the chained hook first, then pass without Python\n"
        "    # only when every check proves nothing here can apply; else Python decides.\n"
        '    if [ -x "$0.gentle-legacy" ]; then\n'
        f"{legacy}"
        "    fi\n"
        f"{check()}"
        f"{_pass_line(hook_type, run_python)}"
        f'    exec {run_python} "$@"\n'
    )


def _pass_line(hook_type: str, run_python: str) -> str:
    """The ``sh`` that passes when ``gh_idle`` proves nothing can apply. A gate that speaks
    for every commit (:data:`~gentle_hooks.policy.decision_form.SPEAKS_FOR_EVERY_COMMIT`)
    prints first, with ``GENTLE_HOOKS_FORMAT=json``, the ``allowed`` object Python prints
    then (:func:`~gentle_hooks.policy.decision_form.allowed_line`, written in at install
    time); any other value than empty, ``text`` or ``json`` goes to Python, which reads it
    (case, blanks, the note)."""
    if hook_type not in SPEAKS_FOR_EVERY_COMMIT:
        return '    if gh_idle "$@"; then exit 0; fi\n'
    line = allowed_line(hook_type)
    assert "'" not in line  # single-quoted below
    return (
        '    if gh_idle "$@"; then\n'
        f"        case ${{{FORMAT_ENV}-}} in\n"
        "        '' | text) exit 0 ;;\n"
        f"        json) printf '%s\\n' '{line}' >&2; exit 0 ;;\n"
        "        esac\n"
        f'        exec {run_python} "$@"\n'
        "    fi\n"
    )
