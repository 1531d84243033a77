"""The tests' one table builder and one fake clock (issue 12).

Before these, seven test modules each had a private `table()` and four had a clock class of
their own, each a little different (one counted `ns`, one `now`, from 0, 1 000 or 10**12).
A test now says which game and configuration it builds, and where its clock starts.
"""
from controller import config as configuration
from controller.games import model_class
from controller.games.engine import GameMachine

MS = 1_000_000


class Clock:
    """GameMachine time in ns that only the test moves: `clock()` reads it, `clock.now` sets it."""

    def __init__(self, now=0):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, ms=0, ns=0):
        self.now += int(ms * MS) + ns


def table(game, cfg=None, options=None, link=None, links=None, **model_args):
    """A GameMachine of `game` (an id or a model class) on the validated configuration `cfg`
    with `options` merged into its `options`; `model_args` go to the model (an rng).
    `link` (the meter's link id) or `links` ({wager: link id}) put its progressives on a
    link, as the runtime does from [controller.floor] after the table's own keys are
    validated."""
    cls = model_class(game) if isinstance(game, str) else game
    doc = dict(cfg or {})
    if options:
        doc["options"] = dict(doc.get("options", {}), **options)
    validated = configuration.validate(doc, cls)
    if link is not None:
        validated["link"] = link
    if links is not None:
        validated["links"] = dict(links)
    return GameMachine(cls(validated, **model_args))


def table_of(game, keys="cfg"):
    """`table(**kw)` for one game, as its test module calls it: the keywords are the
    configuration's top-level keys (`keys="cfg"`) or its options (`keys="options"`)."""
    if keys == "cfg":
        return lambda **cfg: table(game, cfg)
    if keys == "options":
        return lambda cfg=None, **options: table(game, cfg, options)
    raise ValueError("keys is 'cfg' or 'options', not %r" % (keys,))
