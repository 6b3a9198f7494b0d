"""Team lists as .xlsx files, made in memory for the tests."""

import io

from openpyxl import Workbook

HEADER = ["Team", "Captain", "City", "State", "Country", "Player 2", "Player 3"]


def team_list_xlsx(rows, header=HEADER, title=None) -> io.BytesIO:
    """A workbook with a Teams sheet: an optional title row, the header, then `rows`."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Teams"
    if title:
        sheet.append([title])
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    buffer.seek(0)
    buffer.name = "teams.xlsx"
    return buffer
