"""Seed 004 boilerplate filters, each against its false positives."""

from __future__ import annotations

import pytest

from filters.blocks import Block
from filters.boilerplate import boilerplate_kind, remove_boilerplate


def block(text: str, link: bool = False) -> Block:
    return Block("paragraph", text, len(text), len(text) if link else 0, 0)


@pytest.mark.parametrize("text", ["5 minutes ago", "Updated 2 hours ago", "an hour ago", "Yesterday", "just now"])
def test_relative_timestamps_removed(text):
    assert boilerplate_kind(block(text)) == "relative_time"


@pytest.mark.parametrize("text", [
    "Two years ago we moved to the coast, and the town has changed a lot since then.",
    "Ago is a word that rarely starts a sentence.",
    "5 minutes ago the lights went out across the whole district and did not come back.",
])
def test_sentences_mentioning_time_kept(text):
    assert boilerplate_kind(block(text)) is None


@pytest.mark.parametrize("text", ["© 2024 Example Media", "Copyright 2023 The Daily Herald. All rights reserved.",
                                  "(c) Example Corp", "All rights reserved."])
def test_copyright_lines_removed(text):
    assert boilerplate_kind(block(text)) == "copyright"


@pytest.mark.parametrize("text", [
    "Copyright law protects original works of authorship, and the 1976 act changed how long that protection lasts.",
    "The court ruled on the copyright dispute last week.",
])
def test_prose_about_copyright_kept(text):
    assert boilerplate_kind(block(text)) is None


@pytest.mark.parametrize("text", ["[Advertisement]", "[Photo: Jane Doe / Example]", "[1]"])
def test_bracket_annotations_removed(text):
    assert boilerplate_kind(block(text)) == "bracket_annotation"


@pytest.mark.parametrize("text", ["[Editor's note] The council later reversed its decision.", "See [1] and [2]."])
def test_text_with_brackets_kept(text):
    assert boilerplate_kind(block(text)) is None


def test_all_caps_link_removed_only_when_both():
    assert boilerplate_kind(block("CLICK HERE FOR MORE DEALS", link=True)) == "all_caps_link"
    assert boilerplate_kind(block("CLICK HERE FOR MORE DEALS", link=False)) is None  # caps alone
    assert boilerplate_kind(block("Read the full report here", link=True)) is None  # link alone
    assert boilerplate_kind(block("NASA", link=False)) is None


def test_long_blocks_never_removed():
    long = "© 2024 " + "word " * 40
    assert boilerplate_kind(block(long)) is None


def test_remove_boilerplate_counts_per_filter():
    kept, removed = remove_boilerplate([block("Real paragraph of text."), block("3 days ago"), block("[Ad]")])
    assert [b.text for b in kept] == ["Real paragraph of text."]
    assert removed == {"relative_time": 1, "bracket_annotation": 1}
