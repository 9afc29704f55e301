"""Deterministic generator of the bundled sample (`pipeline sample --out data/sample`).

The sample is the project's end-to-end fixture: a small crawl that contains one or more
examples of every case the seeds describe, each labelled in `manifest.json` with the reason
codes (CONTRACT.md) it must get and whether it must be kept. Every page is original prose
written for this file, so the sample can be redistributed with the project.

What is written:

* `sample.warc.gz` - a WARC/1.0 file, one gzip member per record, starting with `warcinfo`:
  full articles (JSON-LD, `@graph`, `@type` list, `articleBody`, Open Graph, Twitter-only),
  non-articles (listing, tag, category, home, paginated, login, search, product spec), JS
  shells, a cookie wall, a paywall, same-host template pages, duplicates of three kinds,
  non-HTML and non-2xx records, transport variants (chunked, gzip, no Content-Type,
  truncated, resource) and non-document records (request, metadata, revisit).
* `damaged.warc.gz` - three responses whose middle gzip member is corrupted.
* `html/` - plain HTML files: UTF-8 with a canonical link, windows-1252 declared only in a
  `<meta>`, Shift_JIS with no declaration at all, a gzipped page and a page with no URL hint.
* `manifest.json` - one entry per record or file (see `ManifestEntry`).

Output is byte-identical on every run: record ids are UUIDv5 of file/type/URL, dates are
fixed, gzip headers carry no timestamp, and "random" bytes come from a hash chain.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import io
import json
import struct
import uuid
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

SAMPLE_WARC = "sample.warc.gz"
DAMAGED_WARC = "damaged.warc.gz"
MANIFEST = "manifest.json"
HTML_DIR = "html"

# Record types that are not documents: counted per file, never rows (CONTRACT.md).
NON_DOCUMENT_TYPES = ("warcinfo", "request", "metadata", "revisit")

_ID_NAMESPACE = uuid.UUID("6f1c1d2e-5b0a-4c8e-9d3f-2a7b8c9d0e1f")
_USER_AGENT = "corpus-filter-sample/0.1 (+https://crawler.example/about)"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


# --------------------------------------------------------------------------------------------
# Manifest and record descriptions
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Expect:
    """What the finished pipeline must do with one record: the manifest's judgement."""

    kind: str
    reasons: tuple[str, ...]
    kept: bool | None
    note: str
    features: tuple[str, ...] = ()


@dataclass(frozen=True)
class Capture:
    """One WARC record to write, with the expectation that goes into the manifest.

    `status` is the HTTP status line for response/revisit records and None for records
    without HTTP headers; `payload` is the HTTP body exactly as stored (already chunked or
    gzipped where the headers say so). `links_to` names the URL of the response record this
    one belongs with (request, metadata, revisit).
    """

    record_type: str
    url: str
    when: datetime
    expect: Expect
    payload: bytes = b""
    status: str | None = None
    http_headers: tuple[tuple[str, str], ...] = ()
    warc_headers: tuple[tuple[str, str], ...] = ()
    warc_content_type: str = ""
    links_to: str | None = None


def _entry(file: str, offset: int, url: str | None, record_type: str, expect: Expect) -> dict[str, object]:
    """One manifest entry; `offset` matches the pipeline's `source_offset` column."""
    return {
        "file": file,
        "offset": offset,
        "url": url,
        "record_type": record_type,
        "kind": expect.kind,
        "expected_reasons": list(expect.reasons),
        "kept": expect.kept,
        "note": expect.note,
        "features": sorted(expect.features),
    }


# --------------------------------------------------------------------------------------------
# Sites and articles
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Site:
    """A publisher: its host, name, web server banner and navigation menu."""

    host: str
    name: str
    server: str
    nav: tuple[tuple[str, str], ...]

    def url(self, path: str) -> str:
        return f"https://{self.host}{path}"


@dataclass(frozen=True)
class Article:
    """An article page's content; `body` is prose with paragraphs separated by blank lines."""

    site: Site
    path: str
    title: str
    author: str
    published: str  # ISO 8601 with offset
    description: str
    body: str
    section: str = "News"
    lang: str = "en"
    byline: str = "By"

    @property
    def url(self) -> str:
        return self.site.url(self.path)

    @property
    def paragraphs(self) -> tuple[str, ...]:
        return paragraphs(self.body)

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


def paragraphs(text: str) -> tuple[str, ...]:
    """Split constant prose into paragraphs: blank lines separate, wrapped lines are joined."""
    return tuple(" ".join(block.split()) for block in text.strip().split("\n\n") if block.strip())


def _nav(*labels: str) -> tuple[tuple[str, str], ...]:
    return tuple((label, "/" + label.lower().replace(" ", "-") + "/") for label in labels)


OCEAN_BLOG = Site("blog.example-news.org", "Coastal Notes", "nginx/1.24.0",
                  _nav("Blog", "Oceans", "Weather", "Field Trips", "Newsletter"))
HERALD = Site("www.daily-herald.example", "The Daily Herald", "Apache/2.4.58 (Unix)",
              _nav("News", "Local", "Sport", "Business", "Opinion", "Weather"))
KITCHEN = Site("www.kitchen-notes.example", "Kitchen Notes", "nginx",
               _nav("Recipes", "Techniques", "Baking", "Notes"))
BYTEFIELD = Site("engineering.bytefield.example", "Bytefield Engineering", "cloudflare",
                 _nav("Posts", "Talks", "Open Source", "Careers"))
WANDER = Site("www.wander-journal.example", "Wander Journal", "Netlify",
              _nav("Stories", "Rail", "Islands", "Guides"))
LANTERN = Site("history.lanternpress.example", "Lantern Press History", "nginx/1.22.1",
               _nav("Articles", "Places", "People", "Podcasts"))
STADTBLATT = Site("www.stadtblatt.example", "Stadtblatt", "Apache",
                  (("Lokales", "/lokales/"), ("Kultur", "/kultur/"), ("Sport", "/sport/"),
                   ("Wirtschaft", "/wirtschaft/")))
SKYWATCH = Site("blog.skywatch-notes.example", "Skywatch Notes", "nginx/1.25.3",
                _nav("Blog", "Sky Guides", "Equipment"))
MAKERS = Site("notes.example-makers.org", "Makers' Notes", "lighttpd/1.4.73",
              _nav("Blog", "Projects", "Tools"))
COUNCIL = Site("www.riverside-council.example", "Riverside Council", "Microsoft-IIS/10.0",
               _nav("Notices", "Bins and Recycling", "Parking", "Planning", "Contact Us"))
ROUNDUP = Site("www.recipe-roundup.example", "Recipe Roundup", "openresty",
               _nav("Dinner", "Baking", "Quick Meals"))
HERITAGE = Site("www.heritage-digest.example", "Heritage Digest", "nginx",
                _nav("Features", "Archives Today", "Letters"))
SHOP = Site("shop.gadgets.example", "Gadgets Shop", "envoy",
            _nav("Audio", "Phones", "Wearables", "Deals"))
METRO = Site("www.metro-pulse.example", "Metro Pulse", "Vercel", _nav("News", "Transport", "Culture"))
RECIPE_APP = Site("app.recipe-box.example", "Recipe Box", "AmazonS3", ())
LAKESIDE = Site("www.lakeside-gazette.example", "Lakeside Gazette", "nginx",
                _nav("News", "Business", "Lakeside Life"))
LEDGER = Site("www.financial-ledger.example", "The Financial Ledger", "Apache",
              _nav("Markets", "Companies", "Personal Finance", "Subscribe"))
COURIER = Site("www.valley-courier.example", "Valley Courier", "nginx", _nav("News", "Community"))


# --- the full articles (each 350-700 words, all must be kept) ---------------------------------

TIDE_GAUGES = Article(
    OCEAN_BLOG, "/blog/2024/03/18/why-tide-gauges-still-matter",
    "Why tide gauges still matter in the satellite era", "Maren Okafor", "2024-03-18T08:30:00+00:00",
    "Century-old instruments on harbour walls still anchor our picture of rising seas.",
    """
    Every few hours, somewhere along almost every inhabited coastline, a small instrument
    records the height of the sea. Some of these tide gauges have been running for more than a
    century, and their long, patient records are still among the most valuable data sets in
    climate science. It is easy to assume that satellites have made them obsolete, since radar
    altimeters now measure the ocean surface across the whole globe every ten days. The truth
    is more interesting, and it explains why coastal agencies keep paying to maintain
    equipment that looks almost quaint.

    Satellite altimetry began in earnest in the early nineteen nineties. Before that, the only
    direct measurements of sea level came from gauges bolted to piers, harbour walls and rocky
    outcrops. If you want to know how fast the sea rose during the twentieth century, there is
    simply no other source. Researchers stitch the records together, correct them for gaps and
    instrument changes, and use them to reconstruct a global average that stretches back to
    the days of steam ships and paper charts.

    Gauges also measure something satellites cannot easily see: what the sea is doing right at
    the shore. Altimeters struggle in the last few kilometres before the coast, where land
    contaminates the radar echo and tides behave in complicated ways inside estuaries and
    bays. For a harbour master planning dredging work, or a town deciding how high to build a
    new sea wall, the local number is the one that matters, and the gauge on the quay provides
    it minute by minute.

    There is a catch, and it is a subtle one. A tide gauge measures the sea relative to the
    land it is fixed to, and land moves. In some regions the ground is still rebounding from
    the weight of ice sheets that melted thousands of years ago, so local sea level appears to
    fall even as the ocean rises. Elsewhere, pumping groundwater or draining wetlands makes the
    land sink, and the gauge records a rise far faster than the global average. Without
    knowing which is happening, a single record can mislead.

    The modern answer is to pair each important gauge with a permanent satellite positioning
    receiver. The receiver tracks the vertical motion of the land to within a millimetre or
    two per year, which lets scientists separate the movement of the ground from the movement
    of the water. In this way the old instruments and the new satellites end up supporting one
    another rather than competing. The altimeters provide the global picture, and the gauges
    anchor it to the places where people actually live.

    Keeping the network running is unglamorous work. Sensors foul with weed and barnacles,
    storms knock out power, and budgets for routine maintenance are always the first to be
    trimmed. Yet every year without data is a year that can never be recovered. Coastal
    scientists are fond of saying that the most important feature of a sea level record is its
    length, and that is a good reason to look after the humble gauge at the end of the pier.
    """,
    section="Oceans",
)

CYCLE_LANES = Article(
    HERALD, "/news/2024/05/14/harbour-road-cycle-lanes-approved",
    "Council approves cycle lanes on Harbour Road after a year of consultation", "Daniel Pruitt",
    "2024-05-14T17:05:00+01:00",
    "Protected lanes will run from the ferry terminal to Mill Street after an eleven to six vote.",
    """
    Councillors voted on Tuesday evening to build protected cycle lanes along the full length of
    Harbour Road, ending a consultation that has divided the neighbourhood for more than a
    year. The scheme passed by eleven votes to six after a debate that ran well past its
    scheduled finish, with residents filling the public gallery and an overflow room
    downstairs.

    Under the approved plan, the existing painted lanes will be replaced with kerbed tracks on
    both sides of the road between the ferry terminal and the junction with Mill Street.
    Twenty-three parking spaces will be removed, although officers said that a new loading bay
    outside the row of shops near the fish market would keep deliveries moving during the
    morning rush. Work is expected to begin in September and to take around four months.

    Supporters argued that the road has become dangerous for the growing number of people who
    cycle to the ferry each morning. A parent who spoke during the public session described
    watching her teenage son squeeze between parked vans and moving buses on his way to
    school. She told councillors that the question was not whether someone would be hurt, but
    when, and that the town had a chance to act before that happened.

    Opponents, many of them shop owners, warned that losing parking would drive customers to
    the retail park on the edge of town. The chair of the traders' association said that small
    businesses on the road had barely recovered from the closure of the old bus depot and
    could not afford another blow. He asked the council to delay the decision until a full
    study of footfall had been completed, but the amendment was defeated.

    The cabinet member for transport said that the final design had changed considerably in
    response to feedback. A proposed one-way section was dropped, crossing points were added
    near the primary school, and the loading rules were rewritten after meetings with traders.
    She acknowledged that not everyone would be satisfied, but said the council would monitor
    traffic and trade for two years and publish the results.

    Funding for the scheme comes mainly from a regional active travel grant, with the council
    contributing a smaller share from its highways budget. A spokesperson confirmed that the
    grant must be spent by the end of the next financial year, which helped explain the
    pressure to reach a decision this spring. Residents who want to follow progress can attend
    drop-in sessions at the library, where officers will display the detailed drawings from
    next month.
    """,
    section="Local",
)

ONIONS = Article(
    KITCHEN, "/recipes/2024/02/09/the-patient-art-of-caramelising-onions",
    "The patient art of caramelising onions", "Ines Valcourt", "2024-02-09T11:00:00+00:00",
    "Why caramelised onions take forty minutes, and how to make the wait worthwhile.",
    """
    Almost every recipe that calls for caramelised onions tells a small lie. It says they will
    take ten or fifteen minutes, when anyone who has stood over a pan knows the real answer is
    closer to forty. The sugars in an onion need time to break down and brown, and no amount of
    high heat can hurry them without scorching the edges while the middle stays pale and
    sharp. Once you accept this, the job becomes far more relaxing.

    Start with more onions than seems sensible, because they shrink dramatically as their water
    cooks away. Four large yellow onions will fill a wide pan to the brim and end up as a
    modest heap, enough for a tart or a generous batch of soup. Slice them from root to tip
    rather than across, since those thin crescents hold their shape better through the long
    cooking and do not collapse into a paste.

    A heavy pan matters more than any other piece of equipment. Thin metal develops hot spots
    that burn the sugars in one corner while the rest of the batch sweats gently, and you will
    spend the whole afternoon chasing the problem with a spoon. Cast iron or a thick stainless
    base spreads the heat evenly. Use a mixture of butter and oil, which gives the flavour of
    one and the tolerance for heat of the other.

    Keep the flame low to medium and stir every few minutes, scraping the browned film from the
    bottom of the pan back into the onions. That film is where much of the flavour lives. If it
    starts to darken too quickly, add a splash of water and let it sizzle away, lifting the
    residue as it goes. Some cooks add a pinch of sugar at the start, but good onions rarely
    need the help, and a little salt early on draws out moisture and speeds the softening.

    You will notice the onions pass through distinct stages. First they turn translucent and
    limp, then pale gold, then a deeper amber that smells unmistakably sweet. The final stage,
    a rich chestnut colour with a jammy texture, is the one worth waiting for. At that point a
    spoonful of vinegar or a little wine brightens the flavour and stops the result from
    tasting heavy.

    A large batch keeps well in the fridge for several days and freezes happily in small
    portions. Stir a spoonful into gravy, spread it under cheese on toast, or fold it through a
    simple lentil stew. Once you have a jar waiting, you will find excuses to use it, and the
    forty minutes at the stove will feel like time well spent.
    """,
    section="Techniques",
)

# The near-duplicate copy changes a handful of words: enough to defeat an exact hash, far too
# few to make it a different text.
# One regional word swap, as syndicated copies often have. 64-bit simhash at distance 3 only
# catches near-exact copies: each edit moves the hash by about 1.5 bits, so four scattered edits
# already land at distance ~6 (measured; README, "De-duplication").
ONION_EDITS = (
    ("yellow onions", "brown onions"),
)

RETRY_BUDGETS = Article(
    BYTEFIELD, "/posts/2024/08/21/retry-budgets-instead-of-retry-loops",
    "Retry budgets instead of retry loops", "Priya Raman", "2024-08-21T14:20:00+00:00",
    "How a small token bucket in every client stopped our retries from turning blips into outages.",
    """
    When a request to another service fails, the instinct of most programmers is to try again.
    A retry loop with a short pause looks harmless, and in a small system it often is. The
    trouble starts when many clients share the same instinct at the same moment. A brief
    slowdown in a database turns into a flood of repeated requests, the flood makes the
    slowdown worse, and a problem that would have cleared in seconds becomes an outage that
    lasts an hour.

    Our team ran into exactly this pattern last spring. A storage node paused for garbage
    collection, a few hundred requests timed out, and every caller retried three times with a
    fixed delay. The node recovered, only to be hit with roughly four times its normal load, so
    it paused again. The graphs from that afternoon show a neat sawtooth of recoveries and
    relapses that continued until someone manually drained traffic away from the cluster.

    The fix we settled on is called a retry budget. Instead of letting each request decide on
    its own whether to retry, every client keeps a running count of its recent requests and
    allows retries only up to a fixed fraction of that total, typically one in ten. When the
    system is healthy, the budget is almost never used up, so isolated failures are retried
    just as before. When failures become widespread, the budget runs dry quickly and clients
    stop adding fuel to the fire.

    Budgets combine well with the other standard techniques. Exponential backoff spreads
    retries out over time, and random jitter stops clients from synchronising with one
    another. Deadlines that travel with the request prevent a retry from starting when the
    original caller has already given up. None of these alone is enough, but together they turn
    retries from a source of amplification into a modest safety net.

    Implementing the budget was less work than we expected. Each client library gained a small
    token bucket that refills in proportion to successful requests and drains whenever a retry
    is attempted. We exposed the bucket level as a metric, which turned out to be one of the
    most useful signals we have: a falling budget across many clients is an early warning that
    something downstream is struggling, often minutes before error rates look alarming.

    The change has not eliminated incidents, and it was never meant to. What it has done is
    shorten them. The last time a storage node paused, the retry budgets in front of it emptied
    within a few seconds, load fell back to normal, and the node recovered on its own. Nobody
    was paged. For a change that fits in a few hundred lines of code, that is a very good
    return.
    """,
    section="Reliability",
)

NIGHT_TRAIN = Article(
    WANDER, "/stories/2024/10/02/night-train-to-the-northern-coast",
    "Night train to the northern coast", "Lucía Ferreira", "2024-10-02T07:45:00+00:00",
    "A berth in a four-person compartment, three strangers and a sunrise over the moors.",
    """
    The sleeper leaves the capital a little before ten in the evening, when the station
    concourse has emptied of commuters and the departure board shows only a handful of
    long-distance services. I had booked a berth in a four-person compartment, partly to save
    money and partly out of curiosity, since I had not travelled overnight by train since I was
    a student. The attendant checked my ticket at the door of the carriage and handed me a
    small paper bag containing a bottle of water, earplugs and a slightly squashed pastry.

    My companions for the night turned out to be a retired teacher visiting her sister, a young
    engineer heading to a wind farm on the coast, and a man who said very little but fell
    asleep almost instantly. We talked for an hour as the lights of the suburbs thinned into
    darkness. There is a particular kind of conversation that happens between strangers on
    trains, frank and unhurried, because everyone knows it will end at the final station and
    never continue.

    Sleep came in fragments. The train slowed and stopped at junctions in the middle of the
    night, and each time I woke to the sound of couplings clanking and the glow of a platform
    lamp through the gap in the blind. Somewhere in the small hours we climbed into the hills,
    and the rhythm of the wheels changed as the line curved back and forth along a river
    valley. It was not restful in the ordinary sense, but it was oddly pleasant.

    By six the sky was pale grey and the landscape had changed completely. Forest had given way
    to open moorland, with low stone walls and scattered farms, and the first glimpses of the
    sea appeared between the hills. The attendant came through with coffee, and the retired
    teacher produced a bag of oranges that she shared around the compartment. Even the silent
    man accepted one, nodding his thanks.

    We arrived at the little terminus by the harbour just after half past seven. The air
    smelled of salt and diesel, and fishing boats were already unloading at the quay. I had
    gained a night of travel without losing a day, and I stepped off the train feeling far more
    awake than I would have after an early flight and a long drive from the airport.

    Night trains are not for everyone. The berths are narrow, the stops can be noisy, and the
    fares are rarely as cheap as the lowest airline prices. Still, for journeys of this length
    they offer something that faster options cannot: a sense of distance, of the country
    unrolling outside the window while you sleep. I have already booked the return.
    """,
    section="Rail",
)

LAMPLIGHTERS = Article(
    LANTERN, "/articles/2023/11/30/the-lamplighters-of-old-harbour-town",
    "The lamplighters of Old Harbour Town", "Geraint Muir", "2023-11-30T09:00:00+00:00",
    "Seven men, a long pole and a small flame: how the streets were lit before electricity.",
    """
    Before electric street lighting reached the coast, the streets of Old Harbour Town were lit
    by gas, and every lamp had to be lit and extinguished by hand. The job fell to a small team
    of lamplighters employed by the town's gas company. Each carried a long pole fitted with a
    hook for opening the valve and a small flame for igniting the mantle, and each was
    responsible for a round of several dozen lamps that had to be completed before full
    darkness.

    Surviving wage books in the town archive show that in the eighteen nineties the company
    employed seven lamplighters, all men, most of them former sailors or dock labourers. The
    work paid less than the docks but was steady through the winter, when shipping slowed and
    casual labour became scarce. A lamplighter also earned small extra sums by cleaning glass,
    replacing broken mantles and reporting leaks, which made the role a respected one in a
    poor neighbourhood.

    Their rounds shaped the rhythm of the town in ways that residents remembered long
    afterwards. Children followed the lamplighter along the seafront in the early evening, and
    shopkeepers used his arrival as a signal to light their own windows. In the mornings the
    rounds were repeated in reverse, and the early shift at the fish market could tell the time
    by the order in which the lamps went out along the quay.

    The arrival of electricity was slow and uneven. The first electric lamps were installed
    along the main shopping street in nineteen twelve, paid for by a group of merchants who
    wanted their windows to outshine those of the neighbouring town. Side streets and the
    poorer districts near the harbour kept their gas lamps for another two decades, and the
    last lamplighter did not retire until the early nineteen thirties.

    Several of the old lamp posts still stand. They were converted to electricity rather than
    replaced, and a careful observer can spot the small brackets where the lamplighter once
    rested his ladder. The local history society has mapped the surviving posts and placed a
    modest plaque on the one outside the former gas company office, recording the names of the
    men who walked the rounds.

    It is tempting to treat the lamplighters as a charming footnote, but their story says
    something about how towns adopt new technology. Change arrived first where money was
    concentrated and last where it was scarce, and for a long time the old and new systems ran
    side by side. The same pattern can be seen in many later transitions, from piped water to
    broadband, and it is worth remembering whenever a new service is described as universal.
    """,
    section="Places",
)

BIBLIOTHEK = Article(
    STADTBLATT, "/lokales/2024/09/17/neue-stadtbibliothek-oeffnet-im-herbst",
    "Neue Stadtbibliothek öffnet im Herbst mit längeren Öffnungszeiten", "Katrin Vogel",
    "2024-09-17T10:15:00+02:00",
    "Nach drei Jahren Bauzeit zieht die Bibliothek an den Marktplatz und öffnet an sechs Tagen.",
    """
    Nach fast drei Jahren Bauzeit soll die neue Stadtbibliothek am Marktplatz Anfang November
    ihre Türen öffnen. Das teilte die Stadtverwaltung am Dienstag mit. Das Gebäude ersetzt die
    alte Bibliothek in der Schulstraße, die seit Langem zu klein war und deren Räume weder
    barrierefrei noch ausreichend beheizt werden konnten. Die Bauarbeiten hatten sich wegen
    gestiegener Materialkosten und eines Wasserschadens im Keller mehrfach verzögert.

    Besonders freuen dürften sich die Leserinnen und Leser über die neuen Öffnungszeiten. Die
    Bibliothek wird künftig an sechs Tagen in der Woche geöffnet sein, dienstags und
    donnerstags sogar bis zwanzig Uhr. Möglich macht das ein System zur Selbstausleihe, mit dem
    Medien auch dann ausgeliehen und zurückgegeben werden können, wenn nur wenig Personal im
    Haus ist. Die Leiterin der Bibliothek betonte jedoch, dass zu den Kernzeiten weiterhin
    Fachkräfte für die Beratung zur Verfügung stehen.

    Auf drei Etagen bietet das neue Haus deutlich mehr Platz als bisher. Im Erdgeschoss
    entsteht ein offenes Lesecafé mit Zeitungen und Zeitschriften, im ersten Stock befinden
    sich die Sachbücher und ruhige Arbeitsplätze für Schülerinnen, Schüler und Studierende. Die
    Kinder- und Jugendbibliothek zieht in das oberste Stockwerk, wo es auch einen Raum für
    Vorlesestunden und kleine Veranstaltungen geben wird.

    Die Kosten für den Neubau liegen nach Angaben der Stadt bei rund elf Millionen Euro,
    deutlich mehr als ursprünglich geplant. Ein großer Teil wird durch Fördermittel des Landes
    gedeckt. Im Stadtrat hatte es in den vergangenen Monaten immer wieder Kritik an den
    steigenden Ausgaben gegeben. Mehrere Fraktionen forderten, an anderer Stelle zu sparen,
    stellten das Projekt selbst aber nicht grundsätzlich in Frage.

    Für die Eröffnung plant die Bibliothek ein Fest mit Lesungen, Führungen durch das Haus und
    einem Bücherflohmarkt, dessen Erlös dem Förderverein zugutekommt. Wer einen
    Bibliotheksausweis der alten Bibliothek besitzt, kann ihn weiterhin nutzen. Neue
    Mitglieder erhalten im ersten Jahr einen ermäßigten Beitrag. Die alte Bibliothek in der
    Schulstraße schließt bereits Mitte Oktober, damit der Umzug der Bestände rechtzeitig
    abgeschlossen werden kann.

    Auch die Stadtteilbüchereien sollen von dem Neubau profitieren. Die Stadt plant, ihre
    Bestände künftig zentral zu verwalten, sodass Bücher aus dem ganzen Netz am Marktplatz
    bestellt und dort abgeholt werden können. Für ältere Menschen, die nicht mehr selbst in die
    Bibliothek kommen können, soll außerdem ein ehrenamtlicher Bringdienst aufgebaut werden.
    """,
    section="Lokales", lang="de", byline="Von",
)

# Cut off in the middle of its fifth paragraph, as a crawler's size limit would leave it.
WINTER_HEXAGON = Article(
    SKYWATCH, "/blog/2025/01/11/finding-the-winter-hexagon",
    "Finding the Winter Hexagon from a city balcony", "Tomasz Lindqvist", "2025-01-11T21:10:00+00:00",
    "Six bright stars that survive even the worst light pollution, and how to join them up.",
    """
    Light pollution makes most of the night sky invisible from the middle of a city, but it
    does not hide everything. On a clear January evening, even from a balcony surrounded by
    street lamps, you can trace one of the largest and brightest patterns in the sky. Amateur
    astronomers call it the Winter Hexagon, and it is made from six of the brightest stars
    visible from the northern hemisphere, arranged in a rough ring around the constellation of
    Orion.

    Start with Orion itself, which is easy to find because of the three stars of his belt lined
    up in a short, neat row. Below and to the right of the belt sits Rigel, a brilliant
    blue-white star that forms the first corner of the hexagon. Follow the line of the belt
    down and to the left and you will reach Sirius, the brightest star in the night sky, often
    flickering with colour when it is low above the rooftops.

    From Sirius, look up and slightly to the left for Procyon, a fainter but still obvious star
    that marks the small constellation of the Lesser Dog. Above Procyon, a pair of stars of
    similar brightness sit side by side. These are Castor and Pollux, the twins of Gemini, and
    Pollux, the slightly brighter and more orange of the two, is the fourth corner. Keep
    climbing and curving to the right and you will arrive at Capella, high overhead in the
    early evening at this time of year.

    The final corner is Aldebaran, the orange eye of Taurus, which sits to the right of Orion
    and a little above his shoulders. Joining Aldebaran back to Rigel closes the shape. It is
    not a perfect hexagon, and some observers prefer to count Betelgeuse in the middle as part
    of the figure, but the pattern is bright enough to survive almost any amount of artificial
    light, which is exactly why it makes such a good introduction to the winter sky.

    Once you can find the hexagon without thinking, it becomes a map for everything else. The
    faint smudge of the Orion Nebula hangs below the belt, visible in binoculars even from
    town. The Pleiades cluster lies a short hop beyond Aldebaran, and on a very good night the
    pale band of the winter Milky Way can be glimpsed running through the middle of the figure,
    though that usually requires a trip out of the city to somewhere with darker skies and a
    clear view of the horizon.

    Binoculars are the best first instrument for this kind of exploring. They show more stars
    than the eye alone, they are easy to point, and they reveal the colours of the corner stars
    far better than a telescope with a narrow field of view.
    """,
    section="Sky Guides",
)
TRUNCATE_AFTER = "though that usually requires a trip out"

REPAIR_CAFES = Article(
    Site("www.fieldnotes-quarterly.example", "Fieldnotes Quarterly", "", _nav("Essays", "Reviews")),
    "/essays/2024/04/05/the-quiet-economics-of-repair-cafes",
    "The quiet economics of repair cafés", "Hannah Ostrowski", "2024-04-05T12:00:00+00:00",
    "Nobody pays, the volunteers could charge a fortune, and yet the sums add up.",
    """
    On the first Saturday of every month, the hall behind a church in our neighbourhood fills
    with broken things. There are toasters that no longer toast, lamps with frayed cables,
    trousers with split seams and a steady procession of vacuum cleaners. Their owners queue
    patiently with a cup of tea, waiting for one of the volunteers at the long tables to take a
    look. This is a repair café, one of thousands that have sprung up in towns and cities over
    the past fifteen years.

    The economics of these events are puzzling at first glance. Nobody pays for the repairs,
    although there is a jar for donations. The volunteers are often retired electricians,
    tailors and engineers who could charge good money for the same work. The parts are usually
    scavenged or bought for pennies. By any conventional measure the café runs at a small
    loss, covered by a modest grant from the council and the occasional bake sale.

    Yet the value created is real, even if it does not show up in accounts. A kettle that is
    repaired instead of replaced saves its owner the cost of a new one and keeps a lump of
    metal and plastic out of landfill. More subtly, the owner usually watches the repair and
    learns something about how the object works. Several regulars told me they now fix simple
    faults at home, which means the café multiplies its effect far beyond the hall.

    There is also the question of what the café replaces. Decades ago, most high streets had a
    shop that mended radios, shoes or sewing machines. Those businesses disappeared as goods
    became cheaper and harder to open, and the knowledge went with them. Repair cafés are
    partly an attempt to rebuild that knowledge in a new form, not as a trade but as a shared
    hobby that anyone can join.

    Manufacturers have started to notice. Some now publish repair manuals and sell spare parts
    directly, partly in response to new rules in several countries that require products to be
    repairable for a set number of years. Volunteers are cautiously optimistic, though they
    point out that a manual is of little use if the case is glued shut and the screws need a
    tool that nobody owns.

    When I left the hall last month, a teenager was carrying out a record player that had
    belonged to his grandmother, its motor humming again after thirty years of silence. He had
    paid nothing and spent an afternoon learning to use a soldering iron. It is hard to put a
    price on that, which may be exactly the point.
    """,
    section="Essays",
)

# Encoded as windows-1252: é, ü, è, the em dash and curly quotes all need that code page.
ZURICH_CAFES = Article(
    Site("www.alpine-letters.example", "Alpine Letters", "", _nav("Travel", "Food", "Letters")),
    "/travel/2023/12/12/zurich-coffee-houses-in-winter",
    "A winter morning among Zürich’s coffee houses", "Élodie Brunner", "2023-12-12T08:00:00+01:00",
    "One free morning, three cafés and a lake full of winter swimmers.",
    """
    Zürich wakes slowly in December. At seven the streets of the old town are still dark, the
    cobbles slick with frost, and the only light comes from bakery windows and the occasional
    tram gliding along the river. I had come for a conference, but I had given myself one free
    morning, and I decided to spend it doing nothing more ambitious than moving from one café
    to the next.

    The first was a narrow place near the Grossmünster, with wood panelling the colour of
    strong tea and a counter crowded with pastries. The owner greeted me with a brisk “Grüezi”
    and, when I hesitated over the menu, recommended a café crème — which in Switzerland means
    something closer to a long, mild coffee than the milky drink I expected. It came with a
    small chocolate on the saucer and a glass of water, and nobody seemed to mind how long I
    stayed.

    Across the river, the second café could not have been more different. It occupied the
    ground floor of a former bank, all marble columns and brass lamps, and the waiters wore
    long white aprons. Here the speciality was a hot chocolate so thick it was served with a
    spoon. Around me, retired couples read newspapers in three languages, and a table of
    students argued cheerfully about an exam that, judging by their faces, had not gone well.

    By mid-morning the sun had finally risen above the hills and the lake was a sheet of pale
    silver. I walked along the shore to a small kiosk that sells coffee to swimmers — yes,
    there are people who swim in the lake in December — and stood among them as they steamed
    gently in their towels. One woman told me she had swum every day for eleven years and had
    not caught a cold in all that time, though she admitted the first minute was never
    pleasant.

    What struck me most was the pace. Nobody rushed me out of a seat, nobody brought the bill
    before I asked, and the idea of coffee in a paper cup carried down the street seemed faintly
    eccentric. It is easy to be cynical about a city that charges so much for a cup of coffee,
    but the price buys time as well as caffeine, and on a cold morning that felt like a
    bargain.
    """,
    section="Travel",
)

FOOTPATH = Article(
    Site("www.riverbend-weekly.example", "Riverbend Weekly", "", _nav("News", "Sport", "What's On")),
    "/news/2024/08/03/volunteers-reopen-riverside-footpath",
    "Volunteers reopen riverside footpath after spring floods", "Owen Castellano",
    "2024-08-03T16:30:00+01:00",
    "Twelve weekends, woven willow and two thousand hours of unpaid work.",
    """
    A stretch of riverside footpath that was washed away during the spring floods reopened on
    Saturday after three months of work by volunteers. Around forty people gathered at the
    stile near the old mill to watch the ribbon being cut by the oldest member of the local
    walking club, who said she had used the path almost every week since she was a girl.

    The floods in March undermined a section of the bank roughly two hundred metres long,
    leaving the path hanging over the water in places and closing it completely in others. The
    landowner and the county council agreed that the route was too important to abandon, but
    neither had the money to pay contractors for a full rebuild. A group of residents offered
    to do the work themselves, with materials funded by a community appeal.

    Over twelve weekends, the volunteers drove in timber stakes, laid woven willow along the
    eroded edge and packed the gaps with stone recovered from the river bed. A retired civil
    engineer helped design the new bank, and a local builders' merchant supplied gravel for the
    surface at cost. The group estimates that it put in more than two thousand hours of labour,
    much of it in heavy rain during an unusually wet June.

    The willow is expected to take root and strengthen the bank over the coming years, a
    technique that has been used on rivers for centuries but fell out of favour when concrete
    became cheap. Supporters say living banks of this kind cope better with floods, because
    they flex rather than crack, and they provide shelter for fish and birds. The river trust
    has promised to monitor the section and share the results with other groups.

    Not everything has been repaired. A footbridge further downstream remains closed while
    engineers assess its foundations, and walkers must still make a short detour along the
    lane. The organisers hope to raise enough money to begin that work next spring. For now,
    they say, it is enough to see people walking the riverbank again, and to know that they
    built it with their own hands.
    """,
)

NOTEBOOK = Article(
    Site("", "A Commonplace Book", "", ()), "", "Notes on keeping a paper notebook", "Ruth Adeyemi",
    "2024-11-09T19:00:00+00:00",
    "Six years of carrying a notebook everywhere, and what it did to my memory.",
    """
    For the past six years I have carried a small paper notebook almost everywhere. It began as
    an experiment after I noticed that the notes I typed into my phone were disappearing into a
    swamp of apps, each with its own idea of how information should be organised. A notebook
    seemed old fashioned, but it had one clear advantage: there was only ever one place to
    look.

    The habit took a while to settle. At first I wrote too much, copying out whole
    conversations and long lists of tasks, and the notebook filled up in a few weeks.
    Gradually I learned to write less and to write it faster. A meeting now becomes three or
    four lines, a phone number, a decision and a date. Shopping lists go on the back pages,
    where they can be torn out without damaging anything important.

    The most surprising benefit has been memory. Writing by hand is slow enough that I have to
    decide what matters before the pen touches the paper, and that small act of choosing seems
    to fix the idea more firmly in my mind. I often find that I do not need to look at a note
    at all, because the effort of writing it was enough. Typing never had that effect, perhaps
    because it is so easy to capture everything without thinking.

    There are drawbacks, of course. A notebook cannot be searched, so once a month I spend half
    an hour reading back through recent pages and copying anything important into a more
    permanent home. Handwriting deteriorates when I am in a hurry, and there are entries from
    busy weeks that I can no longer decipher. I have also lost one notebook on a train, which
    taught me to write my email address inside the front cover.

    I do not think paper is better than software for everyone, or for every task. Calendars and
    shared documents are far more useful on a screen. But for the small, scattered thoughts of
    an ordinary day, the notebook has earned its place in my pocket. Each finished volume goes
    onto a shelf, and every so often I take one down and find, among the lists and phone
    numbers, a record of a year I would otherwise have forgotten.
    """,
)

# No spaces between words, as Japanese is written: long enough (>2 KB in Shift_JIS) for
# charset detection, but whitespace word counts see only a handful of "words".
IDOU_TOSHOKAN = Article(
    Site("www.machi-tayori.example", "まちだより", "", ()),
    "/news/2024/06/20/idou-toshokan",
    "移動図書館が山あいの集落を巡る", "佐藤 美咲", "2024-06-20T09:00:00+09:00",
    "月に二回、約二千冊を積んだ車が山あいの集落を訪れる。",
    """
    県北部の山あいにある集落を、移動図書館の車が月に二回訪れている。車には約二千冊の本が積まれており、
    絵本から小説、料理や園芸の実用書まで、住民の希望に合わせて毎回入れ替えられる。最寄りの図書館まで
    車で一時間近くかかるこの地域では、移動図書館が本に触れる貴重な機会になっている。

    運転と貸し出しを担当するのは、市立図書館の職員二人だ。朝八時に図書館を出発し、公民館や集会所の前
    など五か所に停車する。一か所の滞在時間は四十分ほどで、到着を知らせる音楽が流れると、近所の人たち
    が手提げ袋を持って集まってくる。顔なじみの利用者とは、本の感想だけでなく、畑の様子や家族の近況に
    ついても言葉を交わすという。

    利用者の多くは高齢者だが、最近は子育て世代の姿も増えている。三年前に都市部から移り住んだ女性は、
    子どもと一緒に毎回十冊近くの絵本を借りていく。「近くに書店もないので、本当に助かっています。子ども
    が車の到着を楽しみにしていて、前の晩から返す本を玄関に並べているんです」と笑顔で話した。

    一方で、課題もある。車両は導入から二十年以上がたち、坂道の多い山道では故障の心配が絶えない。冬には
    積雪のため運行を取りやめる日もあり、その間は本を借りられない住民が出てしまう。市は来年度、新しい車
    両の購入費用を予算に盛り込む方針で、あわせて電話やインターネットで予約した本を届ける仕組みも検討し
    ている。

    図書館の担当者は「本を届けることは、人と人をつなぐことでもある。車が来る日に集まって話をすること自
    体を楽しみにしている方も多い」と話す。集落では一人暮らしの高齢者が増えており、移動図書館の停車場所
    が、住民同士が顔を合わせる数少ない場にもなっている。職員は、しばらく姿を見ない利用者がいると、近所
    の人にそれとなく様子を尋ねることもあるという。

    移動図書館の始まりは、戦後間もない時期にさかのぼる。当時は小型のトラックに木箱を積み、学校や工場を
    回って本を貸し出していた。道路が整備され、地域の図書館が増えるにつれて運行する自治体は減ったが、人
    口が少なく公共施設が遠い地域では、今も欠かせない存在だ。

    この日、最後の停車場所では、九十歳近い男性が時代小説を三冊借りていった。「目が悪くなったから、字の
    大きい本を頼んでおいたんだ」と言い、職員から受け取った本を大事そうに抱えて帰っていった。車は夕方、
    次の巡回に向けて新しい本を積み込むため、市街地の図書館へと戻っていった。

    市によると、移動図書館の昨年度の貸出冊数はおよそ一万二千冊で、五年前と比べて一割ほど増えた。担当
    者は、利用者の声を聞きながら、これからも山あいの暮らしに寄り添う運行を続けたいとしている。
    """,
    lang="ja", byline="文・",
)


def japanese_paragraphs(text: str) -> tuple[str, ...]:
    """Like `paragraphs`, but wrapped Japanese lines join without a space."""
    return tuple("".join(block.split()) for block in text.strip().split("\n\n") if block.strip())


# --- short posts (40-120 words: below the 200-token length rule) -----------------------------

FIELD_TRIP_NOTE = Article(
    OCEAN_BLOG, "/blog/2024/04/02/estuary-field-trip-moved",
    "Field trip to the estuary moved to 20 April", "Maren Okafor", "2024-04-02T10:00:00+00:00",
    "The spring walk has a new date because of the storm forecast.",
    """
    A quick note for readers who signed up for the spring field trip to the estuary. Because of
    the storm forecast for the original weekend, we have moved the walk to Saturday, 20 April.
    The meeting point and start time stay the same: the car park by the old lifeboat station at
    nine in the morning. Bring boots, a warm layer and something to drink. If the new date does
    not suit you, reply to the confirmation email and we will pass your place to someone on the
    waiting list.
    """,
    section="Field Trips",
)

POTATO_TIP = Article(
    KITCHEN, "/notes/2024/03/01/a-tip-for-crisper-roast-potatoes",
    "A tip for crisper roast potatoes", "Ines Valcourt", "2024-03-01T18:00:00+00:00",
    "Let them steam dry before they meet the fat.",
    """
    Reader Margaret wrote in with a tip that has changed how I roast potatoes. After
    parboiling, drain them and leave them to steam dry in the colander for ten full minutes
    before shaking them to rough up the edges. The drier surface crisps far better in the hot
    fat. I tried it twice this week, and the difference was obvious. Thank you, Margaret, and
    keep the suggestions coming.
    """,
    section="Notes",
)

FUME_EXTRACTOR = Article(
    MAKERS, "/blog/2024/06/08/a-cheap-fume-extractor",
    "A cheap fume extractor for the workbench", "Sam Achterberg", "2024-06-08T20:00:00+00:00",
    "A spare fan, a carbon pad and a scrap of plywood.",
    """
    After a winter of soldering with the window shut, I finally built a small fume extractor
    from a spare computer fan, a carbon filter pad and a scrap of plywood. The whole thing cost
    less than a takeaway dinner. It will not replace a proper ventilated hood, but it pulls the
    smoke away from my face, and the workshop no longer smells of rosin by the end of the
    evening. Drawings and a parts list are on the project page.
    """,
)

LIBRARY_HOURS = Article(
    COURIER, "/news/2025/01/28/library-extends-saturday-hours",
    "Library extends Saturday opening hours", "Nadia Pereira", "2025-01-28T12:00:00+00:00",
    "Two more hours on Saturdays after a residents' petition.",
    """
    The central library will open until four o'clock on Saturdays from the start of next month,
    two hours later than at present. The change follows a petition signed by more than six
    hundred residents, many of them students who said the reading room was the only quiet place
    to work at weekends. The extra hours will be covered by reorganising existing shifts rather
    than hiring new staff, a library spokesperson said.
    """,
)

QUARRY_LANE = Article(
    COURIER, "/news/2025/01/29/quarry-lane-resurfacing",
    "Quarry Lane closed for resurfacing next week", "Nadia Pereira", "2025-01-29T09:00:00+00:00",
    "A five-day closure with a signed diversion.",
    """
    Quarry Lane will be closed between the farm shop and the village hall from Monday for five
    days while the road is resurfaced. A diversion will be signed through the village centre,
    and the school bus will use the hall car park to turn. Residents of the lane will be able to
    reach their homes outside working hours.
    """,
)

ORCHARD = Article(
    COURIER, "/news/2025/01/30/community-orchard-volunteers",
    "Community orchard seeks volunteers for planting day", "Nadia Pereira", "2025-01-30T15:00:00+00:00",
    "Forty fruit trees to plant behind the sports ground.",
    """
    Volunteers are needed to help plant forty fruit trees at the new community orchard behind
    the sports ground on Sunday morning. Organisers will provide spades, gloves and tea, and no
    experience is necessary. The orchard group hopes the trees, a mix of old local apple and
    pear varieties, will produce their first proper harvest within five years. Anyone
    interested can simply turn up at ten o'clock or leave a message at the sports club bar.
    """,
)


# --- same-host template pages: a small unique notice plus a long shared block ----------------

COUNCIL_BOILERPLATE = """
About these notices. Riverside Council publishes public notices on this website to keep
residents informed about road works, planning applications, licensing decisions and other
matters that may affect them. Notices are normally posted at least fourteen days before work
begins, except in emergencies, and remain online until the work has been completed. Printed
copies are displayed at the civic centre and at branch libraries, and can be posted to residents
on request.

Disclaimer. While every effort is made to ensure that the information in these notices is
accurate, dates and arrangements can change at short notice because of weather, contractor
availability or unforeseen site conditions. The council accepts no liability for any loss or
inconvenience arising from changes to published schedules. Residents are advised to check this
page again shortly before the dates shown and to allow extra time for journeys through the
affected area.

Accessibility and contact. If you need this notice in another format, such as large print,
audio or a community language, please contact the customer service team and we will do our best
to help. Comments about a specific scheme should quote the reference number shown at the top of
the notice. The team aims to respond to all enquiries within ten working days, and urgent safety
concerns can be reported at any time through the out of hours line.

Data protection. Personal information submitted in response to a notice is used only to
consider the matter concerned and to contact you about it. It is held in accordance with the
council's privacy notice and is not shared with third parties except where the law requires it.
Responses to planning and licensing notices may be published, with personal contact details
removed, as part of the public record.
"""

COUNCIL_NOTICES = (
    Article(
        COUNCIL, "/notices/2024/03/road-resurfacing-elm-street",
        "Road resurfacing on Elm Street from 8 April", "Riverside Council Highways",
        "2024-03-21T09:00:00+00:00", "Five nights of resurfacing with a signed diversion.",
        """
        Elm Street will be resurfaced between its junctions with Station Road and Orchard Way
        over five nights starting on Monday, 8 April. The existing surface has deteriorated
        badly after two hard winters, and temporary patching is no longer enough to keep the
        carriageway safe for cyclists and buses. Work will take place between eight in the
        evening and six in the morning to reduce disruption to businesses and the school run.

        The road will be closed to through traffic while crews are on site, with a signed
        diversion via Station Road, Canal Street and Orchard Way. Access for residents and
        emergency vehicles will be maintained at all times, although there may be short waits
        while machinery is moved. Bus services will follow the diversion and temporary stops
        will be marked with yellow signs. Parking bays on the affected section will be suspended
        for the duration of the scheme.
        """ + COUNCIL_BOILERPLATE,
        section="Notices",
    ),
    Article(
        COUNCIL, "/notices/2024/04/tree-pruning-victoria-park",
        "Tree pruning in Victoria Park from 22 April", "Riverside Council Parks",
        "2024-04-09T09:00:00+00:00", "Sections of the main avenue will be fenced off.",
        """
        Contractors will prune and inspect the mature lime trees along the main avenue of
        Victoria Park during the week beginning Monday, 22 April. Sections of the avenue will be
        fenced off while work is under way, and dogs should be kept on a lead near the
        barriers. The café and play area will remain open throughout.
        """ + COUNCIL_BOILERPLATE,
        section="Notices",
    ),
    Article(
        COUNCIL, "/notices/2024/04/mill-lane-car-park-closure",
        "Temporary closure of Mill Lane car park on 3 May", "Riverside Council Parking",
        "2024-04-18T09:00:00+00:00", "Barriers and payment machines are being replaced.",
        """
        Mill Lane car park will be closed all day on Friday, 3 May, while the barrier system
        and payment machines are replaced. Season ticket holders may use the multi-storey car
        park on Canal Street at no extra charge on that day by showing their permit to the
        attendant. The work has been scheduled for a weekday to avoid the busy Saturday market.
        """ + COUNCIL_BOILERPLATE,
        section="Notices",
    ),
)


# --- listings and other non-articles ----------------------------------------------------------

OCEAN_POSTS = (
    ("Why tide gauges still matter in the satellite era", TIDE_GAUGES.path,
     "Century-old instruments on harbour walls still anchor our picture of rising seas."),
    ("What the spring plankton bloom tells us", "/blog/2024/03/11/spring-plankton-bloom",
     "A green tinge in coastal water is an early forecast for fish and seabirds."),
    ("Reading a weather chart without the jargon", "/blog/2024/03/04/reading-a-weather-chart",
     "Isobars, fronts and pressure centres explained in plain language."),
    ("The hidden life of salt marshes", "/blog/2024/02/26/hidden-life-of-salt-marshes",
     "Mud, grasses and tides combine into one of the richest habitats on the coast."),
    ("How ocean buoys report home", "/blog/2024/02/19/how-ocean-buoys-report-home",
     "Floating sensors send their measurements by satellite several times a day."),
    ("A short history of the lighthouse lens", "/blog/2024/02/12/history-of-the-lighthouse-lens",
     "The glass that let a small flame be seen from miles out to sea."),
    ("Why some beaches are disappearing", "/blog/2024/02/05/why-beaches-disappear",
     "Sand moves constantly, and sea walls can starve a beach of new supply."),
    ("Counting seabirds from the cliff top", "/blog/2024/01/29/counting-seabirds",
     "Volunteers spend spring mornings tallying nests on narrow ledges."),
    ("Understanding storm surges", "/blog/2024/01/22/understanding-storm-surges",
     "Wind and low pressure can raise the sea far above the predicted tide."),
    ("The science of sea fog", "/blog/2024/01/15/the-science-of-sea-fog",
     "Warm air over cold water creates the grey banks that swallow harbours."),
    ("Kelp forests and the carbon question", "/blog/2024/01/08/kelp-forests-and-carbon",
     "Large seaweeds store carbon, but how much stays locked away is unclear."),
    ("Field trip to the estuary moved to 20 April", FIELD_TRIP_NOTE.path,
     "The spring walk has a new date because of the storm forecast."),
)

OLDER_OCEAN_POSTS = (
    ("Rock pools at low tide: a beginner's checklist", "/blog/2023/12/18/rock-pools-checklist",
     "What to bring, where to look and how to put every stone back."),
    ("What lives in the deep scattering layer", "/blog/2023/12/11/deep-scattering-layer",
     "The false sea floor that rises and sinks with the sun."),
    ("Why the sea is salty", "/blog/2023/12/04/why-the-sea-is-salty",
     "Rivers, rocks and a few billion years of patience."),
    ("Tracking eels across the Atlantic", "/blog/2023/11/27/tracking-eels",
     "Tiny tags and a very long swim to the Sargasso Sea."),
    ("The tide tables in your local paper", "/blog/2023/11/20/tide-tables",
     "Where the numbers come from and why they are sometimes wrong."),
    ("How coastal radar watches the waves", "/blog/2023/11/13/coastal-radar",
     "Shore stations map surface currents from the echo of the waves."),
    ("A visit to the marine research station", "/blog/2023/11/06/marine-research-station",
     "Aquarium tanks, a rusty crane and a very old research boat."),
    ("Plastic pellets on the strand line", "/blog/2023/10/30/plastic-pellets",
     "Counting nurdles with a sieve and a lot of patience."),
    ("The moon, the sun and spring tides", "/blog/2023/10/23/spring-tides",
     "Why the biggest tides have nothing to do with the season."),
    ("Winter storms and the shape of the shore", "/blog/2023/10/16/winter-storms",
     "How a single night can move a beach a hundred metres."),
)

BAKING_POSTS = (
    ("Shaping a tight sourdough boule", "/baking/2024/01/20/shaping-a-sourdough-boule",
     "Surface tension is the whole secret, and it takes practice."),
    ("Why your bread needs more steam", "/baking/2024/01/06/bread-needs-steam",
     "A tray of water, a hot oven and a crust that finally crackles."),
    ("A simple rye loaf for weekdays", "/baking/2023/12/15/weekday-rye-loaf",
     "Mix at night, bake in the morning, slice the day after."),
    ("Laminated dough without tears", "/baking/2023/11/30/laminated-dough",
     "Cold butter, a cool kitchen and fewer folds than you think."),
    ("Choosing flour for pastry", "/baking/2023/11/12/choosing-flour-for-pastry",
     "Protein content explained for people who just want a flaky crust."),
    ("Cooling racks and soggy bottoms", "/baking/2023/10/28/cooling-racks",
     "Why a tart should never cool in its tin."),
)

SEARCH_RESULTS = (
    ("Feeding a sourdough starter on holiday", "/notes/2023/08/02/starter-on-holiday",
     "Stiffen it with extra flour and it will sleep in the fridge for a fortnight."),
    ("Reviving a neglected starter", "/notes/2023/05/14/reviving-a-starter",
     "Three days of regular feeds will wake almost any starter up."),
    ("Shaping a tight sourdough boule", "/baking/2024/01/20/shaping-a-sourdough-boule",
     "Surface tension is the whole secret, and it takes practice."),
    ("Rye or wheat for a new starter", "/notes/2023/03/09/rye-or-wheat-starter",
     "Rye ferments faster, wheat is easier to read."),
    ("Discard crackers", "/recipes/2023/02/18/discard-crackers",
     "A thin, crisp way to use the starter you would otherwise throw away."),
)

HOME_SECTIONS = (
    ("Top stories", (
        ("Council approves cycle lanes on Harbour Road", CYCLE_LANES.path),
        ("Ferry operator confirms summer timetable", "/news/2024/05/14/ferry-summer-timetable"),
        ("Hospital car park charges to rise in June", "/news/2024/05/13/hospital-parking-charges"),
        ("New owners for the old biscuit factory", "/news/2024/05/13/biscuit-factory-sold"),
        ("Lifeboat crew called out twice in one night", "/news/2024/05/12/lifeboat-double-callout"),
        ("School roof repairs to finish by autumn", "/news/2024/05/12/school-roof-repairs"),
    )),
    ("Sport", (
        ("Harbour Rovers win promotion on final day", "/sport/2024/05/12/rovers-promotion"),
        ("Rowing club celebrates its centenary regatta", "/sport/2024/05/11/rowing-centenary"),
        ("Junior cricket league expands to twelve teams", "/sport/2024/05/10/junior-cricket"),
        ("Marathon route changes announced", "/sport/2024/05/09/marathon-route"),
    )),
    ("Business", (
        ("Fish market reports record spring landings", "/business/2024/05/13/fish-market-landings"),
        ("Bakery chain to open two more branches", "/business/2024/05/11/bakery-branches"),
        ("Port expansion plans go on display", "/business/2024/05/10/port-expansion-plans"),
        ("Start-up hub fills its last desks", "/business/2024/05/08/start-up-hub"),
    )),
    ("Opinion", (
        ("Our town needs a plan for its empty shops", "/opinion/2024/05/13/empty-shops"),
        ("Letters: the bus station, the bins and the band", "/opinion/2024/05/12/letters"),
        ("Why I changed my mind about the ferry fares", "/opinion/2024/05/10/ferry-fares"),
    )),
)

PRODUCT_SPECS = (
    ("Driver size", "10 mm dynamic"),
    ("Bluetooth version", "5.3"),
    ("Codecs", "SBC, AAC"),
    ("Battery, earbuds", "7 hours"),
    ("Battery, with case", "28 hours"),
    ("Charging", "USB-C, Qi wireless"),
    ("Quick charge", "10 min for 2 hours"),
    ("Noise cancelling", "Active, three levels"),
    ("Microphones", "6 (3 per earbud)"),
    ("Water resistance", "IPX4"),
    ("Weight", "4.8 g per earbud"),
    ("Colours", "Graphite, Sand, Ocean"),
    ("In the box", "Earbuds, case, 3 tip sizes, cable"),
    ("Warranty", "2 years"),
)

RELATED_PRODUCTS = (
    ("Aurora X1 Earbuds", "/products/aurora-x1-earbuds"),
    ("Halo Over-Ear Headphones", "/products/halo-over-ear-headphones"),
    ("Pulse Sport Earbuds", "/products/pulse-sport-earbuds"),
    ("Silicone Ear Tips, 6 pack", "/products/silicone-ear-tips"),
    ("Charging Case Cover", "/products/charging-case-cover"),
)

COOKIE_BANNER = (
    "We use cookies to enhance your browsing experience, serve personalised ads or content, and "
    "analyse our traffic. By clicking \"Accept All\", you consent to our use of cookies. You can "
    "manage your preferences at any time by selecting \"Customise\". Read our Cookie Policy to "
    "learn more about how we and our partners process your personal data."
)

PAYWALL_TEASER = (
    "Several regional banks have raised the interest they pay on easy-access savings accounts for "
    "the third time this year, as lenders compete to hold on to deposits that many customers have "
    "been moving to online rivals. Analysts said the increases, some of them announced with only a "
    "day's notice, reflected growing concern among smaller lenders about their funding costs in the "
    "months ahead."
)


# --------------------------------------------------------------------------------------------
# HTML builders
# --------------------------------------------------------------------------------------------

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
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


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


BOOKSHOP = Site("www.riverbend-books.example", "Riverbend Books", "Apache/2.2.14 (Ubuntu)",
                _nav("Fiction", "Non-fiction", "Children", "Bestsellers", "Basket"))
BOOK_DESCRIPTION = """
In the winter of 1761 a fourteen-year-old orphan named Tamsin Pell is sent from a Cornish fishing
village to London, bound as an apprentice to the irascible map-maker Josiah Crane. His workshop
above a chandler's on Tooley Street is cold, cluttered and full of secrets, and Crane himself
seems more interested in the mysterious survey he is drawing for a client he will not name than
in teaching a girl the trade.

But Tamsin has a gift for numbers and a memory for coastlines, and as the months pass she learns
to read the world through triangles, chains and the careful hatching of a copper plate. When
Crane vanishes one March night, leaving behind an unfinished chart of an estuary that does not
appear on any Admiralty map, she must decide whether to go to the magistrates or to finish the
map herself.

Moving from the wharves of the Thames to the salt marshes of the Essex coast, Helen Marlow's
second novel is a story about the power of maps to make and unmake fortunes, about the people
whose names never appear in the cartouche, and about a young woman who finds her own bearings in
a city that would rather she did not.

Meticulously researched and beautifully written, it will delight readers of historical fiction
and anyone who has ever unfolded an old map and wondered who drew it.
"""
BOOK_REVIEWS = (
    ("Could not put it down", "A reader from Leeds",
     "I bought this for the long train journey to Edinburgh and finished it before we reached Newcastle. "
     "Tamsin is a wonderful heroine, stubborn and clever without ever feeling modern, and the details of "
     "how maps were actually made are fascinating."),
    ("Lovely writing, slow start", "A reader from Bristol",
     "The first fifty pages are slow and I nearly gave up, but I am glad I did not. Once Crane disappears "
     "the story really takes off, and the chapters on the Essex marshes are some of the best descriptive "
     "writing I have read this year."),
    ("A gift for my father", "A reader from Norwich",
     "My father collects antique maps and he loved it. He says the author clearly knows her subject and "
     "he has already passed it on to two friends from his map society, which is the highest praise he "
     "gives any book."),
)


def bookshop_product_page() -> str:
    """A 2009-style shop page for a book: table layout, no structured data, a long publisher's
    description and reader reviews (an article to every rule but page.product)."""
    description_html = "\n".join(f"<p>{_esc(p)}</p>" for p in paragraphs(BOOK_DESCRIPTION))
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


QUIET_GADGETS = Site("www.quiet-gadgets.example", "Quiet Gadgets", "nginx",
                     _nav("Reviews", "Guides", "Deals", "Newsletter"))
EARBUDS_REVIEW = Article(
    QUIET_GADGETS, "/reviews/2024/05/aurora-x2-wireless-earbuds-review",
    "Aurora X2 review: small earbuds, serious noise cancelling", "Priya Raman", "2024-05-14T08:00:00+01:00",
    "Three weeks with the Aurora X2 on trains, in open-plan offices and on a very windy pier.", """
Aurora's first earbuds were cheap and cheerful, and it showed: the case felt hollow and the noise
cancelling did little more than take the edge off a bus engine. The X2 costs £79.99, twenty pounds
more than its predecessor, and after three weeks of using it every day I think the extra money has
gone to exactly the right places.

The most obvious change is the noise cancelling. On the morning train it removed the low rumble of
the carriage almost completely, and in an open-plan office it turned a room of conversations into a
distant murmur. It is not as strong as the best over-ear headphones, which cost three times as much,
but at this price nothing I have tried comes close. Wind noise is handled well, too: on a blustery
seafront walk the microphones did not roar as cheaper models do.

Sound quality is warm rather than analytical. Bass is full without being boomy, vocals sit clearly
in the middle, and only the very top end sounds a little soft. The companion app has a five-band
equaliser if you want more sparkle, and the settings are stored on the earbuds, so they follow you
from your phone to your laptop.

Battery life matches Aurora's claims. I measured just over seven hours with noise cancelling on,
and the case holds three more full charges. A quick ten-minute top-up gives about an hour of
listening, which rescued me more than once on the way to the station.

Calls are the weak spot. People I spoke to said my voice sounded clear indoors but thin and
slightly robotic outside, and the earbuds sometimes struggled to separate my voice from traffic.
If you spend a lot of time on calls while walking, that is worth knowing.

The fit deserves a mention as well. The earbuds are small and light, and with the medium tips they
stayed put through a forty-minute run, although people with smaller ears may want to try the
smallest tips before deciding the seal is poor.

At its launch price the X2 is easy to recommend, and it is often discounted to around £65, at which
point it is a bargain. It is the pair I now reach for every morning, and the pair I would buy with my
own money.
""", section="Reviews")


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


NIGHT_BUS = Article(
    METRO, "/news/2024/06/03/night-bus-network-review",
    "Night bus network review: what changes in September", "Chloe Marsh", "2024-06-03T06:00:00+01:00",
    "Routes, frequencies and the three services that are being withdrawn.", "",
)


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


MARINA_VOTE = Article(
    LAKESIDE, "/news/2024/04/22/marina-expansion-vote",
    "Marina expansion goes to a vote next month", "Amir Haddad", "2024-04-22T11:30:00+01:00",
    "Plans for sixty new berths split opinion along the lakeshore.",
    "Plans for sixty new berths at the marina will go to a full council vote next month, after a "
    "planning committee meeting that lasted more than three hours.",
)


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


SAVINGS_RATES = Article(
    LEDGER, "/news/2024/07/09/regional-banks-raise-savings-rates",
    "Regional banks raise savings rates as competition for deposits heats up", "Fiona Gallagher",
    "2024-07-09T07:00:00+01:00", "Smaller lenders move to hold on to customers tempted by online rivals.",
    PAYWALL_TEASER,
)


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
    """The AMP copy of an article: same text, `.amp` URL (a hard-excluded pattern, seed 000 §6)."""
    head = (link("canonical", article.url)
            + "<style amp-boilerplate>body{visibility:hidden}</style>\n"
            + '<script async src="https://cdn.ampproject.org/v0.js"></script>\n' + description(article))
    body = site_header(article.site) + article_block(article) + site_footer(article.site)
    return document(title=article.title, head=head, body=body, html_attrs=" amp")


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
    """JSON-LD NewsArticle carrying the full `articleBody` (seed 004's first strategy)."""
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

def chunked(body: bytes, size: int = 1024) -> bytes:
    """HTTP/1.1 chunked transfer coding of `body`."""
    out = io.BytesIO()
    for start in range(0, len(body), size):
        piece = body[start:start + size]
        out.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
    out.write(b"0\r\n\r\n")
    return out.getvalue()


def gzip_bytes(data: bytes) -> bytes:
    """gzip with mtime 0 and no file name, so the bytes never change between runs."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def tiny_png() -> bytes:
    """A valid 4x4 RGB PNG."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    width = height = 4
    rows = b"".join(b"\x00" + bytes((30, 110, 190)) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def tiny_pdf() -> bytes:
    """A one-page PDF with a correct cross-reference table."""
    stream = b"BT /F1 18 Tf 72 720 Td (Annual road condition survey 2024) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def garbage_bytes(size: int, seed: str) -> bytes:
    """Binary noise from a SHA-256 hash chain: stable across Python versions, unlike `random`."""
    out = bytearray()
    state = seed.encode()
    while len(out) < size:
        state = hashlib.sha256(state).digest()
        out += state
    return bytes(out[:size])


# --------------------------------------------------------------------------------------------
# Captures: what goes into sample.warc.gz, in order
# --------------------------------------------------------------------------------------------

class Clock:
    """Capture times a crawler might produce: one fetch every 47 seconds."""

    def __init__(self, start: datetime) -> None:
        self._next = start

    def tick(self) -> datetime:
        now = self._next
        self._next += timedelta(seconds=47)
        return now


def _http_date(when: datetime) -> str:
    return format_datetime(when, usegmt=True)


def response(url: str, body: bytes, expect: Expect, when: datetime, *, server: str = "nginx",
             status: str = "200 OK", content_type: str | None = "text/html; charset=utf-8",
             extra: Sequence[tuple[str, str]] = (), content_length: int | None = None,
             warc_headers: Sequence[tuple[str, str]] = ()) -> Capture:
    """A response record with realistic HTTP headers; `content_length` overrides the computed one."""
    headers: list[tuple[str, str]] = [("Date", _http_date(when))]
    if server:
        headers.append(("Server", server))
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    if not any(k.lower() == "transfer-encoding" for k, _ in extra):
        headers.append(("Content-Length", str(len(body) if content_length is None else content_length)))
    headers.extend(extra)
    return Capture("response", url, when, expect, payload=body, status=status, http_headers=tuple(headers),
                   warc_headers=tuple(warc_headers))


def html_response(url: str, page: str, expect: Expect, when: datetime, site: Site, *,
                  status: str = "200 OK", content_type: str | None = "text/html; charset=utf-8") -> Capture:
    """A UTF-8 HTML page served by `site`'s web server."""
    extra = (("Cache-Control", "max-age=300"), ("Vary", "Accept-Encoding"))
    return response(url, page.encode("utf-8"), expect, when, server=site.server, status=status,
                    content_type=content_type, extra=extra)


def kept_article(kind: str, note: str, *features: str) -> Expect:
    return Expect(kind, (), True, note, tuple(features))


def rejected(kind: str, reasons: Sequence[str], note: str, *features: str) -> Expect:
    return Expect(kind, tuple(reasons), False, note, tuple(features))


def not_a_row(kind: str, note: str) -> Expect:
    return Expect(kind, (), None, note)


def sample_captures() -> list[Capture]:
    """Every record of sample.warc.gz after the warcinfo record, in file order.

    Order matters: duplicates must come after their originals (first occurrence wins) and the
    template pages after the first notice of their host.
    """
    clock = Clock(datetime(2025, 2, 3, 9, 0, 0, tzinfo=UTC))
    return [*_article_captures(clock), *_non_article_captures(clock), *_duplicate_captures(clock),
            *_record_level_captures(clock)]


def _article_captures(clock: Clock) -> Iterator[Capture]:
    when = clock.tick()
    yield html_response(TIDE_GAUGES.url, tide_gauges_page(), kept_article(
        "article_jsonld", "Full blog post with JSON-LD BlogPosting; its request record follows it.",
        "jsonld:BlogPosting", "has_request_record"), when, OCEAN_BLOG)
    yield Capture("request", TIDE_GAUGES.url, when, not_a_row("request", "The GET that fetched the tide gauge post."),
                  status=f"GET {TIDE_GAUGES.path} HTTP/1.1",
                  http_headers=(("Host", OCEAN_BLOG.host), ("User-Agent", _USER_AGENT),
                                ("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"),
                                ("Accept-Encoding", "identity")),
                  links_to=TIDE_GAUGES.url)

    lanes = cycle_lanes_page().encode("utf-8")
    when = clock.tick()
    yield response(CYCLE_LANES.url, chunked(lanes), kept_article(
        "article_jsonld", "Local news with a JSON-LD @graph, sent with Transfer-Encoding: chunked.",
        "jsonld:@graph", "http:chunked"), when, server=HERALD.server,
        extra=(("Transfer-Encoding", "chunked"), ("Cache-Control", "no-cache")))
    metadata = (f"via: {HERALD.url('/')}\r\nhopsFromSeed: L\r\nfetchTimeMs: 412\r\n"
                f"outlink: {HERALD.url('/news/')} L a/@href\r\n").encode()
    yield Capture("metadata", CYCLE_LANES.url, when,
                  not_a_row("metadata", "Crawler metadata (fetch time, outlinks) for the cycle lanes story."),
                  payload=metadata, warc_content_type="application/warc-fields", links_to=CYCLE_LANES.url)
    yield html_response(CYCLE_LANES.url + ".amp", amp_page(CYCLE_LANES), rejected(
        "amp_page", ["url.hard_excluded"],
        "AMP copy of the cycle lanes story; seed 000 §6 hard-excludes URLs matching .amp(?|$).",
        "url:amp"), clock.tick(), HERALD)

    onions = onions_page().encode("utf-8")
    yield response(ONIONS.url, gzip_bytes(onions), kept_article(
        "article_opengraph", "Cooking article with Open Graph, article:published_time and meta author, "
        "sent with Content-Encoding: gzip.", "og:article", "meta:author", "http:content-encoding-gzip"),
        clock.tick(), server=KITCHEN.server, extra=(("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")))

    yield html_response(RETRY_BUDGETS.url, retry_budgets_page(), kept_article(
        "article_jsonld", "Software post whose JSON-LD @type is a list; the response has no Content-Type "
        "header, so the payload must be sniffed as HTML.", "jsonld:type-list", "http:no-content-type"),
        clock.tick(), BYTEFIELD, content_type=None)
    yield html_response(NIGHT_TRAIN.url, night_train_page(), kept_article(
        "article_twitter_card", "Travel story whose only metadata is a Twitter card (creator as author).",
        "twitter:card"), clock.tick(), WANDER)
    yield html_response(LAMPLIGHTERS.url, lamplighters_page(), kept_article(
        "article_jsonld", "History article whose JSON-LD NewsArticle carries the full articleBody.",
        "jsonld:NewsArticle", "jsonld:articleBody"), clock.tick(), LANTERN)
    yield html_response(EARBUDS_REVIEW.url, earbuds_review_page(), kept_article(
        "article_buy_box", "Product review with prices in the prose, an affiliate 'Buy now' box linking to "
        "other sites and a JSON-LD Review of a Product with offers: page.product must not fire.",
        "shop:affiliate-box", "jsonld:Review"), clock.tick(), QUIET_GADGETS)
    yield html_response(BIBLIOTHEK.url, bibliothek_page(), kept_article(
        "non_english_article", "German local news (html lang=de, og:locale de_DE); kept because the "
        "default language allow-list is all.", "lang:de"), clock.tick(), STADTBLATT)

    full = winter_hexagon_page().encode("utf-8")
    cut = full.index(TRUNCATE_AFTER.encode()) + len(TRUNCATE_AFTER)
    yield response(WINTER_HEXAGON.url, full[:cut], kept_article(
        "truncated_article", "WARC-Truncated: length; the HTML stops mid-paragraph and the HTTP "
        "Content-Length is the untruncated size, but the five paragraphs present are still an article.",
        "warc:truncated"), clock.tick(), server=SKYWATCH.server, content_length=len(full),
        warc_headers=(("WARC-Truncated", "length"),))

    for index, notice in enumerate(COUNCIL_NOTICES):
        if index == 0:
            expect = kept_article("template_page", "First notice on its host: shared boilerplate is not yet "
                                  "duplicated, so the unique notice plus the block is kept.", "cdc:first")
        else:
            expect = rejected("template_page", ["dup.cdc"], "Same-host notice whose text is mostly the "
                              "council's shared boilerplate block: over half its CDC chunks were seen on "
                              "an earlier page of the host (seed 002).", "cdc:repeat")
        yield html_response(notice.url, council_notice_page(notice), expect, clock.tick(), COUNCIL)


def _non_article_captures(clock: Clock) -> Iterator[Capture]:
    head = description(FUME_EXTRACTOR) + meta(author=FUME_EXTRACTOR.author)
    resource = document(title=FUME_EXTRACTOR.title, head=head, body=article_block(FUME_EXTRACTOR))
    yield Capture("resource", FUME_EXTRACTOR.url, clock.tick(), rejected(
        "short_post", ["length.tokens"], "A resource record (no HTTP headers, WARC Content-Type text/html) "
        "holding a 70-word post: under the 200-token minimum.", "warc:resource"),
        payload=resource.encode("utf-8"), warc_content_type="text/html; charset=utf-8")
    yield html_response(FIELD_TRIP_NOTE.url, short_post_page(FIELD_TRIP_NOTE), rejected(
        "short_post", ["length.tokens"], "A 90-word notice on the blog: scores as an article but is under "
        "200 tokens."), clock.tick(), OCEAN_BLOG)
    yield html_response(POTATO_TIP.url, short_post_page(POTATO_TIP), rejected(
        "short_post", ["length.tokens"], "A 70-word reader tip: under 200 tokens."), clock.tick(), KITCHEN)

    score = "article.score"
    pages = (
        (OCEAN_BLOG.url("/blog/"), blog_index_page(), "blog_listing", OCEAN_BLOG,
         "Blog index with twelve teasers: single path segment, rel=next and many links keep the seed 000 "
         "§1 score far below 35."),
        (OCEAN_BLOG.url("/tag/oceans/"), tag_page(), "tag_page", OCEAN_BLOG,
         "Tag archive: /tag/ is an excluded path pattern (-30)."),
        (KITCHEN.url("/category/baking/"), category_page(), "category_page", KITCHEN,
         "Category archive: /category/ is an excluded path pattern (-30)."),
        (HERALD.url("/"), home_page(), "home_page", HERALD,
         "Front page that is almost all headline links: path depth 0 (-20) and many links."),
        (OCEAN_BLOG.url("/blog/page/2/"), blog_page_two(), "paginated_list", OCEAN_BLOG,
         "Second page of the blog index: paginated URL, rel=prev/next."),
        (HERALD.url("/login"), login_page(), "login_page", HERALD,
         "Sign-in form: /login is a soft-excluded pattern (seed 000 §6 lists it for scoring, not for the "
         "hard-exclude list), single segment, under 50 words."),
        (KITCHEN.url("/search?q=sourdough+starter"), search_page(), "search_page", KITCHEN,
         "Site search results: /search pattern (-30) and single segment (-20)."),
        (SHOP.url("/products/aurora-x2-wireless-earbuds"), product_page(), "product_spec", SHOP,
         "Product page with a spec table, price and Add to cart: no author, no date, under 300 words "
         "(seed 002 names spec charts as a non-article)."),
    )
    for url, page, kind, site, note in pages:
        yield html_response(url, page, rejected(kind, [score], note), clock.tick(), site)
    book_url = BOOKSHOP.url("/books/the-cartographers-apprentice/9781840004127")
    yield html_response(book_url, bookshop_product_page(), rejected(
        "product_page", ["page.product"], "2009-style book-shop page: a 300-word publisher's description and three "
        "reader reviews pass the article score and every text rule; its Add to basket image button, Qty field, "
        "prices, ISBN and 'Usually dispatched' line make it page.product.", "shop:legacy"), clock.tick(), BOOKSHOP)

    yield html_response(NIGHT_BUS.url, nextjs_shell_page(), rejected(
        "nextjs_shell", ["page.js_shell"], "Next.js page before hydration: empty div#__next, __NEXT_DATA__ "
        "and eleven /_next/ scripts; its rich head metadata lifts the score to about 45, so the JS-shell "
        "rule (seed 000 §2 path A) is what rejects it.", "js:nextjs"), clock.tick(), METRO)
    yield html_response(RECIPE_APP.url("/recipes/lemon-tart"), react_shell_page(), rejected(
        "react_root_shell", [score], "Create-React-App shell: empty div#root and the 'You need to enable "
        "JavaScript' noscript; no metadata, so the article-score gate rejects it before extraction, and "
        "page.* reasons are only given to pages that were extracted.", "js:react"),
        clock.tick(), RECIPE_APP)
    yield html_response(MARINA_VOTE.url, cookie_wall_page(), rejected(
        "cookie_wall", ["page.cookie_wall"], "CookieYes consent overlay in front of an article whose body "
        "waits for consent: only the headline and a standfirst are visible.", "cookie:cookieyes"),
        clock.tick(), LAKESIDE)
    yield html_response(SAVINGS_RATES.url, paywall_page(), rejected(
        "paywall", ["page.paywall", "length.tokens"], "Metered paywall: one 60-word teaser paragraph, "
        "'Subscribe to continue reading', class=paywall and isAccessibleForFree=false.", "paywall:metered"),
        clock.tick(), LEDGER)


def _duplicate_captures(clock: Clock) -> Iterator[Capture]:
    edited = ONIONS.body
    for old, new in ONION_EDITS:
        if edited.count(old) != 1:
            raise ValueError(f"near-duplicate edit {old!r} must match exactly once")
        edited = edited.replace(old, new)
    copy = Article(ROUNDUP, "/dinner/2024/02/12/the-patient-art-of-caramelising-onions", ONIONS.title,
                   ONIONS.author, "2024-02-12T07:00:00+00:00", ONIONS.description, edited, section="Dinner")
    yield html_response(copy.url, onions_page(copy), rejected(
        "near_duplicate", ["dup.near"], "The onion article republished on another host with one regional "
        "word swapped: not an exact copy, but a near duplicate."), clock.tick(), ROUNDUP)
    yield html_response(HERITAGE.url("/features/2023/12/04/the-lamplighters-of-old-harbour-town"),
                        lamplighters_page(site=HERITAGE), rejected(
        "exact_duplicate", ["dup.exact"], "The lamplighters article republished verbatim on another host "
        "(different site chrome, identical article): same content hash (seed 000 §9)."), clock.tick(), HERITAGE)
    yield html_response(TIDE_GAUGES.url + "?utm_source=newsletter&utm_medium=email&utm_campaign=spring-digest",
                        tide_gauges_page(), rejected(
        "url_duplicate", ["dup.url"], "The tide gauge post fetched again through a newsletter link: the URL "
        "normalises to the original once utm_* parameters are stripped (seed 003). Its content hash and "
        "CDC chunks also match the original."), clock.tick(), OCEAN_BLOG)
    yield Capture("revisit", TIDE_GAUGES.url, clock.tick(), not_a_row(
        "revisit", "Identical-payload-digest revisit of the tide gauge post."), status="200 OK",
        http_headers=(("Date", "Mon, 03 Feb 2025 11:02:00 GMT"), ("Server", OCEAN_BLOG.server),
                      ("Content-Type", "text/html; charset=utf-8")),
        links_to=TIDE_GAUGES.url)


def _record_level_captures(clock: Clock) -> Iterator[Capture]:
    status = "record.http_status"
    yield response(OCEAN_BLOG.url("/media/2024/03/tide-gauge-pier.png"), tiny_png(), rejected(
        "image", ["record.not_html", "url.extension"], "A 4x4 PNG (Content-Type: image/png)."), clock.tick(),
        server=OCEAN_BLOG.server, content_type="image/png")
    yield response(COUNCIL.url("/documents/2024/annual-road-survey.pdf"), tiny_pdf(), rejected(
        "pdf", ["record.not_html", "url.extension"], "A one-page PDF (Content-Type: application/pdf)."), clock.tick(),
        server=COUNCIL.server, content_type="application/pdf")
    yield html_response(HERALD.url("/news/2023/11/02/old-market-hall-reopening"), not_found_page(), rejected(
        "not_found_404", [status], "HTTP 404 with an HTML error page."), clock.tick(), HERALD,
        status="404 Not Found")
    location = CYCLE_LANES.url
    yield response(HERALD.url("/local/harbour-road-cycle-lanes"), moved_page(location).encode(), rejected(
        "redirect_301", [status], "HTTP 301 with a Location header and a stub body."), clock.tick(),
        server=HERALD.server, status="301 Moved Permanently", extra=(("Location", location),))
    yield response(HERALD.url("/news/2024/05/15/live-updates-harbour-road"), b"", rejected(
        "empty_response", ["record.empty"], "HTTP 200 text/html with a zero-length body."), clock.tick(),
        server=HERALD.server)
    yield response(METRO.url("/news/2024/06/04/transport-budget-explained"),
                   garbage_bytes(2048, "corpus-filter sample: undecodable"), rejected(
        "undecodable_binary", ["record.undecodable"], "2 KB of binary noise declared as text/html; "
        "charset=utf-8: decoding leaves far more than 5% replacement or control characters."), clock.tick(),
        server=METRO.server)


# --------------------------------------------------------------------------------------------
# WARC writing
# --------------------------------------------------------------------------------------------

def warc_date(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def record_id(file: str, record_type: str, url: str) -> str:
    """A stable WARC-Record-ID: UUIDv5 of the file, record type and URL."""
    return f"<urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'{file}|{record_type}|{url}')}>"


@dataclass
class _Written:
    """What later records need to know about a response: its id, date and payload digest."""

    ids: dict[str, str] = field(default_factory=dict)
    dates: dict[str, str] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)


def _member(buf: io.BytesIO, writer: WARCWriter, record: object) -> bytes:
    """Write one record into its own buffer, so each record is exactly one gzip member."""
    writer.write_record(record)
    return buf.getvalue()


def warcinfo_member(file: str) -> bytes:
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True)
    info = (
        "software: corpus-filter pipeline sample generator (pipeline/sample.py)\r\n"
        "format: WARC File Format 1.0\r\n"
        "conformsTo: http://bibnum.bnf.fr/WARC/WARC_ISO_28500_version1_latestdraft.pdf\r\n"
        f"http-header-user-agent: {_USER_AGENT}\r\n"
        "robots: classic\r\n"
        "description: synthetic crawl of example hosts; every page is original text written for "
        "the corpus-filter test suite\r\n"
    ).encode()
    headers = {"WARC-Record-ID": record_id(file, "warcinfo", file), "WARC-Date": "2025-02-03T08:59:00Z",
               "WARC-Filename": file}
    record = writer.create_warc_record("", "warcinfo", payload=io.BytesIO(info), length=len(info),
                                       warc_content_type="application/warc-fields", warc_headers_dict=headers)
    return _member(buf, writer, record)


def capture_member(file: str, capture: Capture, written: _Written) -> bytes:
    """One capture as a gzip member; responses are remembered for the records that refer to them."""
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True)
    own_id = record_id(file, capture.record_type, capture.url)
    headers: dict[str, str] = {"WARC-Record-ID": own_id, "WARC-Date": warc_date(capture.when)}
    if capture.links_to and capture.record_type in ("request", "metadata"):
        headers["WARC-Concurrent-To"] = written.ids[capture.links_to]
    headers.update(capture.warc_headers)
    if capture.record_type == "revisit":
        http = StatusAndHeaders(capture.status or "", list(capture.http_headers), protocol="HTTP/1.1")
        target = capture.links_to or capture.url
        record = writer.create_revisit_record(capture.url, written.digests[target], target, written.dates[target],
                                              http_headers=http, warc_headers_dict=headers)
        record.rec_headers.add_header("WARC-Refers-To", written.ids[target])
        return _member(buf, writer, record)
    http_headers = _http_headers(capture)
    record = writer.create_warc_record(capture.url, capture.record_type, payload=io.BytesIO(capture.payload),
                                       length=len(capture.payload), warc_content_type=capture.warc_content_type,
                                       warc_headers_dict=headers, http_headers=http_headers)
    if capture.record_type == "response":
        written.ids[capture.url] = own_id
        written.dates[capture.url] = headers["WARC-Date"]
        written.digests[capture.url] = record.rec_headers.get_header("WARC-Payload-Digest")
    return _member(buf, writer, record)


def _http_headers(capture: Capture) -> StatusAndHeaders | None:
    if capture.status is None:
        return None
    if capture.record_type == "request":
        return StatusAndHeaders(capture.status, list(capture.http_headers), is_http_request=True)
    return StatusAndHeaders(capture.status, list(capture.http_headers), protocol="HTTP/1.1")


def write_members(path: Path, members: Sequence[bytes]) -> list[int]:
    """Concatenate gzip members into `path`; returns each member's start offset."""
    offsets, position = [], 0
    for member in members:
        offsets.append(position)
        position += len(member)
    path.write_bytes(b"".join(members))
    return offsets


def write_sample_warc(out_dir: Path) -> list[dict[str, object]]:
    written = _Written()
    captures = sample_captures()
    members = [warcinfo_member(SAMPLE_WARC)] + [capture_member(SAMPLE_WARC, c, written) for c in captures]
    offsets = write_members(out_dir / SAMPLE_WARC, members)
    entries = [_entry(SAMPLE_WARC, offsets[0], None, "warcinfo",
                      not_a_row("warcinfo", "File header describing the synthetic crawl; must come first."))]
    for offset, capture in zip(offsets[1:], captures, strict=True):
        entries.append(_entry(SAMPLE_WARC, offset, capture.url, capture.record_type, capture.expect))
    return entries


def corrupt_member(member: bytes) -> bytes:
    """Break a gzip member's deflate data while keeping its 10-byte gzip header intact.

    Setting both BTYPE bits of the first deflate block selects the reserved block type 3, so
    zlib fails on the very first byte ("invalid block type"); a few more bytes are flipped so
    the damage looks like real bit rot. The header stays, so a scanner still sees a member
    start here and must decide for itself that it is broken.
    """
    data = bytearray(member)
    data[10] |= 0b110
    for position in (11, 12, 13, 40, 41):
        data[position] ^= 0xFF
    return bytes(data)


def write_damaged_warc(out_dir: Path) -> list[dict[str, object]]:
    written = _Written()
    clock = Clock(datetime(2025, 2, 4, 7, 30, 0, tzinfo=UTC))
    captures = [
        html_response(a.url, short_post_page(a), expect, clock.tick(), COURIER)
        for a, expect in (
            (LIBRARY_HOURS, rejected("short_post", ["length.tokens"],
                                     "First record, intact: a 70-word news brief, under 200 tokens.")),
            (QUARRY_LANE, rejected("lost_record", [], "Replaced by the corrupt entry below.")),
            (ORCHARD, rejected("short_post", ["length.tokens"], "Third record, after the damaged member: "
                               "the reader must resynchronise and recover it (a 75-word brief).")),
        )
    ]
    members = [capture_member(DAMAGED_WARC, c, written) for c in captures]
    members[1] = corrupt_member(members[1])
    offsets = write_members(out_dir / DAMAGED_WARC, members)
    corrupt = rejected("corrupt_region", ["input.corrupt"], f"The gzip member that held {QUARRY_LANE.url} has "
                       "flipped bytes in its deflate data: one input.corrupt row at this offset, nothing "
                       "of the record is recoverable.", "gzip:bad-deflate")
    return [
        _entry(DAMAGED_WARC, offsets[0], captures[0].url, "response", captures[0].expect),
        _entry(DAMAGED_WARC, offsets[1], None, "corrupt", corrupt),
        _entry(DAMAGED_WARC, offsets[2], captures[2].url, "response", captures[2].expect),
    ]


# --------------------------------------------------------------------------------------------
# Plain HTML files
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HtmlFile:
    """A plain HTML input file: where it goes, its bytes, the URL hint it carries."""

    path: str  # relative to out_dir
    data: bytes
    url: str | None
    expect: Expect


def html_files() -> list[HtmlFile]:
    return [_canonical_file(), _cp1252_file(), _sjis_file(), _gzip_file(), _no_url_file()]


def _canonical_file() -> HtmlFile:
    head = description(REPAIR_CAFES) + link("canonical", REPAIR_CAFES.url) + jsonld(news_jsonld(REPAIR_CAFES))
    page = article_page(REPAIR_CAFES, head).encode("utf-8")
    return HtmlFile(f"{HTML_DIR}/repair-cafes.html", page, REPAIR_CAFES.url, kept_article(
        "article_canonical", "UTF-8 essay whose URL comes from <link rel=canonical>.", "url:canonical",
        "charset:utf-8"))


def _cp1252_file() -> HtmlFile:
    head = (meta(author=ZURICH_CAFES.author) + description(ZURICH_CAFES) + link("canonical", ZURICH_CAFES.url)
            + og((("article:published_time", ZURICH_CAFES.published),)))
    page = article_page(ZURICH_CAFES, head, charset=None)
    # Only an http-equiv declaration, as older CMSs write it; no HTTP header exists for a file.
    page = page.replace("<head>\n", '<head>\n<meta http-equiv="Content-Type" content="text/html; '
                        'charset=windows-1252">\n', 1)
    return HtmlFile(f"{HTML_DIR}/intl/zurich-cafes-cp1252.html", page.encode("cp1252"), ZURICH_CAFES.url,
                    kept_article("article_legacy_charset", "Travel piece in windows-1252 declared only by "
                                 "<meta http-equiv>: é, ü, curly quotes and em dashes must survive decoding.",
                                 "charset:windows-1252", "url:canonical"))


def _sjis_file() -> HtmlFile:
    article = IDOU_TOSHOKAN
    head = (description(article) + link("canonical", article.url) + opengraph_article(article, locale="ja_JP")
            + jsonld(news_jsonld(article)))
    page = article_page(article, head, paras=japanese_paragraphs(article.body), charset=None)
    return HtmlFile(f"{HTML_DIR}/intl/idou-toshokan-sjis.html", page.encode("shift_jis"), article.url, rejected(
        "japanese_article", ["gopher.median_word_length"], "Japanese news in Shift_JIS with no charset "
        "declaration anywhere (detection needed). It passes length.tokens (each CJK character is a token), "
        "but Gopher's word rules split on whitespace, so this unspaced text has a few very long 'words': a "
        "known limitation of the Gopher rules for scripts without spaces (switch them off in params).",
        "charset:shift_jis-undeclared", "lang:ja"))


def _gzip_file() -> HtmlFile:
    head = (description(FOOTPATH) + og((("og:url", FOOTPATH.url), ("og:type", "article"),
                                         ("og:title", FOOTPATH.title),
                                         ("article:published_time", FOOTPATH.published)))
            + meta(author=FOOTPATH.author))
    page = article_page(FOOTPATH, head).encode("utf-8")
    return HtmlFile(f"{HTML_DIR}/news/riverside-footpath.html.gz", gzip_bytes(page), FOOTPATH.url, kept_article(
        "gzipped_html_article", "Gzipped HTML file whose URL comes from og:url.", "file:gzip", "url:og"))


def _no_url_file() -> HtmlFile:
    head = description(NOTEBOOK) + meta(author=NOTEBOOK.author)
    page = document(title=NOTEBOOK.title, head=head,
                    body='<main id="content">\n' + article_block(NOTEBOOK) + "</main>\n").encode("utf-8")
    return HtmlFile(f"{HTML_DIR}/paper-notebook.html", page, None, kept_article(
        "article_no_url", "Personal essay with no canonical, og:url or JSON-LD url: the reader gives it a "
        "file:// URI.", "url:none"))


def write_html_files(out_dir: Path) -> list[dict[str, object]]:
    entries = []
    for item in html_files():
        target = out_dir / item.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.data)
        entries.append(_entry(item.path, -1, item.url, "file", item.expect))
    return entries


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------

def write_sample(out_dir: Path) -> list[dict]:
    """Write the bundled sample into out_dir and return the manifest entries.

    Entries are sorted by (file, offset) so the manifest reads in the order the pipeline meets
    the records; `offset` is the record's `source_offset` (-1 for plain HTML files).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    entries = write_sample_warc(out_dir) + write_damaged_warc(out_dir) + write_html_files(out_dir)
    entries.sort(key=lambda e: (str(e["file"]), int(e["offset"])))  # type: ignore[call-overload]
    text = json.dumps(entries, indent=1, sort_keys=True) + "\n"
    (out_dir / MANIFEST).write_text(text, encoding="utf-8")
    return entries
