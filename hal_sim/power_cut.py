"""A power cut, as the journal's disk would hold it: writes not yet synced lost, the last torn.

A journal commit returns only after its fdatasync (controller/journal/log.py): what was synced
survives a power cut, what was written since may or may not have reached the medium. `Disk`
watches the writes (`os.pwrite`) to the files of one directory (the journal, its running index,
its anchor), keeps for each file the writes since its last `fsync`/`fdatasync`, and when armed
cuts the power in the middle of the N-th commit from now: that sync never happens
(`PowerCut`, a BaseException, so no `except Exception` of the controller takes it for an error
it can handle and go on). The disk then lands a prefix of each file's unsynced writes, in the
order they were issued, the next one possibly torn at any byte (a sector half written), and
loses the rest; nothing is written after the cut. `abandon()` closes every descriptor the dead
process had on the directory without writing anything more, as a process that no longer exists
holds none. The draws come from the seeded `rng`, so a cut replays: one draw a cut, and each
file's fate from it and the file's name alone, so what one file held (the lock file's process
id, as many digits as the id has) cannot change the draws of another (the journal's).

What each write replaces is read through the page cache: exact where the journal's writes go
through it too (tmpfs, /dev/shm, the soak's default, where O_DIRECT is refused); on a real
disk the journal writes O_DIRECT past the page cache, and two runs of one seed were seen to
land different bytes at a cut there, so a soak replays byte for byte in memory only.

This is the soak's fault injector for the disk, as hal_sim/devices/pty_port.py is the line's:
the journal's own code runs unchanged above it (tests/journal/power_loss.py cuts a real
process with SIGKILL, which loses the process but not the page cache).
"""

import os
import random


class PowerCut(BaseException):
    """The power went off in the middle of a commit."""


class Disk:
    """The files under `directory` as a disk holds them across a power cut (see above)."""

    def __init__(self, directory, rng):
        self.dir = os.path.realpath(directory) + os.sep
        self.rng = rng
        self.unsynced = {}            # path -> [(offset, old bytes, new bytes)] since its sync
        self.armed = None             # cut at this many more syncs of the journal file
        self.journal = None           # the path whose syncs count (the journal's commits)
        self.off = False
        self.cuts = []                # what each cut did, for the summary and tests
        self._orig = None

    # -- the system calls watched ---------------------------------------------------------

    def __enter__(self):
        self._orig = (os.pwrite, os.fsync, os.fdatasync)
        os.pwrite, os.fsync, os.fdatasync = self._pwrite, self._fsync, self._fdatasync
        return self

    def __exit__(self, *exc):
        os.pwrite, os.fsync, os.fdatasync = self._orig
        return False

    def _path(self, fd):
        try:
            path = os.readlink("/proc/self/fd/%d" % fd)
        except OSError:
            return None
        return path if path.startswith(self.dir) else None

    def _pwrite(self, fd, data, offset):
        path = self._path(fd)
        if path is None:
            return self._orig[0](fd, data, offset)
        if self.off:
            return len(data)                          # the power is off: nothing lands
        data = bytes(data)
        try:
            old = os.pread(fd, len(data), offset)     # through the page cache, as below
        except OSError:                               # an O_DIRECT fd reads aligned only,
            try:                                      # a write-only one not at all
                with open(path, "rb") as f:
                    f.seek(offset)
                    old = f.read(len(data))
            except FileNotFoundError:                 # renamed or unlinked since it was
                return self._orig[0](fd, data, offset)  # opened: a file made whole, linked
        old += bytes(len(data) - len(old))            # past the end: the file grew (zeros)
        self.unsynced.setdefault(path, []).append((offset, old, data))
        return self._orig[0](fd, data, offset)

    def _sync(self, fd, call):
        path = self._path(fd)
        if path is not None:
            if self.off:
                raise PowerCut("the power is off")
            if path == self.journal and self.armed is not None:
                self.armed -= 1
                if self.armed <= 0:
                    self.cut()
                    raise PowerCut("the power was cut in a commit of %s" % path)
        result = call(fd)
        if path is not None:
            self.unsynced.pop(path, None)
        return result

    def _fsync(self, fd):
        return self._sync(fd, self._orig[1])

    def _fdatasync(self, fd):
        return self._sync(fd, self._orig[2])

    # -- the cut ------------------------------------------------------------------------

    def arm(self, journal, commits):
        """Cut the power in the `commits`-th commit (sync) of `journal` from now."""
        self.journal, self.armed = os.path.realpath(journal), max(1, int(commits))

    def cut(self):
        """Now: each file keeps a prefix of its unsynced writes, the next one maybe torn."""
        self.off = True
        self.armed = None
        done = {}
        draw = self.rng.getrandbits(64)
        for path, writes in sorted(self.unsynced.items()):
            if not os.path.exists(path):              # a temporary file since renamed whole
                continue
            rng = random.Random("%d:%s" % (draw, os.path.basename(path)))
            landed = rng.randint(0, len(writes))
            torn = None
            if landed < len(writes) and rng.random() < 0.5:
                offset, old, new = writes[landed]
                torn = (offset, new[:rng.randint(1, max(1, len(new) - 1))])
            fd = os.open(path, os.O_WRONLY)
            try:
                for offset, old, _ in reversed(writes[landed:]):
                    self._orig[0](fd, old, offset)
                if torn is not None:
                    self._orig[0](fd, torn[1], torn[0])
                self._orig[2](fd)
            finally:
                os.close(fd)
            done[os.path.basename(path)] = {"unsynced": len(writes), "landed": landed,
                                            "torn_bytes": None if torn is None
                                            else len(torn[1])}
        self.unsynced = {}
        self.cuts.append(done)
        return done

    def abandon(self):
        """Close every descriptor this process holds on the directory, writing nothing: the
        process the cut killed holds none (its flock on the journal's lock goes with it)."""
        for name in os.listdir("/proc/self/fd"):
            fd = int(name)
            if self._path(fd) is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass

    def power_on(self):
        self.off = False
