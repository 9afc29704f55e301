"""Signals of extracted text: tokens, blocks, Gopher, C4, quality and language, and their order.

Each module computes numbers from text (never a decision: thresholds are its params and
`filters.rules.reasons`); `measure.text_signals` runs the text filters over one text in their
order. A new text-quality signal goes here. May import `filters.core` only; never `pipeline`.
"""
