"""Shop-page signals (filters/page/product.py): each family at both sides, many languages, and the
articles that must stay articles (prices in a news story, a review's buy box, a recipe, a how-to)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from lxml import etree
from strategies import cases, texts_of

from filters.page import product
from filters.page.product import WEIGHTS, product_score, product_signals
from filters.parse.html import parse_html
from filters.parse.parsed import Page
from filters.rules.reasons import RULES_BY_CODE
from pipeline.params import Params, load_params, params_from_dict
from tests.conftest import SEED_PARAMS

PROSE = (
    "The first thing you notice is how quiet the street becomes after the market closes. Stall holders "
    "fold their awnings, the gulls move down to the harbour, and for an hour the only sound is a broom "
    "on the cobbles. We came back three evenings in a row to watch it happen."
)


def page(body: str, head: str = "", url: str = "https://www.example-shop.test/item/blue-kettle") -> Page:
    tree = parse_html(f"<html><head><title>t</title>{head}</head><body>{body}</body></html>")
    return Page(tree, url)


def ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def signals(body: str, head: str = "", url: str = "https://www.example-shop.test/item/blue-kettle") -> dict:
    return product_signals(page(body, head, url))


# ---- structured data ----------------------------------------------------------------------------

PRODUCT_WITH_OFFER = {"@context": "https://schema.org", "@type": "Product", "name": "Kettle",
                      "offers": {"@type": "Offer", "price": "39.00", "priceCurrency": "EUR"}}


@pytest.mark.parametrize("head", [
    ld(PRODUCT_WITH_OFFER),
    ld({"@context": "https://schema.org", "@graph": [{"@type": "WebSite"}, PRODUCT_WITH_OFFER]}),
    ld([{"@type": "BreadcrumbList"}, PRODUCT_WITH_OFFER]),
    ld({"@type": "ItemPage", "mainEntity": PRODUCT_WITH_OFFER}),
    ld({**PRODUCT_WITH_OFFER, "@type": "https://schema.org/Product"}),
    ld({**PRODUCT_WITH_OFFER, "@type": "product"}),  # lower-case, as some shop software writes it
    ld({"@type": "Book", "name": "A novel", "offers": {"@type": "Offer", "price": "9.99"}}),
    ld({"@type": ["Car", "Product"], "name": "Used hatchback", "offers": {"price": 5400}}),
    ld({"@type": "AggregateOffer", "lowPrice": "12", "highPrice": "30"}),
])
def test_json_ld_offers_in_every_shape(head):
    values = signals("<p>x</p>", head)
    assert values["product_schema_offer_item_count"] >= 1
    assert values["product_schema_types"]


def test_json_ld_product_without_offers_is_weak_and_itemreviewed_is_not_for_sale():
    weak = signals("<p>x</p>", ld({"@type": "Product", "name": "Kettle", "aggregateRating": {"ratingValue": 4}}))
    assert weak["product_schema_item_count"] == 1 and weak["product_schema_offer_item_count"] == 0
    review = signals("<p>x</p>", ld({"@type": "Review", "itemReviewed": PRODUCT_WITH_OFFER}))
    assert review["product_schema_item_count"] == 0 and review["product_schema_offer_item_count"] == 0
    assert signals("<p>x</p>", ld({"@type": "Book", "name": "A novel"}))["product_schema_item_count"] == 0


def test_microdata_and_rdfa():
    microdata = signals('<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span>'
                        '<div itemprop="offers" itemscope itemtype="https://schema.org/Offer">'
                        '<span itemprop="price">39</span></div></div>')
    assert microdata["product_schema_offer_item_count"] >= 1
    rdfa = signals('<div vocab="https://schema.org/" typeof="Product"><span property="name">Kettle</span></div>')
    assert rdfa["product_schema_item_count"] == 1 and rdfa["product_schema_offer_item_count"] == 0
    reviewed = signals('<div itemscope itemtype="https://schema.org/Review"><div itemprop="itemReviewed" itemscope '
                       'itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span></div></div>')
    assert reviewed["product_schema_item_count"] == 0


@pytest.mark.parametrize("head, expected", [
    ('<meta property="og:type" content="product">', True),
    ('<meta property="og:type" content="product.item">', True),
    ('<meta property="product:price:amount" content="39.00">', True),
    ('<meta property="og:price:currency" content="EUR">', True),
    ('<meta property="og:type" content="article">', False),
    ('<meta property="og:type" content="website">', False),
])
def test_open_graph_product(head, expected):
    assert signals("<p>x</p>", head)["product_og"] is expected


# ---- commerce furniture -------------------------------------------------------------------------

@pytest.mark.parametrize("label", [
    "Add to cart", "Add to basket", "In den Warenkorb", "Ajouter au panier", "Añadir al carrito",
    "Aggiungi al carrello", "Adicionar ao carrinho", "In winkelwagen", "В корзину", "Dodaj do koszyka",
    "Sepete ekle", "カートに入れる", "加入购物车", "加入購物車", "장바구니 담기", "Lägg i varukorgen", "Do košíku",
    "Kosárba", "أضف إلى السلة", "Pievienot grozam", "Lisää ostoskoriin", "Buy now", "Kaufen", "Купить",
])
def test_cart_buttons_in_many_languages(label):
    assert signals(f"<form method=post><button type=submit>{label}</button></form>")["product_cart_control_count"] == 1
    # the same words inside a sentence are prose, not a control
    assert signals(f"<p>{PROSE} {label}.</p>")["product_cart_control_count"] == 0


@pytest.mark.parametrize("control", [
    '<input type="submit" value="Add to Cart">',
    '<input type="image" src="/img/add_to_basket.gif" alt="">',
    '<a href="/cart.php?action=add&id=12"><img src="/img/buy.gif" alt="Buy"></a>',
    '<button class="btn single_add_to_cart_button">Ajouter</button>',
    '<a href="javascript:void(0)" class="add-to-cart">+</a>',
    '<form action="/basket/add" method="post"><input type="hidden" name="id" value="12"></form>',
])
def test_cart_controls_by_label_class_image_and_form(control):
    assert signals(control)["product_cart_control_count"] >= 1


@pytest.mark.parametrize("control", [
    '<a href="https://www.amazon.example/dp/B01" class="buy-button">Buy now at Amazon</a>',  # affiliate
    '<a href="https://partner.example/shop?id=1">Add to cart</a>',
    '<a href="/cart/" id="cartbutton">Cart (0)</a>',  # the site's cart icon is a cart link, not a control
    '<form action="/support-us/checkout" method="post"><button>Donate</button></form>',  # a donation form
    '<button>Bestellen</button>',  # newsletters are "ordered" too
    '<a href="/themen/">Alle Artikel</a>',  # "hemen al" must not match inside "Themen alle"
])
def test_not_cart_controls(control):
    assert signals(control)["product_cart_control_count"] == 0


@pytest.mark.parametrize("field, expected", [
    ('<input type="number" name="qty" value="1">', 1),
    ('<input type="text" name="quantity[123]" value="1">', 1),
    ('<select id="product-quantity"><option>1</option></select>', 1),
    ('<input type="number" name="menge" min="1">', 1),
    ('<input type="number" name="servings" value="4">', 0),  # a recipe's servings adjuster
    ('<input type="hidden" name="qty" value="1">', 0),
    ('<input type="text" name="q" placeholder="Search">', 0),
])
def test_quantity_selector(field, expected):
    assert signals(field)["product_quantity_selector_count"] == expected


@pytest.mark.parametrize("price", [
    "$19.99", "US$ 1,299.00", "€ 12,99", "12,99 €", "1.299,00 €", "1 299,00 €", "£7.99", "EUR 45.00", "45.00 EUR",
    "CHF 1'250.–", "1'250.- CHF", "299 zł", "1 499 Kč", "3 990 ₽", "1 200 руб.", "¥1,980", "1,980円", "39,900원",
    "₹2,499", "129 kr", "399,00 kn", "R$ 59,90", "₪120", "99 USD",
])
def test_prices_with_currency_in_many_formats(price):
    assert signals(f"<p>Now only {price} while stocks last</p>")["product_price_count"] >= 1


@pytest.mark.parametrize("text", [
    "The tower is 300 ft tall and was built in 1887.", "Version 3.5 ships with 12 new features.",
    "We walked 10 km on the 4th of May.", "Call 555 0199 before 9.30.",
])
def test_numbers_that_are_not_prices(text):
    assert signals(f"<p>{text}</p>")["product_price_count"] == 0


def test_price_label_needs_a_price_after_the_colon():
    assert signals("<p>Our price: £7.99</p>")["product_price_label_count"] == 1
    assert signals("<p>Preis: 12,99 €</p>")["product_price_label_count"] == 1
    assert signals("<p>The price of bread rose to £1.40 this year.</p>")["product_price_label_count"] == 0


@pytest.mark.parametrize("text, expected", [
    ("ISBN: 9781840004127", 1), ("ISBN 978-1-84000-412-7", 1), ("SKU: KET-1200-BL", 1), ("EAN: 4006381333931", 1),
    ("Model number: KX-200", 1), ("Art.-Nr.: 102938", 1), ("Артикул: 55102", 1), ("型番：ABC-123", 0),
    ("Our SKU system changed last year.", 0), ("The model was trained on news text.", 0),
])
def test_identifier_labels(text, expected):
    assert (signals(f"<p>{text}</p>")["product_identifier_label_count"] >= 1) is bool(expected)


@pytest.mark.parametrize("text, expected", [
    ("In stock", True), ("Usually dispatched within 24 hours", True), ("Sofort lieferbar", True),
    ("En stock", True), ("В наличии", True), ("在庫あり", True), ("Na stanie", True),
    ("The stock market fell sharply.", False), ("Add the chicken stock and simmer.", False),
    ("Laos and Cambodia signed the treaty.", False),
])
def test_availability_phrases(text, expected):
    assert (signals(f"<p>{text}</p>")["product_availability_phrase_count"] > 0) is expected


def test_cart_links_only_on_the_same_site():
    assert signals('<a href="/basket/">Basket</a>')["product_cart_link_count"] == 1
    assert signals('<a href="https://checkout.example-shop.test/checkout">Pay</a>')["product_cart_link_count"] == 1
    assert signals('<a href="https://other.test/cart">Their cart</a>')["product_cart_link_count"] == 0
    assert signals('<a href="/cartography/">Maps</a>')["product_cart_link_count"] == 0


def test_same_site_is_the_registered_domain():
    """By the Public Suffix List (filters/page/domains.py), private suffixes included: two shops on one
    hosting suffix are two sites, a shop's subdomains under a two-level ccTLD suffix are one."""
    shop = "https://kettles.myshopify.com/products/blue"
    assert signals('<a href="https://kettles.myshopify.com/cart">Cart</a>', url=shop)["product_cart_link_count"] == 1
    assert signals('<a href="https://pans.myshopify.com/cart">Cart</a>', url=shop)["product_cart_link_count"] == 0
    uk = "https://www.kettles.co.uk/blue"
    assert signals('<a href="https://pay.kettles.co.uk/basket">Basket</a>', url=uk)["product_cart_link_count"] == 1
    assert signals('<a href="https://www.pans.co.uk/basket">Basket</a>', url=uk)["product_cart_link_count"] == 0
    # A short second label is not a suffix: the old "three labels under a short one" guess split these.
    de = "https://www.abc.de/kessel"
    assert signals('<a href="https://shop.abc.de/warenkorb">Korb</a>', url=de)["product_cart_link_count"] == 1


# ---- the combined score -------------------------------------------------------------------------

def test_score_adds_each_family_once():
    base = {"product_schema_offer_item_count": 0, "product_schema_item_count": 0, "product_og": False,
            "product_cart_control_count": 0, "product_quantity_selector_count": 0, "product_price_count": 0,
            "product_price_label_count": 0, "product_identifier_label_count": 0,
            "product_availability_phrase_count": 0, "product_cart_link_count": 0, "product_article_declared": False}
    assert product_score(base) == 0
    assert product_score({**base, "product_price_count": 40}) == WEIGHTS["price"]
    shop = {**base, "product_schema_offer_item_count": 2, "product_schema_item_count": 2, "product_og": True}
    assert product_score(shop) == WEIGHTS["schema_offer"] + WEIGHTS["og_product"]
    declared = {**shop, "product_article_declared": True}
    assert product_score(declared) == product_score(shop) + WEIGHTS["article_declared"]


SEED = params_from_dict({"select": {"page": {"min_product_score": 5}}})  # presets/seed.yaml


def _fires(score: int, params: Params | None = None) -> bool:
    return RULES_BY_CODE["page.product"].fires(score, params or SEED)


def test_rule_is_off_by_default_and_on_in_the_seed_preset():
    # the page-type model decides product pages by default; the seed preset keeps page.product at 5
    assert not RULES_BY_CODE["page.product"].fires(12, Params())
    assert load_params(SEED_PARAMS).select.page.min_product_score == 5


def test_rule_threshold_both_sides_and_params():
    assert _fires(5) and _fires(12)
    assert not _fires(4) and not _fires(-3)
    assert not _fires(None)
    strict = params_from_dict({"select": {"page": {"min_product_score": 8}}})
    assert not _fires(7, strict) and _fires(8, strict)
    off = params_from_dict({"select": {"page": {"min_product_score": None}}})
    assert not _fires(20, off)


# ---- whole pages: shops in several languages and eras, and articles that stay articles ------------

def modern_shop(lang: str, button: str, price: str, stock: str) -> str:
    head = ld(PRODUCT_WITH_OFFER) + '<meta property="og:type" content="product">'
    body = (f'<h1>Kettle</h1><p class="price">{price}</p><p>{stock}</p><form action="/cart/add" method="post">'
            f'<input type="number" name="qty" value="1"><button type="submit">{button}</button></form>'
            f"<p>{PROSE}</p>")
    return f'<html lang="{lang}"><head><title>Kettle</title>{head}</head><body>{body}</body></html>'


@pytest.mark.parametrize("lang, button, price, stock", [
    ("en", "Add to basket", "£39.00", "In stock"), ("de", "In den Warenkorb", "39,00 €", "Auf Lager"),
    ("fr", "Ajouter au panier", "39,00 €", "En stock"), ("pl", "Dodaj do koszyka", "159 zł", "Na stanie"),
    ("ja", "カートに入れる", "4,980円", "在庫あり"), ("ru", "В корзину", "3 990 ₽", "В наличии"),
])
def test_modern_shop_pages_score_high(lang, button, price, stock):
    tree = parse_html(modern_shop(lang, button, price, stock))
    assert product_signals(Page(tree, "https://www.example-shop.test/kettle"))["product_score"] >= 10


LONG_DESCRIPTION = " ".join([PROSE] * 6)


def legacy_book_page() -> str:
    """2009-era table layout: no structured data, a long description and reviews, an image button."""
    reviews = "".join(f'<div class="review"><b>Reader review</b><p>{PROSE}</p></div>' for _ in range(3))
    return (
        '<table><tr><td><h1>The Cartographer\'s Apprentice (Paperback)</h1>'
        "<table><tr><td>Our price: £7.99</td></tr><tr><td>RRP: £9.99</td></tr>"
        "<tr><td>Usually dispatched within 24 hours</td></tr><tr><td>"
        '<form action="/shop/add.php" method="post">Qty: <input name="qty" value="1" size="2">'
        '<input type="image" src="/images/btn_add_to_basket.gif" alt="Add to basket"></form></td></tr></table>'
        f"<p>ISBN: 9781840004127</p><h2>Description</h2><p>{LONG_DESCRIPTION}</p><h2>Reviews</h2>{reviews}"
        "</td></tr></table>"
    )


def test_legacy_book_shop_page_without_structured_data_is_a_product_page():
    values = signals(legacy_book_page(), url="http://www.bookshop.test/books/cartographers-apprentice/9781840004127")
    assert values["product_schema_item_count"] == 0
    assert values["product_cart_control_count"] >= 1 and values["product_quantity_selector_count"] == 1
    assert _fires(values["product_score"])


def news_about_prices() -> tuple[str, str]:
    head = ld({"@type": "NewsArticle", "headline": "Chip makers lead a broad rally"})
    body = ("<article><h1>Chip makers lead a broad rally</h1>"
            "<p>Shares of the largest chip maker rose 4% to $912.40, and its rival closed at $143.05. In Europe "
            "the index gained 1.2%, with the biggest equipment supplier up to €812,30 and the pound at $1.27. "
            "Brent crude slipped to $82.10 a barrel while gold held near $2,330 an ounce.</p>"
            f"<p>{PROSE}</p><p>Analysts said the price: $900 level had been a ceiling for weeks.</p></article>"
            '<a href="/subscribe/checkout">Subscribe for £1</a>')
    return body, head


def review_with_buy_box() -> tuple[str, str]:
    head = ld({"@type": "Review", "itemReviewed": PRODUCT_WITH_OFFER}) + '<meta property="og:type" content="article">'
    body = (f"<article><h1>Kettle review</h1><p>{PROSE}</p><p>At £39 it is good value, and it is in stock at "
            "most retailers.</p>"
            '<aside class="buy-box"><p>Price: £39.00</p>'
            '<a class="buy-button" href="https://www.amazon.example/dp/B0KETTLE">Buy now at Amazon, £39</a>'
            '<a class="buy-button" href="https://shop.partner.test/kettle">Add to basket at Partner</a></aside>'
            "</article>")
    return body, head


def recipe() -> tuple[str, str]:
    head = ld({"@type": "Recipe", "name": "Lemon tart", "recipeIngredient": ["250 g flour", "2 lemons"]})
    body = ('<article><h1>Lemon tart</h1><label>Servings <input type="number" name="servings" value="8"></label>'
            "<ul><li>250 g plain flour</li><li>125 g butter</li><li>2 unwaxed lemons</li><li>150 ml double cream"
            f"</li></ul><p>{PROSE}</p><p>A tart tin costs about £12 and lasts for years.</p></article>")
    return body, head


def how_to() -> tuple[str, str]:
    head = ld({"@type": "HowTo", "name": "Fix a dripping tap", "tool": [{"@type": "HowToTool", "name": "Spanner"}]})
    body = ("<article><h1>How to fix a dripping tap</h1><h2>You will need</h2><ul>"
            '<li>An adjustable spanner (<a href="https://www.amazon.example/dp/SPANNER">buy on Amazon</a>, $14)</li>'
            '<li>Replacement washers (<a href="https://hardware.test/washers">$3 at Hardware</a>)</li></ul>'
            f"<p>{PROSE}</p><p>{PROSE}</p></article>")
    return body, head


@pytest.mark.parametrize("build", [news_about_prices, review_with_buy_box, recipe, how_to])
def test_articles_with_money_and_buy_links_are_not_product_pages(build):
    body, head = build()
    values = signals(body, head, url="https://www.some-magazine.test/2024/05/14/story")
    assert not _fires(values["product_score"]), values


@pytest.mark.parametrize("control", [
    '<input type="image" src="/img/btn.gif" alt="Add to Shopping Basket">',
    '<a href="/basket.asp?isbn=9780140449136"><img src="/img/b.gif" alt="Buy New"></a>',
])
def test_cart_controls_of_older_shops(control):
    assert signals(control)["product_cart_control_count"] == 1


def test_overlapping_availability_phrases_count_once():
    assert signals("<p>Usually dispatched within 24 hours</p>")["product_availability_phrase_count"] == 1
    assert signals("<p>In stock. Usually ships within 2 days.</p>")["product_availability_phrase_count"] == 2


# ---- the cart URL screen never hides a cart URL -----------------------------------------------

CART_URL_PIECES = ["/", "Cart", "CART", "car\tt", "c\nart", "?", "&", "add-to-cart=", "ADD-TO-CART=", "add-to-baſket=",
                   "basket.php", "KOŠÍK", "Корзина", "checkout", "x", "https://", "shop.test", "other.test", "#", " ",
                   "\x01", ";", "cart:", "\u3000", "%2Fcart", "=1", "javascript:"]


@cases(2000)
@given(texts_of(CART_URL_PIECES))
def test_cart_url_screen_never_hides_a_cart_url(href):
    for own_host in (None, "shop.test"):
        if product._is_cart_url(href, own_host):
            assert product._may_be_cart_url(href) and product._may_be_cart_url("\0".join(["/a", href.strip(), "/b"]))


def test_controls_are_the_elements_the_plain_role_predicate_selects():
    plain = etree.XPath(
        "//button | //input[@type='submit' or @type='button' or @type='image'] | //*[@role='button']"
        f" | //a[string-length(normalize-space()) <= {product.CART_LABEL_MAX_CHARS}] | //form[@action]")
    roles = ("button", "Button", " button", "buttons", "link", "")
    rng = random.Random(11)

    def element(depth: int) -> str:
        tag = rng.choice(("div", "span", "a", "button", "input", "form", "li"))
        attributes = f' role="{rng.choice(roles)}"' if rng.random() < 0.5 else ""
        if tag == "input":
            attributes += f' type="{rng.choice(("submit", "button", "image", "text", "hidden"))}"'
        if tag == "form" and rng.random() < 0.5:
            attributes += ' action="/cart"'
        inner = "".join(element(depth + 1) for _ in range(rng.randint(0, 3))) if depth < 4 else "Add to cart"
        return f"<{tag}{attributes}>{inner}</{tag}>"

    found = 0
    for _ in range(300):
        body = "".join(element(0) for _ in range(4))
        tree = parse_html(f"<html><head></head><body role='{rng.choice(roles)}'>{body}</body></html>")
        expected = plain(tree)
        assert product._CONTROLS(tree) == expected
        found += sum(1 for element_ in expected if element_.get("role") == "button")
    assert found > 50


def test_labels_are_screened_together_as_one_by_one():
    # Non-ASCII labels before a hit (offsets are characters, not bytes), empty labels, a phrase
    # at the very start and end, and a label that only holds a phrase's prefix.
    labels = ["", "warenkorb ansehen", "größe wählen", "in den warenkorb", "カートに入れる", "add to",
              "cart", "add to cart", "ßßß add to basket", ""]
    one_by_one = {i for i, label in enumerate(labels) if product._CART_PHRASES.found(label)}
    assert product._CART_PHRASES.labels_with_phrase(labels) == one_by_one
    assert {3, 4, 7} <= one_by_one and 5 not in one_by_one and 6 not in one_by_one
    attributes = ["btn add-to-cart", "größe", "add", "to-cart", "product-form-submit"]
    assert product._matching_indexes(product._CART_ATTRIBUTE_SCREEN, attributes) == \
        {i for i, value in enumerate(attributes) if product._CART_ATTRIBUTE.search(value)} == {0, 4}
