"""Numeric command-line arguments: ASCII digits 0-9 only; negative and zero values named as such."""

from __future__ import annotations

import argparse

import pytest

from assistant.arguments import (
    positive_argument,
    seconds_argument,
    seed_argument,
    threshold_argument,
    whole_number,
)


@pytest.mark.parametrize(
    "text, expected",
    [("12", 12), (" 7 ", 7), ("-5", -5), ("0", 0), ("５", None), ("٥", None), ("²", None), ("1_0", None)],
)
def test_whole_numbers_are_ascii_digits(text: str, expected: int | None) -> None:
    assert whole_number(text) == expected


@pytest.mark.parametrize(
    "function, text, message",
    [
        (threshold_argument, "５", "digits 0-9"),
        (threshold_argument, "-5", "cannot be negative"),
        (positive_argument, "٣", "digits 0-9"),
        (positive_argument, "0", "1 or more"),
        (positive_argument, "-2", "1 or more"),
        (seconds_argument, "２", "digits 0-9"),
        (seconds_argument, "inf", "digits 0-9"),
        (seconds_argument, "0", "more than 0"),
        (seed_argument, "７", "ASCII"),
        (seed_argument, "", "ASCII"),
    ],
)
def test_bad_values_say_what_is_wrong(function: object, text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        function(text)  # type: ignore[operator]


def test_good_values() -> None:
    assert threshold_argument("0") == 0 and threshold_argument("30") == 30
    assert positive_argument("3") == 3
    assert seconds_argument("2.5") == 2.5 and seconds_argument(".5") == 0.5
    assert seed_argument("club 1f3e") == "club 1f3e"
