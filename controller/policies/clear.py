"""Kept for the imports of older code: the clear service lives in controller/clearing.py."""

from controller.clearing import SelftestOnClear  # noqa: F401
