#!/usr/bin/env bash
# Install tablectl on Raspberry Pi OS: a venv under /opt/tablectl holding the firmware alone
# (no floor server, lab tools or simulator: setup.py's TABLECTL_WINGS), the GPIO library this Pi
# needs, the tablectl user in the dialout and gpio groups, the systemd unit, the udev rules,
# a table configuration and the journal's key, the software manifest, bash completion and the
# man page; it refuses to finish (enable and start the service) until the console's role PINs
# are set. See docs/deploy.md.
#
#   sudo deploy/install.sh --game blackjack         install (or upgrade: safe to re-run)
#   deploy/install.sh --dry-run --game blackjack    print every action, change nothing
#
# Options:
#   --game GAME     the table configuration deploy/tables/GAME.toml (needed until
#                   /etc/tablectl/table.toml exists; an existing one is never overwritten)
#   --dry-run       print each action instead of doing it; writes nothing anywhere
#   --root DIR      install the files under DIR instead of /, for testing; the system-wide
#                   steps (apt, users, systemctl, udevadm, file ownership) are skipped
#   --model STRING  the board model instead of /proc/device-tree/model (also the env
#                   variable TABLECTL_PI_MODEL), e.g. "Raspberry Pi 5 Model B Rev 1.0"
#
# Idempotent: every step either checks first (user, groups, venv, apt packages) or converges
# (install(1) of our own files). The table configuration and the udev rules are the site's
# once edited, so they are installed only when absent; the journal key is made only when
# absent (a new key could not verify the journal kept with the old one). The manifest is
# written anew each time (it is what this installation's software is).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/opt/tablectl
VENV=$PREFIX/venv
STATE=/var/lib/tablectl
ETC=/etc/tablectl
UNIT=/etc/systemd/system/tablectl.service
RULES=/etc/udev/rules.d/99-tablectl.rules
KEY=$ETC/journal.key
PINS=$ETC/console-pins.json
REQUIRED_ROLES=(technician administrator)       # who clears lock-outs and administers the table
COMPLETION=/usr/share/bash-completion/completions/tablectl
MANPAGE=/usr/local/share/man/man1/tablectl.1
USER_NAME=tablectl
GROUPS_NEEDED=(dialout gpio)

DRY_RUN=0
ROOT=
GAME=
MODEL=${TABLECTL_PI_MODEL:-}

die() { printf 'install.sh: %s\n' "$*" >&2; exit 2; }
say() { printf '%s\n' "$*"; }

games() {
    local f
    for f in "$SRC"/deploy/tables/*.toml; do
        f=${f##*/}; [[ $f == *-bench.toml ]] || printf '%s ' "${f%.toml}"
    done
}

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root) [[ $# -ge 2 ]] || die "--root needs a directory"; ROOT=${2%/}; shift ;;
        --root=*) ROOT=${1#--root=}; ROOT=${ROOT%/} ;;
        --game) [[ $# -ge 2 ]] || die "--game needs a name"; GAME=$2; shift ;;
        --game=*) GAME=${1#--game=} ;;
        --model) [[ $# -ge 2 ]] || die "--model needs a string"; MODEL=$2; shift ;;
        --model=*) MODEL=${1#--model=} ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
done

# ---- how actions are done, or printed -------------------------------------------------

# Print a command, shell-quoted, with a prefix.
show() { local tag=$1; shift; printf '%s' "$tag"; printf ' %q' "$@"; printf '\n'; }

# A change to this machine: printed, and done unless --dry-run.
run() {
    if ((DRY_RUN)); then show '[dry-run]' "$@"; else show '+' "$@"; "$@"; fi
}

# A change to the system outside our files (packages, users, services): not under --root.
sysrun() {
    if [[ -n $ROOT ]]; then show '[skipped: --root]' "$@"; else run "$@"; fi
}

# install(1) arguments giving owner and group, which only exist on the real system.
owner() { [[ -n $ROOT ]] || printf -- '-o\n%s\n-g\n%s\n' "$1" "$2"; }

# A new journal key: 32 random bytes as 64 hex digits, never on a command line, in a file
# created 0600 (by the umask, so no one else can read it even for a moment).
new_journal_key() {
    (umask 077 && od -An -vtx1 -N32 /dev/urandom | tr -d ' \n' >"$1")
    chmod 0600 "$1"
}

# A new table's configuration names the journal key, so its journal is keyed from the first
# start (a key added later would not match the unkeyed journal already written).
key_the_journal() {
    printf '\n[controller]\n# the key install.sh made: every journal row an HMAC under it (docs/journal.md)\njournal_key = "%s"\n' "$KEY" >>"$1"
}

# ---- checks ---------------------------------------------------------------------------

if ((!DRY_RUN)) && [[ -z $ROOT ]] && ((EUID != 0)); then
    die "run as root (sudo), or with --dry-run to see what it would do"
fi
if [[ -n $ROOT ]] && ((!DRY_RUN)) && [[ ! -d $ROOT ]]; then
    die "--root $ROOT is not a directory"
fi

if [[ -z $MODEL ]]; then
    [[ -r $ROOT/proc/device-tree/model ]] ||
        die "no $ROOT/proc/device-tree/model: not a Raspberry Pi? Pass --model \"Raspberry Pi 4 Model B\""
    MODEL=$(tr -d '\0' <"$ROOT/proc/device-tree/model")
fi

# The Pi 5 family (Pi 5, Pi 500, Compute Module 5) drives its header through the RP1 chip,
# which RPi.GPIO cannot; rpi-lgpio provides the same RPi.GPIO module over lgpio there.
# The two install the same files, so the one not wanted is removed first.
if [[ $MODEL =~ ^Raspberry\ Pi\ (Compute\ Module\ )?([0-9]) ]]; then
    GENERATION=${BASH_REMATCH[2]}
elif [[ $MODEL =~ ^Raspberry\ Pi ]]; then
    GENERATION=1                # "Raspberry Pi Model B Rev 2", "Raspberry Pi Zero 2 W"...
else
    die "board model '$MODEL' is not a Raspberry Pi"
fi
if ((GENERATION >= 5)); then
    GPIO_PKG=rpi-lgpio; GPIO_OTHER=RPi.GPIO; APT_GPIO=(swig liblgpio-dev)
else
    GPIO_PKG=RPi.GPIO; GPIO_OTHER=rpi-lgpio; APT_GPIO=()
fi

TEMPLATE=
if [[ -n $GAME ]]; then
    [[ $GAME =~ ^[a-z0-9-]+$ ]] || die "'$GAME' is not a game name; the games are: $(games)"
    TEMPLATE=$SRC/deploy/tables/$GAME.toml
    if [[ $GAME == *-bench ]]; then
        die "'$GAME' is a bench configuration (simulated devices), not a table's; the games are: $(games)"
    fi
    if [[ ! -f $TEMPLATE ]]; then
        die "no table configuration for '$GAME'; the games are: $(games)"
    fi
elif [[ ! -e $ROOT$ETC/table.toml ]]; then
    die "--game GAME is needed (no $ROOT$ETC/table.toml yet); the games are: $(games)"
fi

# The package's requirements, less RPi.GPIO: the GPIO library is this Pi's choice, and
# tablectl itself is then installed with --no-deps so pip does not bring RPi.GPIO back.
mapfile -t REQUIREMENTS < <(python3 - "$SRC/setup.cfg" <<'EOF'
import configparser, re, sys
cfg = configparser.ConfigParser()
cfg.read(sys.argv[1])
for line in cfg["options"]["install_requires"].splitlines():
    line = line.strip()
    if line and not re.match(r"(?i)rpi[._-]gpio\b", line):
        print(line)
EOF
)
((${#REQUIREMENTS[@]})) || die "no install_requires found in $SRC/setup.cfg"

say "tablectl install from $SRC"
say "board: $MODEL -> GPIO package: $GPIO_PKG"
say "virtual environment: $ROOT$VENV"
say "user: $USER_NAME, groups: ${GROUPS_NEEDED[*]}"
say "unit: $ROOT$UNIT"
say "udev rules: $ROOT$RULES"
say "journal key: $ROOT$KEY"
say "console PINs: $ROOT$PINS (needed: ${REQUIRED_ROLES[*]})"
((DRY_RUN)) && say "dry run: nothing below is done"

# ---- 1. system packages ---------------------------------------------------------------

APT=(python3-venv python3-dev gcc "${APT_GPIO[@]}")
missing=()
for p in "${APT[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
    sysrun apt-get update
    sysrun apt-get install -y --no-install-recommends "${missing[@]}"
else
    say "apt packages present: ${APT[*]}"
fi

# ---- 2. groups and the user -----------------------------------------------------------

for g in "${GROUPS_NEEDED[@]}"; do
    if [[ -z $ROOT ]] && getent group "$g" >/dev/null; then
        say "group $g exists"
    else
        sysrun groupadd --system "$g"
    fi
done
if [[ -z $ROOT ]] && id -u "$USER_NAME" >/dev/null 2>&1; then
    say "user $USER_NAME exists"
else
    # No login, no home of its own: the state directory is its only writable place.
    sysrun useradd --system --user-group --home-dir "$STATE" --no-create-home \
        --shell /usr/sbin/nologin --comment "tablectl table controller" "$USER_NAME"
fi
sysrun usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$USER_NAME"

# ---- 3. directories -------------------------------------------------------------------

run install -d -m 0755 "$ROOT$PREFIX" "$ROOT$PREFIX/docs"
mapfile -t own < <(owner "$USER_NAME" "$USER_NAME")
run install -d -m 0750 "${own[@]}" "$ROOT$STATE"        # the journal: the unit's only rw path
mapfile -t own < <(owner root "$USER_NAME")
run install -d -m 0750 "${own[@]}" "$ROOT$ETC"           # readable by the controller, not writable

# ---- 4. the virtual environment -------------------------------------------------------

PIP=("$ROOT$VENV/bin/python" -m pip --disable-pip-version-check --no-input)
if [[ -x $ROOT$VENV/bin/python ]]; then
    say "virtual environment exists: $ROOT$VENV"
else
    run python3 -m venv "$ROOT$VENV"
fi
run "${PIP[@]}" install "${REQUIREMENTS[@]}"
gpio_force=()
if ((DRY_RUN)); then
    say "[dry-run] (if $GPIO_OTHER is installed: uninstall it and reinstall $GPIO_PKG)"
elif "${PIP[@]}" show "$GPIO_OTHER" >/dev/null 2>&1; then
    run "${PIP[@]}" uninstall -y "$GPIO_OTHER"
    gpio_force=(--force-reinstall)                     # the uninstall took shared files
fi
run "${PIP[@]}" install "${gpio_force[@]}" "$GPIO_PKG"
# --force-reinstall: an upgrade from a checkout of the same version still gets the new code.
# TABLECTL_WINGS=firmware (setup.py): the firmware alone, no floor server, lab tools or
# simulator on a table, so its files are exactly what `tablectl manifest` signs.
run env TABLECTL_WINGS=firmware "${PIP[@]}" install --no-deps --force-reinstall "$SRC"
run install -m 0644 "$SRC/docs/deploy.md" "$ROOT$PREFIX/docs/deploy.md"

# ---- 5. configuration, journal key, unit, udev rules ----------------------------------

if [[ -e $ROOT$ETC/table.toml ]]; then
    say "kept $ROOT$ETC/table.toml (the table's audited configuration; never overwritten)"
else
    mapfile -t own < <(owner root "$USER_NAME")
    run install -m 0640 "${own[@]}" "$TEMPLATE" "$ROOT$ETC/table.toml"
    run key_the_journal "$ROOT$ETC/table.toml"
fi
if [[ -e $ROOT$KEY ]]; then
    say "kept $ROOT$KEY (the journal's key; a new one could not verify the journal)"
else
    run new_journal_key "$ROOT$KEY"
    sysrun chown "$USER_NAME:$USER_NAME" "$ROOT$KEY"     # the controller reads it, 0600
fi
run install -D -m 0644 "$SRC/deploy/tablectl.service" "$ROOT$UNIT"
if [[ -e $ROOT$RULES ]]; then
    say "kept $ROOT$RULES (holds this table's adapter serial numbers)"
else
    run install -D -m 0644 "$SRC/deploy/99-tablectl.rules" "$ROOT$RULES"
fi

# ---- 6. the software manifest, completion, man page ------------------------------------

# The manifest: SHA-256 of every file of the firmware and of the dependencies that
# decide outcomes (transitions, pokerkit, pyserial, cryptography, with their versions), where the console's
# `verify` looks for it (controller/console/manifest.py). Written after the last pip step.
run "$ROOT$VENV/bin/python" -m controller.cli manifest
run install -D -m 0644 "$SRC/deploy/tablectl.bash-completion" "$ROOT$COMPLETION"
run install -D -m 0644 "$SRC/deploy/tablectl.1" "$ROOT$MANPAGE"

# ---- 7. the console's role PINs: no finish without them --------------------------------

# The roles in REQUIRED_ROLES without a PIN in the PIN file (all of them if it is not
# readable JSON: `tablectl passwd` says what is wrong and offers to replace it).
missing_pins() {
    python3 - "$1" "${REQUIRED_ROLES[@]}" <<'EOF'
import json, sys
try:
    with open(sys.argv[1]) as f:
        pins = json.load(f).get("pins") or {}
except (OSError, ValueError, AttributeError):
    pins = {}
print(" ".join(r for r in sys.argv[2:] if not isinstance(pins.get(r), dict)))
EOF
}
read -r -a NO_PIN <<<"$(missing_pins "$ROOT$PINS")"
for role in "${NO_PIN[@]}"; do
    if ((DRY_RUN)); then
        show '[dry-run]' "$ROOT$VENV/bin/tablectl" passwd "$role" --file "$ROOT$PINS"
    elif [[ -t 0 ]]; then
        run "$ROOT$VENV/bin/tablectl" passwd "$role" --file "$ROOT$PINS"
    fi
done
if ((!DRY_RUN)); then
    read -r -a NO_PIN <<<"$(missing_pins "$ROOT$PINS")"
    if ((${#NO_PIN[@]})); then
        die "no console PIN for: ${NO_PIN[*]}; set each in a terminal with $VENV/bin/tablectl passwd ROLE --file $PINS, then run install.sh again (the service is not enabled until then)"
    fi
    say "console PINs set for: ${REQUIRED_ROLES[*]}"
fi
sysrun chown "root:$USER_NAME" "$ROOT$PINS"           # the controller reads them: 0640
run chmod 0640 "$ROOT$PINS"

# ---- 8. tell systemd and udev ---------------------------------------------------------

sysrun systemctl daemon-reload
sysrun udevadm control --reload
sysrun udevadm trigger --action=add --subsystem-match=tty
sysrun systemctl enable tablectl.service
sysrun systemctl try-restart tablectl.service          # an upgrade restarts a running table

if ((DRY_RUN)); then
    say "dry run: nothing was changed"
    exit 0
fi
say "done. Next: put the adapters' ids in $RULES, review $ETC/table.toml"
say "(a new table.toml names the journal key $KEY in its [controller] section; add the devices there),"
say "then: systemctl start tablectl && journalctl -fu tablectl"
