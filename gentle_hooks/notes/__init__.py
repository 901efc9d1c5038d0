"""notes_pkg: TODO room docstring."""
