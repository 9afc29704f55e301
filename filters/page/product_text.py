"""Shop signals read from a page's visible text (`filters.page.product`'s text families): prices with a
currency, "Label: value" pairs of price labels and product identifiers, and product codes.

The text is `Page.visible_text` (lower-cased, whitespace collapsed). Each count has a fast path
that gives the plain pattern's answer (tests/filters/test_product_text.py compares them):
`price_count` tries `_PRICE` only around digits, `colon_spans` finds `_COLON`'s matches from the
colons.
"""

from __future__ import annotations

import re

# Currency: symbols and ISO 4217 codes, before or after the amount.
_SYMBOLS = (r"(?:us\$|usd\$|au\$|a\$|c\$|ca\$|nz\$|hk\$|s\$|nt\$|r\$|mx\$|\$|€|£|¥|₹|₽|₩|₪|₺|₫|₴|₱|₦|฿|₸|₼|₾|﷼"
            r"|zł|kč|руб\.?|грн\.?|лв\.?|円|元|원)")
_ISO_CODES = ("usd", "eur", "gbp", "jpy", "cny", "rmb", "inr", "rub", "krw", "brl", "chf", "sek", "nok", "dkk", "pln",
              "czk", "huf", "try", "ils", "aud", "cad", "nzd", "mxn", "zar", "hkd", "sgd", "twd", "uah", "ron",
              "bgn", "isk", "thb", "myr", "idr", "php", "vnd", "aed", "sar", "egp", "pkr", "kzt", "clp", "cop",
              "ars", "pen")
_CODE = r"(?:{})".format("|".join(_ISO_CODES))
# Kronor, kuna, lei: after the amount only. Not the forint's "Ft": lower-cased, it is "300 ft tall".
_WORD_CURRENCY = r"(?:kr\.?|kn|lei)"
# An amount: 1,299.00 / 1.299,00 / 1 299,00 / 1'299.00 / 12,99 / 12.- / 1299
_AMOUNT = r"\d{1,3}(?:[ ,.'\u00a0\u202f]\d{3})+(?:[.,]\d{1,2}|[.,]-)?|\d+(?:[.,]\d{1,2}|[.,]-)?"
_PRICE = re.compile(
    rf"(?<![\w$€£¥])(?:{_SYMBOLS}|{_CODE}\b)\s?(?:{_AMOUNT})(?![\d])"
    rf"|(?<![\w.,])(?:{_AMOUNT})\s?(?:{_SYMBOLS}|(?:{_CODE}|{_WORD_CURRENCY})(?![\w]))",
    re.IGNORECASE)
# Every price holds a digit and starts at most 5 characters before its first one (a 4-character
# symbol such as "usd$" and a space) and ends at most 7 after its last ("12.- руб." is the
# longest tail); so `_PRICE` is only tried in windows around the digits, merged where they
# touch, which finds the same prices as one scan of the page without trying its forty
# alternatives at every letter. Margins with room to spare; the lookarounds see one more.
PRICE_WINDOW_BEFORE = 8
PRICE_WINDOW_AFTER = 10
_DIGIT_RUN = re.compile(r"\d+")
# "Label: value" pairs are found from their colon backwards: colons are rare, and one regex of
# forty alternatives tried at every character of a long page costs more than the page's parse.
# `(?<!\s)`: whitespace taken only from the start of its run (a bare `\s*` rescanned long runs
# from every position in them: quadratic).
_COLON = re.compile(r"(?:(?<!\s)\s+)?[:#]\s*")  # what `colon_spans` finds, faster
_COLON_CHAR = re.compile(r"[:#]")
_SPACES = re.compile(r"\s*")
LABEL_WINDOW_CHARS = 30
_PRICE_LABEL = re.compile(
    r"(?:our price|your price|list price|sale price|special price|retail price|price|rrp|you save|"
    r"preis|unser preis|prix|notre prix|precio|prezzo|preço|цена|cena|prijs|fiyat|pris|hinta|ár|hind|"
    r"价格|價格|価格|販売価格|가격|판매가|מחיר|السعر)$")
_PRICE_START = re.compile(r"(?:" + _SYMBOLS + r"|" + _CODE + r"\b|\d)", re.IGNORECASE)
_IDENTIFIER_LABEL = re.compile(
    r"(?:sku|isbn(?:-?1[03])?|gtin(?:-?(?:8|12|13|14))?|ean(?:-?13)?|upc|mpn|asin|model(?: number| no\.?)?|"
    r"item (?:number|no\.?)|product code|part number|part no\.?|article number|art\.?-?nr\.?|artikelnummer|"
    r"artikelnr\.?|bestellnummer|référence|réf\.|código|codice articolo|codice|артикул|код товара|品番|型番|型号|"
    r"商品编号|商品編號|상품번호|모델명|stok kodu|kod produktu|numer katalogowy)$")
# Codes also stand without a colon: "ISBN 978-3-16-148410-0", "SKU 12345".
_IDENTIFIER_CODE = re.compile(
    r"(?<![\w-])(?:sku|isbn(?:-?1[03])?|gtin(?:-?(?:8|12|13|14))?|ean(?:-?13)?|upc|mpn|asin)\s+[0-9][0-9a-z-]{3,}")
_VALUE_START = re.compile(r"\S")


def text_counts(text: str) -> dict[str, int]:
    """`product_price_count`, `product_price_label_count` (only looked for when there are prices)
    and `product_identifier_label_count` (labels with a value, and bare codes) of `text`."""
    prices = price_count(text)
    colons = colon_spans(text)
    return {
        "product_price_count": prices,
        "product_price_label_count": labelled(text, colons, _PRICE_LABEL, _PRICE_START) if prices else 0,
        "product_identifier_label_count": (labelled(text, colons, _IDENTIFIER_LABEL, _VALUE_START)
                                           + len(_IDENTIFIER_CODE.findall(text))),
    }


def price_count(text: str) -> int:
    """`len(_PRICE.findall(text))`, the pattern tried only around digits (see `PRICE_WINDOW_BEFORE`)."""
    count = 0
    window_start = window_end = -1
    for run in _DIGIT_RUN.finditer(text):
        start, end = max(0, run.start() - PRICE_WINDOW_BEFORE), run.end() + PRICE_WINDOW_AFTER
        if start > window_end:
            if window_end >= 0:
                count += len(_PRICE.findall(text, window_start, window_end))
            window_start = start
        window_end = end
    if window_end >= 0:
        count += len(_PRICE.findall(text, window_start, window_end))
    return count


def colon_spans(text: str) -> list[tuple[int, int]]:
    """Start and end of every `_COLON` match, found from the colons (rare) instead of trying the
    pattern at every space (common): a match starts where the whitespace before its colon does,
    unless the previous match took that whitespace, and takes the whitespace after it."""
    spans: list[tuple[int, int]] = []
    previous_end = 0
    for colon in _COLON_CHAR.finditer(text):
        start = colon.start()
        while start > previous_end and text[start - 1].isspace():
            start -= 1
        previous_end = _SPACES.match(text, colon.end()).end()  # type: ignore[union-attr]  # `\s*` always matches
        spans.append((start, previous_end))
    return spans


def labelled(text: str, colons: list[tuple[int, int]], label: re.Pattern[str], value: re.Pattern[str]) -> int:
    """How many times a word of `label` stands right before a colon (or `#`) followed by `value`;
    `colons` are `colon_spans(text)`."""
    count = 0
    for colon_start, colon_end in colons:
        window = text[max(0, colon_start - LABEL_WINDOW_CHARS):colon_start]
        found = label.search(window)
        if found is None or not value.match(text, colon_end):
            continue
        before = window[found.start() - 1] if found.start() > 0 else " "
        if not (before.isalnum() or before == "-") or not spaced_script(found.group()[0]):
            count += 1
    return count


def spaced_script(char: str) -> bool:
    """False for Thai and the CJK scripts, which write words without spaces between them."""
    return not ("\u0e00" <= char <= "\u0e7f" or "\u2e80" <= char <= "\ud7ff" or "\uf900" <= char <= "\uffef")
