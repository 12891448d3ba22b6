"""SHA-256 without starting OpenSSL.

``hashlib`` imports ``_hashlib``, which initialises OpenSSL: 5–8 ms of every `rules`
process, a tenth of `rules --help` and of a `validate` that finds its verdict stored.
CPython's own SHA-256, the one ``hashlib`` falls back to, is ready in 0.2 ms and fast
enough for what is hashed here (rules files, cache keys, a state's JSON); the digests
are the same.
"""

from __future__ import annotations

try:
    from _sha2 import sha256  # CPython 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256  # CPython 3.11
    except ImportError:  # another Python
        from hashlib import sha256

__all__ = ["sha256"]
