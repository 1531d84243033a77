"""A simulated automated shuffler: shuffles on command, reports its count; jams on command."""

from hal_sim.devices.sim_serial import SimSerialDevice


class SimShuffler(SimSerialDevice):
    """jam_next(where) jams the next shuffle; miscount(delta) changes every count reported;
    stop_next(reason) stops the next one before it completes."""

    device = "shuffler"

    def __init__(self, *args, cards=52, **kwargs):
        super().__init__(*args, **kwargs)
        self.cards = cards
        self.delta = 0
        self._jam = self._stop = None

    def jam_next(self, where="elevator"):
        self._jam = where

    def stop_next(self, reason="door open"):
        self._stop = reason

    def miscount(self, delta=-1):
        self.delta = delta

    def on_command(self, cmd, payload):
        if cmd == "shuffle":
            self.event("shuffle_started")
            if self._jam is not None:
                self.event("jam", where=self._jam)
                self._jam = None
            elif self._stop is not None:
                self.event("stopped", reason=self._stop)
                self._stop = None
            else:
                self.event("shuffle_completed", cards=self.cards + self.delta)
        elif cmd == "count":
            self.event("card_count", count=self.cards + self.delta, expected=self.cards)
