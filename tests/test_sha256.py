"""SHA-256 without OpenSSL: the same digests, and `rules --help` never starts OpenSSL."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from interpreter.sha256 import sha256


def test_the_digests_are_hashlib_s() -> None:
    for data in (b"", b"abc", bytes(range(256)) * 300):
        assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert sha256(b"abc").digest() == hashlib.sha256(b"abc").digest()


def test_rules_help_does_not_import_openssl() -> None:
    code = (
        "import sys; from interpreter.cli.main import main; sys.argv = ['rules', '--help']\n"
        "try: main()\nexcept SystemExit: pass\n"
        "print('_hashlib' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"
