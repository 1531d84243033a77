"""Progressive meters: contributions with the fraction of a cent carried, payouts at the
meter's value when the player's turn comes, resets, and who may pay them."""
import pytest

from controller import progressive as P
from controller.errors import ConfigError
from controller.rules import paytables as pt

RIU_TABLE = pt.get(pt.RIU, "progressive")
SCF_TABLE = pt.get(pt.SCF, "progressive")


def meter(value=100000, rate=0.14, reset=100000):
    return P.new_meter(pt.RIU, {"meter": value, "reset": reset, "rate": rate})


@pytest.mark.reg("669a.12(e)(3)")
def test_contributions_carry_fractions_of_a_cent():
    m = meter(rate=0.14)
    for _ in range(3):
        P.contribute(m, 100)          # 14 cents each
    assert m["value"] == 100042 and m["carry"] == 0
    m = meter(rate=0.145)
    P.contribute(m, 100)              # 14.5 cents
    assert m["value"] == 100014
    P.contribute(m, 100)              # the half cents add up to a cent
    assert m["value"] == 100029 and m["carry"] == 0
    assert m["contributed"] == 29 and m["wagers"] == 2


@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(D)")
def test_meter_share_paid_at_the_value_when_the_players_turn_comes_then_reset():
    m = meter(value=250000)
    net, taken = P.pay(m, RIU_TABLE.pay("ace_king_queen_of_spades"), 100)
    assert (net, taken) == (249900, 250000)
    assert m["value"] == 100000 and m["hits"] == 1 and m["paid"] == 250000
    # a second winner later in the same round is paid from the reset meter
    net, taken = P.pay(m, RIU_TABLE.pay("ace_king_queen_of_spades"), 100)
    assert (net, taken) == (99900, 100000)


@pytest.mark.reg("670a.12(d)(3)")
def test_ten_percent_share_reduces_the_meter_without_a_reset():
    m = P.new_meter(pt.SCF, {"meter": 1000000, "reset": 500000, "rate": 0.2})
    net, taken = P.pay(m, SCF_TABLE.pay("royal_flush"), 500)
    assert (net, taken) == (99500, 100000)
    assert m["value"] == 900000


@pytest.mark.reg("669a.12(e)(1)")
def test_for_one_payouts_leave_the_meter_alone():
    m = meter(value=250000)
    assert P.pay(m, RIU_TABLE.pay("ace_king_queen_suited"), 100) == (49900, 0)
    assert P.pay(m, None, 100) == (-100, 0)
    assert m["value"] == 250000 and m["hits"] == 0


@pytest.mark.reg("669a.11(i)(3)(i)(D)", "670a.11(h)(3)(i)(B)")
def test_which_payouts_the_table_inventory_may_not_pay():
    assert P.needs_attendant(pt.RIU, RIU_TABLE.pay("ace_king_queen_of_spades"))
    assert not P.needs_attendant(pt.RIU, RIU_TABLE.pay("ace_king_queen_suited"))
    assert P.needs_attendant(pt.SCF, SCF_TABLE.pay("royal_flush"))
    assert P.needs_attendant(pt.SCF, SCF_TABLE.pay("five_aces"))
    assert not P.needs_attendant(pt.SCF, SCF_TABLE.pay("straight_flush"))


@pytest.mark.reg("669a.12(e)(3)")
def test_rate_must_be_in_the_rules_submission():
    with pytest.raises(ConfigError, match="rate"):
        P.new_meter(pt.RIU, {"meter": 100000, "reset": 100000})


class _RiuTable:
    """Just enough of a game model for the configuration checks."""
    GAME = pt.RIU
    DEFAULTS = {"table_min": 100, "table_max": 100000}
    OPTIONAL_WAGERS = ("progressive",)
    PRE_DEAL_WAGERS = ("ante",)
    TABLE_LIMIT_WAGERS = ("ante",)
    OPTIONS = {}


class _ScfTable(_RiuTable):
    GAME = pt.SCF


@pytest.mark.reg("669a.12(e)(3)")
@pytest.mark.parametrize("prog, problem", [
    ({"rate": 0.13, "reset": 100000}, "below 14%"),
    ({"rate": 0.14, "reset": 99999}, "below the minimum of 100000"),
    ({"rate": 0.14, "reset": 100000, "meter": 90000}, "below its reset"),
    ({"rate": 1.5, "reset": 100000}, "fraction"),
    ({"rate": 0.14, "base": 100000}, "progressive.base"),
])
def test_raise_it_up_meter_minimums(prog, problem):
    from controller import config
    with pytest.raises(ConfigError, match=problem):
        config.validate({"progressive": prog}, _RiuTable)


@pytest.mark.reg("670a.12(d)(2)")
def test_six_card_fortune_reset_at_least_5000_dollars():
    from controller import config
    with pytest.raises(ConfigError, match="below the minimum of 500000"):
        config.validate({"progressive": {"rate": 0.1, "reset": 499999}}, _ScfTable)
    cfg = config.validate({"progressive": {"rate": 0.1, "reset": 500000}}, _ScfTable)
    assert cfg["progressive"]["reset"] == 500000
