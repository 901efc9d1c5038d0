"""native_pkg: TODO room docstring."""
