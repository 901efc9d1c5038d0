"""The top-level settings a runtime documents beside its hooks, and the shape of the ones
gentle-hooks reads (SPEC §7 "Hooks"; docs/agents/claude-code.md, "What doctor checks").

Room ``agents`` (standard library only): pure functions over a parsed settings document;
the caller is :func:`gentle_hooks.agents.entry_shape.shape_warnings` (install and doctor).

Besides ``hooks`` (:func:`~gentle_hooks.agents.entry_shape.shape_faults`), gentle-hooks reads
three top-level keys of Claude Code's settings files: ``disableAllHooks`` and
``allowManagedHooksOnly`` (doctor: our hook does not run) and ``effortLevel`` (the
recorder's effort). One of another type is reported as a departure from the documented
shape: Claude Code's reading of it cannot be told. A top-level key the runtime does not
document is reported too (a misspelt ``disableAllhooks`` sets nothing), as a warning only:
Claude Code's schema allows other keys, and newer releases add them.
"""

from __future__ import annotations

from gentle_hooks.errors import shown_field

JSON = dict[str, object]

#: Claude Code's top-level settings: the ``properties`` of SchemaStore's
#: ``src/schemas/json/claude-code-settings.json`` (SchemaStore/schemastore @ 3b6446ad, the
#: schema code.claude.com/docs/en/settings points editors to; ``"additionalProperties":
#: true``).
_CLAUDE_CODE_NAMES = """
$schema advisorModel agent agentPushNotifEnabled allowAllClaudeAiMcps allowManagedHooksOnly
allowManagedMcpServersOnly allowManagedPermissionRulesOnly allowedChannelPlugins
allowedHttpHookUrls allowedMcpServers alwaysThinkingEnabled apiKeyHelper askUserQuestionTimeout
attribution autoCompactEnabled autoConnectIde autoInstallIdeExtension autoMemoryDirectory
autoMemoryEnabled autoMode autoScrollEnabled autoUpdatesChannel availableModels
awaySummaryEnabled awsAuthRefresh awsCredentialExport axScreenReader blockedMarketplaces
browserExternalPageTools channelsEnabled claudeMd claudeMdExcludes cleanupPeriodDays
companyAnnouncements defaultShell deniedMcpServers diffTool disableAgentView disableAllHooks
disableArtifact disableAutoMode disableBrowserExternalNavigation disableBundledSkills
disableClaudeAiConnectors disableDeepLinkRegistration disableMobileSimulatorTools
disableRemoteControl disableSideloadFlags disableSkillShellExecution disableWorkflows
disabledMcpjsonServers editorMode effortLevel emojiCompletionEnabled enableAllProjectMcpServers
enableArtifact enabledMcpjsonServers enabledPlugins enforceAvailableModels env
externalEditorContext extraKnownMarketplaces fallbackModel fastMode fastModePerSessionOptIn
feedbackSurveyRate fileCheckpointingEnabled fileSuggestion footerLinksRegexes
forceLoginGatewayUrl forceLoginMethod forceLoginOrgUUID forceRemoteSettingsRefresh
gcpAuthRefresh hooks httpHookAllowedEnvVars includeCoAuthoredBy includeGitInstructions
inputNeededNotifEnabled language managedMcpServers minimumVersion model modelOverrides
otelHeadersHelper outputStyle parentSettingsBehavior permissionExplainerEnabled permissions
plansDirectory pluginConfigs pluginSuggestionMarketplaces pluginTrustMessage policyHelper
prUrlTemplate preferredNotifChannel prefersReducedMotion processWrapper remoteControlAtStartup
requireCoworkFullVmSandbox requiredMaximumVersion requiredMinimumVersion respectGitignore
respondToBashCommands sandbox showClearContextOnPlanAccept showThinkingSummaries
showTurnDuration skillListingBudgetFraction skillListingMaxDescChars skillOverrides
skipDangerousModePermissionPrompt skipWebFetchPreflight skippedMarketplaces skippedPlugins
spinnerTipsEnabled spinnerTipsOverride spinnerVerbs sshConfigs sshHostAllowlist statusLine
strictKnownMarketplaces strictPluginOnlyCustomization subagentStatusLine
syntaxHighlightingDisabled teammateDefaultModel teammateMode terminalProgressBarEnabled theme
tui useAutoModeDuringPlan verbose viewMode vimInsertModeRemaps voice voiceEnabled
wheelScrollAccelerationEnabled workflowKeywordTriggerEnabled workflowSizeGuideline worktree
wslInheritsWindowsSettings
"""
CLAUDE_CODE_KEYS = frozenset(_CLAUDE_CODE_NAMES.split())

#: The top-level settings each runtime documents, by runtime name (a runtime not here has
#: its keys left unchecked).
DOCUMENTED_KEYS: dict[str, frozenset[str]] = {"claude-code": CLAUDE_CODE_KEYS}

#: The top-level settings gentle-hooks reads besides ``hooks``, by runtime: key -> (the
#: values it may hold as one phrase, whether a value is one of them).
READ_KEYS: dict[str, dict[str, tuple[str, tuple[object, ...] | type]]] = {
    "claude-code": {
        "disableAllHooks": ("a boolean", bool),
        "allowManagedHooksOnly": ("a boolean", bool),
        # the schema's enum: max is per session or per variable only, never kept in a file
        "effortLevel": ("one of low, medium, high, xhigh", ("low", "medium", "high", "xhigh")),
    },
}
#: Most unknown keys named in one warning.
MOST_NAMED = 5


def _holds(value: object, want: tuple[object, ...] | type) -> bool:
    if isinstance(want, type):
        return type(value) is want  # a bool is an int to isinstance, not here
    return any(type(value) is type(w) and value == w for w in want)


def read_key_faults(doc: JSON, runtime: str) -> list[str]:
    """One phrase per top-level key gentle-hooks reads (:data:`READ_KEYS`) whose value is
    not of the documented shape (``disableAllHooks is "true", not a boolean``); empty for
    a runtime not listed."""
    out = []
    for key, (phrase, want) in READ_KEYS.get(runtime, {}).items():
        if key in doc and not _holds(doc[key], want):
            value = doc[key]
            said = f'"{shown_field(value)}"' if isinstance(value, str) else f"a JSON {_kind(value)}"
            out.append(f"{key} is {said}, not {phrase}")
    return out


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "array" if isinstance(value, list) else "object"


def unknown_keys(doc: JSON, runtime: str) -> list[str]:
    """The top-level keys of ``doc`` the runtime does not document (:data:`DOCUMENTED_KEYS`),
    in the file's order, each as a message may show it; empty for a runtime not listed."""
    known = DOCUMENTED_KEYS.get(runtime)
    if known is None:
        return []
    return [shown_field(k) for k in doc if k not in known]


def unknown_phrase(names: list[str]) -> str:
    """``names`` as one phrase: the first :data:`MOST_NAMED`, then how many more."""
    more = f" and {len(names) - MOST_NAMED} more" if len(names) > MOST_NAMED else ""
    return ", ".join(names[:MOST_NAMED]) + more
