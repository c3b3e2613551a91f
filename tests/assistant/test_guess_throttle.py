"""assistant.access.GuessThrottle: wrong director keys wait in one queue for the whole server, and a device
with five wrong keys in a row is locked out for a minute (issue 35 item 8: the delay was per session)."""

from __future__ import annotations

import threading
import time

import pytest

from assistant.access import GuessThrottle, KeySetting
from assistant.errors import InputError

KEY = KeySetting("a-director-key-long-enough", "test")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept += seconds
        self.now += seconds


def test_a_right_key_costs_nothing_and_a_wrong_one_the_delay() -> None:
    clock = Clock()
    throttle = GuessThrottle(delay_s=1.0, clock=clock, sleep=clock.sleep)
    assert throttle.check(KEY, "a-director-key-long-enough", "10.0.0.2")
    assert clock.slept == 0.0
    assert not throttle.check(KEY, "wrong", "10.0.0.2")
    assert clock.slept == 1.0


def test_five_wrong_keys_lock_the_device_out_and_not_the_others() -> None:
    clock = Clock()
    throttle = GuessThrottle(delay_s=1.0, lockout_after=5, lockout_s=60.0, clock=clock, sleep=clock.sleep)
    for _ in range(5):
        assert not throttle.check(KEY, "wrong", "10.0.0.2")
    with pytest.raises(InputError, match="too many wrong keys from this device: try again in 60 s"):
        throttle.check(KEY, "a-director-key-long-enough", "10.0.0.2")  # not even the right key is checked
    assert throttle.check(KEY, "a-director-key-long-enough", "10.0.0.3")
    clock.now += 61
    assert throttle.check(KEY, "a-director-key-long-enough", "10.0.0.2")  # the minute is over


def test_wrong_keys_from_six_sessions_at_once_wait_in_one_queue() -> None:
    throttle = GuessThrottle(delay_s=0.2)
    started = time.monotonic()
    threads = [threading.Thread(target=throttle.check, args=(KEY, "wrong", f"10.0.0.{i}")) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert time.monotonic() - started >= 6 * 0.2 - 0.05  # one after another, not side by side
