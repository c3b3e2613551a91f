"""Milliseconds by stage of the path a photo takes (`vision.path`), as `rummi read --json` gives them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Stopwatch:
    """Milliseconds by stage (`with clock("place"): ...`), as `{"place_ms": 1.2, ...}`."""

    ms: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.ms[f"{stage}_ms"] = round((time.perf_counter() - started) * 1000, 1)
