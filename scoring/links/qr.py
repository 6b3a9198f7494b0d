"""QR codes of links, drawn by segno (pure Python, no imaging library): an SVG file
for the API's `qr` address, and an inline <svg> for printed cards and sheets."""

from __future__ import annotations

import io

import segno


def _qr(url: str) -> segno.QRCode:
    # Error correction M: a card can be creased or smudged and still read.
    return segno.make(url, error="m", micro=False)


def qr_svg(url: str) -> bytes:
    """A QR code of `url` as an SVG file, with its white quiet zone."""
    out = io.BytesIO()
    _qr(url).save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff")
    return out.getvalue()


def qr_inline(url: str) -> str:
    """The same QR code as an <svg> element for a printed page (no request per
    card); segno writes only a path, no script and no style."""
    return _qr(url).svg_inline(
        scale=4, border=4, dark="#000", light="#fff", omitsize=True
    )
