"""git_pkg: TODO room docstring."""
