"""services: TODO room docstring."""
