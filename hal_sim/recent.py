"""What the simulator keeps of what went by: the latest items, not all of them.

A simulated table runs for hours (`tablectl sim` without --rounds, bench/soak.py); its devices'
records of every byte, command and line write were its memory leak (issue 16). Each record
keeps about its last `limit` items, trimmed a quarter at a time so an append stays cheap, and
counts everything it ever saw in `total`. Tests read the recent end, as they always did.
"""


class Recent(list):
    """A list keeping about its last `limit` items; `total` counts every item appended."""

    def __init__(self, limit, items=()):
        super().__init__(items)
        self.limit = limit
        self.total = len(self)

    def append(self, item):
        super().append(item)
        self.total += 1
        if len(self) > self.limit + self.limit // 4:
            del self[:len(self) - self.limit]


class RecentBytes(bytearray):
    """A bytearray keeping about its last `limit` bytes; `total` counts every byte added."""

    def __init__(self, limit):
        super().__init__()
        self.limit = limit
        self.total = 0

    def __iadd__(self, data):
        bytearray.__iadd__(self, data)
        self.total += len(data)
        if len(self) > self.limit + self.limit // 4:
            del self[:len(self) - self.limit]
        return self

    def add_repeated(self, data, times):
        """What `times` additions of `data` leave, trimmed where each of them would have
        trimmed (the virtual table's idle heartbeats, added in bulk): each run of
        additions that stays under the trimming length goes in as one."""
        most = self.limit + self.limit // 4
        size = len(data)
        while times > 0:
            if not size:
                return
            fit = (most - len(self)) // size + 1         # additions until one trims
            run = min(times, max(1, fit))
            self += data * run
            times -= run
