"""The sector log's preset deflate dictionary (log.py), version 1: the format's own
vocabulary, so a commit of a few hundred bytes deflates as if the rows before it were there.

A commit is deflated on its own (a reader may start at any commit), and a lone row's
keys, kinds and sources are most of what plain deflate cannot shorten in it. The lists
are the row kinds, sources and data keys of 30 rounds of every game (taken once, by hand,
2026-12-01), least frequent first, since deflate reaches the dictionary's end most cheaply.
They are fixed: a log names its dictionary's version in its header, and a changed list is a
new version (VERSIONS), never an edit of this one, or older logs would no longer inflate.
"""

KEYS = (
    'counts', 'method', 'stacks', 'shooter', 'big_bet', 'big_blind', 'bring_in', 'chip_unit',
    'community', 'deck_count_every', 'deck_opened_ns', 'exposed_card', 'face_up', 'folded',
    'insurance', 'jackpot_minimum_pot', 'jackpots', 'limit_bets', 'meter_before', 'meters',
    'misread', 'no_flop_no_drop', 'offer_queue', 'rake_cap', 'rake_minimum_pot',
    'rake_percent', 'shoe_out', 'shoe_seen', 'six_card_bonus', 'small_bet', 'small_blind',
    'stub_count_every', 'stub_counted', 'stub_every', 'stub_rounds', 'turn', 'reading',
    'double_down', 'betting', 'discards', 'variant', 'deal_queue', 'dealer', 'jackpot_drop',
    'decks', 'bets', 'dice', 'position', 'stack', 'burns', 'seats', 'players',
    'bad_beat_progressive', 'hit_and_run_progressive', 'straight_jack_progressive',
    'out_of_order', 'deck', 'extra_cards', 'dealing', 'by', 'hands', 'attempted', 'config',
    'counters', 'deck_reason', 'expired', 'last_press_ns', 'last_round', 'late_recognized',
    'late_refused', 'lead_ns', 'limits', 'lockout', 'mismatches', 'model', 'offered',
    'paytables', 'pending', 'placed', 'press', 'presses', 'recognized', 'record',
    'require_count', 'reshuffle_due', 'resume_to', 'rounds', 'stats', 'status', 'table',
    'table_max', 'table_min', 'void_reason', 'voids', 'warned', 'warnings', 'window_ns',
    'format', 'policies', 'any_seven', 'bet', 'field', 'five', 'foul', 'six_card_fortune',
    'accepted', 'dead', 'done', 'doubled', 'no_more_cards', 'owed', 'settled', 'split',
    'split_aces', 'stood', 'surrendered', 'options', 'shuffler', 'button', 'carry',
    'contributed', 'hits', 'paid', 'meter', 'pot', 'value', 'play', 'blind', 'street', 'offer',
    'high', 'round_no', 'game', 'low', 'rate', 'reset', 'first_ns', 'last_ns', 'device',
    'frame', 'reason', 'wagers', '__set__', 'results', 'progressive', 'ante',
    '__dict__', 'name', 'hand', 'cards', 'state', 'count', 'action', 'to', 'section', 'wager',
    'amount', 'card', 'seat',
)
KINDS = (                       # (entry, kind)
    ('record', 'reader_inspection'), ('event', 'open_table'), ('genesis', 'genesis'),
    ('record', 'clock'), ('record', 'console_started'), ('event', 'reader'), ('event', 'dice'),
    ('record', 'rng'), ('event', 'irregularity'), ('event', 'no_more_bets'),
    ('event', 'shuffle'), ('record', 'tick'), ('record', 'wagers_closed'),
    ('snapshot', 'snapshot'), ('event', 'frame_rejected'), ('event', 'wager'),
    ('event', 'decision'), ('event', 'card'),
)
SOURCES = (
    'meter_display', 'card_reader', 'dice_reader', 'buttons', 'progressive_system', 'shuffler',
    'controller', 'dealer_panel', 'shoe',
)


def _build():
    """The dictionary's bytes: each piece as it appears in a row's body (chain.body_of),
    data keys inside the data's JSON text (escaped quotes), then kinds and sources."""
    parts = ['\\"%s\\":' % k for k in KEYS]
    parts += ['"entry":"%s","kind":"%s","round_no":' % ek for ek in KINDS]
    parts += ['"seq":', '"source":"%s","ts_ns":' % SOURCES[0]]
    parts += ['"source":"%s","ts_ns":' % s for s in SOURCES[1:]]
    parts.append('{"data":"{\\"')
    return "".join(parts).encode("utf-8")


VERSIONS = {1: _build()}
