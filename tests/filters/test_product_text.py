"""filters/page/product_text.py: each fast path gives its plain pattern's answer, on hand-picked and on
derandomized random texts."""

from __future__ import annotations

import random

import pytest

from filters.page import product_text


def _random_texts(alphabet: list[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(count)]


PRICE_ALPHABET = [*"0123456789 ,.:#-'$€£¥abcxyz\u00a0\u202f\t\n", "usd", "eur", "kr.", "lei", "руб.", "12.-", "\u2003",
                  "USD", "chf", "zł"]


@pytest.mark.parametrize("text", ["", "no digits at all", "12", "$12", "12 $", "usd 1,299.00 and 12.- руб. or 3 kr",
                                  "price: 12,99 € – was 15,99 €", "1 299,00 " * 50, "a1b2c3 $4 5€ eur6"]
                         + _random_texts(PRICE_ALPHABET, 1500, seed=13))
def test_price_count_is_findall_of_the_price_pattern(text):
    assert product_text.price_count(text) == len(product_text._PRICE.findall(text))


@pytest.mark.parametrize("text", ["", "a: b", "a : : b", "sku:  12", "x  #1", ": start", "end :", "\u00a0:\u2003x"]
                         + _random_texts([*"ab :#\t\n", "\u00a0", "  "], 1500, seed=13))
def test_colon_spans_are_the_colon_pattern_matches(text):
    assert product_text.colon_spans(text) == [(m.start(), m.end()) for m in product_text._COLON.finditer(text)]
