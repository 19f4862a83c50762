"""Process pools for runs (``lasthop reproduce``, ``lasthop sweep``): workers that leave
Ctrl-C to their parent and never outlive it.

A Ctrl-C at a terminal sends SIGINT to the whole foreground process group, the parent
and every worker. Only the parent answers it (the command stops with one line and exit
code 130): workers ignore SIGINT, so none prints a traceback of its own, and the parent
kills them when it leaves the pool early instead of waiting for the runs they are in
(``ProcessPoolExecutor.shutdown`` would wait). A parent killed with SIGKILL has no
chance to do that, so each worker also asks Linux to kill it when its parent dies.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import InvalidStateError, ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


@contextlib.contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes, started at once; left normally, it waits for its
    work as ``ProcessPoolExecutor`` does; left by an exception (``KeyboardInterrupt``
    among others), it kills its workers and returns at once."""
    context = multiprocessing.get_context()
    # A forked worker's parent is this process; a forkserver's is the server.
    parent = os.getpid() if context.get_start_method() == "fork" else None
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(parent,)
    )
    try:
        # Fork the workers now (the first submission does), with SIGINT blocked: a
        # Ctrl-C in the moment between a fork and the worker's initializer stays
        # pending in the worker, which then ignores it, and in this process, which
        # receives it once unblocked.
        with _sigint_blocked():
            pool.submit(int)
        yield pool
        pool.shutdown(wait=True)
    except BaseException:
        _stop(pool)
        raise


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut the pool down without waiting, its queued work cancelled, and kill its
    workers, whatever they are doing (Python 3.14's ``kill_workers``, in that order);
    then reap them. A killed worker stays a zombie until its parent waits for it: left
    to init, which reaps orphans when it gets to it, the workers of an interrupted
    ``reproduce`` outlived it as zombies by 1.9-2.1 s on this project's VM (issue 29
    item 15, what ``pgrep`` counted)."""
    _quiet_cancelled_futures()
    # Taken before shutdown, which forgets them.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    kill_workers = getattr(pool, "kill_workers", None)
    if kill_workers is not None:
        kill_workers()
    else:
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.kill()
    for process in processes:
        # SIGKILL is not ignorable: this waits for the kernel to tear it down.
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(timeout=1.0)


_quieted = False


def _quiet_cancelled_futures() -> None:
    """Python 3.11's pool, finding its workers gone, fails every future still queued,
    those already cancelled too, which raises ``InvalidStateError`` in its manager thread
    and prints a traceback (3.12 ignores them): ignore that error of that thread."""
    global _quieted
    if _quieted or sys.version_info >= (3, 12):
        return
    _quieted = True
    previous = threading.excepthook

    def excepthook(args: threading.ExceptHookArgs) -> None:
        manager = type(args.thread).__name__ == "_ExecutorManagerThread"
        if not (manager and args.exc_type is InvalidStateError):
            previous(args)

    threading.excepthook = excepthook


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _init_worker(parent: int | None) -> None:
    """In each worker, first thing: ignore SIGINT (the parent answers it) and die with
    the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if sys.platform.startswith("linux"):
        # The standard library has no binding for prctl(2), hence ctypes.
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent died before the request took effect
