"""Six-Card Fortune Pai Gow Poker (58 Pa. Code ch. 670a), one folder for the one game:
    model.py           the round's machine and the model (SixCardFortune), the deal, the stub
    players.py         the players' and the dealer's turns (a mixin of the model)
    settle.py          settlement of every wager, the Envy Bonuses, the progressive
    irregularities.py  the irregularities of 670a.13
"""
