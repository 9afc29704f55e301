"""Shop and product pages: structured product markup and the commerce furniture of the visible page
(docs/filters.md, "Shop and product pages (`page.product`)").

A product page with a long publisher's description and a few reader reviews looks like an article to the
article score and the block rules, so this module looks for what only a shop page has, in families: schema.org
Product/Offer types (https://schema.org/Product, https://schema.org/Offer) or any non-article type carrying
`offers`, in JSON-LD, microdata and RDFa, a product that is only the `itemReviewed` of a review excepted; Open
Graph `og:type=product` and price metas (https://ogp.me/#types); its own add-to-cart controls, quantity
selectors, prices with a currency, price and identifier labels, availability phrases and cart links.

Input: a parsed page. Output (`product_signals`): one `product_*` signal per family and `product_score`, their
sum with the points of `WEIGHTS` (each family counts once): what an article can carry too (a price, an ISBN, a
link to a shop) is one point, what only a shop's own page has (an offer in its markup, its own cart control, a
quantity field) two or three, and a page that declares itself an article loses three. `page.product` compares
the score with `select.page.min_product_score`, so it is re-tuned without re-extraction.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate
from typing import Any
from urllib.parse import urlsplit

import pyarrow as pa
import re2
from lxml import etree

from filters.core.declarations import Rule, Signal
from filters.core.re2_options import RE2_OPTIONS
from filters.core.vocabulary import ARTICLE_TYPES, OFFER_TYPES, PRODUCT_TYPES
from filters.page.domains import same_site
from filters.page.product_text import spaced_script, text_counts
from filters.parse.parsed import Page

_ARTICLE_TYPES_LOWER = frozenset(t.lower() for t in ARTICLE_TYPES)
# A product that is only what a review or an article is about is not on sale on this page.
NOT_FOR_SALE_PROPERTIES = frozenset({"itemreviewed", "about", "mentions", "subjectof"})
OG_PRODUCT_TYPES = frozenset({"product", "product.item", "og:product", "product.group"})
OG_PRICE_PREFIXES = ("og:price:", "product:price:", "product:sale_price:", "og:product:price")

WEIGHTS: dict[str, int] = {
    "schema_offer": 3,        # a product item with offers, or an Offer itself
    "schema_product": 1,      # a product item without offers (review snippets carry these)
    "og_product": 2,
    "cart_control": 3,
    "quantity_selector": 2,
    "price": 1,
    "price_label": 1,
    "identifier_label": 1,
    "availability": 1,
    "cart_link": 1,
    "article_declared": -3,
}

# Labels of add-to-cart controls, lower-case, as a shopper reads them on a button or link.
CART_PHRASES: tuple[str, ...] = (
    # en
    "add to cart", "add to basket", "add to bag", "add to trolley", "add to shopping cart", "add to shopping bag",
    "add to shopping basket", "add to my basket", "add to my cart", "buy now", "buy it now", "buy new", "buy used",
    "add to order",
    # de
    "in den warenkorb", "in den einkaufswagen", "zum warenkorb hinzufügen", "jetzt kaufen", "in die tasche",
    # fr
    "ajouter au panier", "ajouter à mon panier", "acheter maintenant", "mettre au panier",
    # es
    "añadir al carrito", "agregar al carrito", "añadir a la cesta", "añadir a la bolsa", "comprar ahora",
    # it
    "aggiungi al carrello", "metti nel carrello", "acquista ora", "compra ora", "aggiungi alla borsa",
    # pt
    "adicionar ao carrinho", "comprar agora", "adicionar à sacola", "adicionar ao cesto",
    # nl
    "in winkelwagen", "toevoegen aan winkelwagen", "in winkelmand", "in mijn winkelwagen",
    # ru / uk / bg
    "в корзину", "добавить в корзину", "купить сейчас", "у кошик", "в кошик", "додати в кошик",
    "добави в количката",
    # pl / cs / sk / sl / hr / hu / ro
    "do koszyka", "dodaj do koszyka", "kup teraz", "do košíku", "vložit do košíku", "do košíka",
    "vložiť do košíka", "dodaj v košarico", "v košarico", "dodaj u košaricu", "u košaricu", "kosárba",
    "adaugă în coș", "adauga in cos",
    # sv / da / no / fi / et / lv / lt
    "lägg i varukorgen", "köp nu", "læg i kurv", "læg i kurven", "legg i handlekurven", "legg i handlekurv",
    "lisää ostoskoriin", "lisa ostukorvi", "pievienot grozam", "ielikt grozā", "į krepšelį",
    # tr / el
    "sepete ekle", "hemen al", "προσθήκη στο καλάθι",
    # ja / zh / ko
    "カートに入れる", "カートに追加", "買い物かごに入れる", "今すぐ購入", "加入购物车", "加入購物車", "放入购物车",
    "立即购买", "立即購買", "장바구니 담기", "장바구니에 담기", "바로구매", "바로 구매",
    # ar / he / fa / hi / id / vi / th
    "أضف إلى السلة", "أضف للسلة", "إضافة إلى السلة", "הוסף לסל", "הוספה לסל", "افزودن به سبد خرید",
    "कार्ट में जोड़ें", "tambah ke keranjang", "masukkan keranjang", "beli sekarang", "thêm vào giỏ",
    "mua ngay", "หยิบใส่ตะกร้า",
)
# A button whose whole label is a bare "buy" verb is a shop's own control too. "Order" verbs
# ("Bestellen", "Zamów") are not: newspapers use them for newsletters and subscriptions.
BUY_VERBS = frozenset({
    "buy", "purchase", "bid now", "place bid", "submit bid", "kaufen", "acheter", "comprar", "compra", "acquista",
    "kopen", "köp", "kjøp", "køb", "osta", "kup", "koupit", "kúpiť", "kupi", "купить", "купити", "satın al", "αγορά",
    "購入", "购买", "購買", "구매", "구매하기", "شراء", "קנה", "beli", "mua",
})
CART_LABEL_MAX_CHARS = 40
# Class/id/name values that shop software gives its add-to-cart controls.
_CART_ATTRIBUTE = re.compile(
    r"add[-_ ]?to[-_ ]?(?:cart|basket|bag|trolley)|addto(?:cart|basket|bag)|add[-_]?cart|cart[-_]?add"
    r"|basket[-_]?add|add2(?:cart|basket)|buy[-_]?(?:now|button|btn)|buy[-_]?it[-_]?now|btn[-_]?(?:cart|buy)"
    r"|button[-_]?(?:cart|buy)|product[-_]?form[-_]?submit")
# The same pattern on RE2, for `_cart_controls`'s one pass over every control's attributes.
_CART_ATTRIBUTE_SCREEN = re2.compile(_CART_ATTRIBUTE.pattern, RE2_OPTIONS)
# `src` too: old shops draw their buttons as images (`<input type=image src="add_to_basket.gif">`).
_CONTROL_ATTRIBUTES = ("id", "class", "name", "data-action", "data-role", "src")
# Path segments of cart and checkout pages, in several languages (a link there means a shop).
CART_SEGMENTS = frozenset({
    "cart", "carts", "basket", "checkout", "shoppingcart", "shopping-cart", "shopping_cart", "shopping-bag",
    "bag", "trolley", "warenkorb", "kasse", "panier", "carrito", "cesta", "carrello", "carrinho", "winkelwagen",
    "winkelmand", "koszyk", "kosik", "košík", "kosarica", "košarica", "kosar", "kosár", "cos", "sepet", "kurv",
    "handlekurv", "varukorg", "ostoskori", "ostukorv", "grozs", "korzina", "корзина", "kori", "cart.php",
    "basket.php", "checkout.php", "cart.aspx", "basket.aspx", "cart.html", "basket.html",
})
# A form may post to a checkout for a donation or a subscription; only a cart form adds goods.
CHECKOUT_SEGMENTS = frozenset({"checkout", "kasse", "checkout.php"})
_CART_QUERY = re.compile(r"(?:^|&)(?:add-to-cart|add_to_cart|addtocart|add-to-basket)=", re.IGNORECASE)
# Screens before `urlsplit`, which costs more than the rest of the test (see `_may_be_cart_url`);
# on RE2, which reads the page's joined links once whatever the number of segments.
_CART_SEGMENT_SCREEN = re2.compile(r"(?:^|[/:\x00-\x20])(?:{})(?:[/?#\x00]|$)".format(
    "|".join(re.escape(segment) for segment in sorted(CART_SEGMENTS))), RE2_OPTIONS)
_CART_QUERY_SCREEN = re2.compile(r"(?i)add-to-cart|add_to_cart|addtocart|add-to-basket", RE2_OPTIONS)
_QUANTITY_NAME = re.compile(
    r"(?:^|[-_\[\s])(?:qty|quantity|quantities|menge|anzahl|quantite|quantité|cantidad|quantita|quantità|"
    r"quantidade|aantal|ilosc|ilość|antal|maara|määrä|mnozstvi|množství|adet|kolichestvo|количество|数量|수량)"
    r"(?:$|[-_\[\]\s\d])", re.IGNORECASE)
_QUANTITY_ATTRIBUTES = ("name", "id", "class", "aria-label", "title", "data-qa", "data-testid")

AVAILABILITY_PHRASES: tuple[str, ...] = (
    "in stock", "out of stock", "only a few left", "usually dispatched within", "usually ships within",
    "usually ships in", "ships within", "ships in 24 hours", "dispatched within", "usually dispatched",
    "available for delivery", "available to order", "pre-order now",
    "currently unavailable", "temporarily out of stock", "auf lager", "sofort lieferbar", "nicht lieferbar",
    "nicht vorrätig", "lieferzeit", "en stock", "rupture de stock", "en cours de réapprovisionnement",
    "en existencia", "agotado", "sin stock", "disponibilità immediata", "non disponibile", "esaurito",
    "em estoque", "esgotado", "fora de estoque", "в наличии", "нет в наличии", "под заказ", "op voorraad",
    "niet op voorraad", "uitverkocht", "na stanie", "brak w magazynie", "niedostępny", "skladem", "není skladem",
    "na sklade", "na zalogi", "na zalihi", "raktáron", "în stoc", "stoc epuizat", "på lager", "i lager",
    "ei varastossa", "varastossa", "laos olemas", "noliktavā", "stokta", "tükendi", "在庫あり", "在庫切れ", "在庫なし",
    "有货", "缺货", "現貨", "품절", "재고 있음", "במלאי", "אזל מהמלאי", "متوفر", "غير متوفر", "còn hàng", "hết hàng",
    "stok tersedia", "stok habis",
)



def _matching_indexes(pattern: Any, values: list[str]) -> set[int]:
    """Indexes of the `values` in which the RE2 `pattern` matches, all read in one pass joined by
    NUL: no pattern here matches a NUL, so no match runs across two values, and a value holding a
    match holds one that starts in it."""
    joined = "\0".join(values)
    starts = list(accumulate((len(value) + 1 for value in values), initial=0))
    return {bisect_right(starts, match.start()) - 1 for match in pattern.finditer(joined)}


class _Phrases:
    """Lower-case phrases matched as words where the script has spaces ("hemen al" must not match
    "t-hemen al-le"; "カートに入れる" has no spaces around it). A plain substring test first: one
    regex of a hundred alternatives over a long page costs more than the page's parse."""

    def __init__(self, phrases: tuple[str, ...]) -> None:
        self._patterns = [(phrase, re.compile(_bounded(phrase))) for phrase in phrases]
        # Every phrase as a plain alternative, on RE2: an automaton that reads each character once
        # whatever the number of alternatives (Python's `re` tries every alternative at every
        # position), so it screens a page's labels together in one pass (`labels_with_phrase`).
        self._screen = re2.compile("|".join(re.escape(phrase) for phrase in phrases), RE2_OPTIONS)

    def found(self, text: str) -> list[str]:
        """The phrases in `text`, without those that are only part of a longer one found
        ("usually dispatched within" is one phrase, not three)."""
        if self._screen.search(text) is None:  # one pass; most pages hold no phrase at all
            return []
        hits = [phrase for phrase, pattern in self._patterns if phrase in text and pattern.search(text)]
        return [hit for hit in hits if not any(hit != other and hit in other for other in hits)]

    def labels_with_phrase(self, labels: list[str]) -> set[int]:
        """The indexes of the `labels` in which `found` finds a phrase: all screened in one pass
        (`_matching_indexes`), only those with a match read by `found`."""
        return {index for index in _matching_indexes(self._screen, labels) if self.found(labels[index])}


def _bounded(phrase: str) -> str:
    start = r"(?<!\w)" if spaced_script(phrase[0]) else ""
    end = r"(?!\w)" if spaced_script(phrase[-1]) else ""
    return start + re.escape(phrase) + end


_CART_PHRASES = _Phrases(CART_PHRASES)
_AVAILABILITY = _Phrases(AVAILABILITY_PHRASES)
# `//@role[. = 'button']/..` is `//*[@role='button']` without a predicate on every element (half the cost).
_CONTROLS = etree.XPath(
    "//button | //input[@type='submit' or @type='button' or @type='image'] | //@role[. = 'button']/.."
    f" | //a[string-length(normalize-space()) <= {CART_LABEL_MAX_CHARS}]"
    " | //form[@action]")
_QUANTITY_CANDIDATES = etree.XPath("//input | //select")
# From the attributes: a third less than testing a predicate on every element.
_ITEMTYPES = etree.XPath("//@itemtype/.. | //@typeof/..")


# --- what this filter declares (joined by filters/rules/signals.py and filters/rules/reasons.py) -------------
SIGNALS: tuple[Signal, ...] = (
    Signal("product_schema_types", pa.string(), "schema.org product types (JSON-LD, microdata, RDFa), comma-separated"),
    Signal("product_schema_offer_item_count", pa.int32(), "product items carrying offers, and Offer items"),
    Signal("product_schema_item_count", pa.int32(), "product items (not counting a review's itemReviewed)"),
    Signal("product_og", pa.bool_(), "og:type product/product.item, or og:price:* / product:price:* metas"),
    Signal("product_cart_control_count", pa.int32(), "add-to-cart/buy buttons, same-site links and cart forms"),
    Signal("product_quantity_selector_count", pa.int32(), "inputs/selects named for a quantity (qty, Menge, ...)"),
    Signal("product_price_count", pa.int32(), "amounts with a currency symbol or ISO code in the visible text"),
    Signal("product_price_label_count", pa.int32(), "'Price:' / 'Preis:' / 'Our price:' labels before an amount"),
    Signal("product_identifier_label_count", pa.int32(), "SKU/ISBN/GTIN/EAN/MPN/model labels with a value"),
    Signal("product_availability_phrase_count", pa.int32(), "distinct availability phrases ('in stock', ...)"),
    Signal("product_cart_link_count", pa.int32(), "same-site links to a cart or checkout page"),
    Signal("product_article_declared", pa.bool_(), "the page declares an Article type in JSON-LD"),
    Signal("product_score", pa.int32(), "filters/page/product.py WEIGHTS summed over the families present"),
)

RULES: tuple[Rule, ...] = (
    Rule("page.product", "a shop or product page: product markup (schema.org offers, og:type product) and "
         "commerce furniture (add-to-cart controls, quantity selector, prices, SKU/ISBN labels, availability) "
         "add up to the threshold; a page declaring an Article in JSON-LD loses 3 points", "product_score", ">=",
         "select", params_key="select.page.min_product_score"),
)


def product_signals(page: Page) -> dict[str, Any]:
    """Every product signal of the page and the combined `product_score` (see `WEIGHTS`)."""
    schema_types, offer_items, product_items = _structured_items(page)
    visible = page.visible_text
    own_host = _host(page.url)
    values: dict[str, Any] = {
        "product_schema_types": ",".join(sorted(schema_types)) or None,
        "product_schema_offer_item_count": offer_items,
        "product_schema_item_count": product_items,
        "product_og": _og_product(page),
        "product_cart_control_count": _cart_controls(page, own_host),
        "product_quantity_selector_count": _quantity_selectors(page),
        **text_counts(visible),
        "product_availability_phrase_count": len(_AVAILABILITY.found(visible)),
        "product_cart_link_count": _cart_links(page, own_host),
        "product_article_declared": bool({t.lower() for t in page.json_ld_types()} & _ARTICLE_TYPES_LOWER),
    }
    values["product_score"] = product_score(values)
    return values


def product_score(values: dict[str, Any]) -> int:
    """Points of `WEIGHTS` for the families present (each counts once, however often it occurs)."""
    present = {
        "schema_offer": values["product_schema_offer_item_count"] > 0,
        "schema_product": values["product_schema_offer_item_count"] == 0 and values["product_schema_item_count"] > 0,
        "og_product": values["product_og"],
        "cart_control": values["product_cart_control_count"] > 0,
        "quantity_selector": values["product_quantity_selector_count"] > 0,
        "price": values["product_price_count"] > 0,
        "price_label": values["product_price_label_count"] > 0,
        "identifier_label": values["product_identifier_label_count"] > 0,
        "availability": values["product_availability_phrase_count"] > 0,
        "cart_link": values["product_cart_link_count"] > 0,
        "article_declared": values["product_article_declared"],
    }
    return sum(WEIGHTS[name] for name, hit in present.items() if hit)


def _structured_items(page: Page) -> tuple[set[str], int, int]:
    """(product types seen, items with offers or offers themselves, product items) over JSON-LD,
    microdata and RDFa."""
    types: set[str] = set()
    offers = products = 0
    for obj in _json_ld_for_sale(page.json_ld):
        kinds = _type_names(obj.get("@type"))
        if kinds & _ARTICLE_TYPES_LOWER:
            continue
        has_offers = bool(obj.get("offers"))
        if kinds & PRODUCT_TYPES or has_offers:
            types.update(kinds & PRODUCT_TYPES or kinds)
            products += 1
            offers += has_offers or bool(kinds & OFFER_TYPES)
    for element in _ITEMTYPES(page.tree):
        if (element.get("itemprop") or element.get("property") or "").strip().lower() in NOT_FOR_SALE_PROPERTIES:
            continue
        kinds = _type_names((element.get("itemtype") or element.get("typeof") or "").split())
        product_kinds = kinds & PRODUCT_TYPES
        if not product_kinds:
            continue
        types.update(product_kinds)
        products += 1
        offers += bool(product_kinds & OFFER_TYPES) or _has_microdata_offer(element)
    return types, offers, products


def _json_ld_for_sale(objects: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The page's JSON-LD objects and their `mainEntity` (a WebPage/ItemPage often wraps the product)."""
    for obj in objects:
        yield obj
        main = obj.get("mainEntity")
        for item in main if isinstance(main, list) else [main]:
            if isinstance(item, dict):
                yield item


def _has_microdata_offer(element: Any) -> bool:
    return bool(element.xpath("boolean(.//*[@itemprop='offers' or @property='offers' or @property='schema:offers'])"))


def _type_names(value: Any) -> set[str]:
    """`@type` / `itemtype` / `typeof` values, lower-cased and without `https://schema.org/` or `schema:`."""
    items = value if isinstance(value, list) else [value]
    return {item.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower() for item in items if isinstance(item, str)}


def _og_product(page: Page) -> bool:
    og_type = (page.meta_first("og:type") or "").strip().lower()
    if og_type in OG_PRODUCT_TYPES:
        return True
    return any(key.startswith(OG_PRICE_PREFIXES) for key in page.meta)


def _cart_controls(page: Page, own_host: str | None) -> int:
    """Buttons, inputs, same-site links and forms that put something in a cart."""
    count = 0
    controls = []
    for element in _CONTROLS(page.tree):
        if element.tag == "form":
            count += _is_cart_url(element.get("action") or "", own_host, exclude=CHECKOUT_SEGMENTS)
        else:
            controls.append(element)
    # Attribute values and labels of every control are screened in one pass each (RE2, see
    # `_Phrases.labels_with_phrase`): a per-element regex cost more than the rest of the signal.
    attributes = [_cart_attributes(element) for element in controls]
    by_attributes = _matching_indexes(_CART_ATTRIBUTE_SCREEN, attributes)
    labels = [_label(element) for element in controls]
    short = [label if label and len(label) <= 3 * CART_LABEL_MAX_CHARS else "" for label in labels]
    by_label = _CART_PHRASES.labels_with_phrase(short)
    for index, element in enumerate(controls):
        if not (index in by_attributes or index in by_label or short[index].strip(" .!:›»>→") in BUY_VERBS):
            continue
        link = element if element.tag == "a" else next(element.iterancestors("a"), None)
        if link is not None and not _same_site(_host(link.get("href") or "", relative_to=own_host), own_host):
            continue  # an affiliate "buy" link goes to another site
        count += 1
    return count


def _label(element: Any) -> str:
    parts = [element.text_content() if element.tag != "input" else ""]
    parts += [element.get(name) or "" for name in ("value", "alt", "title", "aria-label")]
    if len(element):  # an element without children holds no image
        parts += [image.get("alt") or "" for image in element.iter("img")]
    return " ".join(" ".join(parts).split()).lower()


def _cart_attributes(element: Any) -> str:
    """The element's class/id/name values (`_CONTROL_ATTRIBUTES`), lower-cased, that
    `_CART_ATTRIBUTE` reads: a link's image file names too (a button drawn as a picture)."""
    values = " ".join(value for name in _CONTROL_ATTRIBUTES if (value := element.get(name)))
    if element.tag == "a" and len(element):  # an element without children holds no image
        values += " " + " ".join(image.get("src") or "" for image in element.iter("img"))
    return values.lower()


def _quantity_selectors(page: Page) -> int:
    count = 0
    for element in _QUANTITY_CANDIDATES(page.tree):
        if element.tag == "input" and (element.get("type") or "text").lower() in ("hidden", "submit", "checkbox",
                                                                                    "radio", "image", "button"):
            continue
        if any(_QUANTITY_NAME.search(element.get(name) or "") for name in _QUANTITY_ATTRIBUTES):
            count += 1
    return count


def _cart_links(page: Page, own_host: str | None) -> int:
    hrefs = page.hrefs
    # One screen of all links first (a page without a cart link is the common case): a link
    # that passes alone passes joined to the others by NUL, which bounds a segment as its ends do.
    if not _may_be_cart_url("\0".join(href.strip() for href in hrefs)):
        return 0
    return sum(1 for href in hrefs if _may_be_cart_url(href) and _is_cart_url(href, own_host))


def _may_be_cart_url(href: str) -> bool:
    """False only for an href `_is_cart_url` rejects: a path segment it accepts stands in the
    lower-cased href (less the tabs and newlines `urlsplit` drops) after a slash, the scheme's
    colon, the start or a character `urlsplit` strips from it, and before a slash, the query,
    the fragment or the end; a query key it accepts is in the href."""
    cleaned = href.strip().replace("\t", "").replace("\r", "").replace("\n", "").lower()
    return _CART_SEGMENT_SCREEN.search(cleaned) is not None or _CART_QUERY_SCREEN.search(href) is not None


def _is_cart_url(href: str, own_host: str | None, exclude: frozenset[str] = frozenset()) -> bool:
    """A same-site URL of a cart or checkout page (path segment or add-to-cart query)."""
    href = href.strip()
    if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
        return False
    try:
        parts = urlsplit(href)
    except ValueError:
        return False
    host = (parts.hostname or "").removeprefix("www.") or own_host
    if not _same_site(host, own_host):
        return False
    segments = {segment.lower() for segment in parts.path.split("/") if segment}
    return bool(segments & (CART_SEGMENTS - exclude)) or bool(_CART_QUERY.search(parts.query))


def _same_site(host: str | None, own_host: str | None) -> bool:
    """Same registered domain by the Public Suffix List (`filters.page.domains`): `offer.shop.co.uk` and
    `www.shop.co.uk` are one site, `a.myshopify.com` and `b.myshopify.com` two shops. A link
    without a host (relative) is on the page's own site."""
    if host is None or own_host is None:
        return host == own_host or host is None
    return same_site(host, own_host)


def _host(url: str | None, relative_to: str | None = None) -> str | None:
    """Host without `www.`; a relative URL is on `relative_to`'s host; None when there is none."""
    if not url:
        return relative_to
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    return host.removeprefix("www.") if host else relative_to
