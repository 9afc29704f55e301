"""The page-type model's card (`pipeline train`, `pipeline/stages/train.py`): what the model is, what
it was trained on (licences, attribution), how it measured in cross-validation (per type, per
language, at other thresholds, the gate's trade), its thresholds and the code that trained it."""

from __future__ import annotations

from typing import Any

from filters.page_model.features import PAGE_TYPES


def _rate(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def model_card(summary: dict[str, Any], model_path: str) -> str:
    """The model card: what the model is, what it was trained on (licences, attribution), how it
    measured in cross-validation, its thresholds and the code that trained it."""
    lines = [
        "# Page-type model card",
        "",
        f"Model file: `{model_path}` (JSON; LightGBM text models inside, loaded without pickle).",
        f"Code version: {summary.get('version', 'unknown')}.",
        "",
        "Gradient-boosted trees (LightGBM, multiclass) that tell articles from six other page types:",
        f"{', '.join(PAGE_TYPES)}. Two models: `page` reads what is known before extraction (URL, title,",
        "metadata, page, product and structure signals) and decides whether a page is worth extracting;",
        "`full` adds what extraction measures and decides `page_type` and `article_probability` in select.",
        "`full` also reads the text model's article probability (`text_article_probability`): a logistic",
        "regression per type (scikit-learn `SGDClassifier`) over the hashed words and word pairs of the title",
        "and text (a character and its pair in scripts written without spaces), its weights in the file. It",
        "is stacked: each training page's value comes from a text model fitted without that page's fold.",
        "",
        "## Training data",
        "",
        *(f"- `{name}`" for name in summary.get("inputs", [])),
        "",
        "Pages by type: " + ", ".join(f"{k} {v}" for k, v in summary.get("pages", {}).items()) + ".",
        "Left out: " + (", ".join(f"{k} {v}" for k, v in summary.get("left_out", {}).items()) or "nothing") + ".",
        "",
        f"Attribution: {summary.get('attribution', 'see NOTICE')}.",
        "",
        "## Cross-validation",
        "",
        f"{summary.get('folds')} folds grouped by registered domain (one site is never on both sides); "
        f"{summary.get('rounds')} boosting rounds.",
        "",
    ]
    for name, title in (("page", "Pre-extraction model (`page`)"), ("full", "Select model (`full`)")):
        lines += _model_section(summary, name, title)
    lines += _language_section(summary.get("full_keep_rates_by_language", {}))
    lines += _threshold_trade_section(summary.get("full_threshold_trade", []), summary.get("long_article_tokens", 200),
                                      summary.get("full_threshold"))
    lines += _gate_trade_section(summary.get("gate_trade", []), summary.get("page_article_recall", 0.99))
    lines += ["## Use", "",
              "`select.page.min_kept_type_probability` and `extract.gate.min_page_article_probability` in",
              "params.yaml override the thresholds above; `select.page.keep_types` chooses which types are kept.",
              "Retrain with `pipeline train LABELS... --out MODEL` (docs/filters.md, \"Page types\").", ""]
    return "\n".join(lines)


def _model_section(summary: dict[str, Any], name: str, title: str) -> list[str]:
    """One model's part of the card: threshold, keep rates and confusion matrix."""
    ceilings = summary.get("keep_ceilings") if name == "full" else None
    chosen = (" (the lowest that keeps, out of fold, at most " + ", ".join(
        f"{ceiling:g} of {types}" for types, ceiling in ceilings.items()) + ")") if ceilings else ""
    lines = [f"### {title}", "",
             f"Threshold on `article_probability`: {summary.get(f'{name}_threshold')}{chosen}; "
             f"type accuracy (highest probability): {summary.get(f'{name}_accuracy')}.", ""]
    rates = summary.get(f"{name}_keep_rates", {})
    what = ("share of each type passed on to extraction" if name == "page"
            else "this model, the pre-extraction model and every other rule")
    if name == "page":
        lines += [f"Kept, out of fold ({what}):", "", "| type | kept |", "|---|---|"]
        lines += [f"| {page_type} | {rate:.3f} |" for page_type, rate in rates.items()]
    else:
        alone = summary.get("full_model_alone_keep_rates", {})
        others = summary.get("other_rules_and_page_model_keep_rates", {})
        lines += ["Kept, out of fold: by this model alone at its threshold; by every other rule and the "
                  "pre-extraction model (length, Gopher, C4, de-duplication and the rest: the most the "
                  f"pipeline can keep); and by the whole pipeline ({what}):", "",
                  "| type | this model alone | other rules and pre-extraction model | whole pipeline |",
                  "|---|---|---|---|"]
        lines += [f"| {page_type} | {_rate(alone.get(page_type))} | {_rate(others.get(page_type))} | {rate:.3f} |"
                  for page_type, rate in rates.items()]
    lines += ["", "Confusion matrix (rows: true type; columns: predicted type):", "",
              "| true \\ predicted | " + " | ".join(PAGE_TYPES) + " |",
              "|---|" + "---|" * len(PAGE_TYPES)]
    for true, counts in summary.get(f"{name}_confusion", {}).items():
        lines.append(f"| {true} | " + " | ".join(str(counts[p]) for p in PAGE_TYPES) + " |")
    lines.append("")
    return lines


def _language_section(table: dict[str, dict[str, Any]]) -> list[str]:
    """The card's keep rates of the whole pipeline per language group, out of fold."""
    if not table:
        return []
    lines = ["### By language", "",
             "The whole pipeline's keep rates (select model, pre-extraction model and every other rule), out of",
             "fold, by the language of the extracted text (else the page's declared language): pages, kept.", "",
             "| type | " + " | ".join(table) + " |", "|---|" + "---|" * len(table)]
    for page_type in PAGE_TYPES:
        cells = []
        for group in table.values():
            pages = group["pages"].get(page_type)
            cells.append(f"{pages}, {group['kept'][page_type]:.3f}" if pages else "")
        if any(cells):
            lines.append(f"| {page_type} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _threshold_trade_section(table: list[dict[str, Any]], long_tokens: int, chosen: float | None) -> list[str]:
    """The card's table of keep rates at other select thresholds (the shipped one in bold)."""
    if not table:
        return []
    types = list(table[0]["kept"])
    groups = list(table[0]["articles_by_language"])
    long = "long_articles" in table[0]
    lines = ["### Other select thresholds", "",
             "The whole pipeline's keep rates, out of fold, at other values of "
             "`select.page.min_kept_type_probability`;",
             "then the articles of each language group"
             + (f", and the articles whose own text (the labels' reference text, else the longest extraction "
                f"candidate) has at least {long_tokens} tokens, all and not English." if long else "."), "",
             "| threshold | " + " | ".join(types) + " | " + " | ".join(f"articles ({group})" for group in groups)
             + (" | long articles | long, not English" if long else "") + " |",
             "|---|" + "---|" * (len(types) + len(groups) + (2 if long else 0))]
    for row in table:
        cells = [f"{row['kept'][t]:.3f}" for t in types]
        cells += [f"{row['articles_by_language'].get(g, 0.0):.3f}" for g in groups]
        if long:
            cells += [_rate(row.get("long_articles")), _rate(row.get("long_articles_not_english"))]
        threshold = f"**{row['threshold']:.2f}**" if row["threshold"] == chosen else f"{row['threshold']:.2f}"
        lines.append(f"| {threshold} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _gate_trade_section(table: list[dict[str, float]], recall: float) -> list[str]:
    """The card's table of what other pre-extraction thresholds would extract and keep."""
    if not table:
        return []
    lines = ["### The gate's trade", "",
             "Out of fold, for other article recalls of the pre-extraction model: its threshold, the share of",
             "pages it passes on to extraction (the costly half of a page's time), and the articles the whole",
             f"pipeline keeps. The shipped threshold keeps {recall:.0%} of the articles.", "",
             "| article recall | threshold | articles extracted | other pages extracted | all pages extracted "
             "| articles kept (whole pipeline) |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {row['recall']:.3f} | {row['threshold']:.4f} | {row['articles_extracted']:.3f} "
              f"| {row['others_extracted']:.3f} | {row['all_extracted']:.3f} | {row['articles_kept']:.3f} |"
              for row in table]
    return [*lines, ""]
