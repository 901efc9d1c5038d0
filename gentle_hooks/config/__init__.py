"""config_pkg: TODO room docstring."""
