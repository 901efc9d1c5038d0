"""artifacts: TODO room docstring."""
