"""Uploaded workbooks, as the site's settings limit them (tournament.xlsx.read)."""

from __future__ import annotations

from django.conf import settings

from tournament.xlsx.read import XlsxLimits


def xlsx_limits() -> XlsxLimits:
    """The limits of an uploaded workbook: XlsxLimits' defaults, with any of them
    changed by the setting XLSX_IMPORT_LIMITS (docs/imports.md)."""
    return XlsxLimits(**settings.XLSX_IMPORT_LIMITS)


def upload_content(upload) -> bytes:
    """An uploaded file's bytes, at most one past the upload limit: a larger file is
    then refused by its size without being read whole."""
    return upload.read(xlsx_limits().upload + 1)
