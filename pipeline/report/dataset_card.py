"""The dataset card, DIR/README.md, written by select beside the shards (docs/dataset.md).

A Hugging Face dataset card: a YAML header (`configs` with the `data_files` of each split, a
licence placeholder, the languages, the size category) and a body that says how the data was
made: counts per split, era and language, the funnel, every threshold with the params hash, the
input files with their sizes and SHA-256, the code version, and the known limits of the filters.

Every count comes from stats.json (the card is rendered from it), so the two always agree. The
card holds no clock time: the same input and params give the same card.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import yaml

from filters.corpus.dataset import ERAS, SPLITS
from pipeline.params import Params
from pipeline.version import code_version

CARD = "README.md"

# Hugging Face size categories (the `size_categories` tag), upper bounds exclusive.
SIZE_CATEGORIES: tuple[tuple[int, str], ...] = (
    (1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"), (1_000_000_000, "100M<n<1B"),
)

def rules_that_ran(params: Params) -> set[str]:
    """The codes of the rules `params` switch on: what the card's sentences may name."""
    from filters.rules.reasons import RULES

    return {rule.code for rule in RULES if rule.enabled(params)}


def _listed(names: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]


def known_limits(params: Params) -> list[str]:
    """The card's "Known limits", each naming only the methods and rules that ran under `params`."""
    ran = rules_that_ran(params)
    return [_era_limit(params), _split_limit(params, ran), _detection_limit(ran),
            "**Language** (`text_language`, and the languages listed above) is the language identification of "
            "the extracted text (py3langid), unreliable on short or mixed-language texts; `language` is what the "
            "page declares.",
            "**Extraction** keeps the main text of a page; captions, comments and tables may be missing or "
            "partly included."] + ([SEGMENTS_LIMIT] if params.segment is not None else [])


def _era_limit(params: Params) -> str:
    undated = ("a page that declares none is dated by htmldate (`era_date_source: inferred`), which can take "
               "another date on the page (a comment's, a member's join date on a forum)"
               if params.extract.metadata.infer_dates else
               "a page that declares none has no date, so its era is `unknown` (`extract.metadata.infer_dates: "
               "false`: no date is inferred from the page)")
    return ("**Era labels are as good as the dates.** A declared publication date is sometimes the date of the "
            f"last update; {undated}. `updated` is kept apart: a `pre_cutoff` page may have been edited after the "
            "cut-off (counted under Era). A capture after the cut-off never makes a page `post_cutoff`: undated "
            "pages captured after it are `unknown`.")


def _split_limit(params: Params, ran: set[str]) -> str:
    removal = [name for code, name in (("dup.exact", "exact"), ("dup.near", "near-duplicate")) if code in ran]
    across = (f"{' and '.join(removal).capitalize()} removal run over the whole run, across sites, and catch most "
              "of it" if removal else "No exact or near-duplicate removal ran to catch it")
    cdc = "; CDC duplication is measured per host only." if "dup.cdc" in ran else "."
    if params.dataset.split_by is None:
        return (f"**No held-out splits** (`dataset.split_by: null`): every page is in `train`. Republished copies "
                f"of a story: {across[0].lower()}{across[1:]}{cdc}")
    unit = {"registered_domain": "registered domain", "host": "host"}.get(params.dataset.split_by,
                                                                         params.dataset.split_by)
    return (f"**Splits by site, not by content.** No {unit} (`dataset.split_by: {params.dataset.split_by}`) is in "
            f"two splits, but the same text syndicated on two sites can be. {across}{cdc}")


# The rules of article detection, named as the card names them, by the rule codes' groups.
DETECTION_NAMES = (("article.page_model", "the page-type model before extraction"),
                   ("page.not_article", "the page-type model in select"), ("article.score", "the article score"),
                   ("page.product", "the shop-page rule"), ("block.", "the block rules"), ("c4.", "C4's rules"),
                   ("gopher.", "Gopher's rules"), ("quality.", "the quality metrics"))


def _detection_limit(ran: set[str]) -> str:
    names = [name for prefix, name in DETECTION_NAMES if any(code.startswith(prefix) for code in ran)]
    if not names:
        return "**No article rule ran**: every page with text was kept, whatever its type."
    listed = _listed(names)
    return (f"**Article detection is heuristic.** {listed[0].upper()}{listed[1:]} were measured on real pages "
            "(see docs/filters.md in corpus-filter), but some link lists, shop pages and forum threads still pass, "
            "and some short articles are rejected.")


SEGMENTS_LIMIT = (
    "**Segments** (the `segments` config) are found from each page's structure (schema.org microdata, the "
    "ids forum and comment software gives its posts, repeated siblings) or, where the markup gives none, "
    "its JSON-LD, without site rules: posts whose markup neither marks them nor repeats one shape may be "
    "merged or missed, a post's text may keep a line of its header or lose a quoted passage the page did "
    "not mark as a quote, and a review's date is often not shown at all, or shown as an age that spans the cut-off.")


def dataset_card(stats: dict[str, Any], manifest: dict[str, Any], params: Params) -> str:
    """The text of DIR/README.md for the output described by `stats`; `params`: the params in force,
    the page-type model's thresholds read (`Params.effective`), as select decided by them."""
    dataset = stats["dataset"]
    header = _header(stats, params)
    parts = [
        "---\n" + yaml.safe_dump(header, sort_keys=False, allow_unicode=True) + "---",
        "# Article dataset for machine-generated-text detection",
        f"Web pages selected as articles (blog posts, news, essays, forum prose) by corpus-filter "
        f"{code_version()} from {len(stats['files'])} input file(s): {stats['accepted']} accepted "
        f"of {stats['records_in']} records. Rejected records, each with every reason, are in "
        f"`rejected/`; the report with figures and example pages per reason is `report/index.html`."
        + ("" if stats["accepted"] else _empty_text(stats, header)),
        "## The text\n\n" + _text_text(params),
        "## Splits\n\n" + _splits_text(dataset),
        "## Pages per split, era and language\n\n" + _cells_table(dataset),
        "## Era\n\n" + _era_text(dataset, params),
        "## Funnel\n\nRecords remaining after each group of rules, in pipeline order.\n\n" + _funnel_table(stats),
        "## Keep rates per detected language\n\n" + _language_table(stats),
        "## Segments\n\n" + _segments_text(stats.get("segments"), params),
        "## Page-type model\n\n" + _model_text(params),
        "## Thresholds\n\n" + _params_text(params),
        "## Input files\n\n" + _inputs_table(manifest),
        "## How it was made\n\n" + _how_text(stats, params),
        "## Known limits\n\n" + "\n".join(f"- {limit}" for limit in known_limits(params)),
    ]
    return "\n\n".join(parts) + "\n"


def _text_text(params: Params) -> str:
    """What the `text` column holds, and what was judged."""
    near = params.select.dedup.near
    dedup = (f"kept once: a page that shares with an earlier kept page at least {near.min_containment:g} of the "
             f"shorter text's word 5-grams is rejected (`dup.near`)" if near.method == "minhash" else
             "found by simhash" if near.method == "simhash" else "not looked for (`select.dedup.near.method: null`)")
    ran = rules_that_ran(params)
    judged = [name for name, codes in (
        ("length", ("length.tokens",)), ("language", ("lang.not_allowed",)),
        ("Gopher's quality and repetition rules", tuple(code for code in ran if code.startswith("gopher."))),
        ("C4's rules", ("c4.nopunc_lines", "c4.removed_words")), ("the content hash", ("dup.exact",)),
        (f"the {'simhash' if near.method == 'simhash' else 'MinHash'} signature", ("dup.near",))) if ran & set(codes)]
    rules = f"every rule that ran judged exactly this text: {_listed(judged)}" if judged else "no rule judged it"
    return ("`text` is the page's main text as the extraction returned it (trafilatura or readability-lxml, the "
            "JSON-LD `articleBody`, or a DOM fallback; paragraphs separated by a blank line), with its headings, "
            f"list items, table cells and captions. Nothing is removed from it afterwards, and {rules}. C4's "
            "NoPunc line removal is measured (`signals.c4_*`: the share of lines and words that do not end a "
            f"sentence) but not applied. Republished copies of a story were {dedup}.")


def _model_text(params: Params) -> str:
    """Which page-type model decided, in which version, with which thresholds (or that none did)."""
    gate, page = params.extract.gate, params.select.page
    uses = []
    if gate.use_page_model and (threshold := gate.min_page_article_probability) is not None:
        uses.append(("before extraction (`article.page_model`)", gate.model, threshold))
    if page.use_page_model and (select := page.min_kept_type_probability) is not None:
        uses.append((f"in select (`page.not_article`, kept types: {', '.join(params.select.page.keep_types)})",
                     params.select.page.model, select))
    if not uses:
        return "No page-type model was used: articles were told from other pages by the rules alone."
    from filters.page_model.model import load_model

    lines = []
    for where, path, threshold in uses:
        model = load_model(path)
        lines.append(f"- {where}: `{Path(model.path).name}`, trained by code version {model.version} on "
                     f"{sum(model.training.get('pages', {}).values())} labelled pages; threshold {threshold}. "
                     f"Training data: {model.training.get('attribution', 'see the model card')}.")
    lines.append("\nThe shipped model's card, with its training data, licences and cross-validated figures, is "
                 "`filters/page_model/page_type.card.md` in corpus-filter.")
    return "\n".join(lines)


def params_hash(params: Params) -> str:
    """SHA-256 (16 hex) of the params as JSON with sorted keys."""
    return hashlib.sha256(json.dumps(params.to_dict(), sort_keys=True).encode()).hexdigest()[:16]


def size_category(rows: int) -> str:
    return next((name for bound, name in SIZE_CATEGORIES if rows < bound), "n>1B")


def _header(stats: dict[str, Any], params: Params) -> dict[str, Any]:
    dataset = stats["dataset"]
    languages = sorted({language for split in dataset["splits"].values() for language in split["language"]}
                       - {"unknown"})
    pages = {name: split["pages"] for name, split in dataset["splits"].items()}
    # `datasets` refuses a config or split of no rows: a config is declared only where it has some.
    configs = []
    if stats["accepted"]:
        configs.append({"config_name": "default", "data_files": _data_files("accepted", params, pages)})
    if params.segment is not None:
        segments = stats.get("segments", {}).get("accepted_by_split", {})
        if any(segments.values()):
            configs.append({"config_name": "segments",
                            "data_files": _data_files("segments/accepted", params, segments)})
    if stats["rejected"]:
        # its split is named for what it holds: loading a run that accepted nothing gives no `train`
        configs.append({"config_name": "rejected",
                        "data_files": [{"split": "rejected", "path": "rejected/part-*.parquet"}]})
    return {
        "license": "other",
        "license_name": "to-be-decided",
        "license_details": "Placeholder: the pages keep their authors' rights; decide and state the "
                           "terms before publishing.",
        "language": languages,
        "size_categories": [size_category(stats["accepted"])],
        "task_categories": ["text-classification"],
        "tags": ["machine-generated-text-detection", "web-articles"],
        "configs": configs,
    }


def _empty_text(stats: dict[str, Any], header: dict[str, Any]) -> str:
    """What a run that accepted no page holds, and the `load_dataset` calls that load it (only the
    configs the header declares: `datasets` refuses a split of no rows)."""
    declared = [config["config_name"] for config in header["configs"]]
    if not declared:
        return (f"\n\n**No record was read** from the {len(stats['files'])} input file(s), so this dataset has no "
                "rows and the card declares no config: `datasets.load_dataset` has nothing to load here. "
                "`stats.json` lists each input file with what its reading reported (`files`, `warnings`).")
    calls = [f'`load_dataset(DIR, "{name}")` loads {_CONFIG_WORDS[name]}' for name in declared]
    return ("\n\n**No page was accepted**, so this dataset has no `default` config (`datasets` refuses a split "
            "of no rows) and no `train`, `validation` or `test` split: " + "; ".join(calls) + " (see Funnel "
            "below for what rejected them).")


_CONFIG_WORDS = {"segments": "the accepted segments by their page's split",
                 "rejected": "every record with its reasons, as the split `rejected`"}


def _data_files(directory: str, params: Params, rows: dict[str, int]) -> list[dict[str, str]]:
    """The `data_files` of a config: one glob per split that has rows (`datasets` refuses a split of
    none), or `train` without splits."""
    if params.dataset.split_by is None:
        return [{"split": "train", "path": f"{directory}/part-*.parquet"}]
    return [{"split": name, "path": f"{directory}/{name}-*.parquet"} for name in SPLITS if rows.get(name)]


def _segments_text(segments: dict[str, Any] | None, params: Params) -> str:
    """What segmentation found and kept: per kind, per kind and language, per page type, per split and
    length."""
    if params.segment is None or not segments:
        return "Pages were not segmented (`segment: null`)."
    lines = [f"Each page's posts, questions, answers, comments, reviews and list items were also judged as units "
             f"of their own (the `segments` config, `segments/accepted/` by the page's split; every other segment in "
             f"`segments/rejected/` with its reasons): the same text rules as pages, with `length.tokens` at "
             f"{params.segment.min_tokens} tokens, and de-duplication among segments. "
             f"{segments['segments_in']} segments from {segments['pages_with_segments']} pages, "
             f"{segments['accepted']} accepted.", "", "| kind | segments | accepted |", "|---|---|---|"]
    lines += [f"| {kind} | {row['segments']} | {row['accepted']} |" for kind, row in segments["by_kind"].items()]
    lines += ["", "| kind | language | segments | accepted |", "|---|---|---|---|"]
    lines += [f"| {kind} | {language} | {row['segments']} | {row['accepted']} |"
              for kind, languages in segments.get("by_kind_and_language", {}).items()
              for language, row in languages.items()]
    lines += ["", "| page type | segments | accepted |", "|---|---|---|"]
    lines += [f"| {kind} | {row['segments']} | {row['accepted']} |" for kind, row in segments["by_page_type"].items()]
    lines += ["", "| words | segments | accepted |", "|---|---|---|"]
    lines += [f"| {bin_} | {row['segments']} | {row['accepted']} |" for bin_, row in segments["word_count"].items()]
    lines += ["", "| split | accepted segments |", "|---|---|"]
    lines += [f"| {name} | {count} |" for name, count in segments["accepted_by_split"].items()]
    return "\n".join(lines)


def _splits_text(dataset: dict[str, Any]) -> str:
    if dataset["split_by"] is None:
        return ("No splits (`dataset.split_by: null`): every accepted page is in `accepted/part-*.parquet`, "
                "loaded as the `train` split.\n\n| pages | sites |\n|---|---|\n"
                f"| {dataset['splits']['none']['pages']} | {dataset['splits']['none']['sites']} |")
    lines = [f"Split by {dataset['split_by'].replace('_', ' ')}: each site goes to one split by a stable hash "
             f"of its name, so no site is in two splits.", "", "| split | pages | sites |", "|---|---|---|"]
    lines += [f"| {name} | {split['pages']} | {split['sites']} |" for name, split in dataset["splits"].items()]
    return "\n".join(lines) + "\n\n" + _cross_split_text(dataset.get("cross_split"))


def _cross_split_text(cross: dict[str, Any] | None) -> str:
    """What the decontamination of validation and test against train did."""
    if not cross or cross.get("min_containment") is None:
        return ("Validation and test are not decontaminated against train (`dataset.cross_split_min_containment: "
                "null`): a story republished on sites of two splits may be in both.")
    removed = cross["rejected"]
    return (f"**Decontaminated against train.** Near duplicates are kept once over all splits (`dup.near`). Beyond "
            f"that, a validation or test page is removed (`dataset.cross_split`, naming the train page in "
            f"`signals.cross_split_train_id`) when at least {cross['min_containment']:g} of its word 5-grams are in "
            f"one kept train page (measured on the exact 5-gram sets of the candidate pairs that the near-duplicate "
            f"pass finds by MinHash LSH). Removed: {removed.get('validation', 0)} validation and "
            f"{removed.get('test', 0)} test pages; train is never reduced by this rule.")


def _cells_table(dataset: dict[str, Any]) -> str:
    lines = ["| split | era | language | pages |", "|---|---|---|---|"]
    for name, split in dataset["splits"].items():
        for cell, count in split["era_language"].items():
            era, language = cell.split("/", 1)
            lines.append(f"| {name} | {era} | {language} | {count} |")
    if len(lines) == 2:
        lines.append("| | | | 0 |")
    return "\n".join(lines)


CARD_LANGUAGES = 20  # rows of the card's language table; stats.json holds every language


def _language_table(stats: dict[str, Any]) -> str:
    """Extracted pages per language identified from their text, and the share kept (most pages first)."""
    languages = stats.get("by_text_language") or {}
    if not languages:
        return "No page was extracted."
    lines = ["The language identified from each extracted text (py3langid), its pages and the share the run "
             "kept. A language kept far less often than the others is worth a look before the data is used.", "",
             "| language | pages | kept | share kept |", "|---|---|---|---|"]
    lines += [f"| {language} | {row['pages']} | {row['kept']} | {row['keep_rate']:.3f} |"
              for language, row in list(languages.items())[:CARD_LANGUAGES]]
    if len(languages) > CARD_LANGUAGES:
        lines += ["", f"{len(languages) - CARD_LANGUAGES} more languages in `stats.json` (`by_text_language`)."]
    return "\n".join(lines)


ERA_MEANINGS = (
    ("pre_cutoff", "the text existed on or before the cut-off day: a publication date, or the capture, on or "
                   "before it, or an age shown whose whole interval lies before it"),
    ("post_cutoff", "a publication date after the cut-off day, or an age shown whose whole interval lies after it "
                    "(never a capture date alone)"),
    ("unknown", "no publication date, no age on one side of the cut-off, and a capture after the cut-off (or none)"),
)
SOURCE_MEANINGS = (
    ("published", "declared in the page's metadata (JSON-LD, Open Graph, `<meta>`, microdata)"),
    ("inferred", "found in the page's markup, text or URL by a reader ({readers})"),
    ("captured", "the WARC-Date: the page existed then"),
    ("relative", "an age the page or post shows (\"3 years ago\") read against the capture, only where the whole "
                 "interval it allows lies on one side of the cut-off ({ages})"),
)


def _era_text(dataset: dict[str, Any], params: Params) -> str:
    """What each era and date source means (the readers that ran), and the accepted pages of each per
    split (from stats)."""
    splits = dataset["splits"]
    names = list(splits)
    meanings = "\n".join(f"- `{era}`: {meaning}" for era, meaning in ERA_MEANINGS)
    readers = ("a `<time datetime>`, htmldate" if params.extract.metadata.infer_dates else
               "a `<time datetime>`; htmldate did not run: `extract.metadata.infer_dates: false`")
    ages = ("`extract.metadata.read_ages`" if params.extract.metadata.read_ages else
            "none was read: `extract.metadata.read_ages: false`")
    sources = "\n".join(f"- `{source}`: {meaning.format(readers=readers, ages=ages)}"
                        for source, meaning in SOURCE_MEANINGS)
    keys = sorted({key for split in splits.values() for key in split.get("era_date_source", {})},
                  key=lambda key: (ERAS.index(key.split("/")[0]) if key.split("/")[0] in ERAS else len(ERAS), key))
    rows = ["| era | era_date_source | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for key in keys:
        era, source = key.split("/", 1)
        counts = " | ".join(str(splits[name].get("era_date_source", {}).get(key, 0)) for name in names)
        rows.append(f"| {era} | {source} | {counts} |")
    late = ", ".join(f"{name} {splits[name].get('pre_cutoff_updated_after_cutoff', 0)}" for name in names)
    return (f"Cut-off {dataset['era_cutoff']} (`dataset.era_cutoff`); dates are the page's own day, as it writes "
            f"them.\n\n{meanings}\n\n`era_date_source` says which date decided (`era_date`):\n\n{sources}\n\n"
            "Accepted pages per era and date source (`none`: no date), per split:\n\n" + "\n".join(rows) +
            f"\n\n`pre_cutoff` pages whose declared `updated` date is after the cut-off: {late}. A study that "
            "wants text untouched since the cut-off can drop them.")


def _funnel_table(stats: dict[str, Any]) -> str:
    lines = ["| after | remaining |", "|---|---|"]
    lines += [f"| {step['stage']} | {step['remaining']} |" for step in stats["funnel"]]
    lines += ["", "Rejections per reason (a page can have several):", "", "| reason | pages |", "|---|---|"]
    lines += [f"| `{reason}` | {count} |" for reason, count in stats["by_reason"].items()]
    return "\n".join(lines)


def _params_text(params: Params) -> str:
    flat = _flatten(params.to_dict())
    lines = [f"Params hash `{params_hash(params)}` (SHA-256 of the params as sorted JSON, the page-type model's "
             "thresholds read from its file). `null` is a rule switched off.", "", "| key | value |", "|---|---|"]
    lines += [f"| `{key}` | `{json.dumps(value)}` |" for key, value in flat.items()]
    return "\n".join(lines)


def _flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(node, dict):
        return {prefix: node}
    flat: dict[str, Any] = {}
    for key, value in node.items():
        flat.update(_flatten(value, f"{prefix}.{key}" if prefix else key))
    return flat


def _inputs_table(manifest: dict[str, Any]) -> str:
    digests = {entry["path"]: entry for entry in manifest.get("input_files", [])}
    lines = ["| file | bytes | SHA-256 |", "|---|---|---|"]
    for path in manifest.get("inputs", []):
        entry = digests.get(path, {})
        size = entry.get("bytes")
        lines.append(f"| `{path}` | {'unknown' if size is None else size} | "
                     f"{entry.get('sha256') or 'unknown (unreadable when extracted)'} |")
    return "\n".join(lines)


def _how_text(stats: dict[str, Any], params: Params) -> str:
    """The method as the params in force ran it: a sentence per stage, each generated from its keys."""
    selection = params.extract.cascade.selection
    steps = [f"corpus-filter {code_version()} read each record of the WARC/ARC/HTML inputs",
             _gate_text(params), EXTRACTION_TEXTS.get(selection, f"extracted its main text (`{selection}`)"),
             "measured the text (length, block structure, C4, Gopher, language)",
             "applied the thresholds above" + _select_model_text(params),
             _dedup_text(params), _dataset_text(params)]
    if params.segment is not None:
        steps.append("split the pages' posts, answers, comments and items into segments judged on their own")
    return ("; ".join(steps) + f". {stats['records_in']} records in, {stats['accepted']} accepted, "
            f"{stats['rejected']} rejected.")


EXTRACTION_TEXTS = {
    "agreement": "extracted the main text with trafilatura, dropping its short blocks that readability-lxml does "
                 "not confirm where it holds many",
    "seed": "extracted the main text with readability-lxml and trafilatura, the best of two by the seed's rule",
    "jsonld_first": "took the JSON-LD `articleBody` where it has 50 words or more, else the best of readability-lxml "
                    "and trafilatura",
    "trafilatura_first": "extracted the main text with trafilatura, else readability-lxml",
    "readability_first": "extracted the main text with readability-lxml, else trafilatura",
}


def _gate_text(params: Params) -> str:
    gate = params.extract.gate
    turned = []
    if gate.use_page_model:
        turned.append(f"the page-type model (article probability below {gate.min_page_article_probability:g})")
    if gate.article_score_min is not None:
        turned.append(f"the article score (below {gate.article_score_min})")
    if not turned:
        return "extracted every HTML page (no pre-extraction gate)"
    return "turned clear non-articles away before extraction by " + " and ".join(turned)


def _select_model_text(params: Params) -> str:
    page = params.select.page
    if not page.use_page_model:
        return ""
    return (f", with the page-type model keeping {', '.join(page.keep_types)} pages (probability at least "
            f"{page.min_kept_type_probability:g})")


def _dedup_text(params: Params) -> str:
    dedup = params.select.dedup
    kinds = [name for name, on in (("same URL", dedup.url), ("same text", dedup.exact),
                                   ("repeated WARC record", dedup.record)) if on]
    if dedup.cdc.max_duplicated_fraction is not None:
        kinds.append(f"more than {dedup.cdc.max_duplicated_fraction:g} of the text in chunks an earlier page of the "
                     f"host had ({dedup.cdc.algorithm} content-defined chunking)")
    if dedup.near.method == "minhash":
        kinds.append(f"a story sharing at least {dedup.near.min_containment:g} of its word 5-grams with a kept page "
                     "(MinHash LSH, then exact containment)")
    elif dedup.near.method == "simhash":
        kinds.append(f"simhash within {dedup.near.max_hamming_distance} bits")
    return "removed duplicates: " + ("; ".join(kinds) if kinds else "none (every de-duplication is off)")


def _dataset_text(params: Params) -> str:
    dataset = params.dataset
    if dataset.split_by is None:
        text = "wrote one split (no train / validation / test)"
    else:
        text = f"split the pages by {dataset.split_by.replace('_', ' ')} into train, validation and test"
        if dataset.cross_split_min_containment is not None:
            text += (f", removing validation and test pages that share {dataset.cross_split_min_containment:g} of a "
                     "story with a train page")
    balance = [f"sites with fewer than {dataset.host_min} pages dropped" if dataset.host_min is not None else "",
               f"at most {dataset.host_cap} pages per site" if dataset.host_cap is not None else ""]
    balance = [part for part in balance if part]
    return text + (f" ({'; '.join(balance)})" if balance else " (no per-site balance)")
