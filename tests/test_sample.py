"""The bundled sample: deterministic, complete, and labelled consistently with docs/output.md."""

from __future__ import annotations

import difflib
import gzip
import json
import zlib
from collections import Counter
from pathlib import Path

import pytest
from lxml import html as lxml_html
from warcio.archiveiterator import ArchiveIterator

from filters.rules.reasons import GROUP_ORDER, RULES
from pipeline.sample import write_sample
from samplegen.content import DAMAGED_WARC, MANIFEST, SAMPLE_WARC, manifest_path

# Every code the manifest may name comes from the registry, so a renamed or removed rule fails here.
REASON_CODES = {rule.code for rule in RULES}
# Reason groups no record of the sample is built to fail (each is tested on hand-written pages
# under tests/filters and tests/pipeline); every other group in GROUP_ORDER must appear in the
# manifest, so a new group fails here until the sample covers it or it is listed with its reason.
GROUPS_NOT_IN_SAMPLE = {
    "error": "a record whose processing raised: the sample holds no crashing input",
    "extract": "every sample page yields text once it passed the pre-extraction rules",
    "lang": "the non-English article is kept (language allow-list off by default)",
    "c4": "the sample's articles are clean prose",
    "quality": "the sample's articles are clean prose",
    "dataset": "the per-site balance (dataset.host_min, dataset.host_cap) is off by default",
}
REQUIRED_KINDS = {
    "article_jsonld", "article_opengraph", "article_twitter_card", "short_post", "blog_listing", "tag_page",
    "category_page", "home_page", "paginated_list", "login_page", "search_page", "product_spec",
    "product_page", "article_buy_box",
    "nextjs_shell", "react_root_shell", "cookie_wall", "paywall", "template_page", "near_duplicate",
    "exact_duplicate", "url_duplicate", "non_english_article", "image", "pdf", "not_found_404",
    "redirect_301", "truncated_article", "empty_response", "undecodable_binary", "corrupt_region",
    "warcinfo", "request", "metadata", "revisit",
}
NON_DOCUMENTS = {"warcinfo", "request", "metadata", "revisit"}


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    out = tmp_path_factory.mktemp("sample")
    return out, write_sample(out)


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _entries(manifest: list[dict], file: str) -> list[dict]:
    return [e for e in manifest if e["file"] == file]


def _records(path: Path) -> list[tuple[int, object, bytes]]:
    """(offset, record, decoded payload) for every record, read with warcio."""
    out = []
    with path.open("rb") as fh:
        iterator = ArchiveIterator(fh)
        for record in iterator:
            out.append((iterator.offset, record, record.content_stream().read()))
    return out


def _record_at(sample: tuple[Path, list[dict]], kind: str) -> tuple[object, bytes]:
    out, manifest = sample
    offsets = {e["offset"] for e in _entries(manifest, SAMPLE_WARC) if e["kind"] == kind}
    found = [(rec, body) for offset, rec, body in _records(out / SAMPLE_WARC) if offset in offsets]
    assert found, kind
    return found[0]


def _article_words(page: bytes, encoding: str = "utf-8") -> int:
    tree = lxml_html.fromstring(page.decode(encoding))
    return sum(len(p.text_content().split()) for p in tree.xpath("//article/p[not(@class)]"))


# --- determinism and size -----------------------------------------------------------------------

def test_two_runs_are_byte_identical(tmp_path: Path) -> None:
    first = write_sample(tmp_path / "a")
    second = write_sample(tmp_path / "b")
    assert first == second
    files_a, files_b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert files_a.keys() == files_b.keys()
    for name, data in files_a.items():
        assert data == files_b[name], name


def test_total_size_is_small(sample: tuple[Path, list[dict]]) -> None:
    out, _ = sample
    assert sum(len(data) for data in _files(out).values()) < 2 * 1024 * 1024


# --- manifest ----------------------------------------------------------------------------------

def test_manifest_file_matches_return_value_and_format(sample: tuple[Path, list[dict]]) -> None:
    out, manifest = sample
    text = manifest_path(out).read_text(encoding="utf-8")
    assert not (out / MANIFEST).exists()  # the directory holds inputs only: `pipeline run DIR` skips nothing
    assert json.loads(text) == manifest
    assert text == json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    assert manifest == sorted(manifest, key=lambda e: (e["file"], e["offset"]))


def test_manifest_has_every_required_kind(sample: tuple[Path, list[dict]]) -> None:
    _, manifest = sample
    assert {e["kind"] for e in manifest} >= REQUIRED_KINDS
    assert sum(e["kept"] is True and e["kind"].startswith("article") for e in manifest) >= 6


def test_manifest_covers_every_reason_group_but_the_listed_ones(sample: tuple[Path, list[dict]]) -> None:
    _, manifest = sample
    assert GROUPS_NOT_IN_SAMPLE.keys() <= set(GROUP_ORDER)
    covered = {code.split(".")[0] for entry in manifest for code in entry["expected_reasons"]}
    assert covered == set(GROUP_ORDER) - GROUPS_NOT_IN_SAMPLE.keys()


def test_manifest_entries_are_consistent(sample: tuple[Path, list[dict]]) -> None:
    _, manifest = sample
    for entry in manifest:
        assert set(entry) == {"file", "offset", "url", "record_type", "kind", "expected_reasons", "kept",
                              "note", "features", "era"}, entry
        assert (entry["era"] in ("pre_cutoff", "post_cutoff", "unknown")) is (entry["kept"] is True), entry
        assert set(entry["expected_reasons"]) <= REASON_CODES, entry
        assert entry["note"].endswith("."), entry
        if entry["record_type"] in NON_DOCUMENTS:
            assert entry["kept"] is None and entry["expected_reasons"] == [], entry
        elif entry["kept"]:
            assert entry["expected_reasons"] == [], entry
        else:
            assert entry["kept"] is False and entry["expected_reasons"], entry
    keys = [(e["file"], e["url"], e["record_type"]) for e in manifest]
    assert len(keys) == len(set(keys))


def test_manifest_follows_the_seeds_on_key_cases(sample: tuple[Path, list[dict]]) -> None:
    """Spot checks of the labels against docs/filters.md and docs/output.md."""
    _, manifest = sample
    by_kind: dict[str, list[dict]] = {}
    for entry in manifest:
        by_kind.setdefault(entry["kind"], []).append(entry)
    # /login is soft-excluded (scored), not in the hard-exclude list.
    assert by_kind["login_page"][0]["expected_reasons"] == ["article.score"]
    assert by_kind["amp_page"][0]["expected_reasons"] == ["url.hard_excluded"]
    assert [e["kept"] for e in by_kind["template_page"]] == [True, False, False]
    assert all(e["expected_reasons"] == ["record.not_html", "url.extension"] for e in by_kind["image"] + by_kind["pdf"])
    assert by_kind["non_english_article"][0]["kept"] is True


# --- sample.warc.gz ----------------------------------------------------------------------------

def test_sample_warc_iterates_and_starts_with_warcinfo(sample: tuple[Path, list[dict]]) -> None:
    out, _ = sample
    records = _records(out / SAMPLE_WARC)
    assert records[0][0] == 0
    assert records[0][1].rec_type == "warcinfo"
    assert all(rec.rec_headers.protocol == "WARC/1.0" for _, rec, _ in records)
    ids = [rec.rec_headers.get_header("WARC-Record-ID") for _, rec, _ in records]
    assert len(ids) == len(set(ids))


def test_every_warc_record_is_in_the_manifest(sample: tuple[Path, list[dict]]) -> None:
    out, manifest = sample
    in_file = {(offset, rec.rec_type, rec.rec_headers.get_header("WARC-Target-URI"))
               for offset, rec, _ in _records(out / SAMPLE_WARC)}
    listed = {(e["offset"], e["record_type"], e["url"]) for e in _entries(manifest, SAMPLE_WARC)}
    assert in_file == listed
    counts = Counter(rec_type for _, rec_type, _ in in_file)
    assert counts["warcinfo"] == counts["request"] == counts["metadata"] == counts["revisit"] == 1
    assert counts["resource"] == 1
    assert counts["response"] >= 30


def test_every_record_is_its_own_gzip_member(sample: tuple[Path, list[dict]]) -> None:
    out, manifest = sample
    data = (out / SAMPLE_WARC).read_bytes()
    offsets = [e["offset"] for e in _entries(manifest, SAMPLE_WARC)] + [len(data)]
    for start, end in zip(offsets, offsets[1:], strict=False):
        inflater = zlib.decompressobj(31)
        member = inflater.decompress(data[start:end])
        assert inflater.eof and inflater.unused_data == b""
        assert member.startswith(b"WARC/1.0\r\n")


def test_transport_variants_are_encoded_as_their_headers_say(sample: tuple[Path, list[dict]]) -> None:
    out, manifest = sample
    by_url = {rec.rec_headers.get_header("WARC-Target-URI"): (rec, body)
              for _, rec, body in _records(out / SAMPLE_WARC) if rec.rec_type in ("response", "resource")}
    features = {tuple(e["features"]): e["url"] for e in _entries(manifest, SAMPLE_WARC) if e["features"]}

    def find(feature: str) -> tuple[object, bytes]:
        url = next(u for f, u in features.items() if feature in f)
        return by_url[url]

    rec, body = find("http:chunked")
    assert rec.http_headers.get_header("Transfer-Encoding") == "chunked"
    assert rec.http_headers.get_header("Content-Length") is None
    assert body.startswith(b"<!DOCTYPE html>") and body.rstrip().endswith(b"</html>")
    rec, body = find("http:content-encoding-gzip")
    assert rec.http_headers.get_header("Content-Encoding") == "gzip" and b"</article>" in body
    rec, body = find("http:no-content-type")
    assert rec.http_headers.get_header("Content-Type") is None and body.startswith(b"<!DOCTYPE html>")
    rec, body = find("warc:truncated")
    assert rec.rec_headers.get_header("WARC-Truncated") == "length"
    assert int(rec.http_headers.get_header("Content-Length")) > len(body)
    assert not body.rstrip().endswith(b"</html>")
    rec, body = find("warc:resource")
    assert rec.rec_type == "resource" and rec.rec_headers.get_header("Content-Type").startswith("text/html")


def test_record_level_cases(sample: tuple[Path, list[dict]]) -> None:
    rec, body = _record_at(sample, "image")
    assert rec.http_headers.get_header("Content-Type") == "image/png" and body.startswith(b"\x89PNG\r\n\x1a\n")
    rec, body = _record_at(sample, "pdf")
    assert rec.http_headers.get_header("Content-Type") == "application/pdf" and body.startswith(b"%PDF-1.4")
    assert _record_at(sample, "not_found_404")[0].http_headers.get_statuscode() == "404"
    rec, _ = _record_at(sample, "redirect_301")
    assert rec.http_headers.get_statuscode() == "301" and rec.http_headers.get_header("Location")
    assert _record_at(sample, "empty_response")[1] == b""
    _, body = _record_at(sample, "undecodable_binary")
    assert len(body) == 2048
    with pytest.raises(UnicodeDecodeError):
        body.decode("utf-8")


def test_revisit_points_at_the_original_capture(sample: tuple[Path, list[dict]]) -> None:
    out, _ = sample
    records = [rec for _, rec, _ in _records(out / SAMPLE_WARC)]
    revisit = next(r for r in records if r.rec_type == "revisit")
    original = next(r for r in records if r.rec_type == "response" and r.rec_headers.get_header("WARC-Record-ID")
                    == revisit.rec_headers.get_header("WARC-Refers-To"))
    assert revisit.rec_headers.get_header("WARC-Payload-Digest") == original.rec_headers.get_header(
        "WARC-Payload-Digest")
    request = next(r for r in records if r.rec_type == "request")
    assert request.rec_headers.get_header("WARC-Concurrent-To") == original.rec_headers.get_header("WARC-Record-ID")


def test_full_articles_and_short_posts_have_the_promised_lengths(sample: tuple[Path, list[dict]]) -> None:
    out, manifest = sample
    entries = {e["offset"]: e for e in _entries(manifest, SAMPLE_WARC)}
    for offset, _, body in _records(out / SAMPLE_WARC):
        entry = entries[offset]
        if entry["kept"] and entry["kind"] == "qa_page":  # kept by the seed's rules; its text is the posts'
            assert 300 <= len(lxml_html.fromstring(body.decode("utf-8")).xpath("string(//main)").split()) <= 700
        elif entry["kept"] and entry["kind"] != "truncated_article":
            assert 350 <= _article_words(body) <= 700, entry["url"]
        if entry["kind"] == "truncated_article":
            assert _article_words(body) >= 350
        if entry["kind"] == "short_post":
            assert 40 <= _article_words(body) <= 120, entry["url"]


def test_duplicates_relate_to_their_originals(sample: tuple[Path, list[dict]]) -> None:
    _, url_dup = _record_at(sample, "url_duplicate")
    bodies = [body for _, rec, body in _records(sample[0] / SAMPLE_WARC) if rec.rec_type == "response"]
    assert bodies.count(url_dup) == 2  # the same bytes also exist under the clean URL

    def article_text(body: bytes) -> list[str]:
        tree = lxml_html.fromstring(body.decode("utf-8"))
        return [p.text_content() for p in tree.xpath("//article/p[not(@class)]")]

    exact = article_text(_record_at(sample, "exact_duplicate")[1])
    near = " ".join(article_text(_record_at(sample, "near_duplicate")[1])).split()
    onions = " ".join(article_text(_record_at(sample, "article_opengraph")[1])).split()
    others = [article_text(body) for _, rec, body in _records(sample[0] / SAMPLE_WARC)
              if rec.rec_type == "response" and body.startswith(b"<!DOCTYPE")]
    assert sum(text == exact for text in others) == 2
    matcher = difflib.SequenceMatcher(a=onions, b=near, autojunk=False)
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    assert 1 <= len(edits) <= 6  # a handful of word edits
    assert matcher.ratio() > 0.97


def test_template_pages_share_most_of_their_text(sample: tuple[Path, list[dict]]) -> None:
    out, manifest = sample
    offsets = [e["offset"] for e in _entries(manifest, SAMPLE_WARC) if e["kind"] == "template_page"]
    texts = [" ".join(lxml_html.fromstring(body.decode()).xpath("string(//article)").split())
             for offset, _, body in _records(out / SAMPLE_WARC) if offset in offsets]
    assert len(texts) == 3
    first = texts[0]
    for later in texts[1:]:
        shared = sum(len(sentence) for sentence in later.split(". ") if sentence in first)
        assert shared / len(later) > 0.6


# --- damaged.warc.gz ---------------------------------------------------------------------------

def test_damaged_warc_middle_member_fails_to_decompress(sample: tuple[Path, list[dict]]) -> None:
    out, manifest = sample
    data = (out / DAMAGED_WARC).read_bytes()
    entries = _entries(manifest, DAMAGED_WARC)
    assert [e["record_type"] for e in entries] == ["response", "corrupt", "response"]
    bounds = [e["offset"] for e in entries] + [len(data)]
    members = [data[start:end] for start, end in zip(bounds, bounds[1:], strict=False)]
    for good in (members[0], members[2]):
        assert zlib.decompressobj(31).decompress(good).startswith(b"WARC/1.0\r\n")
    assert members[1][:3] == b"\x1f\x8b\x08"  # the gzip header survives: only the deflate data is bad
    with pytest.raises(zlib.error):
        zlib.decompressobj(31).decompress(members[1])
    assert entries[1]["expected_reasons"] == ["input.corrupt"]


# --- html/ -------------------------------------------------------------------------------------

def test_html_files(sample: tuple[Path, list[dict]]) -> None:
    out, manifest = sample
    files = {e["kind"]: (out / e["file"], e) for e in manifest if e["record_type"] == "file"}
    assert all(e["offset"] == -1 for _, e in files.values())

    path, entry = files["article_canonical"]
    assert f'<link rel="canonical" href="{entry["url"]}">'.encode() in path.read_bytes()

    path, _ = files["article_legacy_charset"]
    data = path.read_bytes()
    assert path.parent.name != "html"  # in a subdirectory, for the recursive walk
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    text = data.decode("cp1252")
    assert "Zürich" in text and "—" in text and "café" in text and 'charset="utf-8"' not in text

    path, _ = files["japanese_article"]
    data = path.read_bytes()
    assert path.parent.name != "html"
    assert b"charset" not in data.lower()
    assert sum(byte >= 0x80 for byte in data) >= 2048
    assert "移動図書館" in data.decode("shift_jis")

    path, entry = files["gzipped_html_article"]
    assert path.name.endswith(".html.gz")
    assert f'property="og:url" content="{entry["url"]}"'.encode() in gzip.decompress(path.read_bytes())

    path, entry = files["article_no_url"]
    data = path.read_bytes()
    assert entry["url"] is None
    assert b"canonical" not in data and b"og:url" not in data and b"http" not in data
