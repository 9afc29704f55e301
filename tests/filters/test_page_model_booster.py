"""The C API predictor gives LightGBM's own probabilities, bit for bit."""

from __future__ import annotations

import lightgbm
import numpy as np
import pytest

from filters.page_model import booster as booster_module
from filters.page_model.booster import BoosterError, CBooster, PackageBooster, library, load_booster
from filters.page_model.model import load_model, read_document

ZERO = float(np.float32(1e-35))  # LightGBM's kZeroThreshold: a value within it is zero


def hard_matrix(rows: int, columns: int, seed: int) -> np.ndarray:
    """Values where trees are easy to get wrong: NaN, zero, -0.0, LightGBM's zero threshold, tiny
    values either side of it, and ordinary ones."""
    rng = np.random.default_rng(seed)
    specials = np.array([np.nan, 0.0, -0.0, ZERO, -ZERO, 1e-36, 2e-35, 0.5, 1.0, 1.5, 2.5])
    matrix = rng.random((rows, columns)) * rng.choice([1, 10, 100, 10_000], (rows, columns))
    pick = rng.random((rows, columns)) < 0.4
    matrix[pick] = rng.choice(specials, int(pick.sum()))
    return matrix


def test_the_library_is_found_beside_the_package() -> None:
    assert library() is not None
    assert isinstance(load_booster(read_document()["page"]["booster"]), CBooster)


@pytest.mark.parametrize("part", ["page", "full"])
def test_shipped_model_probabilities_equal_lightgbm(part: str) -> None:
    text = read_document()["page" if part == "page" else "full"]["booster"]
    ours = load_booster(text)
    theirs = lightgbm.Booster(model_str=text)
    matrix = hard_matrix(2_000, theirs.num_feature(), seed=1)
    expected = theirs.predict(matrix, num_threads=1)
    assert np.array_equal(ours.predict(matrix), expected)  # exactly: the shards depend on these bits
    assert np.array_equal(ours.predict(matrix[:1]), expected[:1])  # one page at a time, as the gate calls it


def test_thresholds_exactly_hit_go_left_as_in_lightgbm() -> None:
    # a fresh model whose split points are reused as inputs: `value <= threshold` on the boundary
    rng = np.random.default_rng(7)
    x = rng.integers(0, 6, (400, 5)).astype(np.float64)
    y = (x[:, 0] + x[:, 1] * (x[:, 2] > 2) + rng.integers(0, 2, 400)) % 3
    model = lightgbm.train({"objective": "multiclass", "num_class": 3, "verbose": -1, "min_data_in_leaf": 5,
                            "deterministic": True, "num_threads": 1}, lightgbm.Dataset(x, y), num_boost_round=20)
    text = model.model_to_string()
    boundaries = np.array([[v + d for v in range(6) for d in (-0.5, 0.0, 0.5)]] * 5).T
    matrix = np.vstack([boundaries, hard_matrix(200, 5, seed=3)])
    assert np.array_equal(load_booster(text).predict(matrix), model.predict(matrix, num_threads=1))


def test_the_fallback_is_lightgbm_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(booster_module, "library", lambda: None)
    text = read_document()["page"]["booster"]
    matrix = hard_matrix(50, lightgbm.Booster(model_str=text).num_feature(), seed=5)
    fallback = load_booster(text)
    assert isinstance(fallback, PackageBooster)
    assert np.array_equal(fallback.predict(matrix), CBooster(library(), text).predict(matrix))


def test_a_broken_model_text_is_an_error_not_a_crash() -> None:
    with pytest.raises(BoosterError):
        CBooster(library(), "tree\nversion=v4\nnum_class=7\nnot a model")


def test_a_wrong_width_is_refused() -> None:
    model = load_model()
    with pytest.raises(ValueError, match="columns"):
        model.page.booster.predict(np.zeros((1, 3)))
