"""agents_pkg: TODO room docstring."""
