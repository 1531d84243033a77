"""The console's software screen: the installed software against its manifest and the
journal's head (`verify`), the configuration in a person's units with its hash (`config
show`), the version and the manifest's signature (`show version`).

One of the screens console/commands.py was split into (issue 32).
"""

import hashlib
import json

from controller.console import view
from controller.console.tree import Screen
from controller.errors import ConsoleError, ManifestError

MONEY_KEYS = ("table_min", "table_max", "progressive.meter", "progressive.reset")


class SoftwareScreen(Screen):
    """verify, config show, show version."""

    def c_verify(self, role, args):
        # not at import: hashing the software is `verify`'s own, rare cost
        from controller.console import manifest
        try:
            r = manifest.verify(self.manifest_path, self.manifest_root)
            seeded = manifest.seeded(args[0], self.manifest_path, self.manifest_root) \
                if args else None
        except ManifestError as e:
            raise ConsoleError("verify: %s" % e)
        lines = []
        for what in ("changed", "missing", "unlisted"):
            for rel in getattr(r, what):
                lines.append("%-9s %s" % (what, rel))
        lines.append("%s: %d files listed, %d changed, %d missing, %d unlisted"
                     % ("PASS" if r.ok else "FAIL", len(r.expected), len(r.changed),
                        len(r.missing), len(r.unlisted)))
        lines.append("manifest signature  %s" % r.expected_signature)
        lines.append("installed signature %s" % r.signature)
        if seeded is not None:
            lines.append("HMAC-SHA-256 under the seed: %s" % seeded)
        store = getattr(self.ctl, "store", None)         # a journaled controller's journal
        if store is not None:
            # the anchor to write down: `tablectl journal verify --head SEQ:HASH` checks it
            lines.append("journal head        %d:%s%s" % (store.last() + (
                " (keyed, key id %s)" % store.key_id if store.keyed else "",)))
        return "\n".join(lines)

    def configuration(self):
        return self.config if self.config is not None else getattr(self.ctl.model, "config", {})

    def c_config(self, role, args):
        cfg = self.configuration()
        lines = ["configuration hash  %s" % config_hash(cfg)]
        section = cfg.get("controller") if isinstance(cfg, dict) else None
        game = {k: v for k, v in cfg.items() if k != "controller"} if isinstance(cfg, dict) \
            else cfg
        options = getattr(self.ctl.model, "OPTIONS", {})
        lines += ["%-32s %s" % (k, _money(k, v, options)) for k, v in
                  view.flat(view.redact(game))] or ["(empty)"]
        lines.append("[controller]")
        if isinstance(section, dict) and section:
            # device names and ports, not cards: "shoe" here is the dealing shoe's driver
            lines += ["  %-30s %s" % (k, view.scrub(v)) for k, v in view.flat(section)]
        else:
            lines.append("  not configured here (no devices, ports or pins were given)")
        return "\n".join(lines)

    def c_version(self, role, args):
        from controller.console import manifest
        lines = ["tablectl %s" % software_version()]
        try:
            path = self.manifest_path or manifest.default_path(self.manifest_root)
            lines.append("manifest %s  signature %s" % (path, manifest.signature(
                manifest.read(path))))
        except (ManifestError, OSError) as e:
            lines.append("manifest: none (%s)" % e)
        return "\n".join(lines)


def config_hash(cfg):
    """SHA-256 of the configuration as canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(cfg, sort_keys=True, separators=(",", ":"),
                                     default=str).encode()).hexdigest()

def software_version():
    try:
        from importlib.metadata import version
        return version("tablectl")
    except Exception:                       # noqa: BLE001 - not installed: say so
        return "(not installed as a package)"

def _money(key, value, options):
    """A configuration value as a person reads it: an amount of money (the table limits, a
    wager's limits, the progressive's meter and reset, an option its check calls cents) in
    dollars; anything else as it is."""
    spec = options.get(key[len("options."):]) if key.startswith("options.") else None
    money = key in MONEY_KEYS or key.startswith("limits.") or \
        (spec is not None and getattr(spec[1], "cents", False))
    if not money:
        return value
    try:
        amounts = [int(a) for a in str(value).strip("[]").split(",")]
    except ValueError:
        return value
    shown = [view.dollars(a) for a in amounts]
    return shown[0] if len(shown) == 1 and not str(value).startswith("[") else \
        "[%s]" % ", ".join(shown)
