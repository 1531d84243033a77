"""Each game declares what the table must know about it; nothing else names a game (issue 12).

The policies, the journal, the console, par, the drivers and the simulator ask a game's
declaration (controller/games/declarations/) or the simulator's registry (hal_sim/games.py),
never its name. The check walks controller/, drivers/ and hal_sim/ and fails naming the
file and line where a module outside a game's own modules (its declaration's `modules`) and
the two registries names a game id or imports a module of a game's own.

    python tests/test_game_declarations.py [ROOT]

prints the files that name a game and their count for ROOT (default: this tree), with this
tree's declarations saying which modules are a game's own: the before/after of issue 12.
"""
import ast
import fnmatch
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:           # run as a script
    sys.path.insert(0, ROOT)

from controller.games import ALL_GAMES, DECLARATIONS, GAMES, declaration, model_class  # noqa: E402

PACKAGES = ("controller", "drivers", "hal_sim")
REGISTRIES = ("controller.games", "hal_sim.games")      # the firmware's and the simulator's
MARK = "# not a game id"            # a word that is also a game's id (the card reader's answer)
# Left as they are this session, with why (each is someone else's to move):
KEPT = {
    # the rules core imports nothing of ours (it runs under MicroPython), so it cannot ask a
    # declaration: the texts' paytables are keyed by game, and each game reads its own
    "controller.rules.paytables": "the rules core's paytables, keyed by game",
}


def owned_patterns():
    return [p for game in ALL_GAMES for p in declaration(game).modules]


def module_name(root, path):
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def is_owned(name, patterns):
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def walk(root):
    for package in PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(root, package)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(folder, f)


def imported(node, name):
    """The dotted modules an import statement names (a from-import: the module and each
    module it may name)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        raise AssertionError("%s: a relative import; the project imports absolutely" % name)
    return [node.module] + ["%s.%s" % (node.module, a.name) for a in node.names]


def offences(root=ROOT, patterns=None):
    """[(path relative to root, line, what)] of every place that names a game outside the
    games' own modules, the registries and KEPT."""
    patterns = owned_patterns() if patterns is None else patterns
    ids = set(ALL_GAMES)
    found = []
    for path in walk(root):
        name = module_name(root, path)
        if name in REGISTRIES or name in KEPT or is_owned(name, patterns):
            continue
        with open(path) as f:
            text = f.read()
        lines = text.splitlines()
        rel = os.path.relpath(path, root)
        for node in ast.walk(ast.parse(text, path)):
            line = getattr(node, "lineno", 0)
            if line and MARK in lines[line - 1]:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value in ids:
                    found.append((rel, line, "names the game %r" % node.value))
                elif is_owned(node.value.split(":")[0], patterns) and "." in node.value:
                    found.append((rel, line, "names a game's module %r" % node.value))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in imported(node, name):
                    if is_owned(target, patterns):
                        found.append((rel, line, "imports a game's own module %s" % target))
                        break
    return found


def test_outside_the_games_and_the_two_registries_no_module_names_a_game():
    found = offences()
    assert not found, "ask the game's declaration (controller/games/declarations/) or the " \
        "simulator's registry (hal_sim/games.py) instead:\n" + \
        "\n".join("%s:%d: %s" % f for f in found)


def test_the_check_fails_naming_the_file_and_line(tmp_path):
    """The check can fail: a policy that branches on a game's name, or a driver that imports
    a game's rules module, is named with its line."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "controller" / "policy.py").write_text(
        "def f(model):\n    return model.GAME == 'six-card-fortune-pai-gow'\n")
    (tmp_path / "drivers" / "panel.py").write_text(
        "import json\nfrom controller.rules.paigow import DEALER\n")
    (tmp_path / "hal_sim" / "reader.py").write_text(
        "ANSWER = 'blackjack'  %s: the reader's word\nPAR = 'controller.lab.par.poker'\n" % MARK)
    found = offences(str(tmp_path))
    assert sorted(found) == [
        (os.path.join("controller", "policy.py"), 2, "names the game 'six-card-fortune-pai-gow'"),
        (os.path.join("drivers", "panel.py"), 2,
         "imports a game's own module controller.rules.paigow"),
        (os.path.join("hal_sim", "reader.py"), 2,
         "names a game's module 'controller.lab.par.poker'")]


def test_every_game_has_one_declaration_and_one_simulated_play():
    from controller.games import REGISTRY
    from hal_sim.games import SIM_GAMES
    assert set(GAMES) == set(DECLARATIONS) == set(SIM_GAMES) == set(ALL_GAMES)
    assert len(REGISTRY) == len(ALL_GAMES)          # a game is registered once, by one line
    for game in ALL_GAMES:
        cls = model_class(game)
        assert cls.DECLARES is declaration(game) and cls.DECLARES.game == game == cls.GAME
        assert is_owned(cls.__module__, cls.DECLARES.modules), cls.__module__
        assert is_owned(DECLARATIONS[game], cls.DECLARES.modules)
        assert SIM_GAMES[game].panel_wagers


# A throwaway game's declaration and its simulator's entry, outside the tree: the subprocess
# below adds ONE line (its argument) to controller/games/__init__.py's REGISTRY, nothing else.
TOY_DECLARATION = """
from controller.games.declarations import Declaration
DECLARES = Declaration(game="toy-game", model="controller.games.poker_room:PokerRoom",
                       modules=("toy_game*",), simulator="toy_game_sim:SIM")
"""
TOY_SIM = """
from hal_sim.games import SimGame
SIM = SimGame(panel_wagers={"ante": 100}, demo_fault="dice_reader:no_roll")
"""
TOY_RUN = """
import importlib.util, sys
spec = importlib.util.find_spec("controller.games")
source = open(spec.origin).read()
registry = "REGISTRY = (\\n"
assert source.count(registry) == 1
games = importlib.util.module_from_spec(spec)
sys.modules["controller.games"] = games
exec(compile(source.replace(registry, registry + sys.argv[1]), spec.origin, "exec"),
     games.__dict__)
import controller.lab.floor_demo as demo, controller.lab.sim as sim, hal_sim.simulation as hs
from controller.lab.par import registry as par
from hal_sim.games import SIM_GAMES, sim_game
print(games.GAMES["toy-game"], games.DECLARATIONS["toy-game"],
      games.declaration("toy-game").game, SIM_GAMES["toy-game"].panel_wagers,
      sim_game("toy-game").demo_fault, hs.game_config("toy-game", []),
      *("toy-game" in g for g in (games.ALL_GAMES, sim.PLAYABLE, hs.PLAYABLE, par.GAMES,
                                  demo.demo_games(), [d.game for d in games.all_declarations()])))
"""


def test_a_new_game_is_one_registry_line(tmp_path):
    """Issue 32: a game registers once. With its declaration (naming its simulator's entry by
    a dotted string) and that entry beside it, one line added to REGISTRY puts it in every
    list derived from the games: the firmware's, the simulator's (SIM_GAMES, `sim_game`), the
    command line's, par's and the floor demo's. Without the line it is in none (the check
    can fail)."""
    import subprocess
    (tmp_path / "toy_game.py").write_text(TOY_DECLARATION)
    (tmp_path / "toy_game_sim.py").write_text(TOY_SIM)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT]))
    r = subprocess.run([sys.executable, "-c", TOY_RUN, '    "toy_game",\n'], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [
        "controller.games.poker_room:PokerRoom", "toy_game", "toy-game", "{'ante':", "100}",
        "dice_reader:no_roll", "({},", "False)"] + ["True"] * 6
    r = subprocess.run([sys.executable, "-c", TOY_RUN, ""], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "KeyError: 'toy-game'" in r.stderr, r.stderr


# Where each dotted name a declaration holds must point: what a table loads (its model, its
# scenario answers, how a jackpot is shared) in the firmware, which a table without the wings
# has; what only the lab loads (par, readings, strategy, a link's par) in the lab. The import
# contracts cannot see a string: this is their check for the declarations' strings.
# ("house_take": the floor's count of a poker pot, loaded from the game's own module, h34;
# "link_hits": the rules core's evaluator a link's controller checks a hit with, issue 31, the
# same code the table settles with, so it is the firmware's though the floor loads it)
FIRMWARE_FIELDS = ("model", "scenario", "jackpot_shares", "house_take", "link_hits",
                   "link_paytable")
LAB_FIELDS = ("par_sheets", "readings", "strategy", "linked_par")
# what only the simulator loads (how the simulated players play the game): in hal_sim
SIM_FIELDS = ("simulator",)
# the Declaration's fields that name no code (a new field that does is classified above)
NOT_NAMES = ("game", "modules", "intervals", "no_more_bets_section", "count_handed_as",
             "secret", "secure_rng", "reader_inspection", "dice_per_roll", "par_configured",
             "linkable", "fault_section", "reconstruction")
WINGS = ("controller.lab", "controller.floor", "hal_sim")


def targets(d):
    """[(field, "module" or "module:name")] of the dotted names declaration `d` holds."""
    out = []
    for field in FIRMWARE_FIELDS + LAB_FIELDS + SIM_FIELDS:
        value = getattr(d, field, None)
        if value is None:
            continue
        if field == "link_hits":                # ((wager, "module:name"), ...)
            out.extend((field, name) for _wager, name in value)
            continue
        if field == "strategy":
            value = "%s:%s" % value[:2]
        elif field == "linked_par":
            value = value[1]
        out.append((field, value))
    return out


def misplaced(d, modules=None):
    """What is wrong with the dotted names of declaration `d`: a name that does not resolve,
    one in the wrong wing, a `modules` pattern that matches no module of the tree."""
    import importlib
    wrong = []
    for field, value in targets(d):
        module, _, name = value.partition(":")
        in_wing = any(module == w or module.startswith(w + ".") for w in WINGS)
        if field in FIRMWARE_FIELDS and in_wing:
            wrong.append("%s.%s = %r: a table loads it, and a table has no %s"
                         % (d.game, field, value, module.split(".")[1] if
                            module.startswith("controller.") else module.split(".")[0]))
        if field in LAB_FIELDS and not module.startswith("controller.lab."):
            wrong.append("%s.%s = %r: the lab's, not in controller.lab" % (d.game, field, value))
        if field in SIM_FIELDS and not module.startswith("hal_sim."):
            wrong.append("%s.%s = %r: the simulator's, not in hal_sim" % (d.game, field, value))
        try:
            target = importlib.import_module(module)
            if name:
                getattr(target, name)
        except (ImportError, AttributeError) as e:
            wrong.append("%s.%s = %r does not resolve: %s" % (d.game, field, value, e))
    modules = modules if modules is not None else [module_name(ROOT, p) for p in walk(ROOT)]
    for pattern in d.modules:
        if not any(fnmatch.fnmatchcase(m, pattern) for m in modules):
            wrong.append("%s.modules: %r matches no module" % (d.game, pattern))
    return wrong


def test_every_dotted_name_a_declaration_holds_resolves_in_its_wing():
    """Issue 32: the import contracts cannot see the strings by which a declaration names
    its model, scenario answers, par, readings and strategy; each resolves, and lies in the
    wing that loads it."""
    modules = [module_name(ROOT, p) for p in walk(ROOT)]
    wrong = [w for game in ALL_GAMES for w in misplaced(declaration(game), modules)]
    assert not wrong, "\n".join(wrong)
    import dataclasses

    from controller.games.declarations import Declaration
    fields = {f.name for f in dataclasses.fields(Declaration)} - set(NOT_NAMES)
    unclassified = fields - set(FIRMWARE_FIELDS + LAB_FIELDS + SIM_FIELDS)
    assert not unclassified, "a Declaration field naming code: is it loaded by a table " \
        "(FIRMWARE_FIELDS), by the lab (LAB_FIELDS) or by the simulator (SIM_FIELDS)? %s" \
        % sorted(unclassified)


def test_the_check_of_the_declarations_names_can_fail():
    import dataclasses
    d = dataclasses.replace(
        declaration("raise-it-up-stud"), scenario="controller.lab.scenario:ScenarioError",
        par_sheets="controller.games.single_deck.raise_it_up",
        readings="controller.lab.par.raise_it_up_readings:NO_SUCH",
        modules=declaration("raise-it-up-stud").modules + ("controller.games.gone*",),
        simulator="controller.lab.floor_demo:LINKED_GAME")
    assert misplaced(d) == [
        "raise-it-up-stud.scenario = 'controller.lab.scenario:ScenarioError': a table loads "
        "it, and a table has no lab",
        "raise-it-up-stud.par_sheets = 'controller.games.single_deck.raise_it_up': the lab's, "
        "not in controller.lab",
        "raise-it-up-stud.readings = 'controller.lab.par.raise_it_up_readings:NO_SUCH' does "
        "not resolve: module 'controller.lab.par.raise_it_up_readings' has no attribute "
        "'NO_SUCH'",
        "raise-it-up-stud.simulator = 'controller.lab.floor_demo:LINKED_GAME': the "
        "simulator's, not in hal_sim",
        "raise-it-up-stud.modules: 'controller.games.gone*' matches no module"]


def test_declarations_load_without_the_game_models():
    """The command line lists the games with a strategy and par reads which sheets a game
    has from the declarations: they must not import the models (pokerkit takes a second)."""
    import subprocess
    code = ("import sys, controller.games; controller.games.all_declarations(); "
            "import controller.lab.par.strategy; controller.lab.par.strategy.games(); "
            "print(sorted(m for m in sys.modules if m.startswith('controller.games.') and "
            "not m.startswith('controller.games.declarations')))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", r.stdout


@pytest.mark.reg("581.6")
@pytest.mark.reg("633a.7")
@pytest.mark.reg("583.7(c)")
@pytest.mark.reg("585.3(e)")
@pytest.mark.reg("669a.2(c)(2)")
@pytest.mark.reg("670a.2(c)(2)")
def test_each_game_declares_the_section_its_no_more_bets_enforces():
    got = {g: declaration(g).no_more_bets_section for g in ALL_GAMES}
    assert got == {"double-attack-blackjack": "581.6", "blackjack": "633a.7",
                   "flop-poker": "583.7(c)", "props-and-hops": "585.3(e)",
                   "raise-it-up-stud": "669a.2(c)(2)", "six-card-fortune-pai-gow": "670a.2(c)(2)",
                   "poker": None}
    assert {g: declaration(g).count_handed_as for g in ALL_GAMES if
            declaration(g).count_handed_as} == {"raise-it-up-stud": "progressive_chips",
                                                 "six-card-fortune-pai-gow":
                                                     "progressive_accepted"}


def test_the_dealer_panel_keys_the_dealers_seat_the_games_read():
    from controller.events import DEALER_SEAT
    from controller.games.blackjack.hands import DEALER as BLACKJACK_DEALER
    from controller.rules.paigow import DEALER
    assert DEALER_SEAT == DEALER == BLACKJACK_DEALER


if __name__ == "__main__":
    where = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    rows = offences(where)
    files = sorted({f for f, _, _ in rows})
    for f in files:
        print("%s: lines %s" % (f, ", ".join(str(n) for n in sorted({n for g, n, _ in rows
                                                                      if g == f}))))
    print("%d files name a game outside its own modules and the two registries (and %d kept "
          "as they are: %s)" % (len(files), len(KEPT), ", ".join(sorted(KEPT))))
