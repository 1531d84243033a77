"""A Blackjack (633a.7) round in a scenario: the family's answers, and in the output the double
shoe's determinant card, the progressives' meters when one was wagered and their payouts."""

from controller.games.blackjack.family_scenario import FamilyScenario
from controller.games.blackjack.side_wagers import PROGRESSIVES


class BlackjackScenario(FamilyScenario):
    """Needs the Blackjack model's `determinant`, `wagers`, `meters`, `jackpots`."""

    def summary(self):
        m = self.model
        out = super().summary()
        if m.determinant:
            out["determinant"] = dict(m.determinant)
        placed = [w for w in PROGRESSIVES if any(w in p for p in m.wagers.values())]
        if placed:
            out["meters"] = {w: m.meters[w]["value"] for w in placed}
        if m.jackpots:
            out["progressive_payouts"] = [dict(j) for j in m.jackpots]
        return out
