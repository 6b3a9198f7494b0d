"""Opening an uploaded workbook without letting it take the server down.

An .xlsx is a zip of XML parts, and a zip can unpack to a thousand times its size: a
5 MB upload can hold gigabytes of shared strings, a worksheet that declares a million
columns, a million empty rows, one cell of a hundred million characters, XML nested a
million deep, or an entity that names a file of the server. openpyxl reads whatever it
is given. So before openpyxl sees a byte, `workbook_open` checks the archive from its
directory (sizes, ratio, parts, worksheets) and scans every XML part with expat for
depth, a DTD or an entity; and while a worksheet is read, `sheet_rows` counts the rows
and columns actually visited (blank ones count) and the length of each cell. A file
past a limit is refused at once, with the limit in words (XlsxRefused); nothing was
written. Every limit is a field of XlsxLimits, sized for the largest real file with
room to spare (docs/imports.md). No Django here: the callers pass the limits.

The archive's directory can lie about a part's size: Python's zipfile never unpacks a
part past the size its directory gives, and fails its CRC when the data goes on, so
the sizes checked here are the most openpyxl can be given.
"""

from __future__ import annotations

import contextlib
import io
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import ParseError
from xml.parsers import expat

from tournament.domain.errors import filled, marked

MB = 1024 * 1024


@dataclass(frozen=True)
class XlsxLimits:
    """What an uploaded workbook may be. The largest real files: a 2,000-team list
    unpacks to 0.8 MB in 9 parts; a round of 250 paper score sheets to 2.8 MB in 258
    parts, its most compressed part 33 to 1."""

    upload: int = 5 * MB  # the file as uploaded
    unpacked: int = 48 * MB  # all its parts together, unpacked
    part: int = 16 * MB  # any one part, unpacked
    ratio: int = 100  # unpacked to packed, of the file and of any part over 1 MB
    parts: int = 2_000
    worksheets: int = 500
    rows: int = 10_000  # rows visited in one worksheet, blank rows included
    columns: int = 100  # columns visited in one row
    cell: int = 32_767  # characters in one cell (Excel's own limit)
    depth: int = 64  # XML nesting (a workbook's parts nest about 10 deep)
    strings: int = 200_000  # shared strings


class XlsxRefused(Exception):
    """The file is past a limit, or damaged; `message` says which, in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _mb(size: int) -> str:
    return f"{size / MB:g} MB"


def _xml_parts(info: zipfile.ZipInfo) -> bool:
    return info.filename.endswith((".xml", ".rels", ".vml"))


def archive_check(content: bytes, limits: XlsxLimits) -> zipfile.ZipFile:
    """The archive, once its directory is within the limits and its XML parts are
    shallow and declare nothing; XlsxRefused otherwise."""
    if len(content) > limits.upload:
        raise XlsxRefused(
            "file_too_large",
            filled(
                marked("the file is larger than %(size)s"),
                size=_mb(limits.upload),
            ),
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError):
        raise XlsxRefused(
            "not_xlsx", marked("the file is not an .xlsx workbook")
        ) from None
    if len(infos) > limits.parts:
        raise XlsxRefused(
            "too_many_parts",
            filled(
                marked("the file has more than %(parts)s parts"),
                parts=f"{limits.parts:,}",
            ),
        )
    total = sum(i.file_size for i in infos)
    if total > limits.unpacked:
        raise XlsxRefused(
            "unpacks_too_large",
            filled(
                marked("the file unpacks to more than %(size)s"),
                size=_mb(limits.unpacked),
            ),
        )
    packed = sum(i.compress_size for i in infos)
    if total > MB and total > limits.ratio * max(packed, 1):
        raise XlsxRefused(
            "compressed_too_much",
            filled(
                marked("the file is compressed more than %(ratio)s to 1"),
                ratio=limits.ratio,
            ),
        )
    for info in infos:
        if info.file_size > limits.part:
            raise XlsxRefused(
                "part_too_large",
                filled(
                    marked(
                        "a part of the file (%(filename)s) unpacks to more than "
                        "%(size)s"
                    ),
                    filename=info.filename,
                    size=_mb(limits.part),
                ),
            )
        if info.file_size > MB and info.file_size > limits.ratio * max(
            info.compress_size, 1
        ):
            raise XlsxRefused(
                "compressed_too_much",
                filled(
                    marked(
                        "a part of the file (%(filename)s) is compressed more than "
                        "%(ratio)s to 1"
                    ),
                    filename=info.filename,
                    ratio=limits.ratio,
                ),
            )
    sheets = sum(i.filename.startswith("xl/worksheets/sheet") for i in infos)
    if sheets > limits.worksheets:
        raise XlsxRefused(
            "too_many_worksheets",
            filled(
                marked("the file has more than %(sheets)s worksheets"),
                sheets=f"{limits.worksheets:,}",
            ),
        )
    for info in infos:
        if _xml_parts(info):
            _xml_check(archive, info, limits)
    return archive


class _Refuse(Exception):
    pass


def _xml_check(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limits) -> None:
    """One XML part, streamed through expat: refused when it nests deeper than the
    limit, declares a DTD or an entity (a workbook never does; an external entity
    would read a file of the server), or holds more shared strings than the limit."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    depth = 0
    strings = 0
    shared = info.filename == "xl/sharedStrings.xml"

    def start(name: str, _attributes: Any) -> None:
        nonlocal depth, strings
        depth += 1
        if depth > limits.depth:
            raise _Refuse(
                "xml_too_deep",
                f"the file's XML ({info.filename}) nests deeper than "
                f"{limits.depth} levels",
            )
        if shared and depth == 2:
            strings += 1
            if strings > limits.strings:
                raise _Refuse(
                    "too_many_strings",
                    f"the file has more than {limits.strings:,} shared strings",
                )

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    def declared(*_args: Any) -> None:
        raise _Refuse(
            "xml_declarations",
            f"the file's XML ({info.filename}) declares a DTD or entities, "
            "which a workbook never does",
        )

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = declared
    parser.EntityDeclHandler = declared
    parser.ExternalEntityRefHandler = declared
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(256 * 1024):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except _Refuse as refused:
        raise XlsxRefused(*refused.args) from None
    except (expat.ExpatError, zipfile.BadZipFile, zlib.error, EOFError, OSError):
        raise XlsxRefused(
            "damaged",
            filled(
                marked("the file is damaged: its part %(filename)s cannot be read"),
                filename=info.filename,
            ),
        ) from None


# What openpyxl may raise on a file that passed the checks but is not what it says.
_DAMAGED = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    ParseError,
    KeyError,
    ValueError,
    TypeError,
    IndexError,
    OSError,
)


@contextlib.contextmanager
def workbook_open(content: bytes, limits: XlsxLimits) -> Iterator[Any]:
    """The workbook (openpyxl, read-only, values only), opened once the archive passed
    `archive_check`, and closed after. A file that openpyxl cannot read is refused as
    damaged, here and while its rows are read."""
    from openpyxl import load_workbook  # after the checks, and only then

    archive = archive_check(content, limits)
    archive.close()
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except _DAMAGED:
        raise XlsxRefused(
            "not_xlsx", marked("the file is not an .xlsx workbook")
        ) from None
    try:
        if len(workbook.sheetnames) > limits.worksheets:
            raise XlsxRefused(
                "too_many_worksheets",
                filled(
                    marked("the file has more than %(sheets)s worksheets"),
                    sheets=f"{limits.worksheets:,}",
                ),
            )
        yield workbook
    finally:
        workbook.close()


def sheet_rows(worksheet: Any, limits: XlsxLimits) -> Iterator[tuple[Any, ...]]:
    """The worksheet's rows as values, from row 1, the blank ones included, within
    the limits: refused at the first row past `rows` (blank rows count), the first
    row reaching past `columns` (a cell, even an empty one, beyond it), the first cell
    longer than `cell`. A worksheet that declares a dimension past the limits is
    refused before a row is read; then the declared dimension is set aside (a forged
    one would pad every row to it) and the rows are counted as they come."""
    title = worksheet.title
    declared_rows = worksheet.max_row or 0
    declared_columns = worksheet.max_column or 0
    if declared_rows > limits.rows or declared_columns > limits.columns:
        raise XlsxRefused(
            "too_large_a_worksheet",
            filled(
                marked(
                    "the worksheet '%(title)s' declares %(rows)s rows and %(columns)s "
                    "columns; a worksheet here has at most %(most)s rows and "
                    "%(most_columns)s columns"
                ),
                title=title,
                rows=f"{declared_rows:,}",
                columns=f"{declared_columns:,}",
                most=f"{limits.rows:,}",
                most_columns=limits.columns,
            ),
        )
    worksheet.reset_dimensions()
    number = 0
    try:
        for number, values in enumerate(worksheet.iter_rows(values_only=True), 1):
            if number > limits.rows:
                raise XlsxRefused(
                    "too_many_rows",
                    filled(
                        marked(
                            "the worksheet '%(title)s' goes on past row %(most)s "
                            "(blank "
                            "rows count)"
                        ),
                        title=title,
                        most=f"{limits.rows:,}",
                    ),
                )
            if len(values) > limits.columns:
                raise XlsxRefused(
                    "too_many_columns",
                    filled(
                        marked(
                            "row %(number)s of the worksheet '%(title)s' reaches past "
                            "column %(columns)s"
                        ),
                        number=number,
                        title=title,
                        columns=limits.columns,
                    ),
                )
            for column, value in enumerate(values, 1):
                if isinstance(value, str) and len(value) > limits.cell:
                    raise XlsxRefused(
                        "cell_too_long",
                        filled(
                            marked(
                                "a cell of the worksheet '%(title)s' (row %(number)s, "
                                "column %(column)s) holds more than %(most)s characters"
                            ),
                            title=title,
                            number=number,
                            column=column,
                            most=f"{limits.cell:,}",
                        ),
                    )
            yield tuple(values)
    except XlsxRefused:
        raise
    except _DAMAGED:
        raise XlsxRefused(
            "damaged",
            filled(
                marked(
                    "the file is damaged: the worksheet '%(title)s' cannot be read "
                    "past "
                    "row %(number)s"
                ),
                title=title,
                number=number,
            ),
        ) from None
