"""The page-type model's reading of the words: a linear model over the page's title and text.

No word list: a page's terms are its lowercased tokens (`filters.text.tokens.TOKEN`: a word, or
one character of a script written without spaces) and each pair of adjacent tokens, hashed into
`2 ** HASH_BITS` columns (scikit-learn's `HashingVectorizer`), weighted 1 + log(count) and scaled
to unit length. A one-versus-rest logistic regression per page type (`SGDClassifier`, `log_loss`)
gives the article probability, one feature of the select model (`TEXT_FEATURE`), given only for
the languages it learned (`MIN_LANGUAGE_PAGES`), missing for the others.

In training it is stacked: a training page's feature comes from a text model fitted without that
page's fold (`stacked`). The weights are stored in the model file as float16 (`to_document`);
prediction computes the same probabilities as scikit-learn's `predict_proba`.

Prediction does not import scikit-learn (1.8 s of a one-page run's select here): `term_vector`
hashes a page's terms as `HashingVectorizer` does (MurmurHash3 x86 32-bit of the UTF-8 term, seed
zero, signed; column `abs(hash) % 2 ** HASH_BITS`; the `mmh3` package), and each step after it follows
the order of scikit-learn's and SciPy's loops (sorted columns, sums in column order), so the
numbers are the same bit for bit (`tests/filters/test_text_model.py` compares them). Training
still uses scikit-learn (`vectors`, `fit_text_model`).
"""

from __future__ import annotations

import base64
import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import mmh3
import numpy as np

from filters.text.tokens import TOKEN

TEXT_FEATURE = "text_article_probability"
HASH_BITS = 16
# The title and the first characters of the text: an article's opening says what it is, and a
# long page costs no more than this to read.
MAX_CHARS = 20_000
# SGDClassifier's regularisation and passes over the data. Chosen by cross-validation grouped by
# registered domain on the labelled pages (docs/filters.md, "Page types"): 1e-4 kept fewer long
# articles at the same non-article ceilings, 3e-6 the same as 1e-5.
ALPHA = 1e-5
EPOCHS = 50
SEED = 0
STORED_DTYPE = "<f2"
# A language the text model read on fewer training pages than this is one it cannot read: for a
# page in it (or with no detected language) the feature is missing, in training as in use, and
# the trees decide on the page's shape alone. Its words would otherwise read as noise around the
# "no evidence" value that the model gives non-articles with little text (docs/filters.md).
MIN_LANGUAGE_PAGES = 20


def document(row: Mapping[str, Any]) -> str:
    """What the text model reads of a row: its title, then its extracted text, cut at `MAX_CHARS`."""
    return f"{row.get('title') or ''}\n{row.get('text') or ''}"[:MAX_CHARS]


def terms(text: str) -> list[str]:
    """The lowercased tokens of `text` and each pair of adjacent ones."""
    tokens = TOKEN.findall(text.lower())
    return tokens + [f"{first} {second}" for first, second in zip(tokens, tokens[1:], strict=False)]


def vectors(rows: Sequence[Mapping[str, Any]]) -> Any:
    """The rows' term vectors: hashed counts, 1 + log(count), scaled to unit length (a sparse matrix)."""
    from sklearn.feature_extraction.text import HashingVectorizer
    from sklearn.preprocessing import normalize

    hasher = HashingVectorizer(n_features=2 ** HASH_BITS, analyzer=terms, alternate_sign=False, norm=None)
    matrix = hasher.transform([document(row) for row in rows])
    matrix.data = 1.0 + np.log(matrix.data)
    return normalize(matrix)


def term_vector(row: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """One row of `vectors` without scikit-learn: its columns (ascending) and their values."""
    width = 2 ** HASH_BITS
    hashes = np.fromiter(map(mmh3.hash, terms(document(row))), dtype=np.int64)  # mmh3's defaults: seed zero, signed
    # HashingVectorizer's column: abs(h) % width, and for -2**31 (whose abs overflows an int32)
    # (2**31 - 1 - (width - 1)) % width
    columns = np.where(hashes == -2147483648, (2147483647 - (width - 1)) % width, np.abs(hashes) % width)
    indices, counts = np.unique(columns, return_counts=True)
    values = 1.0 + np.log(counts.astype(np.float64))
    if values.size:
        norm = np.cumsum(values * values)[-1]  # summed in column order, as scikit-learn's normalize
        if norm != 0.0:
            values = values / np.sqrt(norm)
    return indices, values


@dataclass(frozen=True)
class TextModel:
    """One weight row and intercept per page type (rows in `classes` order)."""

    classes: tuple[int, ...]  # indexes into PAGE_TYPES, as the labels were given
    weights: np.ndarray  # (len(classes), 2 ** HASH_BITS) float32
    intercepts: np.ndarray  # (len(classes),) float64
    languages: tuple[str, ...]  # the languages it read on at least MIN_LANGUAGE_PAGES training pages

    def feature(self, rows: Sequence[Mapping[str, Any]], article: int, width: int) -> np.ndarray:
        """`TEXT_FEATURE` of each row: its article probability (class index `article`), missing (NaN)
        where the text is in a language the model did not learn."""
        if not rows:
            return np.zeros(0)
        return self._where_read(self.probabilities(rows, width)[:, article], text_languages(rows))

    def scores(self, rows: Sequence[Mapping[str, Any]]) -> np.ndarray:
        """The rows' raw scores (rows, weight rows), each `term_vector` times the weights plus the
        intercepts, summed in column order as SciPy multiplies a sparse row by a matrix."""
        weights = self.weights_by_column
        scores = np.zeros((len(rows), weights.shape[1]))
        for index, row in enumerate(rows):
            columns, values = term_vector(row)
            if columns.size:
                scores[index] = np.cumsum(values[:, None] * weights[columns], axis=0)[-1]
        return scores + self.intercepts

    @functools.cached_property
    def weights_by_column(self) -> np.ndarray:
        """The weights as float64, one row per hashed column (the matrix `vectors` are multiplied by)."""
        return np.ascontiguousarray(self.weights.T.astype(np.float64))

    def feature_of(self, matrix: Any, languages: np.ndarray, article: int, width: int) -> np.ndarray:
        """`feature` of rows already turned into `vectors` and `text_languages`."""
        return self._where_read(self.probabilities_of(matrix, width)[:, article], languages)

    def _where_read(self, values: np.ndarray, languages: np.ndarray) -> np.ndarray:
        """`values` where the row's language is one the model read, NaN (missing) elsewhere."""
        return np.where(np.isin(languages, np.array(self.languages, dtype=object)), values, np.nan)

    def probabilities(self, rows: Sequence[Mapping[str, Any]], width: int) -> np.ndarray:
        """Class probabilities, columns 0..width-1 by class index (0 for a class not trained on)."""
        return self.logistic(self.scores(rows), width) if rows else np.zeros((0, width))

    def probabilities_of(self, matrix: Any, width: int) -> np.ndarray:
        """`probabilities` of rows already turned into `vectors`."""
        return self.logistic(np.asarray(matrix @ self.weights_by_column) + self.intercepts, width)

    def logistic(self, scores: np.ndarray, width: int) -> np.ndarray:
        """Class probabilities from raw scores (one-versus-rest logistic, scaled to sum to 1)."""
        out = np.zeros((scores.shape[0], width))
        logistic = 1.0 / (1.0 + np.exp(-scores))
        if len(self.classes) == 2:  # a binary fit has one weight row: the second class's
            logistic = np.column_stack([1.0 - logistic[:, 0], logistic[:, 0]])
        out[:, list(self.classes)] = logistic / logistic.sum(axis=1, keepdims=True)
        return out

    def to_document(self) -> dict[str, Any]:
        return {"hash_bits": HASH_BITS, "max_chars": MAX_CHARS, "classes": list(self.classes),
                "dtype": STORED_DTYPE, "shape": list(self.weights.shape),
                "weights": base64.b64encode(self.weights.astype(STORED_DTYPE).tobytes()).decode("ascii"),
                "intercepts": [float(value) for value in self.intercepts], "languages": list(self.languages)}

    @classmethod
    def from_document(cls, part: Mapping[str, Any]) -> TextModel:
        """The model a `to_document` dict describes; ValueError if it is not one this code reads."""
        layout = (part.get("hash_bits"), part.get("max_chars"), part.get("dtype"))
        if layout != (HASH_BITS, MAX_CHARS, STORED_DTYPE):
            raise ValueError(f"text model of another layout (hash_bits {part.get('hash_bits')}, max_chars "
                             f"{part.get('max_chars')}, dtype {part.get('dtype')}): retrain it with this version")
        rows, columns = (int(value) for value in part["shape"])
        weights = np.frombuffer(base64.b64decode(part["weights"]), dtype=STORED_DTYPE)
        classes = tuple(int(value) for value in part["classes"])
        intercepts = np.array(part["intercepts"], dtype=np.float64)
        if weights.size != rows * columns or columns != 2 ** HASH_BITS or len(intercepts) != rows \
                or rows != (1 if len(classes) == 2 else len(classes)):
            raise ValueError("text model weights do not match their shape")
        languages = tuple(str(language) for language in part["languages"])
        return cls(classes, weights.reshape(rows, columns).astype(np.float32), intercepts, languages)


def text_languages(rows: Sequence[Mapping[str, Any]]) -> np.ndarray:
    """The language of each row's extracted text (the `text_language` signal; "" where none)."""
    return np.array([(row.get("signals") or {}).get("text_language") or "" for row in rows], dtype=object)


def languages_read(languages: np.ndarray) -> tuple[str, ...]:
    """The languages of `MIN_LANGUAGE_PAGES` or more of the training rows (`text_languages`)."""
    return tuple(sorted(language for language, pages in Counter(languages.tolist()).items()
                        if language and pages >= MIN_LANGUAGE_PAGES))


def fit_text_model(matrix: Any, labels: np.ndarray, languages: tuple[str, ...]) -> TextModel:
    """The text model fitted on rows' `vectors` (`labels`: class indexes), its weights rounded as
    stored, reading `languages` (`languages_read` of the training rows)."""
    from sklearn.linear_model import SGDClassifier

    model = SGDClassifier(loss="log_loss", alpha=ALPHA, max_iter=EPOCHS, tol=None, random_state=SEED)
    model.fit(matrix, labels)
    weights = model.coef_.astype(STORED_DTYPE).astype(np.float32)
    return TextModel(tuple(int(value) for value in model.classes_), weights, model.intercept_.astype(np.float64),
                     languages)


def fits_without(held_out: np.ndarray, labels: np.ndarray) -> bool:
    """Whether a text model can be fitted on the rows outside `held_out`: some, of two types or more."""
    return not held_out.all() and len(np.unique(labels[~held_out])) >= 2


def out_of_fold(matrix: Any, languages: np.ndarray, labels: np.ndarray, folds: np.ndarray, article: int,
                width: int, read: tuple[str, ...]) -> np.ndarray:
    """Each row's `TEXT_FEATURE` (rows: `vectors` and `text_languages`) from a text model fitted
    without its fold (`folds`), reading `read`; missing for a fold whose complement holds a single type."""
    out = np.full(matrix.shape[0], np.nan)
    for fold in np.unique(folds):
        held_out = folds == fold
        if not fits_without(held_out, labels):
            continue
        model = fit_text_model(matrix[~held_out], labels[~held_out], read)
        out[held_out] = model.feature_of(matrix[held_out], languages[held_out], article, width)
    return out


class Stacked(NamedTuple):
    model: TextModel  # fitted on all rows
    feature: np.ndarray  # each row's article probability out of fold
    per_fold: dict[int, tuple[np.ndarray, np.ndarray]]  # fold -> (its training rows', its held-out rows')


def stacked(rows: Sequence[Mapping[str, Any]], labels: np.ndarray, folds: np.ndarray, article: int,
            width: int) -> Stacked:
    """The text model fitted on all rows, and its feature for stacking, never from a model that saw
    the page's fold:
    * for the final tree model: each row's article probability out of fold;
    * for each cross-validation fold `f` of the tree model: (the training rows' feature out of fold
      over the other folds only, the held-out rows' feature from a model fitted on all other folds),
      so the held-out fold is unseen by both models."""
    matrix, languages = vectors(rows), text_languages(rows)
    read = languages_read(languages)  # one set for every fit: a page's feature is given or missing alike in each
    everything = out_of_fold(matrix, languages, labels, folds, article, width, read)
    per_fold: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for fold in np.unique(folds):
        inside, held_out = folds != fold, folds == fold
        if not fits_without(held_out, labels):
            continue
        training = out_of_fold(matrix[inside], languages[inside], labels[inside], folds[inside], article, width, read)
        # the held-out rows' feature is `everything`'s: the same fit, on all other folds
        per_fold[int(fold)] = (training, everything[held_out])
    return Stacked(fit_text_model(matrix, labels, read), everything, per_fold)
