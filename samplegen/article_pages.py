"""HTML builders of the sample's article pages: one metadata flavour each (JSON-LD, Open Graph,
microdata, meta tags), on the skeleton of `samplegen.pages`."""

from __future__ import annotations

from samplegen.content import (
    BIBLIOTHEK,
    CYCLE_LANES,
    HERALD,
    LAMPLIGHTERS,
    NIGHT_TRAIN,
    ONIONS,
    RETRY_BUDGETS,
    TIDE_GAUGES,
    WINTER_HEXAGON,
    Article,
    Site,
)
from samplegen.pages import (
    article_page,
    description,
    jsonld,
    link,
    meta,
    news_jsonld,
    opengraph_article,
    person,
)

# --- article pages: one metadata flavour each -------------------------------------------------

def tide_gauges_page() -> str:
    """JSON-LD BlogPosting with author and datePublished."""
    head = (description(TIDE_GAUGES) + link("canonical", TIDE_GAUGES.url)
            + jsonld(news_jsonld(TIDE_GAUGES, "BlogPosting", articleSection="Oceans")))
    return article_page(TIDE_GAUGES, head)


def cycle_lanes_page() -> str:
    """JSON-LD `@graph` holding WebSite, WebPage and NewsArticle nodes."""
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "@id": HERALD.url("/#website"), "name": HERALD.name, "url": HERALD.url("/")},
            {"@type": "WebPage", "@id": CYCLE_LANES.url, "isPartOf": {"@id": HERALD.url("/#website")},
             "inLanguage": "en-GB"},
            {"@type": "NewsArticle", "@id": CYCLE_LANES.url + "#article", "headline": CYCLE_LANES.title,
             "author": [person(CYCLE_LANES.author)], "datePublished": CYCLE_LANES.published,
             "dateModified": "2024-05-15T08:12:00+01:00", "mainEntityOfPage": {"@id": CYCLE_LANES.url},
             "publisher": {"@id": HERALD.url("/#organization")}},
            {"@type": "Organization", "@id": HERALD.url("/#organization"), "name": HERALD.name},
        ],
    }
    head = description(CYCLE_LANES) + link("canonical", CYCLE_LANES.url) + jsonld(graph)
    return article_page(CYCLE_LANES, head)


def onions_page(article: Article = ONIONS, *, site: Site | None = None) -> str:
    """Open Graph + `article:published_time` + `<meta name=author>`, no JSON-LD."""
    head = description(article) + opengraph_article(article, site=site)
    return article_page(article, head, site=site)


def retry_budgets_page() -> str:
    """JSON-LD whose `@type` is a list."""
    data = news_jsonld(RETRY_BUDGETS, ["BlogPosting", "TechArticle"], proficiencyLevel="Expert",
                       keywords=["reliability", "retries", "distributed systems"])
    head = description(RETRY_BUDGETS) + jsonld(data)
    return article_page(RETRY_BUDGETS, head)


def night_train_page() -> str:
    """Twitter card metadata only: no Open Graph, no JSON-LD, no `<meta name=author>`."""
    head = meta(twitter_card="summary_large_image", twitter_site="@wanderjournal",
                twitter_creator="@lucia_on_rails", twitter_title=NIGHT_TRAIN.title,
                twitter_description=NIGHT_TRAIN.description)
    return article_page(NIGHT_TRAIN, head)


def lamplighters_page(*, site: Site | None = None) -> str:
    """JSON-LD NewsArticle carrying the full `articleBody` (the first metadata strategy)."""
    data = news_jsonld(LAMPLIGHTERS, articleBody=LAMPLIGHTERS.text, wordCount=len(LAMPLIGHTERS.text.split()))
    head = description(LAMPLIGHTERS) + jsonld(data)
    return article_page(LAMPLIGHTERS, head, site=site)


def bibliothek_page() -> str:
    head = description(BIBLIOTHEK) + opengraph_article(BIBLIOTHEK, locale="de_DE")
    return article_page(BIBLIOTHEK, head)


def winter_hexagon_page() -> str:
    head = description(WINTER_HEXAGON) + jsonld(news_jsonld(WINTER_HEXAGON, "BlogPosting"))
    return article_page(WINTER_HEXAGON, head)


def short_post_page(article: Article) -> str:
    head = description(article) + opengraph_article(article) + jsonld(news_jsonld(article, "BlogPosting"))
    return article_page(article, head)


def council_notice_page(article: Article) -> str:
    return article_page(article, description(article) + opengraph_article(article))


# --------------------------------------------------------------------------------------------
# HTTP payloads and non-HTML bodies
# --------------------------------------------------------------------------------------------

