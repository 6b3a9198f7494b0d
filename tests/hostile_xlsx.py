"""Hostile .xlsx files, built in memory for the tests and the uploads bench: a real
workbook with some of its parts replaced. No large file is kept anywhere.

A decompression bomb is built without ever holding what it unpacks to: after a full
flush, deflate starts afresh, so a chunk of one repeated letter compresses to the same
bytes every time, and the stream is the prefix's bytes, that block N times, and the
suffix's; its CRC is combined arithmetically (crc32_combine, as zlib does it). Each
bomb is a real one: `zipfile` unpacks it to its declared size with the right CRC
(test_hostile_xlsx.py checks that, streaming, for the smaller ones).
"""

from __future__ import annotations

import io
import secrets
import struct
import zipfile
import zlib
from dataclasses import dataclass

from tests.spreadsheets import team_list_xlsx

MB = 1024 * 1024
MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
TEAMS = [["Edison Aces", "Jose Kurian", "Edison", "NJ", "USA", "Anil", "Biju"]]


@dataclass(frozen=True)
class Part:
    data: bytes  # as stored in the archive
    size: int  # unpacked
    crc: int
    method: int = zipfile.ZIP_DEFLATED


def deflated(content: bytes) -> Part:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return Part(
        packer.compress(content) + packer.flush(), len(content), zlib.crc32(content)
    )


def _gf2_times(matrix: list[int], vector: int) -> int:
    total, row = 0, 0
    while vector:
        if vector & 1:
            total ^= matrix[row]
        vector >>= 1
        row += 1
    return total


def _gf2_square(matrix: list[int]) -> list[int]:
    return [_gf2_times(matrix, matrix[n]) for n in range(32)]


def crc32_combine(crc1: int, crc2: int, length2: int) -> int:
    """The CRC-32 of A+B from those of A and B and B's length (zlib's method: apply
    length2 zero bytes to crc1 by squaring the operator of one zero bit)."""
    if length2 <= 0:
        return crc1
    odd = [0xEDB88320] + [1 << n for n in range(31)]  # one zero bit
    even = _gf2_square(odd)  # two
    odd = _gf2_square(even)  # four
    while True:
        even = _gf2_square(odd)
        if length2 & 1:
            crc1 = _gf2_times(even, crc1)
        length2 >>= 1
        if not length2:
            break
        odd = _gf2_square(even)
        if length2 & 1:
            crc1 = _gf2_times(odd, crc1)
        length2 >>= 1
        if not length2:
            break
    return crc1 ^ crc2


def bomb(
    prefix: bytes,
    letter: bytes,
    suffix: bytes,
    *,
    unpacked: int | None = None,
    packed: int | None = None,
) -> Part:
    """prefix + the letter repeated + suffix, deflated: `unpacked` bytes in all, or as
    many as `packed` bytes of deflate hold."""
    chunk = letter * (MB // len(letter))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = packer.compress(prefix) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    again = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    assert block == again, "deflate did not start afresh after a full flush"
    tail = packer.compress(suffix) + packer.flush()
    if packed is not None:
        times = (packed - len(head) - len(tail)) // len(block)
    else:
        times = max(1, ((unpacked or MB) - len(prefix) - len(suffix)) // len(chunk))
    unit, length = zlib.crc32(chunk), len(chunk)
    repeated, left = 0, times
    while left:  # the CRC of `chunk` * times, by doubling
        if left & 1:
            repeated = crc32_combine(repeated, unit, length)
        unit = crc32_combine(unit, unit, length)
        length *= 2
        left >>= 1
    crc = crc32_combine(zlib.crc32(prefix), repeated, times * len(chunk))
    crc = crc32_combine(crc, zlib.crc32(suffix), len(suffix))
    size = len(prefix) + times * len(chunk) + len(suffix)
    return Part(head + block * times + tail, size, crc)


def zip_build(parts: dict[str, Part]) -> bytes:
    """A zip archive of `parts`, written by hand (zipfile cannot store data that is
    compressed already)."""
    out = io.BytesIO()
    central = []
    for name, part in parts.items():
        assert part.size < 2**32 and len(part.data) < 2**32, "no zip64 here"
        offset, raw = out.tell(), name.encode()
        fields = (20, 0, part.method, 0, 0x21, part.crc, len(part.data), part.size)
        out.write(struct.pack("<4sHHHHHIII", b"PK\x03\x04", *fields))
        out.write(struct.pack("<HH", len(raw), 0) + raw + part.data)
        central.append(
            struct.pack("<4sH", b"PK\x01\x02", 20)
            + struct.pack("<HHHHHIII", *fields)
            + struct.pack("<HHHHHII", len(raw), 0, 0, 0, 0, 0, offset)
            + raw
        )
    start = out.tell()
    for entry in central:
        out.write(entry)
    ending = (0, 0, len(central), len(central), out.tell() - start, start, 0)
    out.write(struct.pack("<4sHHHHIIH", b"PK\x05\x06", *ending))
    return out.getvalue()


def team_list_parts() -> dict[str, Part]:
    """The parts of a real team list (openpyxl's), to replace some of."""
    with zipfile.ZipFile(team_list_xlsx(TEAMS)) as archive:
        return {i.filename: deflated(archive.read(i)) for i in archive.infolist()}


def with_named(replaced: dict[str, Part | bytes]) -> bytes:
    """The team list with parts replaced or added. A shared-strings part is entered
    in the content types and the workbook's relationships, so that openpyxl reads
    it (openpyxl writes its own strings inline)."""
    parts = team_list_parts()
    for name, part in replaced.items():
        parts[name] = part if isinstance(part, Part) else deflated(part)
    if SHARED in replaced:
        types = _unpacked(parts["[Content_Types].xml"]).replace(
            b"</Types>",
            b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
            b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            b"</Types>",
        )
        rels = _unpacked(parts["xl/_rels/workbook.xml.rels"]).replace(
            b"</Relationships>",
            b'<Relationship Id="rIdStrings" Type="http://schemas.openxmlformats.org/'
            b'officeDocument/2006/relationships/sharedStrings" '
            b'Target="sharedStrings.xml"/></Relationships>',
        )
        parts["[Content_Types].xml"] = deflated(types)
        parts["xl/_rels/workbook.xml.rels"] = deflated(rels)
    return zip_build(parts)


def _unpacked(part: Part) -> bytes:
    return zlib.decompress(part.data, -15)


SHARED = "xl/sharedStrings.xml"
SHEET = "xl/worksheets/sheet1.xml"


STRINGS_HEAD = (
    f'<?xml version="1.0"?><sst {MAIN} count="1" uniqueCount="1"><si><t>'.encode()
)
STRINGS_TAIL = b"</t></si></sst>"


def strings_bomb(unpacked: int = 123 * MB) -> bytes:
    """The shared strings unpack to `unpacked` bytes: one string of "A"s."""
    part = bomb(STRINGS_HEAD, b"A", STRINGS_TAIL, unpacked=unpacked)
    return with_named({SHARED: part})


def many_strings_bomb(unpacked: int = 123 * MB) -> bytes:
    """The shared strings unpack to `unpacked` bytes of seven million short strings."""
    head = f'<?xml version="1.0"?><sst {MAIN}>'.encode()
    part = bomb(head, b"<si><t>A</t></si>", b"</sst>", unpacked=unpacked)
    return with_named({SHARED: part})


def limit_bomb(upload: int = 5 * MB) -> bytes:
    """A file just under the upload limit whose shared strings and worksheet are both
    bombs: it unpacks to about a thousand times its size."""
    per_part = (upload - 16 * 1024) // 2
    sheet = bomb(
        f'<?xml version="1.0"?><worksheet {MAIN}><sheetData><row r="1">'
        '<c r="A1" t="inlineStr"><is><t>'.encode(),
        b"B",
        b"</t></is></c></row></sheetData></worksheet>",
        packed=per_part,
    )
    strings = bomb(STRINGS_HEAD, b"A", STRINGS_TAIL, packed=per_part)
    content = with_named({SHARED: strings, SHEET: sheet})
    assert upload - 64 * 1024 < len(content) <= upload, len(content)
    return content


def _sheet(rows: str, dimension: str = "") -> bytes:
    return (
        f'<?xml version="1.0"?><worksheet {MAIN}>{dimension}<sheetData>{rows}'
        "</sheetData></worksheet>"
    ).encode()


def _row(number: int, *values: str) -> str:
    cells = "".join(
        f'<c r="{chr(65 + i)}{number}" t="inlineStr"><is><t>{v}</t></is></c>'
        for i, v in enumerate(values)
    )
    return f'<row r="{number}">{cells}</row>'


HEADER_ROW = _row(1, "Team", "Captain", "City", "State", "Country")
TEAM_ROW = _row(2, "Edison Aces", "Jose Kurian", "Edison", "NJ", "USA")


def dimension_bomb() -> bytes:
    """A worksheet that declares every row and column Excel has."""
    dimension = '<dimension ref="A1:XFD1048576"/>'
    return with_named({SHEET: _sheet(HEADER_ROW + TEAM_ROW, dimension)})


def empty_rows_bomb() -> bytes:
    """A team, then nothing until Excel's last row: a million blank rows to read."""
    last = _row(1048576, "Late Team", "Late Captain", "Edison", "NJ", "USA")
    return with_named({SHEET: _sheet(HEADER_ROW + TEAM_ROW + last)})


def wide_row() -> bytes:
    """One empty cell in Excel's last column: every row padded to 16,384 cells."""
    far = '<row r="3"><c r="XFD3"/></row>'
    return with_named({SHEET: _sheet(HEADER_ROW + TEAM_ROW + far)})


def long_cell(characters: int = 2 * MB) -> bytes:
    """A team whose name is `characters` long, of letters that do not compress."""
    name = secrets.token_urlsafe(characters)[:characters]
    return with_named(
        {SHEET: _sheet(HEADER_ROW + _row(2, name, "Jose", "Edison", "NJ", "USA"))}
    )


def deep_xml(depth: int = 100_000) -> bytes:
    """A shared string nested `depth` elements deep."""
    nested = "<r>" * depth + "</r>" * depth
    return with_named(
        {SHARED: f'<?xml version="1.0"?><sst {MAIN}><si>{nested}</si></sst>'.encode()}
    )


def external_entity(target: str = "file:///etc/hostname") -> bytes:
    """A shared string that is an external entity naming a file of the server."""
    return with_named(
        {
            SHARED: (
                '<?xml version="1.0"?>'
                f'<!DOCTYPE sst [<!ENTITY leak SYSTEM "{target}">]>'
                f"<sst {MAIN}><si><t>&leak;</t></si></sst>"
            ).encode()
        }
    )


def laughs() -> bytes:
    """The billion laughs: entities of entities."""
    entities = '<!ENTITY a0 "ha">' + "".join(
        f'<!ENTITY a{n} "{f"&a{n - 1};" * 10}">' for n in range(1, 10)
    )
    return with_named(
        {
            SHARED: (
                f'<?xml version="1.0"?><!DOCTYPE sst [{entities}]>'
                f"<sst {MAIN}><si><t>&a9;</t></si></sst>"
            ).encode()
        }
    )


def lying_size() -> bytes:
    """A worksheet whose directory says 200 bytes and whose data unpacks to 50 MB."""
    real = bomb(b"<worksheet>", b"C", b"</worksheet>", unpacked=50 * MB)
    return with_named({SHEET: Part(real.data, 200, real.crc)})


def many_parts(count: int = 2_001) -> bytes:
    return with_named({f"xl/media/image{n}.png": b"x" for n in range(count)})


def many_worksheets(count: int = 501) -> bytes:
    sheet = _sheet(HEADER_ROW)
    return with_named(
        {f"xl/worksheets/sheet{n}.xml": sheet for n in range(2, count + 2)}
    )
