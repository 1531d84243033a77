"""What the table must know about a game, declared by the game itself (issue 12).

The policies, the journal, the console, the simulator and par ask a game's declaration,
never its name: adding a game is its own modules plus one line in each registry
(controller/games/__init__.py's REGISTRY here, naming this declaration, which names the
model; hal_sim/games.py on the simulator's side), never an
edit to a policy's table keyed by game. tests/test_game_declarations.py keeps it so.

A declaration is light on purpose (this package imports nothing but the standard library):
the command line lists the games with a strategy and `par` reads which sheets a game has
without importing the game models (pokerkit alone takes most of a second to import).
"""

from dataclasses import dataclass

# What of a round in progress is secret until the procedure reveals it (journal/show.py):
HOLE_CARD = "hole_card"   # every card but the dealer's second, until `hole_card` turns it up
FACE_DOWN = "face_down"   # only the cards of entries that turn cards up; a dice game hides none


@dataclass(frozen=True)
class Interval:
    """A change interval of the cards or dice (controller/policies/intervals.py)."""
    what: str                 # "deck" or "dice"
    limit: object             # limit(model) -> (hours, section), or None where none applies
    by_game: bool             # the game enforces it itself: the controller only warns
    renewed_with: str = None  # a new_deck renews it only when its data says {renewed_with: true}


@dataclass(frozen=True)
class Declaration:
    game: str
    # "module:Class" of its model (a GameModel); imported when a table of the game is built
    model: str
    # The game's own modules, dotted names (fnmatch patterns): only these and the two
    # registries may name the game's id or import one another's game-specific modules.
    modules: tuple
    intervals: tuple = ()
    # The section a wager after "no more bets" breaks (journaled with a past-post attempt).
    no_more_bets_section: str = None
    # Where the game reconciles the dealer's progressive count itself, what the controller
    # hands its "no more bets": "progressive_chips" (the count) or "progressive_accepted"
    # (the seats the system accepted); None: the controller reconciles and locks itself.
    count_handed_as: str = None
    secret: str = FACE_DOWN
    # () -> int from `secrets` where the game draws from the secure RNG (journaled each draw
    # before it is used; a replay draws it again only where the journal has no draw).
    secure_rng: object = None
    reader_inspection: bool = False     # the card reader's daily inspection (581.2(d))
    dice_per_roll: int = None           # the dice reader's count where not its default
    par_sheets: str = None              # module whose sheets() (or sheets(config)) prices it
    par_configured: bool = False        # its sheets move with the table's configuration
    strategy: tuple = None              # (module, function, args) printing its strategy
    # (wager, "module:Class"): the sheet a link's par states for that wager where its own
    # sheet cannot be priced by the meter alone (its hold depends on the strategy)
    linked_par: tuple = None
    # "module:function" (wager, meter, {seat: wager}) -> {seat: cents}: how one meter is
    # shared when several players of a round win it (the floor's late awards)
    jackpot_shares: str = None
    # ((wager, section), ...): the progressive wagers a linked progressive may serve
    # (controller/wire/links.py; the texts' minimum reset and rate are the rules core's
    # paytables.PROGRESSIVE_MINIMUMS)
    linkable: tuple = ()
    # ((wager, "module:function"), ...): function(card codes) -> the percent of the meter the
    # cards a hit is sent with win under the wager's paytable, or None; the link's controller
    # pays no hit its check does not pass (issue 31). A linkable wager without one: its hits
    # cannot be checked at the floor and are refused there.
    link_hits: tuple = ()
    # "module:function" (wager, {hand: payout}) -> a paytable, raising ConfigError: where a
    # link may declare its wager's paytable (a Rules Submission's), how it is checked
    link_paytable: str = None
    # "module:NAME": the list of the game's readings of docs/interpretations.md, each priced
    # under it and its alternative (controller/lab/par/readings.py collects them in game order)
    readings: str = None
    # "module:function" (the round's model data) -> {"pots", "rake", "jackpot_drop"} cents:
    # a game whose players play each other (the poker room): the floor counts a hand's pots
    # and the house's take, never the stacks as handle (controller/floor/fold.py)
    house_take: str = None
    # "module:Class": the game's answers to a scenario (`tablectl play`): its deck, the waits
    # only it can answer, its part of the output (controller/games/scenario_answers.py)
    scenario: str = None
    # The section a device's fault cites where the game's own handler names none (a
    # Blackjack shoe: 633a.7(a), all cards dealt from a dealing shoe), so that no lock-out
    # shows "[-]"; and the section that asks for each round to be reconstructable (the
    # cards kept in the discard rack "in a manner that permits the reconstruction of each
    # hand"), which `tablectl journal show` cites: each game its own chapter's.
    fault_section: str = None
    reconstruction: str = None
    # "module:NAME" of the simulator's entry for the game (hal_sim/games.py's SimGame: the
    # simulated players' wagers and decisions, the floor demo's fault): a string, so that the
    # firmware never imports hal_sim, and the one place the game registers with the simulator
    simulator: str = None


def load(target):
    """The object a declaration names as "module:name"."""
    import importlib
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)
