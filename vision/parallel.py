"""Helper threads for the work of one frame that runs outside Python's lock (onnxruntime, OpenCV).

A read is one chain of steps; the parts that can run side by side are within a step: the crops of one
frame are cut, and read by a single-threaded classifier session, in parts on all cores at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

HELPERS = min(3, (os.cpu_count() or 1) - 1)
"""Threads beside the caller: one fewer than the cores, at most 3."""

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()

Part = TypeVar("Part")
Result = TypeVar("Result")


def helper_pool() -> ThreadPoolExecutor | None:
    """The `HELPERS` threads (made on first use), or None on one core."""
    global _pool
    if HELPERS < 1:
        return None
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(HELPERS, thread_name_prefix="frame-helper")
    return _pool


def run_parts(work: Callable[[Part], Result], parts: Sequence[Part]) -> list[Result]:
    """`work` on each part, the first on this thread and the others on the helpers at once, in order.
    `work` must release Python's lock for most of its time to gain anything."""
    pool = helper_pool() if len(parts) > 1 else None
    if pool is None:
        return [work(part) for part in parts]
    others = [pool.submit(work, part) for part in parts[1:]]
    first = work(parts[0])
    return [first] + [future.result() for future in others]
