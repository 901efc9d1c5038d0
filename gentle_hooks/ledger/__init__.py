"""ledger_pkg: TODO room docstring."""
