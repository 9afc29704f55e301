"""The page-type model, whole: what tells an article from the six other page types.

`words` (word tables) and `features` (`page_features`, one function for training and the
pipeline) describe a page; `text_model` reads its words; `model` reads and writes the model file
(`page_type.json`, with its card `page_type.card.md`) and predicts; `decision` holds its signals,
its two rules, their params and thresholds (stored once, in the model file); `training`,
`measures` and `card` fit it, measure it in cross-validation and describe it. The pipeline only
runs it: the gate step (`pipeline/stages/steps.py`), select's slices (`pipeline/stages/page_types.py`)
and `pipeline train` (`pipeline/stages/train.py`, which reads labels and extracts the pages).
May import `filters.core`, `filters.parse`, `filters.text` and `filters.page`; never `pipeline`.
"""
