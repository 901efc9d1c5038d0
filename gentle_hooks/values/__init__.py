"""values: TODO room docstring."""
