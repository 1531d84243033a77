"""Par's sums spread over the machine's cores: `tablectl par` computes independent pieces (each
game's sheets, each (up card, pair) of Bad Beat's split rounds) in worker processes.

Why processes: the sums are pure Python and numpy over integers, held by the GIL; the pieces
share nothing but their arguments and return small results (dicts of integers and Fractions),
so a fork per worker and a pickle per piece cost milliseconds against seconds of arithmetic.
Every figure is the same integer whichever process computes it (tests/par/test_par_spread.py
compares a spread run with a serial one).

One pool at a time, opened by the command (`with spread.pool(jobs):`); code that has pieces
to spread asks `spread.map` and `spread.submit`, which run in the caller's process where no pool
is open, or inside a worker (a worker never opens a pool of its own: the pieces would wait on
each other). Without a pool, or with jobs=1, nothing forks.
"""

import multiprocessing
import os
import signal
from contextlib import contextmanager

_POOL = None


def cpus():
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                  # not on Linux
        return os.cpu_count() or 1


def _in_worker():
    """A worker opens no pool, and leaves Ctrl-C to the command: the terminal sends SIGINT
    to the whole process group, and the command ends its workers itself."""
    global _POOL
    _POOL = None
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def pool(jobs=None):
    """Open the pool of `jobs` worker processes (default: cpus()) for the duration; jobs=1
    opens none. The workers are forked, so they start with the caller's modules and caches.
    Leaving normally waits for them; leaving by an exception (Ctrl-C, an error) ends them at
    once, so no piece outlives the command."""
    global _POOL
    jobs = cpus() if jobs is None else jobs
    if jobs <= 1 or _POOL is not None:
        yield None
        return
    workers = multiprocessing.get_context("fork").Pool(jobs, initializer=_in_worker)
    _POOL = workers
    try:
        yield workers
    except BaseException:
        workers.terminate()
        raise
    else:
        workers.close()
    finally:
        _POOL = None
        workers.join()


class _Done:
    """A result computed at once, shaped like a pending one."""

    def __init__(self, value):
        self.value = value

    def get(self):
        return self.value


def submit(fn, *args):
    """fn(*args) in a worker if a pool is open (its .get() waits for the result), else now."""
    if _POOL is None:
        return _Done(fn(*args))
    return _POOL.apply_async(fn, args)


def map(fn, items):
    """[fn(item) for item in items], the items spread over the pool if one is open, in the
    order given (put the longest first: a worker takes the next item as it finishes)."""
    if _POOL is None:
        return [fn(item) for item in items]
    return _POOL.map(fn, items, chunksize=1)
