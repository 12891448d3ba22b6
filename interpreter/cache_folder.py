"""The per-user cache folder: what the interpreter derives once and every later process reads.

Two kinds of things live there: files derived from the interpreter's own texts (the
grammar's parser tables and Lark's parser, the compiled ``__init__`` of its
dataclasses, the code of the log's checks: ``derived_file``), the same for every
ruleset, and stored rulesets (``ruleset/stored.py``, under ``rulesets/``).
``TABLETOP_RULES_CACHE=0`` (or ``off``, ``no``, ``false``) turns all of it off.

What the cache holds is code (pickles, marshalled code objects, Lark's pickled
parser), so it is only ever read through ``read_entry``, which trusts a file only if
this user's own process wrote it (the trust model, also in ``docs/logs.md``):

* every folder of the cache and every file read is owned by the current user and
  writable by nobody else (a folder that is not is refused: a warning, once, and the
  process goes on without the cache); a file is opened without following a link;
* every file carries an HMAC-SHA256 of its name and bytes under a per-user secret key
  (``key``, 32 random bytes, mode 0600, made on first use); a missing or wrong MAC is
  a miss, and the thing is derived again.

A file planted by someone else is therefore never unpickled, unmarshalled or run, and
neither is one copied in from another machine or another user's cache (a CI cache
restored from elsewhere is simply rebuilt). Where the system has no user ids
(Windows), the MAC alone guards the files.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
from hashlib import sha256
from pathlib import Path

from interpreter.atomic_file import new_file_beside, write_atomically

CACHE_ENV = "TABLETOP_RULES_CACHE"
KEY_NAME = "key"
KEY_BYTES = 32
MAC_BYTES = 32  # HMAC-SHA256
MAX_ENTRY_BYTES = 64_000_000  # a larger file is not read (a corrupt or foreign one)

_trusted_folders: dict[str, bool] = {}  # folder -> passed the ownership check
_keys: dict[str, bytes | None] = {}  # root -> its secret key once read or made (None: unusable)
_warned: list[str] = []


def enabled() -> bool:
    return os.environ.get(CACHE_ENV, "").strip().lower() not in ("0", "off", "no", "false")


def root() -> Path:
    """``$XDG_CACHE_HOME/tabletop-rules`` (an absolute one), else ``~/.cache/tabletop-rules``."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "tabletop-rules"


def derived_file(kind: str, source: str, *versions: str, suffix: str = "cache") -> Path | None:
    """The file holding what is derived from ``source`` (a grammar's text) by tools of
    these ``versions``, or None for no cache (switched off, or a folder that cannot be
    made or is not trusted: the thing is then derived every time).

    The name is ``{kind}-{digest}.{suffix}``, the digest of the source, the versions,
    Python's and the interpreter's own (as a JSON list: no two lists share a text), so
    a stale file is never read; the other files of the same kind (earlier sources) are
    removed when this one does not exist yet, so that edits do not pile them up.
    Read and write it with ``read_entry`` and ``write_entry``."""
    if not enabled():
        return None
    from interpreter import __version__

    key = json.dumps([kind, source, *versions, __version__, sys.version.split()[0]])
    digest = sha256(key.encode()).hexdigest()[:16]
    folder = trusted_folder(root())
    if folder is None:
        return None
    path = folder / f"{kind}-{digest}.{suffix}"
    if not os.path.lexists(path):
        for old in folder.glob(f"{kind}-*.{suffix}"):
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()
    return path


# ------------------------------------------------------------------- trust
def _owner_only(status: os.stat_result, private: bool = False) -> bool:
    """Owned by this user and writable by nobody else (``private``: nor readable)."""
    if not hasattr(os, "getuid"):
        return True  # no user ids here: the MAC alone guards the files
    others = 0o077 if private else 0o022
    return status.st_uid == os.getuid() and not status.st_mode & others


def trusted_folder(folder: Path) -> Path | None:
    """``folder`` of the cache, made (mode 0700) if missing, or None where it cannot be
    made or is not this user's alone (then a warning, once per process). The folders
    between the cache's root and ``folder`` are checked too."""
    folder = Path(folder)
    known = _trusted_folders.get(str(folder))
    if known is not None:
        return folder if known else None
    base = root()
    chain = [folder]
    while chain[-1] != base and base in chain[-1].parents:
        chain.append(chain[-1].parent)
    ok = True
    for step in reversed(chain):
        if not _check_folder(step):
            ok = False
            break
    _trusted_folders[str(folder)] = ok
    return folder if ok else None


def _check_folder(folder: Path) -> bool:
    known = _trusted_folders.get(str(folder))
    if known is not None:
        return known
    try:
        if not folder.is_dir():
            os.makedirs(folder, mode=0o700, exist_ok=True)
        status = os.stat(folder)  # a link to a folder is judged by that folder
    except (OSError, RuntimeError):  # read-only file system, no home folder
        _trusted_folders[str(folder)] = False
        return False
    ok = stat.S_ISDIR(status.st_mode) and _owner_only(status)
    if not ok:
        _warn(
            f"warning: the cache folder {folder} is not this user's alone "
            f"(owner uid {status.st_uid}, mode {stat.S_IMODE(status.st_mode):04o}): going on "
            "without the cache",
            f"make it yours and private (chmod 700 {folder}), or remove it",
        )
    _trusted_folders[str(folder)] = ok
    return ok


def _warn(message: str, hint: str) -> None:
    if message in _warned:
        return
    _warned.append(message)
    with contextlib.suppress(Exception):
        sys.stderr.write(f"{message}\n     = hint: {hint}\n")


def _secret() -> bytes | None:
    """This user's secret key (``key`` in the cache's root), made on first use; None
    where it cannot be read or made, or is not private (then no cache at all)."""
    base = root()
    if str(base) in _keys:
        return _keys[str(base)]
    folder = trusted_folder(base)
    key = None if folder is None else _read_key(folder / KEY_NAME)
    if key is None and folder is not None and not os.path.lexists(folder / KEY_NAME):
        made = os.urandom(KEY_BYTES)
        # made whole beside it, then linked in: another process never reads half a key,
        # and of two processes making one at once, both use the one that was linked first
        temporary = None
        with contextlib.suppress(OSError):
            descriptor, temporary = new_file_beside(folder / KEY_NAME)  # mode 0600
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(made)
            with contextlib.suppress(FileExistsError):
                os.link(temporary, folder / KEY_NAME)
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        key = _read_key(folder / KEY_NAME)
    if key is None and folder is not None:
        _warn(
            f"warning: the cache's key {folder / KEY_NAME} cannot be read, or is not this "
            "user's alone: going on without the cache",
            f"remove it (a new one is made): rm {folder / KEY_NAME}",
        )
    _keys[str(base)] = key
    return key


def _read_key(path: Path) -> bytes | None:
    data = _read_owned(path, KEY_BYTES, private=True)
    return data if data is not None and len(data) == KEY_BYTES else None


def _read_owned(path: Path, limit: int, private: bool = False) -> bytes | None:
    """The bytes of a regular file this user alone can write, opened without following
    a link; None otherwise (missing, a link, a device, someone else's, too large)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError:
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or not _owner_only(status, private):
            return None
        if status.st_size > limit:
            return None
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            data = handle.read(limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(descriptor)


def _mac(key: bytes, path: Path, data: bytes) -> bytes:
    """HMAC-SHA256 of the file's name and bytes: an entry copied under another name
    is a miss too."""
    import hmac

    return hmac.digest(key, path.name.encode() + b"\0" + data, "sha256")


def read_entry(path: Path | None, limit: int = MAX_ENTRY_BYTES) -> bytes | None:
    """The bytes this user's process wrote with ``write_entry`` at ``path``, or None (no
    cache, no file, a file that is not trusted, or whose MAC is missing or wrong)."""
    if path is None or not enabled() or trusted_folder(path.parent) is None:
        return None
    key = _secret()
    if key is None:
        return None
    data = _read_owned(path, limit + MAC_BYTES)
    if data is None or len(data) < MAC_BYTES:
        return None
    import hmac

    body = data[MAC_BYTES:]
    return body if hmac.compare_digest(data[:MAC_BYTES], _mac(key, path, body)) else None


def write_entry(path: Path | None, data: bytes) -> bool:
    """Keep ``data`` at ``path`` with its MAC (whole or not at all; a link at ``path``
    is replaced, never followed). False where it is not kept: the cache only loses speed."""
    if path is None or not enabled() or trusted_folder(path.parent) is None:
        return False
    key = _secret()
    if key is None:
        return False
    mac = _mac(key, path, data)

    def write(handle) -> None:
        handle.write(mac)
        handle.write(data)

    return write_atomically(path, write)


def forget() -> None:
    """Forget what this process learnt of the cache (folders checked, the key, the
    warnings given): for a process that changes ``XDG_CACHE_HOME``, such as a test."""
    _trusted_folders.clear()
    _keys.clear()
    _warned.clear()
