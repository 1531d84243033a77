"""What the console keeps between two draws of its screens (issue 33: the live screen is drawn
after every card of a soak, and on a Pi at every refresh) shows what it showed when drawn
afresh, and what changes it is drawn again."""

import time

import pytest

from controller.console import view
from controller.console.tree import Screen


def test_a_folded_line_is_the_fold_of_that_line_at_that_width():
    line = "  2026-06-01T12:40:29+00:00  meter_display cleared   device meter_display: " \
           "segment (by floorperson)"
    view._fold.cache_clear()
    first = view.fit(line + "\nshort", 80)
    assert first == "\n".join(view._fold.__wrapped__(line, 80) + ("short",))
    assert view.fit(line + "\nshort", 80) == first            # kept: the same again
    assert view.fit(line, 60) == "\n".join(view._fold(line, 60)) != view.fit(line, 80)
    other = line.replace("segment", "babbling")
    assert view.fit(other, 80) == "\n".join(view._fold(other, 80)) != view.fit(line, 80)
    assert all(len(x) <= 60 for x in view.fit(line, 60).split("\n"))


def test_the_folds_kept_are_bounded():
    view._fold.cache_clear()
    for n in range(view.FOLDED_KEPT + 50):
        line = "word%d " % n * 12
        assert view.fit(line, 40) == "\n".join(view._fold.__wrapped__(line, 40))
    assert view._fold.cache_info().currsize == view.FOLDED_KEPT


@pytest.fixture
def zone(monkeypatch):
    """The process's time zone set by TZ and time.tzset(), put back afterwards."""
    def set_zone(tz):
        monkeypatch.setenv("TZ", tz)
        time.tzset()
    yield set_zone
    monkeypatch.undo()
    time.tzset()


class _Ctl:
    """A controller's clock and this boot's clock record (journal/clock.py)."""
    clock = None

    def __init__(self):
        self.clock = type("Clock", (), {"boot": {"wall_ns": 1_780_000_000 * 10 ** 9,
                                                 "table_ns": 0}})()


def test_a_local_time_follows_a_change_of_time_zone(zone):
    ctl = _Ctl()
    stamp = 3600 * 10 ** 9
    zone("UTC0")
    utc = view.local_time(ctl, stamp)
    assert utc.endswith("+00:00") and view.local_time(ctl, stamp) == utc
    zone("EST5")
    est = view.local_time(ctl, stamp)
    assert est.endswith("-05:00") and est != utc
    zone("UTC0")
    assert view.local_time(ctl, stamp) == utc
    assert view.local_time(ctl, stamp + 10 ** 9) != utc      # another second, another text
    assert view.local_time(ctl, None) == "-"


def test_a_screen_reads_its_owners_attributes_as_they_are_now():
    class Owner:
        ctl, devices = "ctl-1", {"shoe": 1}

        def when(self, ts_ns):
            return "at %d" % ts_ns
    owner = Owner()
    screen = Screen(owner)
    assert (screen.ctl, screen.devices, screen.when(5)) == ("ctl-1", {"shoe": 1}, "at 5")
    owner.ctl, owner.devices = "ctl-2", {}                   # a new boot's, say
    assert (screen.ctl, screen.devices) == ("ctl-2", {})
    owner.other = "read through __getattr__"
    assert screen.other == "read through __getattr__"
    with pytest.raises(AttributeError):
        screen.link                                          # the owner has none


def test_the_console_says_the_names_its_devices_have_now(tmp_path):
    """The configured names are worked out again when a device is renamed, replaced by one
    of another kind, or joined by a second of its kind (then neither name is said)."""
    from tests.console.support import FakeDriver, Rig
    rig = Rig(tmp_path, drivers={"shoe": FakeDriver("shoe", "dealing_shoe")})
    console = rig.commands
    text = "device dealing_shoe: jam"
    assert console.spoken(text) == "device shoe: jam" == console.spoken(text)
    console.devices = {"left": FakeDriver("left", "dealing_shoe")}
    assert console.spoken(text) == "device left: jam"
    console.devices["left"] = FakeDriver("left", "card_reader")
    assert console.spoken(text) == text
    assert console.spoken("device card_reader: silent") == "device left: silent"
    console.devices.update(left=FakeDriver("left", "dealing_shoe"),
                           right=FakeDriver("right", "dealing_shoe"))
    assert console.spoken(text) == text                      # two shoes: no one name


# the expression scrub() used before issue 33's: the codes' alternation, the look-behind first
CARD_TEXT_BEFORE = r"(?<![A-Za-z0-9_\-])(?:10|[2-9TJQKA])[shdc](?![A-Za-z0-9_])|" \
                   r"(?<![A-Za-z0-9_\-])JK(?![A-Za-z0-9_])"


@pytest.mark.reg("581.13(h)(1)")
def test_scrub_hides_the_codes_the_expression_before_it_hid():
    """Every card code, and nothing else, is [card] as it was: on the texts where the two
    expressions could part and on many random ones."""
    import random
    import re
    before = re.compile(CARD_TEXT_BEFORE)
    tricky = ["10h", "0h", "x10h", "-10h", "_Kh", "Kh_", "Kh-", "-Kh", "Kh-x", "1Kh", "110h",
              "JK", "JKs", "xJK", "JK2", "J", "1", "10", "1 0h", "Th Ts9 9T", "As,Kd;Qc",
              "[Ah]", "(10s)", "é10s", "10sé", "\n2c\n", "JJK", "KJK", "Jh", "10hh", "A10h",
              "seat 1: 10h 9c, dealer Ah JK"]
    rng = random.Random(581)
    alphabet = "1023456789TJQKAshdcK_-x .,\n[]é"
    texts = tricky + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
                      for _ in range(20000)]
    for text in texts:
        assert view.scrub(text) == before.sub(view.CARD, text), text
    assert view.scrub("seat 1: 10h 9c, dealer Ah JK") == "seat 1: [card] [card], dealer " \
                                                         "[card] [card]"
    assert view.scrub("x10h -Kh Kh_ JKs 1Kh") == "x10h -Kh Kh_ JKs 1Kh"
