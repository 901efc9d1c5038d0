"""report: TODO room docstring."""
