"""The command line: a thin click layer over services, hooks and report (SPEC §7).

Room ``cli``, the top layer. :mod:`.group` is the ``gentle-hook`` click group, whose
subcommands load lazily; :mod:`.assess_command` is ``assess``'s body without click, which
:mod:`gentle_hooks.main` calls directly for the plain flag forms.
"""
