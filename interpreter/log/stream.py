"""A game log written while the game is played, so that it outlives the process.

``rules play --log`` hands the stream the header (and, on ``--resume``, the events
already played) before the first decision, then the lines of each decision once the
game has applied it whole (``add``). Each ``add`` is one ``write`` to the file's
descriptor, with no buffer of ours in between: a process killed at any moment
(SIGKILL, a crash) leaves the lines of every decision it made, and at worst a last
line cut short, which ``--resume`` drops with a warning. ``sync`` (at the end of a
round, and at the end) asks the system to put the file on the disk, so a log also
survives a power cut up to its last round.

The file is never written through a link: the first lines go into a new file made
beside the log (``O_EXCL``: only this call made it), which then takes the log's
place by ``os.replace`` (which replaces a link, never what it points to); the stream
then appends to that same file, checked to be the one it made. A log given as an
existing symbolic link is refused (``LinkRefused``), so the user is never surprised
by a link that quietly became a file.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from interpreter.atomic_file import new_file_beside

BINARY = getattr(os, "O_BINARY", 0)  # no newline translated (Windows)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # where the system has it


class LinkRefused(OSError):
    """The log's path is a symbolic link: ``rules play`` writes no log through one."""


class LogStream:
    """The open log: lines appended whole, synced on request, closed once."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self._fd = fd

    @classmethod
    def create(cls, path: Path, first: list[str]) -> LogStream:
        """A new log at ``path`` holding the lines ``first`` (the header, and the events
        of a resumed game), put in place whole: until then ``path`` is as it was (a
        resumed log stays readable until its copy has replaced it)."""
        if path.is_symlink():
            raise LinkRefused(f"{path} is a symbolic link: the log is never written through one")
        fd, temporary = new_file_beside(path, 0o666, "part")  # the umask applies
        try:
            _write(fd, first)
            os.fsync(fd)
            made = os.fstat(fd)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        os.close(fd)  # renamed closed: Windows renames no open file
        try:
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        _sync_folder(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | BINARY | NOFOLLOW)
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (made.st_dev, made.st_ino):  # replaced meanwhile
            os.close(fd)
            raise LinkRefused(f"{path} was replaced by another file while it was written")
        return cls(path, fd)

    def add(self, lines: list[str]) -> None:
        """Append ``lines`` (each without its newline) in one write."""
        if lines:
            _write(self._fd, lines)

    def sync(self) -> None:
        """Put what was written on the disk (at a round's end: a few times a game)."""
        if self._fd >= 0:
            os.fsync(self._fd)

    def close(self) -> None:
        fd, self._fd = self._fd, -1
        if fd >= 0:
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _write(fd: int, lines: list[str]) -> None:
    """All of ``lines``' bytes: one system call, unless the system takes fewer."""
    data = memoryview("".join(f"{line}\n" for line in lines).encode("utf-8"))
    while data:
        data = data[os.write(fd, data) :]


def _sync_folder(folder: Path) -> None:
    """The rename on the disk too, where a folder can be synced (not on Windows)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
