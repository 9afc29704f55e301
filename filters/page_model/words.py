"""The page-type model's word tables: words of URL paths, schema.org types and words of titles by
the page type they announce, and the person, call-to-action and byline vocabularies of the text's
shape (`filters.page_model.features`). Words of the languages, not of the training data's sites.
"""

from __future__ import annotations

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

# The person and phrase vocabularies: English, then German, French, Spanish, Italian, Portuguese,
# Dutch, Polish and Russian (words that are unambiguous in their language: not German "sie"/"ihr").
FIRST_PERSON = frozenset(("i", "me", "my", "we", "our", "us",
                           "ich", "mich", "mein", "meine", "wir", "uns", "unser", "unsere", "je", "moi", "mon", "mes",
                           "nous", "notre", "nos", "yo", "mis", "nosotros", "nuestro", "nuestra", "io", "mio", "mia",
                           "noi", "nostro", "nostra", "eu", "meu", "minha", "nós", "nosso", "nossa", "ik", "mijn",
                           "wij", "ons", "onze", "mój", "moja", "nasz", "nasza", "я", "мой", "моя", "мы", "наш",
                           "наша"))
SECOND_PERSON = frozenset(("you", "your", "yours",
                            "du", "dein", "deine", "ihnen", "vous", "votre", "vos", "tú", "tus", "usted", "ustedes",
                            "tuo", "tua", "voi", "vostro", "você", "vocês", "jij", "jouw", "uw", "twój", "twoja",
                            "wasz", "wasza", "ты", "вы", "ваш", "ваша", "твой"))
CALLS_TO_ACTION = ("sign up", "get started", "free trial", "request a demo", "book a demo", "contact us",
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
BYLINE_PHRASES = ("min read", "posted", "published", "updated", "written by", "share this", "comments", "reply",
                   "lesezeit", "veröffentlicht", "aktualisiert", "kommentare", "publié", "mis à jour",
                   "min de lecture", "commentaires", "publicado", "actualizado", "min de lectura", "comentarios",
                   "pubblicato", "aggiornato", "commenti", "atualizado", "comentários", "gepubliceerd", "bijgewerkt",
                   "reacties", "opublikowano", "zaktualizowano", "komentarze", "опубликовано", "обновлено",
                   "комментарии")

