"""Traceability for a gaming lab: which rule of the texts the firmware enforces, and where."""
