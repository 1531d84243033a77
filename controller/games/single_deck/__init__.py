"""The single-deck poker games (58 Pa. Code ch. 583 Flop Poker, ch. 669a Raise It Up Stud):
    base.py          what they share (SingleDeckGame): the deck's hours, shufflers and
                     dealing procedures, the stub count, the irregularities of a deck
    flop_poker.py    Flop Poker (FlopPoker)
    raise_it_up.py   Raise It Up Stud (RaiseItUpStud), with its linked progressive
"""
