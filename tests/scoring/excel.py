"""Reading the workbooks the site produces, as a person opening them in Excel would."""

from __future__ import annotations

import io

from openpyxl import load_workbook

from scoring.excel.workbook import HEADER_ROW


def workbook(content: bytes):
    return load_workbook(io.BytesIO(content))


def table(book, name: str) -> list[dict]:
    """The rows of a table sheet as dicts keyed by its header row; blank rows out."""
    ws = book[name]
    rows = list(ws.iter_rows(min_row=HEADER_ROW, values_only=True))
    header = rows[0]
    return [
        dict(zip(header, row, strict=True))
        for row in rows[1:]
        if any(v is not None for v in row)
    ]


def every(api, url: str) -> list[dict]:
    """Every item of a paginated list."""
    answer = api.get(url + ("&" if "?" in url else "?") + "page_size=1000")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    return data["results"] if isinstance(data, dict) else data
