"""Deterministic generator of the bundled sample (`pipeline sample --out data/sample`).

The sample is the project's end-to-end fixture: a small crawl that contains one or more
examples of every case the seeds describe, each labelled in `manifest.json` with the reason
codes (docs/output.md) it must get and whether it must be kept. Every page is original prose
written for this file, so the sample can be redistributed with the project.

What is written:

* `sample.warc.gz` - a WARC/1.0 file, one gzip member per record, starting with `warcinfo`:
  full articles (JSON-LD, `@graph`, `@type` list, `articleBody`, Open Graph, Twitter-only),
  non-articles (listing, tag, category, home, paginated, login, search, product spec), JS
  shells, a cookie wall, a paywall, same-host template pages, duplicates of three kinds,
  non-HTML and non-2xx records, transport variants (chunked, gzip, no Content-Type,
  truncated, resource) and non-document records (request, metadata, revisit).
* `damaged.warc.gz` - three responses whose middle gzip member is corrupted.
* `html/` - plain HTML files: UTF-8 with a canonical link, windows-1252 declared only in a
  `<meta>`, Shift_JIS with no declaration at all, a gzipped page and a page with no URL hint.
* `DIR.manifest.json`, beside the directory - one entry per record or file (see `content.manifest_entry`).

Output is byte-identical on every run: record ids are UUIDv5 of file/type/URL, dates are
fixed, gzip headers carry no timestamp, and "random" bytes come from a hash chain.

Layout: `content.py` reads the prose, sites and page texts from `data/sample-src/*.json` and
holds the record types; `pages.py` builds the HTML; `captures.py` lists the WARC records with
their expectations; `write.py` writes the files and the manifest.
"""
