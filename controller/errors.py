"""The one exception hierarchy of tablectl.

Kept free of imports so the rules core can raise these under MicroPython too.
Every error names what was wrong and, where a rule forbids it, the section.
"""


class TablectlError(Exception):
    """Root of every error tablectl raises on purpose."""


class RulesError(TablectlError):
    """Something the rules core was asked that the rules do not allow."""


class InvalidCard(RulesError):
    """A card code that is not a card, or a card the game's decks cannot hold."""


class InvalidHand(RulesError):
    """A hand of the wrong size, with duplicates, or not valid for the evaluation asked."""


class IllegalSetting(RulesError):
    """A Pai Gow setting the rules forbid (high hand lower than the low hand, wrong cards)."""


class UnknownPaytable(RulesError):
    """A paytable or paytable letter the regulation does not define."""


class SettlementError(RulesError):
    """A settlement that cannot be computed as asked (unknown outcome, missing meter)."""


class ScenarioError(TablectlError):
    """A scenario (`tablectl play`) that is malformed, contradicts itself or asks what the rules
    forbid. Here, not in controller/lab/scenario.py, because each game's scenario answers raise it
    from the game's own modules (controller/games/scenario_answers.py)."""


class ConfigError(TablectlError):
    """A configuration key or value that is unknown, of the wrong type or forbidden."""


class ControllerError(TablectlError):
    """The table controller refused an input before it reached the game."""


class WagerNotRecognized(ControllerError):
    """A wager stamped after "no more bets" (a possible past-post), or delivered after the
    round it was stamped in had closed (583.7(c), 669a.7(c), 670a.7(c), 585.3(e))."""


class IntervalExpired(ControllerError):
    """Cards or dice past their change interval: no new round until they are replaced."""


class InspectionRequired(ControllerError):
    """The card reader has not passed its inspection this gaming day (581.2(d))."""


class ConsoleError(TablectlError):
    """The technician console refused a command or a log-in (the message says why)."""


class PinStoreError(ConsoleError):
    """The console's PIN file cannot be read or written, or a new PIN is not acceptable."""


class ManifestError(ConsoleError):
    """A software manifest that is missing, unreadable or malformed."""


class JournalError(TablectlError):
    """The journal cannot be opened, written or trusted (controller/journal)."""


class JournalInUse(JournalError):
    """Another process holds the journal's lock: two controllers on one journal would
    interleave their rows (issue 11). A usage error: exit 2, naming the journal and the PID."""


class JournalDamaged(JournalError):
    """A journal file exists but cannot be resumed (empty, rowless, its head or its anchor
    not matching its rows): never adopted as new; the table boots locked out."""


class ClearRefused(ControllerError):
    """A clear of a lock-out asked by someone, or at a place, its rule does not allow, or
    before the check the rule names has passed (controller/clearing.py)."""
