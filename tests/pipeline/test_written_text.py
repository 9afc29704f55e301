"""One text judged and written (docs/filters.md, "Which text is judged"): every signal of the text
filters, the content hash and the MinHash signature of a row are those of the row's `text`, the
text the dataset holds; only C4's signals read that text with its unterminated lines removed."""

from __future__ import annotations

import itertools
import math

import polars as pl
from warcio.archiveiterator import ArchiveIterator

from conftest import ROOT, cli, write_warc
from filters.corpus.dedup import content_hash, simhash64, to_int64
from filters.corpus.minhash import sketch
from filters.text.c4 import nopunc_clean
from filters.text.gopher import gopher_signals
from filters.text.language_id import language_signals
from filters.text.tokens import token_count


def signals_of(text: str, simhash: bool) -> dict:
    """Each text filter's signals of `text` itself, from the filters' own functions (not from the
    extract step that is under test); C4's are those of its line removal. The simhash only when
    extraction computes it (`extract.simhash`)."""
    return {"token_count": token_count(text), "content_hash": content_hash(text),
            "simhash64": to_int64(simhash64(text)) if simhash else None, **language_signals(text),
            **nopunc_clean(text)[1], **gopher_signals(text)}


def extracted_rows(inputs, work, *options: object) -> pl.DataFrame:
    """The rows `pipeline extract --extract-all` writes for `inputs`, those with a text."""
    assert cli("extract", inputs, "--out", work, "--extract-all", *options) == 0
    frame = pl.read_parquet(sorted((work / "extract").glob("*.parquet")))
    return frame.filter(pl.col("text").is_not_null() & (pl.col("text") != ""))


def same(stored, computed) -> bool:
    if isinstance(stored, float) and isinstance(computed, float):
        return math.isclose(stored, computed, rel_tol=1e-9, abs_tol=1e-12) or (math.isnan(stored) and
                                                                               math.isnan(computed))
    return stored == computed


def assert_signals_are_the_written_texts(rows: pl.DataFrame, simhash: bool = False) -> int:
    """Recompute each row's text signals and signature from its `text`; returns the rows checked."""
    for text, signals in zip(rows["text"], rows["signals"], strict=True):
        computed = signals_of(text, simhash)
        if signals["text_language"] != "en":
            computed["gopher_stop_word_count"] = None  # an English rule: null for other languages
        differing = {name: (signals[name], value) for name, value in computed.items() if not same(signals[name], value)}
        assert not differing, (text[:80], differing)
        signature, shingles = sketch(text)
        assert signals["minhash"] == signature and signals["minhash_shingles"] == shingles
    return rows.height


def test_the_sample_is_judged_on_the_text_it_writes(tmp_path):
    assert assert_signals_are_the_written_texts(extracted_rows(ROOT / "data" / "sample", tmp_path / "work")) >= 10
    (tmp_path / "simhash.yaml").write_text("extract:\n  simhash: true\n")  # the simhash, where it is computed
    rows = extracted_rows(ROOT / "data" / "sample", tmp_path / "simhash", "--params", tmp_path / "simhash.yaml")
    assert assert_signals_are_the_written_texts(rows, simhash=True) >= 10


def test_real_pages_are_judged_on_the_text_they_write(shared_corpora, tmp_path):
    """60 real pages of every type (wcxb-dev), extracted whatever the gate says: headings, lists
    and captions that C4 would remove are in `text`, and Gopher and the keys see them."""
    records = []
    with open(shared_corpora / "wcxb-dev.warc.gz", "rb") as stream:
        responses = (r for r in ArchiveIterator(stream) if r.rec_type == "response")
        for record in itertools.islice(responses, 0, 1200, 20):
            records.append((record.rec_headers.get_header("WARC-Target-URI"), record.content_stream().read(), {}))
    write_warc(tmp_path / "real.warc.gz", records)
    rows = extracted_rows(tmp_path / "real.warc.gz", tmp_path / "work")
    assert assert_signals_are_the_written_texts(rows) >= 50
    # the invariant matters: on these pages C4 would remove words from most texts
    removed = rows["signals"].struct.field("c4_removed_word_fraction")
    assert (removed > 0).mean() > 0.5
