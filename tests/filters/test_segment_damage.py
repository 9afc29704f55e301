"""Damaged and mutated forum pages thrown at the segmenter (filters/segment/segments.py): nodes removed
or duplicated, comments and processing instructions inserted, posts emptied, deep nesting. Whatever
the page, `page_segments` returns segments (never raises), leaves the tree as it was, and gives every
segment some text."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree, html
from test_segment_segments import forum_thread, vbulletin_post, words

from filters.segment.segments import KINDS, page_segments


def _thread() -> str:
    posts = "".join(vbulletin_post(n, name, "Jul 2013", 40 * n, words(20 + 7 * n, name))
                    for n, name in enumerate(("ann", "bob", "cy", "di"), 1))
    return f"<h1>A thread</h1><ol id='posts'>{posts}</ol>{forum_thread()}"


MUTATIONS = ("remove", "duplicate", "comment", "empty", "nest", "unwrap")


def _mutate(body: html.HtmlElement, steps: list[tuple[str, int]]) -> None:
    for mutation, pick in steps:
        elements = [element for element in body.iter() if isinstance(element.tag, str) and element is not body]
        if not elements:
            return
        element = elements[pick % len(elements)]
        parent = element.getparent()
        if mutation == "remove" and parent is not None:
            parent.remove(element)
        elif mutation == "duplicate" and parent is not None:
            element.addnext(copy.deepcopy(element))
        elif mutation == "comment":
            element.insert(0, etree.Comment(" a comment inside "))
            element.append(etree.ProcessingInstruction("php", "echo 1;"))
        elif mutation == "empty":
            element.text = None
            for child in list(element):
                element.remove(child)
        elif mutation == "nest":
            inner = element
            for _ in range(60):  # deep nesting around one element
                wrapper = etree.SubElement(inner, "div")
                inner = wrapper
            inner.text = words(30, "deep")
        elif mutation == "unwrap" and parent is not None:
            index = parent.index(element)
            for offset, child in enumerate(list(element)):
                parent.insert(index + offset + 1, child)
            parent.remove(element)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(MUTATIONS), st.integers(min_value=0, max_value=10_000)), max_size=12))
def test_a_damaged_forum_page_gives_segments_and_is_left_as_it_was(steps):
    body = html.fromstring(f"<html><body>{_thread()}</body></html>").find("body")
    _mutate(body, steps)
    before = etree.tostring(body)
    found = page_segments(body)
    assert etree.tostring(body) == before
    assert all(segment.text.strip() and segment.kind in KINDS for segment in found)
