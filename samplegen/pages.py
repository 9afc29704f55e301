"""HTML builders: the one page skeleton, site chrome, metadata blocks and every non-article page
(the article pages are in `samplegen.article_pages`)."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from datetime import datetime

from samplegen.content import (
    BAKING_POSTS,
    BOOK_DESCRIPTION,
    BOOK_REVIEWS,
    BOOKSHOP,
    COOKIE_BANNER,
    CYCLE_LANES,
    EARBUDS_REVIEW,
    FORUM_THREAD,
    HERALD,
    HOME_SECTIONS,
    KITCHEN,
    LAKESIDE,
    LEDGER,
    MARINA_VOTE,
    MONTHS,
    NIGHT_BUS,
    OCEAN_BLOG,
    OCEAN_POSTS,
    OLDER_OCEAN_POSTS,
    PRODUCT_SPECS,
    QA_PAGE,
    RELATED_PRODUCTS,
    SAVINGS_RATES,
    SEARCH_RESULTS,
    SHOP,
    TIDEWISE,
    TINKERERS,
    Article,
    Site,
)


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def document(*, title: str, head: str = "", body: str, lang: str = "en",
             charset: str | None = "utf-8", body_class: str = "", html_attrs: str = "") -> str:
    """The one page skeleton every HTML page in the sample is built from."""
    charset_meta = f'<meta charset="{charset}">\n' if charset else ""
    klass = f' class="{body_class}"' if body_class else ""
    lang_attr = f' lang="{lang}"' if lang else ""
    return (
        f"<!DOCTYPE html>\n<html{lang_attr}{html_attrs}>\n<head>\n{charset_meta}"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_esc(title)}</title>\n{head}</head>\n<body{klass}>\n{body}</body>\n</html>\n"
    )


def site_header(site: Site) -> str:
    items = "".join(f'<li><a href="{href}">{_esc(label)}</a></li>' for label, href in site.nav)
    nav = f'<nav class="main-nav" aria-label="Main"><ul>{items}</ul></nav>\n' if items else ""
    return f'<header class="site-header">\n<a class="logo" href="/">{_esc(site.name)}</a>\n{nav}</header>\n'


def site_footer(site: Site) -> str:
    return (
        '<footer class="site-footer">\n'
        f"<p>&copy; 2024 {_esc(site.name)}. All rights reserved.</p>\n"
        '<p><a href="/about/">About</a> | <a href="/privacy/">Privacy</a> | '
        '<a href="/contact/">Contact</a></p>\n</footer>\n'
    )


def human_date(iso: str, lang: str = "en") -> str:
    """A display date that does not depend on the machine's locale."""
    day = datetime.fromisoformat(iso)
    if lang == "de":
        return f"{day.day:02d}.{day.month:02d}.{day.year}"
    if lang == "ja":
        return f"{day.year}年{day.month}月{day.day}日"
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def article_block(article: Article, *, paras: Sequence[str] | None = None, extra: str = "",
                  article_class: str = "post") -> str:
    """`<article>` with h1, byline (author + `<time datetime>`) and the paragraphs."""
    paras = article.paragraphs if paras is None else paras
    body = "\n".join(f"<p>{_esc(p)}</p>" for p in paras)
    return (
        f'<article class="{article_class}">\n<h1>{_esc(article.title)}</h1>\n'
        f'<p class="byline">{_esc(article.byline)} <span class="author">{_esc(article.author)}</span>'
        f' | <time datetime="{article.published}">{human_date(article.published, article.lang)}</time></p>\n'
        f"{body}\n{extra}</article>\n"
    )


def article_page(article: Article, head: str, *, site: Site | None = None,
                 paras: Sequence[str] | None = None, extra: str = "", charset: str | None = "utf-8") -> str:
    """A complete article page: site chrome around `article_block`."""
    site = site or article.site
    body = (site_header(site) + '<main id="content">\n' + article_block(article, paras=paras, extra=extra)
            + "</main>\n" + site_footer(site))
    title = f"{article.title} | {site.name}"
    return document(title=title, head=head, body=body, lang=article.lang, charset=charset)


def meta(**named: str) -> str:
    """`<meta name=...>` tags; underscores in keyword names become colons (twitter_card)."""
    return "".join(f'<meta name="{k.replace("_", ":")}" content="{_attr(v)}">\n' for k, v in named.items())


def og(props: Sequence[tuple[str, str]]) -> str:
    return "".join(f'<meta property="{k}" content="{_attr(v)}">\n' for k, v in props)


def link(rel: str, href: str, **attrs: str) -> str:
    extra = "".join(f' {k}="{_attr(v)}"' for k, v in attrs.items())
    return f'<link rel="{rel}" href="{_attr(href)}"{extra}>\n'


def jsonld(data: object) -> str:
    """A JSON-LD script; `</` is escaped so the JSON can never close the script early."""
    text = json.dumps(data, ensure_ascii=False, indent=1).replace("</", "<\\/")
    return f'<script type="application/ld+json">\n{text}\n</script>\n'


def description(article: Article) -> str:
    return meta(description=article.description)


def opengraph_article(article: Article, *, site: Site | None = None, locale: str = "en_GB") -> str:
    """Open Graph for an article, with `article:published_time` and `<meta name=author>`."""
    site = site or article.site
    return og((
        ("og:type", "article"), ("og:title", article.title), ("og:description", article.description),
        ("og:url", article.url), ("og:site_name", site.name), ("og:locale", locale),
        ("article:published_time", article.published), ("article:section", article.section),
    )) + meta(author=article.author)


def person(name: str) -> dict[str, str]:
    return {"@type": "Person", "name": name}


def news_jsonld(article: Article, type_: str | list[str] = "NewsArticle", **extra: object) -> dict[str, object]:
    """The common schema.org article object; `extra` adds or overrides properties."""
    data: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": type_,
        "headline": article.title,
        "description": article.description,
        "author": person(article.author),
        "datePublished": article.published,
        "mainEntityOfPage": article.url,
        "publisher": {"@type": "Organization", "name": article.site.name},
    }
    data.update(extra)
    return data


def listing_body(site: Site, heading: str, items: Sequence[tuple[str, str, str]], *, intro: str = "",
                 pager: str = "") -> str:
    """Teaser list used by the blog index, tag, category and paginated pages."""
    teasers = "\n".join(
        f'<article class="teaser"><h2><a href="{href}">{_esc(title)}</a></h2>'
        f'<p>{_esc(teaser)}</p><a class="more" href="{href}">Read more</a></article>'
        for title, href, teaser in items
    )
    intro_p = f'<p class="intro">{_esc(intro)}</p>\n' if intro else ""
    return (site_header(site) + f'<main id="content">\n<h1>{_esc(heading)}</h1>\n{intro_p}{teasers}\n'
            f"{pager}</main>\n" + site_footer(site))


def pager(prev: str | None, nxt: str | None) -> str:
    parts = []
    if prev:
        parts.append(f'<a class="prev" href="{prev}">Newer posts</a>')
    if nxt:
        parts.append(f'<a class="next" href="{nxt}">Older posts</a>')
    return f'<nav class="pagination">{" ".join(parts)}</nav>\n'


# --- non-article pages ------------------------------------------------------------------------

def blog_index_page() -> str:
    head = meta(description="Notes on the sea, the weather and the coast.") + link("next", "/blog/page/2/")
    body = listing_body(OCEAN_BLOG, "Latest posts", OCEAN_POSTS, pager=pager(None, "/blog/page/2/"))
    return document(title="Blog | Coastal Notes", head=head, body=body)


def blog_page_two() -> str:
    head = link("prev", "/blog/") + link("next", "/blog/page/3/")
    body = listing_body(OCEAN_BLOG, "Latest posts, page 2", OLDER_OCEAN_POSTS,
                        pager=pager("/blog/", "/blog/page/3/"))
    return document(title="Blog, page 2 | Coastal Notes", head=head, body=body)


def tag_page() -> str:
    items = [p for p in OCEAN_POSTS if "tide" in p[0].lower() or "sea" in p[0].lower() or "beach" in p[0].lower()]
    body = listing_body(OCEAN_BLOG, "Posts tagged: oceans", items,
                        intro="Everything we have written about the open sea and the shore.")
    return document(title="Oceans | Coastal Notes", head=meta(robots="noindex, follow"), body=body)


def category_page() -> str:
    body = listing_body(KITCHEN, "Category: Baking", BAKING_POSTS,
                        intro="Bread, pastry and the occasional cake.")
    return document(title="Baking | Kitchen Notes", head=link("canonical", KITCHEN.url("/category/baking/")),
                    body=body)


def home_page() -> str:
    sections = []
    for heading, stories in HOME_SECTIONS:
        items = "".join(f'<li><a href="{href}">{_esc(title)}</a></li>' for title, href in stories)
        sections.append(f'<section class="front-section"><h2>{_esc(heading)}</h2><ul>{items}</ul></section>')
    lead = (f'<p class="lead-teaser"><a href="{CYCLE_LANES.path}">Harbour Road vote: what happens next</a>'
            "</p>\n")
    body = (site_header(HERALD) + '<main id="content">\n<h1>The Daily Herald</h1>\n' + lead
            + "\n".join(sections) + "\n</main>\n" + site_footer(HERALD))
    head = meta(description="News, sport and opinion from the harbour town.") + og((("og:type", "website"),))
    return document(title="The Daily Herald | News from the harbour town", head=head, body=body)


def login_page() -> str:
    form = (
        '<form class="login" method="post" action="/login">\n'
        '<label for="email">Email address</label><input id="email" name="email" type="email">\n'
        '<label for="password">Password</label><input id="password" name="password" type="password">\n'
        '<label><input type="checkbox" name="remember"> Keep me signed in</label>\n'
        '<button type="submit">Sign in</button>\n</form>\n'
        '<p><a href="/password-reset">Forgotten your password?</a></p>\n'
        '<p>New here? <a href="/register">Create an account</a></p>\n'
    )
    body = site_header(HERALD) + f'<main id="content">\n<h1>Sign in</h1>\n{form}</main>\n' + site_footer(HERALD)
    return document(title="Sign in | The Daily Herald", head=meta(robots="noindex"), body=body)


def search_page() -> str:
    results = "\n".join(
        f'<li class="result"><a href="{href}">{_esc(title)}</a><p>{_esc(teaser)}</p></li>'
        for title, href, teaser in SEARCH_RESULTS
    )
    form = ('<form role="search" action="/search"><input name="q" value="sourdough starter">'
            "<button>Search</button></form>\n")
    body = (site_header(KITCHEN) + '<main id="content">\n<h1>Search results for “sourdough starter”</h1>\n'
            + form + f'<p class="count">5 results</p>\n<ol class="results">\n{results}\n</ol>\n</main>\n'
            + site_footer(KITCHEN))
    return document(title="Search: sourdough starter | Kitchen Notes", head=meta(robots="noindex"), body=body)


def product_page() -> str:
    rows = "\n".join(f"<tr><th>{_esc(k)}</th><td>{_esc(v)}</td></tr>" for k, v in PRODUCT_SPECS)
    related = "".join(f'<li><a href="{href}">{_esc(name)}</a></li>' for name, href in RELATED_PRODUCTS)
    product = {
        "@context": "https://schema.org", "@type": "Product", "name": "Aurora X2 Wireless Earbuds",
        "sku": "AUR-X2-GRA", "brand": {"@type": "Brand", "name": "Aurora"},
        "offers": {"@type": "Offer", "price": "79.99", "priceCurrency": "GBP",
                   "availability": "https://schema.org/InStock"},
    }
    main = (
        '<main id="content" class="product">\n<h1>Aurora X2 Wireless Earbuds</h1>\n'
        '<p class="price">£79.99 <span class="was">£99.99</span></p>\n'
        '<p class="stock">In stock. Free delivery on orders over £25.</p>\n'
        '<form class="buy" action="/cart/add" method="post"><select name="colour"><option>Graphite</option>'
        "<option>Sand</option><option>Ocean</option></select>"
        '<button type="submit" class="add-to-cart">Add to cart</button></form>\n'
        "<p>Compact true wireless earbuds with active noise cancelling, six microphones for clear calls "
        "and up to 28 hours of listening with the charging case.</p>\n"
        '<h2>Specifications</h2>\n<table class="specs">\n' + rows + "\n</table>\n"
        f'<h2>Customers also viewed</h2>\n<ul class="related">{related}</ul>\n</main>\n'
    )
    head = og((("og:type", "product"), ("og:title", "Aurora X2 Wireless Earbuds"))) + jsonld(product)
    return document(title="Aurora X2 Wireless Earbuds | Gadgets Shop", head=head,
                    body=site_header(SHOP) + main + site_footer(SHOP))


def bookshop_product_page() -> str:
    """A 2009-style shop page for a book: table layout, no structured data, a long publisher's
    description and reader reviews (an article to every rule but page.product)."""
    description_html = "\n".join(f"<p>{_esc(p)}</p>" for p in BOOK_DESCRIPTION)
    reviews = "\n".join(
        f'<div class="review"><p class="review-title"><b>{_esc(title)}</b>, {_esc(who)}</p>'
        f"<p>{_esc(text)}</p></div>" for title, who, text in BOOK_REVIEWS)
    buy = (
        '<table class="buybox" width="220"><tr><td class="price">Our price: £7.99</td></tr>\n'
        "<tr><td>RRP: £9.99 | You save: £2.00 (20%)</td></tr>\n"
        "<tr><td>Usually dispatched within 24 hours</td></tr>\n"
        '<tr><td><form action="/basket/add" method="post"><input type="hidden" name="isbn" value="9781840004127">'
        'Qty: <input type="text" name="qty" value="1" size="2">'
        '<input type="image" src="/images/buttons/add_to_basket.gif" alt="Add to basket"></form></td></tr>\n'
        '<tr><td><a href="/basket/">View basket</a> | <a href="/checkout/">Checkout</a></td></tr></table>\n'
    )
    details = ("<table class=\"details\"><tr><td>ISBN: 9781840004127</td></tr><tr><td>Format: Paperback, 384 pages"
               "</td></tr><tr><td>Publisher: Harbour Lane Press</td></tr><tr><td>Published: 4 June 2009</td></tr>"
               "</table>\n")
    main = (
        '<table width="960" class="layout"><tr><td valign="top" class="content">\n'
        "<h1>The Cartographer's Apprentice (Paperback)</h1>\n<p class=\"by\">Helen Marlow</p>\n"
        f"{buy}{details}<h2>Publisher's description</h2>\n{description_html}\n"
        f"<h2>Customer reviews</h2>\n{reviews}\n</td></tr></table>\n"
    )
    head = meta(keywords="Helen Marlow, The Cartographer's Apprentice, historical fiction, paperback")
    return document(title="The Cartographer's Apprentice by Helen Marlow | Riverbend Books", head=head,
                    body=site_header(BOOKSHOP) + main + site_footer(BOOKSHOP))


def earbuds_review_page() -> str:
    """A product review with an affiliate "where to buy" box and prices in the prose; its JSON-LD is
    a Review whose itemReviewed is a Product with offers: an article, not a shop page."""
    review = {
        "@context": "https://schema.org", "@type": "Review", "name": EARBUDS_REVIEW.title,
        "author": person(EARBUDS_REVIEW.author), "datePublished": EARBUDS_REVIEW.published,
        "reviewRating": {"@type": "Rating", "ratingValue": 4, "bestRating": 5},
        "itemReviewed": {"@type": "Product", "name": "Aurora X2 Wireless Earbuds", "brand": "Aurora",
                         "offers": {"@type": "Offer", "price": "79.99", "priceCurrency": "GBP"}},
    }
    box = (
        '<aside class="where-to-buy"><h3>Where to buy</h3><p class="price">Price: £79.99</p><ul>'
        '<li><a class="buy-button" rel="sponsored nofollow" href="https://www.amazon.example/dp/B0AURORAX2">'
        "Buy now at Amazon, £79.99</a></li>"
        f'<li><a class="buy-button" rel="sponsored nofollow" href="{SHOP.url("/products/aurora-x2-wireless-earbuds")}">'
        "Buy now at Gadgets Shop, £79.99</a></li></ul>"
        "<p>We may earn a commission when you buy through these links.</p></aside>\n"
    )
    head = description(EARBUDS_REVIEW) + opengraph_article(EARBUDS_REVIEW) + jsonld(review)
    return article_page(EARBUDS_REVIEW, head, extra=box)


def nextjs_shell_page() -> str:
    """A Next.js page as served before hydration: rich head metadata, an empty `#__next`."""
    chunks = ("webpack-8f2b", "framework-3c1e", "main-a91d", "pages/_app-77f0", "pages/news/[...slug]-5b2e",
              "vendors-0d4c", "commons-e6a8", "analytics-12ff", "consent-9a07", "_buildManifest",
              "_ssgManifest")
    scripts = "".join(f'<script src="/_next/static/chunks/{c}.js" defer></script>\n' for c in chunks)
    next_data = {
        "props": {"pageProps": {"slug": ["2024", "06", "03", "night-bus-network-review"], "story": None}},
        "page": "/news/[...slug]", "query": {}, "buildId": "k3Xq9sPz1vT0", "isFallback": False, "gssp": True,
    }
    head = (description(NIGHT_BUS) + opengraph_article(NIGHT_BUS) + jsonld(news_jsonld(NIGHT_BUS))
            + '<link rel="preload" href="/_next/static/css/5d1f.css" as="style">\n')
    body = ('<div id="__next"></div>\n<script id="__NEXT_DATA__" type="application/json">'
            + json.dumps(next_data, separators=(",", ":")) + "</script>\n" + scripts)
    return document(title=f"{NIGHT_BUS.title} | Metro Pulse", head=head, body=body)


def react_shell_page() -> str:
    head = meta(description="Save and share your favourite recipes.") + link("manifest", "/manifest.json")
    body = ("<noscript>You need to enable JavaScript to run this app.</noscript>\n"
            '<div id="root"></div>\n<script src="/static/js/main.4f2a9c1e.js"></script>\n'
            '<script src="/static/js/vendor.81b0d3aa.js"></script>\n')
    return document(title="Recipe Box", head=head, body=body)


def cookie_wall_page() -> str:
    """A CookieYes-style consent overlay in front of an article whose body waits for consent."""
    overlay = (
        '<div id="cky-consent" class="cky-consent-container cky-popup-center" role="dialog" aria-modal="true">\n'
        '<div class="cky-consent-bar">\n<p class="cky-title">We value your privacy</p>\n'
        f'<div class="cky-notice-des"><p>{_esc(COOKIE_BANNER)}</p></div>\n'
        '<div class="cky-notice-btn-wrapper"><button class="cky-btn cky-btn-customize">Customise</button>'
        '<button class="cky-btn cky-btn-reject">Reject All</button>'
        '<button class="cky-btn cky-btn-accept">Accept All</button></div>\n'
        '<p class="cky-powered">Powered by CookieYes. <a href="/cookie-policy/">Cookie Policy</a></p>\n'
        '</div>\n</div>\n<div class="cky-overlay"></div>\n'
    )
    placeholder = ('<div class="article-body" data-consent-required="analytics">'
                   "<p>Please accept cookies to view this content.</p></div>\n")
    main = ('<main id="content">\n' + article_block(MARINA_VOTE, extra=placeholder) + "</main>\n")
    head = description(MARINA_VOTE) + opengraph_article(MARINA_VOTE) + jsonld(news_jsonld(MARINA_VOTE))
    body = overlay + site_header(LAKESIDE) + main + site_footer(LAKESIDE)
    return document(title=f"{MARINA_VOTE.title} | Lakeside Gazette", head=head, body=body,
                    body_class="cky-modal-open")


def paywall_page() -> str:
    """A metered paywall: one teaser paragraph, a subscribe box and paywall structured data."""
    gate = (
        '<div class="paywall" id="paywall-gate" data-meter="exhausted">\n'
        "<h2>Subscribe to continue reading</h2>\n"
        "<p>This article is for subscribers only. You have reached your limit of free articles this month.</p>\n"
        "<p>Subscribe today for unlimited access to our journalism, the morning briefing and the full archive."
        "</p>\n"
        '<a class="button" href="/subscribe/">Subscribe now</a> '
        '<a href="/login">Already a subscriber? Sign in</a>\n</div>\n'
    )
    data = news_jsonld(SAVINGS_RATES, isAccessibleForFree=False, hasPart={
        "@type": "WebPageElement", "isAccessibleForFree": False, "cssSelector": ".paywall"})
    head = description(SAVINGS_RATES) + opengraph_article(SAVINGS_RATES) + jsonld(data)
    block = article_block(SAVINGS_RATES, extra=gate, article_class="story premium")
    main = '<main id="content">\n' + block + "</main>\n"
    return document(title=f"{SAVINGS_RATES.title} | The Financial Ledger", head=head,
                    body=site_header(LEDGER) + main + site_footer(LEDGER))


def not_found_page() -> str:
    body = (site_header(HERALD) + '<main id="content">\n<h1>Page not found</h1>\n'
            "<p>Sorry, we couldn't find that page. It may have been moved or deleted.</p>\n"
            '<p>Try <a href="/search">searching the site</a> or go back to the <a href="/">homepage</a>.</p>\n'
            "</main>\n" + site_footer(HERALD))
    return document(title="Page not found | The Daily Herald", head=meta(robots="noindex"), body=body)


def moved_page(location: str) -> str:
    return (f"<html><head><title>301 Moved Permanently</title></head><body><h1>Moved Permanently</h1>"
            f'<p>The document has moved <a href="{_attr(location)}">here</a>.</p></body></html>\n')


def amp_page(article: Article) -> str:
    """The AMP copy of an article: same text, `.amp` URL (a hard-excluded pattern)."""
    head = (link("canonical", article.url)
            + "<style amp-boilerplate>body{visibility:hidden}</style>\n"
            + '<script async src="https://cdn.ampproject.org/v0.js"></script>\n' + description(article))
    body = site_header(article.site) + article_block(article) + site_footer(article.site)
    return document(title=article.title, head=head, body=body, html_attrs=" amp")


def forum_thread_page() -> str:
    """A thread of four posts in the markup forum software writes (XenForo's shape): each post an
    `<article>` with its id, the poster's block (name, title, message count), a dated header, the
    body and a footer of controls. The posts are segments; the page is a forum page."""
    posts = []
    for number, (author, iso, paragraphs) in enumerate(FORUM_THREAD["posts"], 1):
        post_id = 88000 + number
        body = "".join(f"<p>{_esc(text)}</p>" for text in paragraphs)
        posts.append(
            f'<article class="message message--post" id="js-post-{post_id}" data-author="{_attr(author)}">\n'
            f'<div class="message-cell message-cell--user"><a class="username" href="/members/{_attr(author)}.'
            f'{post_id % 97}/">{_esc(author)}</a><span class="userTitle">Member</span>'
            f'<dl class="pairs"><dt>Messages</dt><dd>{post_id % 400 + 12}</dd></dl></div>\n'
            f'<div class="message-cell message-cell--main"><header class="message-attribution">'
            f'<time datetime="{iso}">{human_date(iso)}</time> <a href="#post-{post_id}">#{number}</a></header>\n'
            f'<div class="message-body"><div class="bbWrapper">{body}</div></div>\n'
            '<footer class="message-footer"><a class="actionBar-action" href="#report">Report</a> '
            '<a class="actionBar-action" href="#reply">Reply</a></footer></div>\n</article>\n')
    body = (site_header(TINKERERS) + f'<main class="p-body">\n<h1 class="p-title">{_esc(FORUM_THREAD["title"])}</h1>\n'
            '<div class="block-body">\n' + "".join(posts) + "</div>\n"
            '<form class="quickReply" action="/threads/add-reply"><textarea name="message"></textarea>'
            '<button type="submit">Post reply</button></form>\n</main>\n' + site_footer(TINKERERS))
    return document(title=f"{FORUM_THREAD['title']} | {TINKERERS.name}", body=body)


def qa_page() -> str:
    """A question and two answers in schema.org microdata (the Stack Exchange shape): the question,
    each answer's text, its author's link and its date. Each is a segment."""
    def signature(author: str, iso: str, verb: str) -> str:
        return (f'<div class="post-signature">{verb} <time itemprop="dateCreated" datetime="{iso}">'
                f'{human_date(iso)}</time> by <a href="/users/{len(author) * 37}/{_attr(author)}" '
                f'itemprop="author">{_esc(author)}</a></div>')

    author, iso, paragraphs = QA_PAGE["question"]
    text = "".join(f"<p>{_esc(paragraph)}</p>" for paragraph in paragraphs)
    question = (f'<div id="question" class="question" itemprop="mainEntity" itemscope '
                f'itemtype="https://schema.org/Question">\n<h1 itemprop="name">{_esc(QA_PAGE["title"])}</h1>\n'
                f'<div class="s-prose" itemprop="text">{text}</div>\n{signature(author, iso, "asked")}\n'
                '<div class="post-menu"><a href="#share">Share</a> <a href="#follow">Follow</a></div></div>\n')
    answers = []
    for number, (author, iso, paragraphs) in enumerate(QA_PAGE["answers"], 1):
        text = "".join(f"<p>{_esc(paragraph)}</p>" for paragraph in paragraphs)
        answers.append(f'<div id="answer-{4100 + number}" class="answer" itemprop="suggestedAnswer" itemscope '
                       f'itemtype="https://schema.org/Answer">\n<div class="s-prose" itemprop="text">{text}</div>\n'
                       f'{signature(author, iso, "answered")}\n'
                       '<div class="post-menu"><a href="#share">Share</a> <a href="#edit">Edit</a></div></div>\n')
    body = (site_header(TIDEWISE) + '<main id="mainbar" itemscope itemtype="https://schema.org/QAPage">\n'
            + question + f'<div id="answers"><h2>{len(answers)} Answers</h2>\n' + "".join(answers) + "</div>\n"
            '<form id="post-form" action="/questions/2207/answer/submit"><h2>Your Answer</h2>'
            '<textarea name="post-text"></textarea><button type="submit">Post Your Answer</button></form>\n'
            "</main>\n" + site_footer(TIDEWISE))
    return document(title=f"{QA_PAGE['title']} - {TIDEWISE.name}", body=body)
