"""The five games, one folder each. Their command-line names are in catalog.py.

This package imports nothing, so that loading one game (or the registry's
table) loads no other.
"""
