"""The pure rules core: cards, hand evaluation, paytables and settlement.

No I/O, clock, randomness or third-party imports: every module here must import
and pass its tests under MicroPython (tests/micropython/run.py) as under CPython.
"""
