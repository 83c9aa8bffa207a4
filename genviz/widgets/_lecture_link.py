"""The lecture page's address and QR code, for the lecturer's panel (issue #37).

Students join the lecture on their phones at the poll service's page
(``<hub>/services/genviz-poll/lecture/``, deploy/poll/lecture.py): no server of their own. The
lecturer's panel (:class:`genviz.widgets.room.LecturerPanel`) shows that address, large, and a
QR code of it when the pure-Python encoder ``segno`` is installed (the ``hub`` extra).

The address comes from the hub's configuration: ``GENVIZ_LECTURE_URL`` (set by
deploy/poll/hub_config.py when the hub's public address is known), else the hub's public
address that JupyterHub gives every server (``JUPYTERHUB_PUBLIC_HUB_URL``, set when the hub has
``c.JupyterHub.public_url``), else None.

>>> lecture_page_url({"JUPYTERHUB_PUBLIC_HUB_URL": "https://hub.example/base/hub/"})
'https://hub.example/base/services/genviz-poll/lecture/'
>>> lecture_page_url({}) is None
True
"""

from __future__ import annotations

import html
import os
from urllib.parse import urlparse

try:  # optional (the hub extra): without it the panel shows the address alone
    import segno
except ImportError:  # pragma: no cover - depends on the environment
    segno = None

__all__ = ["lecture_page_url", "qr_svg", "lecture_link_html"]

SERVICE = "genviz-poll"


def lecture_page_url(env=None) -> str | None:
    """The lecture page's public address, or None when the hub does not say it."""
    env = os.environ if env is None else env
    url = str(env.get("GENVIZ_LECTURE_URL", "") or "").strip()
    if url:
        return url
    hub = str(env.get("JUPYTERHUB_PUBLIC_HUB_URL", "") or "").strip().rstrip("/")
    if not hub or not urlparse(hub).scheme:
        return None
    if hub.endswith("/hub"):
        hub = hub[:-4]
    return f"{hub}/services/{SERVICE}/lecture/"


def qr_svg(url: str, *, scale: int = 5) -> str | None:
    """The QR code of ``url`` as inline SVG (``segno``, error correction M), or None without
    segno.

    Raises
    ------
    TypeError, ValueError
        ``url`` is not a non-empty string, or ``scale`` not a positive integer.
    """
    if not isinstance(url, str) or not url.strip():
        raise (TypeError if not isinstance(url, str) else ValueError)(
            f"url must be a non-empty string, got {url!r}")
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise ValueError(f"scale must be a positive integer, got {scale!r}")
    if segno is None:
        return None
    qr = segno.make(url, error="m", micro=False)
    return qr.svg_inline(scale=scale, border=2, dark="#000", light="#fff")


def lecture_link_html(url: str | None) -> str:
    """What the lecturer's panel shows: the address, large, and its QR code (or a sentence
    saying how to get one)."""
    if url is None:
        return ("<div class='genviz-lecture-link' style='font-size:16px'>Phones: the hub's "
                "<code>/services/genviz-poll/lecture/</code> (the hub's public address is not "
                "configured, so no QR code).</div>")
    svg = qr_svg(url)
    code = svg if svg is not None else ("<i>(install <code>segno</code>, the hub extra, for "
                                        "a QR code)</i>")
    return (f"<div class='genviz-lecture-link' style='display:flex;gap:16px;align-items:center;"
            f"font-size:20px'>{code}<div>On your phone:<br><b>{html.escape(url)}</b></div></div>")
