"""Text written without spaces (Japanese, Chinese): word statistics count each character as a word
(`filters.text.tokens.words`), so articles in these scripts are kept by the defaults and their
non-articles still turned away (docs/filters.md, "Text in every script")."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from conftest import cli, write_warc
from filters.rules import reasons
from filters.text import measure
from filters.text.gopher import gopher_signals
from filters.text.tokens import CJK_CHARS, token_count, unspaced_fraction, word_count, words
from pipeline.params import Params

JA_PARAGRAPHS = (
    "気象庁によりますと、発達した低気圧の影響で、北日本を中心に二十七日の夜にかけて非常に強い風が吹き、"
    "海は大しけとなる見込みです。交通機関に影響が出るおそれがあるため、最新の運行情報を確認するよう呼びかけています。",
    "北海道では二十六日の午後から雪が強まり、札幌市内でも一時間に三センチ前後の雪が降りました。"
    "市の中心部では路面が凍結し、歩道で転倒してけがをする人が相次いだということです。",
    "ＪＲ北海道は、二十七日に運転を予定していた特急列車のうち、合わせて四十本余りを運休にすると発表しました。"
    "空の便も新千歳空港を発着する便を中心に欠航が決まっていて、帰省や出張の予定を変更する人の姿が見られました。",
    "気象庁の担当者は「昼間でも見通しが悪くなるところがある。不要不急の外出は控え、"
    "やむをえず車を運転する場合は、スコップや防寒着を用意してほしい」と話しています。",
    "また、沿岸部では高潮にも注意が必要です。漁業関係者によりますと、港では漁船を陸に引き上げたり、"
    "ロープを増やして固定したりする作業が朝から続けられていました。",
    "専門家は、今回の低気圧は急速に発達する「爆弾低気圧」と呼ばれるもので、"
    "短い時間で天気が大きく変わるため、早めの備えが大切だと指摘しています。",
)
ZH_PARAGRAPHS = (
    "记者从市交通运输局获悉，为缓解早晚高峰期间的拥堵，本市将从下月一日起调整十二条公交线路，"
    "并在城东新区新开三条社区接驳线，方便居民换乘地铁。",
    "据介绍，此次调整主要集中在地铁二号线和五号线沿线。部分线路将缩短发车间隔，"
    "高峰时段由原来的十二分钟缩短至八分钟，同时增加夜间班次，末班车最晚延长至二十三点。",
    "城东新区近年来新建住宅小区较多，不少居民反映出行不便。交通部门在征求意见时共收到两千多条建议，"
    "其中超过一半涉及社区到地铁站的“最后一公里”。",
    "市交通运输局相关负责人表示，新开的接驳线将采用小型纯电动公交车，线路长度均在五公里以内，"
    "途经学校、医院和菜市场等居民常去的地点。",
    "记者在城东新区一处公交站看到，工作人员正在更换站牌信息。一位等车的市民说："
    "“以前去地铁站要走二十多分钟，以后坐接驳车几分钟就到了，上班方便多了。”",
    "该负责人还提醒，调整期间部分站点名称会有变化，市民可通过官方网站或手机应用查询最新线路信息，"
    "也可以拨打服务热线咨询。",
)


def article_page(lang: str, title: str, paragraphs: tuple[str, ...], site: str) -> bytes:
    body = "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
    nav = "".join(f'<li><a href="/{section}/">{name}</a></li>'
                  for section, name in (("news", "ニュース" if lang == "ja" else "新闻"),
                                        ("sports", "スポーツ" if lang == "ja" else "体育"),
                                        ("business", "経済" if lang == "ja" else "财经")))
    return f"""<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title} | {site}</title>
<meta property="og:type" content="article"><meta property="og:title" content="{title}">
<meta property="article:published_time" content="2025-11-26T09:30:00+09:00"></head>
<body><header><a href="/">{site}</a><nav><ul>{nav}</ul></nav></header>
<main><article><h1>{title}</h1><time datetime="2025-11-26T09:30">2025年11月26日 9時30分</time>{body}</article></main>
<footer><p>Copyright {site}</p></footer></body></html>""".encode()


def product_page() -> bytes:
    specs = "".join(f"<tr><th>{key}</th><td>{value}</td></tr>" for key, value in (
        ("サイズ", "幅45×奥行40×高さ80cm"), ("重量", "4.2kg"), ("素材", "天然木（オーク）"), ("原産国", "日本")))
    return f"""<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><title>木製チェア オーク | 家具の店</title>
<meta property="og:type" content="product">
<script type="application/ld+json">{{"@context":"https://schema.org","@type":"Product","name":"木製チェア オーク",
"offers":{{"@type":"Offer","price":"12800","priceCurrency":"JPY","availability":"https://schema.org/InStock"}}}}</script>
</head><body><header><a href="/">家具の店</a><a href="/cart">カート</a></header>
<main><h1>木製チェア オーク</h1><p class="price">12,800円（税込）</p><p>在庫あり</p>
<form action="/cart/add"><label>数量<select name="qty"><option>1</option><option>2</option></select></label>
<button type="submit">カートに入れる</button></form><table>{specs}</table>
<p>座り心地の良い木製チェアです。</p></main><footer>送料・返品について</footer></body></html>""".encode()


def listing_page() -> bytes:
    items = "".join(f'<li><a href="/news/2025/11/{day:02d}/{day}.html">{headline}</a><span>11月{day}日</span></li>'
                    for day, headline in enumerate((
                        "市政府召开常务会议研究部署冬季供暖工作", "新开三条社区接驳线方便居民换乘",
                        "全市中小学开展消防安全演练", "城东新区两所新建学校明年投入使用",
                        "本周末气温明显下降请注意保暖", "地铁五号线南延段进入试运行阶段", "市图书馆推出夜间开放服务",
                        "今年第三季度全市经济运行情况发布", "多条道路因施工实行交通管制",
                        "市民服务热线上线智能咨询功能",
                        "老旧小区改造工程完成年度目标", "农贸市场蔬菜价格保持稳定"), start=1))
    return f"""<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>本地新闻 - 城市日报</title></head>
<body><header><a href="/">城市日报</a></header><main><h1>本地新闻</h1><ul class="news-list">{items}</ul>
<div class="pages"><a href="?page=2">下一页</a></div></main><footer>城市日报版权所有</footer></body></html>""".encode()


def test_a_character_of_an_unspaced_script_is_a_word():
    text = "低気圧が発達しています。 Stay safe."
    assert words(text) == ["低", "気", "圧", "が", "発", "達", "し", "て", "い", "ま", "す", "。", "Stay", "safe."]
    assert word_count(text) == 14
    assert word_count("plain words only") == len("plain words only".split())
    assert unspaced_fraction(words(text)) == pytest.approx(11 / 14)
    assert token_count(text) == 13  # the length rule's unit: "。" and "." are no tokens


@pytest.mark.parametrize("paragraphs", [JA_PARAGRAPHS, ZH_PARAGRAPHS], ids=["ja", "zh"])
def test_word_statistics_of_an_unspaced_article_pass_gopher(paragraphs):
    text = "\n\n".join(paragraphs)
    whitespace_words = len(text.split())
    assert whitespace_words < 50  # what Gopher saw before: too few, absurdly long words
    signals = gopher_signals(text)
    assert signals["gopher_word_count"] > 300
    assert signals["gopher_median_word_length"] is None  # a character is not a word: no length rule
    assert signals["gopher_alpha_word_fraction"] > 0.8
    assert signals["gopher_dup_5gram_char_fraction"] <= 0.15
    decided = reasons.decide(reasons.rules_for("select"), measure.text_signals(text), Params())
    found = [code for code in decided if code.startswith(("gopher.", "c4.", "length."))]
    assert found == []


def test_repeated_unspaced_text_is_still_caught():
    spam = "\n".join(["激安セール開催中！今すぐクリックして購入してください！"] * 30)
    signals = gopher_signals(spam)
    assert signals["gopher_dup_line_fraction"] > 0.9
    assert signals["gopher_dup_10gram_char_fraction"] > 0.9


def test_japanese_and_chinese_articles_are_kept_and_their_non_articles_are_not(tmp_path: Path):
    warc = tmp_path / "cjk.warc.gz"
    write_warc(warc, [
        ("https://news.example.jp/articles/20251126/k10014567.html",
         article_page("ja", "北日本で暴風雪のおそれ 交通機関に影響も", JA_PARAGRAPHS, "例えばニュース"), {}),
        ("https://www.example.cn/city/2025-11/26/c_1130456789.htm",
         article_page("zh", "本市下月起调整十二条公交线路", ZH_PARAGRAPHS, "城市日报"), {}),
        ("https://shop.example.jp/products/oak-chair-1234", product_page(), {}),
        ("https://www.example.cn/city/", listing_page(), {}),
    ])
    out = tmp_path / "out"
    assert cli("run", warc, "--out", out, "--workers", "1") in (0, 1)
    rows = pl.concat([pl.read_parquet(path) for path in sorted(out.glob("*ed/*.parquet"))], how="diagonal_relaxed")
    kept = dict(zip(rows["url"].to_list(), rows["kept"].to_list(), strict=True))
    given = dict(zip(rows["url"].to_list(), rows["reasons"].to_list(), strict=True))
    assert kept["https://news.example.jp/articles/20251126/k10014567.html"], given
    assert kept["https://www.example.cn/city/2025-11/26/c_1130456789.htm"], given
    assert not kept["https://shop.example.jp/products/oak-chair-1234"]
    assert not kept["https://www.example.cn/city/"]


def real_pages(corpus: Path, keep) -> list[tuple[str, bytes, str | None]]:  # type: ignore[no-untyped-def]
    """(url, payload, content type) of the HTML responses of `corpus` for which `keep(payload)`."""
    from pipeline.io.readers import FileReport, read_file

    pages = []
    for raw in read_file(str(corpus), 5_000_000, FileReport(str(corpus))):
        if raw.payload and b"<html" in raw.payload[:5000].lower() and keep(raw.payload):
            pages.append((raw.url, raw.payload, raw.http_content_type))
    return pages


def test_real_chinese_and_japanese_pages_are_measured_in_characters(shared_corpora):
    """Every page of trafilatura-eval whose HTML holds 300 or more Han/Kana characters (news from
    several sites and years): once extracted, a text written without spaces gets no word-length
    verdict, and a text of 200 tokens or more is never 'too few words' for Gopher."""
    from filters.extract.cascade import run_cascade
    from filters.parse.html import parse_html_bytes
    from filters.parse.parsed import Page
    from pipeline.io.decode import decode_html

    cjk = re.compile(f"[{CJK_CHARS}]")
    pages = real_pages(shared_corpora / "trafilatura-eval.warc.gz",
                       lambda payload: len(cjk.findall(payload.decode("utf-8", "replace"))) >= 300)
    assert len(pages) >= 4  # Xinhua, Banyuetan, NHK, Baidu Baike, ...
    measured = 0
    for url, payload, content_type in pages:
        decoded = decode_html(payload, content_type)
        text = run_cascade(Page(parse_html_bytes(decoded.data, decoded.encoding), url)).text or ""
        if unspaced_fraction(words(text)) < 0.5:
            continue  # mostly Latin text around a few CJK names
        measured += 1
        signals = measure.text_signals(text)
        found = reasons.decide(reasons.rules_for("select"), signals, Params())
        assert signals["gopher_median_word_length"] is None, url
        assert "gopher.median_word_length" not in found, url
        if signals["token_count"] >= 200:
            assert "gopher.word_count" not in found and "length.tokens" not in found, (url, found)
            assert word_count(text) >= signals["token_count"], url  # a character is a token and a word
    assert measured >= 3


def test_near_copies_in_unspaced_scripts_are_near_duplicates() -> None:
    """Two copies of a Japanese (or Chinese) article that differ in one sentence: shingled by the
    whitespace-free `\\w+` runs, a whole clause was one "word" and they shared almost no shingle;
    shingled by characters (10-character shingles, `shingle_words`), they are near duplicates,
    while two different articles stay far apart."""
    from filters.corpus.dedup import hamming, simhash64
    from filters.corpus.minhash import jaccard, signature
    from filters.text.tokens import UNSPACED_NGRAM_SCALE, shingle_words

    for paragraphs in (JA_PARAGRAPHS, ZH_PARAGRAPHS):
        original = "\n\n".join(paragraphs)
        edited = original.replace(paragraphs[1], paragraphs[1][:20] + "。" + paragraphs[1][30:])
        found, scale = shingle_words(original)
        assert scale == UNSPACED_NGRAM_SCALE and len(found) > 150 and all(len(word) == 1 for word in found[:50])
        assert jaccard(signature(original), signature(edited)) >= 0.85  # 0.73 with whole clauses as words
        assert hamming(simhash64(original), simhash64(edited)) < hamming(simhash64(original), simhash64(
            "\n\n".join(ZH_PARAGRAPHS if paragraphs is JA_PARAGRAPHS else JA_PARAGRAPHS)))
    unrelated = jaccard(signature("\n".join(JA_PARAGRAPHS)), signature("\n".join(ZH_PARAGRAPHS)))
    assert unrelated < 0.1


def test_spaced_text_is_shingled_as_before() -> None:
    """Shingles of text without unspaced characters are its lower-cased `\\w+` runs, 5 to a shingle."""
    from filters.text.tokens import shingle_words

    text = "The Council's vote, on 3.5 million euros: delayed again!"
    assert shingle_words(text) == (re.findall(r"\w+", text.lower()), 1)
    assert shingle_words("") == ([], 1)
    mixed = "Tokyo (東京) is large."
    assert shingle_words(mixed) == (["tokyo", "東", "京", "is", "large"], 1)  # mostly spaced: scale 1
