"""A one-card game for testing the engine: highest card against the dealer's."""
from controller.games.engine import GameModel
from controller.rules import cards as C


class Toy(GameModel):
    GAME = "toy"
    ROUND_STATES = ["dealing"]
    FIRST_ROUND_STATE = "dealing"
    PRE_DEAL_WAGERS = ("bet", "side")
    TABLE_LIMIT_WAGERS = ("bet",)
    REQUIRED_WAGERS = ("bet",)
    OPTIONAL_WAGERS = ("side",)
    OPTIONS = {"flavour": (str, lambda v: None if v in ("plain", "spicy") else "plain or spicy")}

    def reset_round(self):
        self.dealt = []

    def __init__(self, config):
        super().__init__(config)
        self.dealt = []
        self.pending = None

    def on_no_more_bets(self, event):
        super().on_no_more_bets(event)
        self.pending = {"need": "card", "for": "dealer"}

    def on_card(self, event):
        if self.state != "dealing":
            from controller.games.engine import IllegalEvent
            raise IllegalEvent("no card is due")
        self.dealt.append(event.get("card"))
        if len(self.dealt) < 2:
            self.pending = {"need": "card", "for": "seat 1"}
            return
        dealer, player = (C.rank(C.parse(c)) for c in self.dealt)
        res = "win" if player > dealer else "lose"
        for seat, w in self.wagers.items():
            self.results[seat] = {k: [res, v if res == "win" else -v] for k, v in w.items()}
        self.status = "settled"
        self.pending = None
        self.settle()
