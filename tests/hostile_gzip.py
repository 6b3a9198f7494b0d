"""Hostile gzip files for the backup readers' tests (docs/backups.md, "Hostile
files"): a bomb built from one deflate block repeated (tests/hostile_xlsx.py), so a
600 MB one takes a fraction of a second to build and never exists inflated."""

from __future__ import annotations

import gzip
import struct

from tests.hostile_xlsx import MB, bomb


def gzip_bomb(inflated: int = 600 * MB, letter: bytes = b"\0", prefix=b"") -> bytes:
    """One gzip member of `prefix` then `letter` repeated: `inflated` bytes in all."""
    part = bomb(prefix, letter, b"", unpacked=inflated)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    return header + part.data + struct.pack("<II", part.crc, part.size % 2**32)


def deep_line(depth: int = 200_000) -> bytes:
    """The issue's file: one line of JSON nested `depth` deep, gzip-compressed."""
    return gzip.compress(b"[" * depth + b"]" * depth + b"\n")
