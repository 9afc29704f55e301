"""Features of the page-type model: one function for training and for the pipeline alike.

The model tells articles (news, blog posts, essays) from the six other page types of the labelled
training data (service/marketing, product, collection grid, listing, forum, documentation). Its
inputs are numbers read from a row as the pipeline stores it: the registered signals (page, URL,
article-score components, product, structure, block, cascade, Gopher, C4, quality), whether the
metadata found a title, author, date and description, and features of the URL and the title that
web conventions make telling (`/blog/`, `/product/`, `/tag/`, `/forum/`, `/docs/`, a long
hyphenated slug, a date in the path), words of the title (`how`, `pricing`, `archives`), and the
shape of the extracted text (lines of sentences, or short lines, prices and calls to action;
`_prose`). Nothing is site-specific: the vocabularies below are the
words sites of every kind use, not the sites of the training data.

Two feature sets:
* `PAGE_FEATURES`: what is known before extraction (URL, title, metadata, page, product and
  structure signals). The pre-extraction model reads only these, so it can decide to skip
  trafilatura and readability on a page.
* `FULL_FEATURES`: those plus what extraction measures (text length, blocks, Gopher, C4, cascade)
  and the shape of the stored text.
  The select-stage model reads these, from stored signals, so a new model never re-extracts.

Missing values (a signal not computed for a page) are NaN, which gradient-boosted trees route
on their own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from filters.core.declarations import Rule, Signal
from filters.parse.html import web_address
from filters.text.tokens import word_count

PAGE_TYPES: tuple[str, ...] = ("article", "collection", "documentation", "forum", "listing", "product", "service")

# Words of URL paths, by what they usually announce. A feature per group: how many of its words
# stand as a path segment, or as a hyphen/underscore-separated part of one (single words are too
# rare in any training set for trees to learn each on its own).
# English first, then the same words as German, French, Spanish, Italian, Portuguese, Dutch,
# Polish and (transliterated, as URLs write it) Russian sites put them in paths, unaccented.
URL_WORDS: dict[str, tuple[str, ...]] = {
    "article": ("blog", "blogs", "news", "article", "articles", "story", "stories", "post", "posts", "opinion",
                "insights", "magazine", "journal", "column", "columns", "editorial", "press", "features", "feature",
                "nachrichten", "meldung", "meldungen", "aktuelles", "beitrag", "beitraege", "kommentar", "reportage",
                "actualites", "actualite", "nouvelles", "chronique", "tribune", "noticias", "noticia", "articulo",
                "articulos", "actualidad", "cronica", "notizie", "notizia", "articolo", "articoli", "cronaca",
                "artigo", "artigos", "opiniao", "nieuws", "artikelen", "opinie", "wiadomosci", "aktualnosci",
                "artykul", "artykuly", "felieton", "novosti", "statya", "stati"),
    "product": ("product", "products", "p", "dp", "item", "items", "shop", "store", "buy", "sku", "pd", "prod",
                "produkt", "produkte", "kaufen", "produit", "produits", "boutique", "acheter", "producto",
                "productos", "tienda", "comprar", "prodotto", "prodotti", "negozio", "produto", "produtos", "loja",
                "winkel", "kopen", "sklep", "tovar", "tovary"),
    "collection": ("category", "categories", "collection", "collections", "c", "catalog", "catalogue", "department",
                   "brand", "brands", "sale", "deals", "kategorie", "kategorien", "marken", "angebote", "categorie",
                   "marques", "soldes", "categoria", "categorias", "coleccion", "marcas", "ofertas", "collezione",
                   "offerte", "colecao", "aanbiedingen", "kategoria", "promocje", "katalog"),
    "listing": ("tag", "tags", "archive", "archives", "page", "search", "topics", "topic", "section", "author",
                "authors", "index", "list", "all", "latest", "events", "archiv", "schlagwort", "thema", "themen",
                "suche", "autor", "seite", "rubrik", "theme", "themes", "recherche", "auteur", "rubrique", "archivo",
                "etiqueta", "tema", "temas", "buscar", "seccion", "archivio", "argomenti", "cerca", "autore",
                "sezione", "arquivo", "busca", "secao", "archief", "zoeken", "onderwerp", "archiwum", "tagi", "szukaj",
                "arhiv", "poisk", "teg"),
    "forum": ("forum", "forums", "thread", "threads", "t", "viewtopic", "showthread", "community", "discussion",
              "discussions", "questions", "question", "q", "board", "boards", "comments", "answers", "r",
              "diskussion", "fragen", "foro", "foros", "preguntas", "discussione", "domande", "perguntas", "vragen",
              "pytania", "voprosy"),
    "documentation": ("docs", "doc", "documentation", "guide", "guides", "api", "reference", "manual", "help", "kb",
                      "support", "wiki", "learn", "tutorial", "tutorials", "howto", "faq", "developers", "sdk",
                      "dokumentation", "anleitung", "hilfe", "handbuch", "aide", "tutoriel", "ayuda", "documentacion",
                      "guia", "aiuto", "guida", "documentazione", "manuale", "ajuda", "documentacao", "hulp",
                      "handleiding", "documentatie", "pomoc", "dokumentacja", "instrukcja", "poradnik", "spravka"),
    "service": ("pricing", "solutions", "solution", "services", "service", "platform", "about", "contact", "demo",
                "enterprise", "customers", "integrations", "plans", "signup", "login", "company", "careers",
                "features", "use-cases", "industries", "partners", "preise", "loesungen", "leistungen", "ueber-uns",
                "kontakt", "unternehmen", "karriere", "impressum", "tarifs", "a-propos", "entreprise", "carrieres",
                "precios", "soluciones", "servicios", "nosotros", "contacto", "empresa", "prezzi", "soluzioni",
                "servizi", "chi-siamo", "contatti", "azienda", "precos", "solucoes", "servicos", "sobre", "contato",
                "carreiras", "prijzen", "oplossingen", "diensten", "over-ons", "bedrijf", "vacatures", "cennik",
                "rozwiazania", "uslugi", "o-nas", "kariera", "ceny", "o-kompanii", "kontakty", "vakansii"),
}
_URL_WORD_FEATURES: tuple[str, ...] = tuple(f"url_words_{group}" for group in URL_WORDS)
# URL words this short (`/p/`, `/r/`, `/t/`, `/dp/`, `/kb/`) are path markers: they count as a whole
# path segment only, never as a piece of a slug (`/rezi-love-is-war-von-r-k-lilley`, `/t-shirt-guide`).
URL_MARKER_MAX_CHARS = 2
_URL_GROUPS_OF: dict[str, list[str]] = {}
for _group, _words in URL_WORDS.items():
    for _word in _words:
        _URL_GROUPS_OF.setdefault(_word, []).append(f"url_words_{_group}")
# schema.org types (JSON-LD), grouped by the page type they usually describe
SCHEMA_GROUPS: dict[str, tuple[str, ...]] = {
    "article": ("article", "newsarticle", "blogposting", "reportagenewsarticle", "opinionnewsarticle",
                "analysisnewsarticle", "scholarlyarticle", "liveblogposting", "socialmediaposting"),
    "product": ("product", "offer", "aggregateoffer", "productgroup", "individualproduct", "productmodel"),
    "collection": ("collectionpage", "itemlist", "offercatalog", "searchresultspage"),
    "forum": ("discussionforumposting", "qapage", "question", "answer", "comment"),
    "documentation": ("techarticle", "apireference", "howto", "faqpage"),
    "service": ("softwareapplication", "webapplication", "service", "organization", "corporation",
                "localbusiness", "event"),
}
_SCHEMA_FEATURES = tuple(f"schema_{group}" for group in SCHEMA_GROUPS)

# Words of titles, by what they usually announce: English, then German, French, Spanish, Italian,
# Portuguese, Dutch, Polish and Russian, from the words of these languages, not from the sites of the
# training data. Counted once each. Titles in scripts written without spaces have no such words, and
# the model leans on the rest there.
TITLE_WORDS: dict[str, tuple[str, ...]] = {
    "article": ("how", "why", "what", "when", "guide", "tips", "ways", "best", "vs", "review", "explained",
                "lessons", "story", "interview", "analysis", "opinion",
                "wie", "warum", "tipps", "ratgeber", "analyse", "kommentar", "bericht", "comment", "pourquoi",
                "conseils", "entretien", "tribune", "cómo", "qué", "consejos", "entrevista", "análisis", "opinión",
                "perché", "consigli", "intervista", "analisi", "como", "dicas", "análise", "opinião", "hoe",
                "waarom", "jak", "dlaczego", "porady", "wywiad", "analiza", "как", "почему", "советы", "интервью",
                "анализ"),
    "service": ("pricing", "platform", "software", "solutions", "solution", "services", "demo", "enterprise",
                "features", "contact", "about", "careers", "plans", "free", "trial", "app",
                "preise", "lösungen", "plattform", "kontakt", "karriere", "leistungen", "unternehmen", "tarifs",
                "logiciel", "plateforme", "carrières", "precios", "soluciones", "plataforma", "contacto",
                "servicios", "prezzi", "soluzioni", "piattaforma", "contatti", "servizi", "preços", "soluções",
                "contato", "serviços", "prijzen", "oplossingen", "diensten", "cennik", "rozwiązania", "platforma",
                "usługi", "цены", "решения", "платформа", "контакты", "услуги"),
    "listing": ("archives", "archive", "tag", "tags", "category", "posts", "page", "results", "search", "articles",
                "news", "blog", "latest", "all", "topics",
                "archiv", "kategorie", "beiträge", "seite", "ergebnisse", "suche", "nachrichten", "aktuelles",
                "themen", "catégorie", "résultats", "recherche", "actualités", "archivo", "categoría", "entradas",
                "página", "resultados", "búsqueda", "noticias", "archivio", "categoria", "articoli", "pagina",
                "risultati", "notizie", "arquivo", "notícias", "archief", "categorie", "berichten", "resultaten",
                "nieuws", "archiwum", "kategoria", "wpisy", "strona", "wyniki", "aktualności", "архив", "категория",
                "страница", "результаты", "новости"),
    "shop": ("buy", "shop", "sale", "price", "cart", "store", "collection", "products", "deals",
             "kaufen", "angebot", "preis", "warenkorb", "günstig", "acheter", "boutique", "prix", "promo", "panier",
             "comprar", "tienda", "precio", "oferta", "ofertas", "carrito", "acquista", "negozio", "prezzo",
             "offerta", "carrello", "loja", "preço", "carrinho", "kopen", "winkel", "prijs", "aanbieding", "kup",
             "sklep", "cena", "promocja", "koszyk", "купить", "магазин", "цена", "скидки", "корзина"),
    "forum": ("forum", "thread", "question", "reply", "discussion", "community", "re",
              "frage", "antwort", "diskussion", "réponse", "foro", "pregunta", "respuesta", "domanda", "risposta",
              "discussione", "fórum", "pergunta", "resposta", "vraag", "antwoord", "pytanie", "odpowiedź",
              "dyskusja", "форум", "вопрос", "ответ", "обсуждение"),
    "documentation": ("documentation", "docs", "api", "reference", "manual", "tutorial", "install", "installation",
                      "configuration", "sdk", "guide",
                      "dokumentation", "anleitung", "handbuch", "konfiguration", "tutoriel", "manuel",
                      "documentación", "instalación", "configuración", "documentazione", "manuale", "installazione",
                      "configurazione", "documentação", "instalação", "configuração", "documentatie", "handleiding",
                      "installatie", "configuratie", "dokumentacja", "instrukcja", "instalacja", "konfiguracja",
                      "документация", "руководство", "установка", "настройка"),
}
_TITLE_FEATURES: tuple[str, ...] = (*(f"title_words_{group}" for group in TITLE_WORDS), "title_is_question",
                                    "title_has_number")

# The shape of the extracted text, read from the stored `text` (its first TEXT_SHAPE_CHARS
# characters): articles are lines of sentences; marketing pages talk to "you" and call to
# action; listings, grids and docs are short lines, prices, numbers and labels.
TEXT_SHAPE_CHARS = 5_000
_PROSE_FEATURES: tuple[str, ...] = (
    "prose_line_count", "prose_short_line_fraction", "prose_sentence_line_fraction", "prose_question_line_fraction",
    "prose_colon_line_fraction", "prose_title_case_line_fraction", "prose_distinct_line_fraction",
    "prose_words_per_line", "prose_words_per_sentence", "prose_digit_fraction", "prose_prices_per_1k_words",
    "prose_first_person_per_1k_words", "prose_second_person_per_1k_words", "prose_call_to_action_per_1k_words",
    "prose_byline_phrases_per_1k_words",
)
# The person and phrase vocabularies: English, then German, French, Spanish, Italian, Portuguese,
# Dutch, Polish and Russian (words that are unambiguous in their language: not German "sie"/"ihr").
_FIRST_PERSON = frozenset(("i", "me", "my", "we", "our", "us",
                           "ich", "mich", "mein", "meine", "wir", "uns", "unser", "unsere", "je", "moi", "mon", "mes",
                           "nous", "notre", "nos", "yo", "mis", "nosotros", "nuestro", "nuestra", "io", "mio", "mia",
                           "noi", "nostro", "nostra", "eu", "meu", "minha", "nós", "nosso", "nossa", "ik", "mijn",
                           "wij", "ons", "onze", "mój", "moja", "nasz", "nasza", "я", "мой", "моя", "мы", "наш",
                           "наша"))
_SECOND_PERSON = frozenset(("you", "your", "yours",
                            "du", "dein", "deine", "ihnen", "vous", "votre", "vos", "tú", "tus", "usted", "ustedes",
                            "tuo", "tua", "voi", "vostro", "você", "vocês", "jij", "jouw", "uw", "twój", "twoja",
                            "wasz", "wasza", "ты", "вы", "ваш", "ваша", "твой"))
_CALLS_TO_ACTION = ("sign up", "get started", "free trial", "request a demo", "book a demo", "contact us",
                    "contact sales", "learn more", "add to cart", "add to bag", "buy now", "shop now", "subscribe",
                    "log in", "sign in", "download", "get a quote", "try it free", "start free",
                    "jetzt kaufen", "in den warenkorb", "kostenlos testen", "demo anfordern", "kontaktieren sie uns",
                    "mehr erfahren", "jetzt anmelden", "ajouter au panier", "acheter maintenant", "essai gratuit",
                    "contactez-nous", "en savoir plus", "s'inscrire", "añadir al carrito", "comprar ahora",
                    "prueba gratis", "contáctanos", "más información", "regístrate", "aggiungi al carrello",
                    "acquista ora", "prova gratuita", "contattaci", "scopri di più", "iscriviti",
                    "adicionar ao carrinho", "comprar agora", "teste grátis", "fale conosco", "saiba mais",
                    "cadastre-se", "in winkelwagen", "nu kopen", "gratis proberen", "neem contact op",
                    "meer informatie", "dodaj do koszyka", "kup teraz", "wypróbuj za darmo", "skontaktuj się",
                    "dowiedz się więcej", "zarejestruj się", "в корзину", "купить сейчас", "попробовать бесплатно",
                    "свяжитесь с нами", "подробнее", "зарегистрироваться")
_BYLINE_PHRASES = ("min read", "posted", "published", "updated", "written by", "share this", "comments", "reply",
                   "lesezeit", "veröffentlicht", "aktualisiert", "kommentare", "publié", "mis à jour",
                   "min de lecture", "commentaires", "publicado", "actualizado", "min de lectura", "comentarios",
                   "pubblicato", "aggiornato", "commenti", "atualizado", "comentários", "gepubliceerd", "bijgewerkt",
                   "reacties", "opublikowano", "zaktualizowano", "komentarze", "опубликовано", "обновлено",
                   "комментарии")

_URL_SHAPE = ("url_path_depth", "url_slug_words", "url_slug_chars", "url_has_year", "url_has_long_number",
              "url_has_query", "url_is_root", "url_ends_html")
_TEXT_SHAPE = ("title_words", "title_has_separator", "has_title", "has_author", "has_published",
               "has_description", "article_score")

# Registered signals read as numbers. Left out: what select computes (duplicates, dataset
# balance), what depends on params (extraction_gated), identifiers and hashes.
PAGE_SIGNALS: tuple[str, ...] = (
    "html_bytes", "url_hard_excluded", "url_excluded_extension",
    "article_score_url_article_path", "article_score_url_date", "article_score_url_long_slug",
    "article_score_url_shallow", "article_score_url_excluded", "article_score_url_paginated",
    "article_score_url_author_listing", "article_score_words_over_300", "article_score_words_150_300",
    "article_score_one_h1", "article_score_author_metadata", "article_score_date_metadata",
    "article_score_jsonld_article", "article_score_og_article", "article_score_paragraphs_over_3",
    "article_score_many_outbound_links", "article_score_rel_next_prev", "article_score_very_short_text",
    "body_word_count", "h1_count", "paragraph_count", "outbound_link_count",
    "page_is_js_spa", "page_is_cookie_walled", "page_is_paywalled", "page_has_amp_url", "page_has_feed_url",
    "external_script_count", "needs_js",
    "product_schema_offer_item_count", "product_schema_item_count", "product_og", "product_cart_control_count",
    "product_quantity_selector_count", "product_price_count", "product_price_label_count",
    "product_identifier_label_count", "product_availability_phrase_count", "product_cart_link_count",
    "product_article_declared", "product_score",
    "structure_form_count", "structure_input_count", "structure_button_count", "structure_image_count",
    "structure_list_item_count", "structure_heading_count", "structure_table_count",
    "structure_article_element_count", "structure_time_element_count", "structure_nav_count",
    "structure_aside_count", "structure_iframe_count", "structure_link_count", "structure_link_word_fraction",
    "structure_post_count",
)
TEXT_SIGNALS: tuple[str, ...] = (
    "cascade_trafilatura_words", "cascade_readability_words", "cascade_jsonld_words",
    "cascade_trafilatura_link_code_fraction", "headline_block_count", "boilerplate_blocks_removed_count",
    "text_chars", "block_count", "longest_block_chars", "link_code_char_fraction", "large_block_char_fraction",
    "short_list_table_char_fraction", "token_count", "c4_line_count", "c4_removed_line_fraction",
    "c4_removed_word_fraction", "gopher_word_count", "gopher_median_word_length", "gopher_symbol_word_ratio",
    "gopher_alpha_word_fraction", "gopher_bullet_line_fraction", "gopher_ellipsis_line_fraction",
    "gopher_dup_line_fraction", "gopher_dup_line_char_fraction", "gopher_top_2gram_char_fraction",
    "text_language_confidence", "quality_paragraph_count", "quality_text_html_ratio", "quality_link_density",
)
_TEXT_DERIVED = ("word_count", "words_per_block", "text_word_fraction_of_page")

# The features read from word lists of several languages, and those counted in words of every
# script: what `pipeline explain` shows under "language".
LANGUAGE_FEATURES: tuple[str, ...] = (
    *_URL_WORD_FEATURES, *(f"title_words_{group}" for group in TITLE_WORDS), "title_words",
    "prose_first_person_per_1k_words", "prose_second_person_per_1k_words", "prose_call_to_action_per_1k_words",
    "prose_byline_phrases_per_1k_words", "prose_words_per_sentence", "prose_short_line_fraction",
)

PAGE_FEATURES: tuple[str, ...] = (*_URL_SHAPE, *_URL_WORD_FEATURES, *_TEXT_SHAPE, *_SCHEMA_FEATURES, *PAGE_SIGNALS,
                                  *_TITLE_FEATURES)
FULL_FEATURES: tuple[str, ...] = (*PAGE_FEATURES, *TEXT_SIGNALS, *_TEXT_DERIVED, *_PROSE_FEATURES)

_YEAR = re.compile(r"^(19|20)\d\d$")
_LONG_NUMBER = re.compile(r"\d{4,}")
_WORD_SPLIT = re.compile(r"[-_.+]")
_TITLE_WORD = re.compile(r"[^\W_]+")
_WORD = re.compile(r"\w+")
_DIGIT = re.compile(r"\d")
_PRICE = re.compile(r"[$€£¥₹₽]\s?\d|\d\s?(?:[$€£¥₹₽円元]|zł)|\b(?:USD|EUR|GBP|CHF|PLN|RUB|JPY|CNY)\b")
_SENTENCE_END = re.compile(r"[.!?…。！？][\'\")\]”’]?$")
_SENTENCE_BREAK = re.compile(r"[.!?](?:\s|$)|[。！？]")
_SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " · ")


def page_features(row: Mapping[str, Any], names: tuple[str, ...] = FULL_FEATURES) -> list[float]:
    """The model's input for one row (a mapping with `url`, `title`, `author`, `published`,
    `description`, `article_score`, `word_count`, `text` and the `signals` mapping), in the order of
    `names`; NaN where a value is missing."""
    signals = row.get("signals") or {}
    values = {**_url_features(row.get("url")), **_text_shape(row), **_schema_features(signals)}
    values.update(_text_derived(row, signals))
    values.update(_title_words(row.get("title")))
    if any(name in _PROSE_FEATURES for name in names):
        values.update(_prose(row.get("text")))
    return [_number(values[name] if name in values else signals.get(name)) for name in names]


def _number(value: Any) -> float:
    if value is None:
        return math.nan
    return float(value)


def _url_features(url: Any) -> dict[str, float]:
    values: dict[str, float] = dict.fromkeys(_URL_WORD_FEATURES, 0.0)
    parts = web_address(url) if isinstance(url, str) else None
    if parts is None:  # no web address (the same page read from a bucket must get the same type)
        return dict.fromkeys((*_URL_WORD_FEATURES, *_URL_SHAPE), math.nan)
    segments = [segment for segment in parts.path.lower().split("/") if segment]
    slug = segments[-1] if segments else ""
    stem = slug.rsplit(".", 1)[0] if "." in slug else slug
    words = {*segments, *(word for segment in segments for word in _WORD_SPLIT.split(segment)
                          if len(word) > URL_MARKER_MAX_CHARS)}
    for word in words:
        for key in _URL_GROUPS_OF.get(word, ()):
            values[key] += 1.0
    values.update(
        url_path_depth=float(len(segments)),
        url_slug_words=float(len([word for word in _WORD_SPLIT.split(stem) if word])),
        url_slug_chars=float(len(stem)),
        url_has_year=float(any(_YEAR.match(segment) for segment in segments)),
        url_has_long_number=float(bool(_LONG_NUMBER.search(parts.path))),
        url_has_query=float(bool(parts.query)),
        url_is_root=float(not segments),
        url_ends_html=float(slug.endswith((".html", ".htm", ".php", ".aspx", ".asp", ".shtml"))),
    )
    return values


def _text_shape(row: Mapping[str, Any]) -> dict[str, float]:
    title = row.get("title") or ""
    return {
        "title_words": float(word_count(title)),
        "title_has_separator": float(any(separator in title for separator in _SEPARATORS)),
        "has_title": float(bool(title)),
        "has_author": float(bool(row.get("author"))),
        "has_published": float(row.get("published") is not None),
        "has_description": float(bool(row.get("description"))),
        "article_score": _number(row.get("article_score")),
    }


def _schema_features(signals: Mapping[str, Any]) -> dict[str, float]:
    declared = set((signals.get("structure_schema_types") or "").split(","))
    return {f"schema_{group}": float(bool(declared & set(types))) for group, types in SCHEMA_GROUPS.items()}


def _text_derived(row: Mapping[str, Any], signals: Mapping[str, Any]) -> dict[str, float]:
    words = row.get("word_count")
    blocks = signals.get("block_count")
    page_words = signals.get("body_word_count")
    return {
        "word_count": _number(words),
        "words_per_block": words / blocks if words is not None and blocks else math.nan,
        "text_word_fraction_of_page": words / page_words if words is not None and page_words else math.nan,
    }


def _title_words(title: Any) -> dict[str, float]:
    lowered = title.lower() if isinstance(title, str) else ""
    words = set(_TITLE_WORD.findall(lowered))
    values = {f"title_words_{group}": float(len(words.intersection(group_words)))
              for group, group_words in TITLE_WORDS.items()}
    values["title_is_question"] = float("?" in lowered)
    values["title_has_number"] = float(bool(_DIGIT.search(lowered)))
    return values


def _prose(text: Any) -> dict[str, float]:
    if not isinstance(text, str) or not text.strip():
        return dict.fromkeys(_PROSE_FEATURES, math.nan)
    text = text[:TEXT_SHAPE_CHARS]
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    lowered = text.lower()
    words = _WORD.findall(lowered)  # for the person vocabularies
    line_count, text_words = len(lines), max(1, word_count(text))
    per_1k = 1000 / text_words
    return {
        "prose_line_count": float(line_count),
        "prose_short_line_fraction": sum(word_count(line) <= 6 for line in lines) / line_count,
        "prose_sentence_line_fraction": sum(bool(_SENTENCE_END.search(line)) for line in lines) / line_count,
        "prose_question_line_fraction": sum(line.endswith("?") for line in lines) / line_count,
        "prose_colon_line_fraction": sum(line.endswith(":") for line in lines) / line_count,
        "prose_title_case_line_fraction": sum(line.istitle() for line in lines) / line_count,
        "prose_distinct_line_fraction": len(set(lines)) / line_count,
        "prose_words_per_line": text_words / line_count,
        "prose_words_per_sentence": text_words / max(1, len(_SENTENCE_BREAK.findall(text))),
        "prose_digit_fraction": len(_DIGIT.findall(text)) / len(text),
        "prose_prices_per_1k_words": len(_PRICE.findall(text)) * per_1k,
        "prose_first_person_per_1k_words": sum(word in _FIRST_PERSON for word in words) * per_1k,
        "prose_second_person_per_1k_words": sum(word in _SECOND_PERSON for word in words) * per_1k,
        "prose_call_to_action_per_1k_words": sum(lowered.count(phrase) for phrase in _CALLS_TO_ACTION) * per_1k,
        "prose_byline_phrases_per_1k_words": sum(lowered.count(phrase) for phrase in _BYLINE_PHRASES) * per_1k,
    }

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
GATE_SIGNALS: tuple[Signal, ...] = (
    Signal("page_article_probability", pa.float64(), "pre-extraction page-type model: probability that the page "
           "is an article (null: model not run)"),
    Signal("extraction_gated", pa.bool_(), "a pre-extraction rule (url, article score) rejected the page"),
)
SELECT_SIGNALS: tuple[Signal, ...] = (
    Signal("kept_type_probability", pa.float64(), "page-type model: probability that the page is of a kept type "
           "(select.page.keep_types; select stage)"),
)
GATE_RULES: tuple[Rule, ...] = (
    Rule("article.page_model", "the pre-extraction page-type model (URL, title, metadata, page, product and "
         "structure signals) gives the page a low article probability: not extracted unless --extract-all",
         "page_article_probability", "<", "extract", params_key="extract.gate.min_page_article_probability"),
)
SELECT_RULES: tuple[Rule, ...] = (
    Rule("page.not_article", "the page-type model gives the kept page types (select.page.keep_types, by default "
         "article) a probability below the threshold: a shop, category, listing, forum, documentation or "
         "marketing page", "kept_type_probability", "<", "select", params_key="select.page.min_article_probability"),
)


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class SelectPageParams:
    # page.product at/above this `product_score` (filters/page/product.py: structured offer 3, own
    # add-to-cart control 3, og:type product 2, quantity selector 2, price / price label /
    # identifier label / availability / cart link 1 each, declared article -3). 5 needs two
    # shop-only families, or one with two pieces of furniture an article rarely has together.
    min_product_score: int | None = None  # 5 in presets/seed.yaml; the page-type model decides product pages
    # page.not_article: the page-type model's probability of the kept types (`keep_types`) below
    # this; null: the model is not run in select (docs/filters.md, "Page types").
    min_article_probability: float | None = 0.88
    # page.several_posts above this many whole posts on one page (`structure_post_count`,
    # filters/page/page_structure.py): a page of several posts is a listing (docs/filters.md, "Pages of
    # several posts"); null: off (set it so when `keep_types` keeps listings).
    max_posts: int | None = 1
    # Page types kept by page.not_article: the probabilities of these types are added up.
    keep_types: tuple[str, ...] = ("article",)
    # The page-type model file; null: the model shipped with the package.
    model: str | None = None
