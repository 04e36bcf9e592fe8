"""QR codes for printed sheets: an address as an inline SVG (segno), no image file and no script."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, *, title: str) -> SafeString:
    """``url`` as a QR code in an ``<svg>`` of its own, with ``title`` for screen readers."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=3, border=2, title=title, svgclass="qr", lineclass=None)
    return mark_safe(svg)
