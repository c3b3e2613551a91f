"""The one way in for a file a user names (a photo, a video, a profile): only a regular file is opened, and at
most a limit + 1 bytes of it are read.

A named pipe would wait for a writer for ever, a device such as `/dev/zero` never ends, a folder or a socket
holds no bytes to read: each is refused by name before anything is read. The file is opened without waiting
(`O_NONBLOCK`, so even a pipe swapped in after the first look does not hang) and looked at again on the open
descriptor. A link to a regular file is followed and is fine.
"""

from __future__ import annotations

import os
import stat

from assistant.errors import InputError

_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class UserFileError(InputError):
    """A named file that cannot be read: missing, not a regular file, too large or unreadable (the message
    names it and says why)."""


def kind_of(mode: int) -> str:
    """What a file of `st_mode` `mode` is, for a message ("a named pipe")."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def _refusal(path: str, mode: int, what: str, error: type[Exception]) -> Exception:
    kind = kind_of(mode)
    try:
        target = os.path.realpath(path)
    except (OSError, ValueError):
        target = path
    if kind == "a device" or (target != os.path.abspath(path) and kind != "a folder"):
        kind = f"{kind} ({target})"
    return error(f"{path}: is {kind}, not {what}")


def _size_text(size: int) -> str:
    return f"{size / 1e6:.0f} MB" if size >= 10**6 else f"{size} bytes"


def too_large(path: str, size: int | None, limit: int, error: type[Exception]) -> Exception:
    """The refusal of a file over `limit` bytes (`size` None: more than the limit was read)."""
    told = f"over {_size_text(limit)}" if size is None else _size_text(size)
    return error(f"{path}: the file is too large ({told}; at most {_size_text(limit)})")


def open_regular(
    path: str | os.PathLike[str], what: str = "a file", error: type[Exception] = UserFileError
) -> tuple[int, os.stat_result]:
    """(descriptor, status) of the regular file at `path`, opened for reading; the caller closes it.

    Args:
        what: what the file should be, for messages ("an image file").
        error: the exception raised, with a message naming the file.

    Raises:
        error: the name is empty, there is no such file, it is not a regular file (a folder, a named pipe,
            a device, a socket), or it cannot be opened.
    """
    name = os.fspath(path)
    if name == "":  # Path("") is the current folder
        raise error("'': the file name is empty")
    try:
        mode = os.stat(name).st_mode  # looked at first: a device is never opened
        descriptor = os.open(name, _OPEN_FLAGS) if stat.S_ISREG(mode) else -1
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except ValueError as exc:  # a NUL in the name
        raise error(f"{name!r}: not a file name ({exc})") from exc
    except OSError as exc:
        raise error(f"{name}: cannot read the file ({exc.strerror or exc})") from exc
    if descriptor < 0:
        raise _refusal(name, mode, what, error)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):  # swapped since it was looked at
            raise _refusal(name, status.st_mode, what, error)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, status


def check_regular(
    path: str | os.PathLike[str], what: str = "a file", error: type[Exception] = UserFileError
) -> os.stat_result:
    """The status of the regular file at `path` (for a file another library opens, such as a video).

    Raises:
        error: as `open_regular`.
    """
    descriptor, status = open_regular(path, what, error)
    os.close(descriptor)
    return status


def read_user_file(
    path: str | os.PathLike[str], limit: int, what: str = "a file", error: type[Exception] = UserFileError
) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them: a larger file is refused, by its
    size before reading where the file system tells it, else once `limit` + 1 bytes are read.

    Raises:
        error: as `open_regular`, or the file is over `limit` bytes, or reading fails.
    """
    name = os.fspath(path)
    descriptor, status = open_regular(name, what, error)
    try:
        if status.st_size > limit:
            raise too_large(name, status.st_size, limit, error)
        with os.fdopen(descriptor, "rb", buffering=0, closefd=False) as stream:
            # One byte more than the file says, so a file that grew is seen; /proc files say 0.
            chunks = [stream.read(min(status.st_size, limit) + 1) or b""]
            read = len(chunks[0])
            while chunks[-1] and read <= limit:
                chunks.append(stream.read(limit + 1 - read) or b"")
                read += len(chunks[-1])
    except OSError as exc:
        raise error(f"{name}: cannot read the file ({exc.strerror or exc})") from exc
    finally:
        os.close(descriptor)
    if read > limit:
        raise too_large(name, None, limit, error)
    return chunks[0] if len(chunks[0]) == read else b"".join(chunks)

