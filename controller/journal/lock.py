"""One controller per journal: an exclusive flock on `PATH.lock`, taken before the boot checks.

SQLite's own locks are per transaction: a second process opening the same journal passes
every boot check and then collides with the first one's rows (`UNIQUE constraint failed:
journal.seq`, issue 11). So whoever writes a journal (`tablectl run`, `sim --journal`,
`journal init`) first takes this lock, for as long as it has the journal open. The lock file
holds the holder's PID so the refusal names it; the kernel drops an flock when its process
dies (a SIGKILL or a power cut leaves no stale lock: the file and its old PID stay, the lock
does not). Readers (`journal verify|show|head`, the console) take no lock: WAL lets them read
beside the writer.
"""

import errno
import fcntl
import os

from controller.errors import JournalError, JournalInUse


def lock_path(path):
    return str(path) + ".lock"


class JournalLock:
    """`JournalLock(path)` holds the lock (or raises JournalInUse); `release()` drops it."""

    def __init__(self, path):
        self.path = lock_path(path)
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise JournalError("journal %s: cannot open its lock file %s: %s"
                               % (path, self.path, e.strerror))
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            holder = self._holder()
            os.close(self.fd)
            self.fd = None
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise JournalInUse("journal %s is in use by process %s (lock %s): one "
                                   "controller per journal" % (path, holder or "?", self.path))
            raise JournalError("journal %s: cannot lock %s: %s" % (path, self.path, e.strerror))
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, b"%d\n" % os.getpid(), 0)

    def _holder(self):
        try:
            text = os.pread(self.fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            return None
        return text if text.isdigit() else None

    def release(self):
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)            # drops the flock; the file stays (its PID is history)
