"""The blackjack family (58 Pa. Code ch. 581 Double Attack Blackjack, 633a.7 Blackjack), one
folder for the two games and what they share:
    family.py         the round both follow (BlackjackFamily): the deal, offers, the reader's
                      look at the hole card, hands, the dealer, settlement; the hooks a game fills
    decisions.py      the players' decisions hand by hand (a part of the family)
    hands.py          a hand's data and the wagers' names on the layout
    shoe.py           633a.7's shoe: decks, the double shoe's determinant card, irregularities
    side_wagers.py    633a.7's optional wagers and their progressives (the side-wager book)
    model.py          Blackjack (633a.7), on the family with its shoe and side wagers
    double_attack.py  Double Attack Blackjack (581)
"""
