"""Variants that exist only for the tests, each one folder like those under
games/rules/variants/, registered through the public registry."""
