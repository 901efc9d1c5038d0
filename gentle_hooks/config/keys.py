"""Which settings git config and the environment may override, and the values each takes
(SPEC §7 "Config"): the one precedence table both the full load and the light probe read.

Room ``config``. Data only, standard library only (the hook pass path imports it).
Precedence, highest first: command-line flag > environment > git config > config file >
packaged default.
"""

#: ``git config`` key (as ``--get-regexp`` prints it: lower case) -> setting name.
GIT_KEYS = {
    "gentle.baseref": "base_ref",
    "gentle.mode": "mode",
    "gentle.stakes": "stakes",
    "gentle.appliesto": "applies_to",
    "gentle.honouroverrides": "honour_overrides",
    "gentle.requiresigned": "require_signed",
    "gentle.allowedsigners": "allowed_signers",
    "gentle.nativeprovider": "native_provider",
    "gentle.nativetimeout": "native_timeout",
}
#: Environment variable -> setting name.
ENV_KEYS = {
    "GENTLE_HOOKS_BASE_REF": "base_ref",
    "GENTLE_HOOKS_MODE": "mode",
    "GENTLE_HOOKS_STAKES": "stakes",
    "GENTLE_HOOKS_APPLIES_TO": "applies_to",
    "GENTLE_HOOKS_NATIVE": "native_provider",
    "GENTLE_HOOKS_NATIVE_TIMEOUT": "native_timeout",
}
#: Setting name -> the values it takes (settings not named here are free text or typed).
CHOICES = {
    "mode": ("enforce", "warn"),
    "stakes": ("ordinary", "shipping", "audit"),
    "applies_to": ("delegated", "all"),
    "native_provider": ("builtin", "gentle-ai", "auto"),
}


def env_var(name: str) -> str:
    """The environment variable that overrides setting ``name``."""
    return next(var for var, setting in ENV_KEYS.items() if setting == name)


def git_key(name: str) -> str:
    """The git config key that overrides setting ``name``, lower case."""
    return next(key for key, setting in GIT_KEYS.items() if setting == name)
