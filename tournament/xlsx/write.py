"""What every workbook of the site shares, with no Django: typed text stays text.

openpyxl writes a string that starts with "=" as a formula and one that reads like an
error code ("#N/A") as an error, and Excel runs a formula when the file is opened: a
team registered as `=HYPERLINK("http://…","y")` would become a live link in the
organizer's workbook (OWASP "CSV injection", the same in .xlsx). So every string a
workbook of this site holds is written through `text_cell` or `put`:

- its cell is a string cell, whatever the string looks like, so it reads back exactly
  as typed (`=1+1` is the five characters `=1+1`);
- a string that Excel would turn into a formula once someone edits the cell (it starts
  with `=`, `+`, `-`, `@`, a tab or a carriage return) also carries Excel's quote
  prefix, the mark Excel itself sets when a person types a leading apostrophe: the
  cell stays text in Excel's editor too;
- characters XML 1.0 cannot hold (control characters other than tab, line feed and
  carriage return, U+FFFE, U+FFFF) are dropped: nobody types them, and one must not
  stop an export.

Numbers, dates and booleans are written as they are: they are never formulas.
"""

from __future__ import annotations

import re
from typing import Any

from openpyxl.cell import WriteOnlyCell

# What Excel's editor reads as the start of a formula (or of a command, for tab/CR in
# the CSV world): such text keeps a quote prefix.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# What XML 1.0 cannot hold: control characters but tab, line feed and carriage return,
# lone surrogates, and the two non-characters U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(value: str) -> str:
    """`value` without the characters an .xlsx file cannot hold."""
    return _NOT_XML.sub("", value)


def _as_text(cell: Any, value: str) -> Any:
    cell.value = clean(value)
    cell.data_type = "s"  # never "f" (formula) nor "e" (error), whatever it reads
    if value.startswith(FORMULA_STARTS):
        cell.quotePrefix = True
    return cell


def text_cell(ws: Any, value: Any, **style: Any) -> Any:
    """A write-only cell for `value`: strings as text (above), other values as they
    are. `style` sets font, fill, border or number_format."""
    cell = WriteOnlyCell(ws)
    if isinstance(value, str):
        _as_text(cell, value)
    else:
        cell.value = value
    for name, setting in style.items():
        if setting is not None:
            setattr(cell, name, setting)
    return cell


def put(ws: Any, row: int, column: int, value: Any = None) -> Any:
    """Write `value` into a normal worksheet's cell (strings as text) and answer the
    cell, for styling."""
    cell = ws.cell(row=row, column=column)
    if isinstance(value, str):
        _as_text(cell, value)
    elif value is not None:
        cell.value = value
    return cell


def row_cells(ws: Any, values: Any) -> list[Any]:
    """A row for a write-only worksheet's `append`: every string as a text cell."""
    return [text_cell(ws, v) if isinstance(v, str) else v for v in values]
