"""One name per device (issue 35): the games journal a device's kind (a lock-out's reason is
"device dealing_shoe: jam"), the configuration names it ("shoe"); every place a person reads
a device's name says the configured one (the console's tests check its screens; here
`journal show`, `tablectl top`, the floor's table page and the sim's summary), while the
journal keeps what was written and both spellings are taken on input."""
import json

import pytest

from controller import cli
from controller.device_registry import AS_WRITTEN, configured_names, say_names, say_row
from controller.lab.sim import Simulation
from controller.top import JournalFollower


@pytest.fixture(scope="module")
def jammed(tmp_path_factory):
    """A blackjack bench whose shoe jams each round: its journal and its summary."""
    path = str(tmp_path_factory.mktemp("names") / "j.log")
    sim = Simulation("blackjack", 1, [("shoe", "jam", 1.0)], journal=path)
    try:
        sim.run(2)
    finally:
        sim.close()
    return path, sim.summary(timings=False)


def test_the_configured_name_replaces_the_kind_as_a_whole_word_only():
    names = configured_names({"shoe": "dealing_shoe", "shuffler": "shuffler", "x": ["odd"]})
    assert names == {"dealing_shoe": "shoe"}          # a kind named as itself is no change
    assert configured_names({"a": "dealing_shoe", "b": "dealing_shoe"}) == {}  # two: neither
    assert configured_names(None) == {} == configured_names(["shoe"])
    said = say_names({"reason": "device dealing_shoe: jam", "device": "dealing_shoe",
                      "n": 3, "other": ["dealing_shoes", "my_dealing_shoe"]}, names)
    assert said == {"reason": "device shoe: jam", "device": "shoe", "n": 3,
                    "other": ["dealing_shoes", "my_dealing_shoe"]}
    assert say_names("device dealing_shoe: jam", {}) == "device dealing_shoe: jam"
    for kind in AS_WRITTEN:                            # the mapping itself, a typed line
        assert say_row(kind, "selftest dealing_shoe", names) == "selftest dealing_shoe"
    assert say_row("lock_out", "device dealing_shoe: jam", names) == "device shoe: jam"


def test_each_set_of_names_is_said_by_its_own_search():
    """The search for the kinds is kept between calls (issue 33): another mapping of the
    same kinds says its own names, other kinds are searched for, and a longer kind that
    holds a shorter one is still said whole."""
    text = "device dealing_shoe: jam; card_reader ok"
    assert say_names(text, {"dealing_shoe": "shoe"}) == "device shoe: jam; card_reader ok"
    assert say_names(text, {"dealing_shoe": "left"}) == "device left: jam; card_reader ok"
    assert say_names(text, {"card_reader": "reader"}) == "device dealing_shoe: jam; reader ok"
    assert say_names(text, {"card_reader": "reader", "dealing_shoe": "shoe"}) == \
        "device shoe: jam; reader ok"
    assert say_names("shoe dealing_shoe", {"shoe": "s", "dealing_shoe": "d"}) == "s d"


def _said_before(text, names):
    """say_names of a text as it was before issue 33's: one expression looking behind."""
    import re
    pattern = r"(?<![\w])(%s)(?![\w])" % "|".join(
        re.escape(k) for k in sorted(names, key=len, reverse=True))
    return re.sub(pattern, lambda m: names[m.group(1)], text)


def test_a_kind_is_said_where_the_expression_before_said_it():
    """Looking behind each match rather than in the expression says the same kinds (where
    every kind is word characters; kinds with others are searched as before): tricky and
    random texts and mappings."""
    import random
    rng = random.Random(35)
    pool = ["shoe", "dealing_shoe", "reader", "card_reader", "a", "ab", "b_a", "é1",
            "meter-display", "x.y", "shoe2"]
    tricky = ["dealing_shoe", "xdealing_shoe", "dealing_shoex", "_shoe", "shoe_", "shoeshoe",
              "a-ab ab-a", "éshoe shoeé", "meter-display-x xmeter-display",
              "1shoe shoe1 shoe2", "b_ab_a", "x.y.x.y"]
    alphabet = "shoedaling_rcb -.x1é\n"
    for n in range(4000):
        kinds = rng.sample(pool, rng.randint(1, 5))
        names = {k: "<%d>" % i for i, k in enumerate(kinds)}
        text = tricky[n % len(tricky)] if n < 400 else "".join(
            rng.choice(kinds) if rng.random() < 0.3 else rng.choice(alphabet)
            for _ in range(rng.randint(0, 20)))
        assert say_names(text, names) == _said_before(text, names), (text, names)


def test_the_journal_keeps_the_kind_the_games_wrote(jammed):
    path, _ = jammed
    from tests.floor.conftest import journal_rows
    reasons = [json.loads(r["data"])["reason"] for r in journal_rows(path)
               if r["entry"] == "record" and r["kind"] == "lock_out"]
    assert reasons and all(r == "device dealing_shoe: jam" for r in reasons)


@pytest.mark.reg("633a.7(a)")
def test_journal_show_names_the_shoe_as_its_configuration_does(jammed, capsys):
    path, _ = jammed
    assert cli.main(["journal", "show", path]) == 0
    out = capsys.readouterr().out
    locks = [ln for ln in out.splitlines() if " lock_out " in ln]
    assert locks and all("reason=device shoe: jam" in ln for ln in locks), locks
    faults = [ln for ln in out.splitlines() if " fault " in ln and " event " in ln]
    assert faults and all("device=shoe " in ln for ln in faults), faults
    table = next(ln for ln in out.splitlines() if " table " in ln and " record " in ln)
    assert '"shoe":"dealing_shoe"' in table            # the mapping itself, as written
    assert "dealing_shoe" not in out.replace(table, "")
    assert cli.main(["journal", "show", path, "--round", "1"]) == 0
    out = capsys.readouterr().out
    assert "device shoe: jam" in out and "device dealing_shoe" not in out
    assert cli.main(["journal", "show", path, "--json"]) == 0   # JSON: the rows as stored
    assert "device dealing_shoe: jam" in capsys.readouterr().out


def test_top_names_the_shoe_as_the_console_does(jammed):
    path, _ = jammed
    info = JournalFollower(path).read().info()
    assert info["lockouts"] and all(lo["reason"] == "device shoe: jam" and
                                    lo["device"] == "shoe" for lo in info["lockouts"])
    assert "dealing_shoe" not in json.dumps(info)


def test_the_floor_page_names_the_shoe_as_the_table_does(jammed):
    from controller.floor.fold import TableView
    from tests.floor.conftest import journal_rows
    path, _ = jammed
    view, texts = TableView("T1"), []
    for row in journal_rows(path):
        view.apply(row)
        if view.s["recent"] and view.s["recent"][-1]["seq"] == row["seq"]:
            texts.append(view.s["recent"][-1]["text"])   # each row's sentence on the page
    assert view.s["lockouts"] and all(lo["reason"] == "device shoe: jam"
                                      for lo in view.s["lockouts"])
    assert "dealing_shoe" not in view.s["devices"] and view.s["devices"]["shoe"]["ok"]
    assert any(t.startswith("Locked out: device shoe: jam") for t in texts), texts
    assert any(t.startswith("Shoe fault: jam") for t in texts), texts
    assert not any("dealing" in t for t in texts), texts


def test_the_sim_summary_names_the_shoe_as_its_configuration_does(jammed):
    _, summary = jammed
    assert [lo["reason"] for lo in summary["lockouts"]] == ["device shoe: jam"] * 2


def test_sim_takes_a_device_by_its_kind_or_its_name():
    """Both spellings on input: `--fault dealing_shoe:jam` is `--fault shoe:jam`."""
    from hal_sim.simulation import parse_fault
    assert parse_fault("dealing_shoe:jam") == parse_fault("shoe:jam") == ("shoe", "jam", 1.0)
    assert parse_fault("progressive_system:bounce:0.5") == ("progressive", "bounce", 0.5)
    from controller.errors import ConfigError
    with pytest.raises(ConfigError, match="unknown"):
        parse_fault("dealing_shoe:fire")
