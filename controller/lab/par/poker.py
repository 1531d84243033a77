"""The poker room's par sheet (637a(e)(6)): no house edge, players play each other."""

from controller.lab.par.sheet import NoHouseEdge


def sheets():
    return [NoHouseEdge("poker", "pot", "637a(e)(6)",
                        "players play each other; the house takes the rake, set by configuration")]
