"""filters/page/product_text.py: each fast path gives its plain pattern's answer, on hand-picked texts
and on texts hypothesis builds from the pieces that matter (derandomized, shrinking a failure)."""

from __future__ import annotations

from hypothesis import example, given
from strategies import cases, texts_of

from filters.page import product_text

PRICE_ALPHABET = [*"0123456789 ,.:#-'$€£¥abcxyz\u00a0\u202f\t\n", "usd", "eur", "kr.", "lei", "руб.", "12.-", "\u2003",
                  "USD", "chf", "zł"]


@cases(1500)
@given(texts_of(PRICE_ALPHABET))
@example('')
@example('no digits at all')
@example('12')
@example('$12')
@example('12 $')
@example('usd 1,299.00 and 12.- руб. or 3 kr')
@example('price: 12,99 € – was 15,99 €')
@example("1 299,00 " * 50)
@example('a1b2c3 $4 5€ eur6')
def test_price_count_is_findall_of_the_price_pattern(text):
    assert product_text.price_count(text) == len(product_text._PRICE.findall(text))


@cases(1500)
@given(texts_of([*"ab :#\t\n", "\u00a0", "  "]))
@example('')
@example('a: b')
@example('a : : b')
@example('sku:  12')
@example('x  #1')
@example(': start')
@example('end :')
@example('\xa0:\u2003x')
def test_colon_spans_are_the_colon_pattern_matches(text):
    assert product_text.colon_spans(text) == [(m.start(), m.end()) for m in product_text._COLON.finditer(text)]
