"""Signals of extracted text: tokens, blocks, Gopher, C4, quality and language.

Each module computes numbers from text (never a decision: thresholds live in params and
`filters.rules.reasons`). A new text-quality signal goes here. It may import nothing of `filters` (a leaf); never
`pipeline`.
"""
