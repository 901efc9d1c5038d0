"""hooks: TODO room docstring."""
