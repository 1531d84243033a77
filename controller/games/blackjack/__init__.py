"""The blackjack family (58 Pa. Code ch. 581 Double Attack Blackjack, 633a.7 Blackjack), one
folder for the two games and what they share:
    family.py         the round both follow (BlackjackFamily): the deal, offers, the reader's
                      look at the hole card, hands, the dealer, settlement; the hooks a game
                      fills, and the parts it holds (PARTS)
    decisions.py      the part `decisions`: the players' decisions hand by hand (Decisions)
    hands.py          a hand's data and the wagers' names on the layout
    shoe.py           the part `shoe`: the batch and the burn card (Shoe); 633a.7's decks,
                      double shoe's determinant card and irregularities (BlackjackShoe)
    side_wagers.py    the part `side_wagers` of Blackjack: 633a.7's optional wagers and their
                      progressives (SideWagerBook)
    model.py          Blackjack (633a.7), on the family, holding its shoe, side-wager book and
                      decisions
    double_attack.py  Double Attack Blackjack (581), on the family with its plain shoe
"""
