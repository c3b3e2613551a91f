"""Errors for input a person can fix. The CLI maps every `InputError` to exit code 2 with its message."""


class InputError(ValueError):
    """Input that cannot be used as given: the message names what is wrong."""
