"""Prediction with a LightGBM model through LightGBM's C API, without importing its Python package.

`import lightgbm` imports scikit-learn, SciPy's array API and pandas where they are installed: 2.8 s
of a 12 s one-page `pipeline run` here (docs/benchmarks.md, "Fixed cost"), to walk trees the
library's C code walks in a fraction of a millisecond. This module loads the same shared library
(`lib_lightgbm`, shipped inside the `lightgbm` wheel, looked for where the package itself looks)
with ctypes and calls the documented C API (https://lightgbm.readthedocs.io/en/stable/C-API.html):
`LGBM_BoosterLoadModelFromString`, `LGBM_BoosterGetNumClasses`, `LGBM_BoosterGetNumFeature`,
`LGBM_BoosterPredictForMat` and `LGBM_BoosterFree`. It is the code `Booster.predict` runs, called
with the same arguments, so the probabilities are the same bit for bit
(`tests/filters/test_page_model_booster.py` compares them). Where the library cannot be found
this way, `load_booster` falls back to `lightgbm.Booster`. Training and tree contributions
(`pipeline explain`) use the Python package: they are rare, and its import is worth it there.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import platform
from pathlib import Path
from typing import Any, Protocol

import numpy as np

C_API_DTYPE_FLOAT64 = 1
C_API_PREDICT_NORMAL = 0
ROW_MAJOR = 1
PREDICT_PARAMETERS = b"num_threads=1"  # as Booster.predict(..., num_threads=1) passes them


class Predictor(Protocol):
    def predict(self, matrix: np.ndarray) -> np.ndarray: ...


class BoosterError(ValueError):
    """LightGBM refused the model text or a prediction (its last error message)."""


@functools.lru_cache(maxsize=1)
def library() -> ctypes.CDLL | None:
    """LightGBM's shared library, loaded once, or None where it is not where the package keeps it."""
    spec = importlib.util.find_spec("lightgbm")
    if spec is None or not spec.submodule_search_locations:
        return None
    name = {"Windows": "lib_lightgbm.dll", "Darwin": "lib_lightgbm.dylib"}.get(platform.system(), "lib_lightgbm.so")
    for folder in spec.submodule_search_locations:
        for candidate in (Path(folder) / "lib" / name, Path(folder) / "bin" / name, Path(folder).parent / name):
            if candidate.is_file():
                try:
                    lib = ctypes.cdll.LoadLibrary(str(candidate))
                except OSError:
                    continue
                lib.LGBM_GetLastError.restype = ctypes.c_char_p
                return lib
    return None


class CBooster:
    """One model loaded by the C API; `predict` is `Booster.predict(matrix, num_threads=1)`."""

    def __init__(self, lib: ctypes.CDLL, model: str) -> None:
        self._lib = lib
        self._handle = ctypes.c_void_p()
        iterations = ctypes.c_int(0)
        self._check(lib.LGBM_BoosterLoadModelFromString(ctypes.c_char_p(model.encode("utf-8")),
                                                        ctypes.byref(iterations), ctypes.byref(self._handle)))
        classes, features = ctypes.c_int(0), ctypes.c_int(0)
        self._check(lib.LGBM_BoosterGetNumClasses(self._handle, ctypes.byref(classes)))
        self._check(lib.LGBM_BoosterGetNumFeature(self._handle, ctypes.byref(features)))
        self.num_class, self.num_features = classes.value, features.value

    def predict(self, matrix: np.ndarray) -> np.ndarray:
        rows = np.ascontiguousarray(matrix, dtype=np.float64)
        if rows.ndim != 2 or rows.shape[1] != self.num_features:
            raise ValueError(f"expected a matrix of {self.num_features} columns, got shape {rows.shape}")
        out = np.empty(rows.shape[0] * self.num_class, dtype=np.float64)
        written = ctypes.c_int64(0)
        self._check(self._lib.LGBM_BoosterPredictForMat(
            self._handle, rows.ctypes.data_as(ctypes.c_void_p), ctypes.c_int(C_API_DTYPE_FLOAT64),
            ctypes.c_int32(rows.shape[0]), ctypes.c_int32(rows.shape[1]), ctypes.c_int(ROW_MAJOR),
            ctypes.c_int(C_API_PREDICT_NORMAL), ctypes.c_int(0), ctypes.c_int(-1),
            ctypes.c_char_p(PREDICT_PARAMETERS), ctypes.byref(written),
            out.ctypes.data_as(ctypes.POINTER(ctypes.c_double))))
        if written.value != out.size:
            raise BoosterError(f"LightGBM wrote {written.value} predictions, {out.size} expected")
        return out.reshape(rows.shape[0], self.num_class) if self.num_class > 1 else out

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle is not None and handle.value:
            self._lib.LGBM_BoosterFree(handle)

    def _check(self, status: int) -> None:
        if status != 0:
            raise BoosterError((self._lib.LGBM_GetLastError() or b"").decode("utf-8", "replace"))


class PackageBooster:
    """The fallback: `lightgbm.Booster` itself."""

    def __init__(self, model: str) -> None:
        import lightgbm

        self.booster: Any = lightgbm.Booster(model_str=model)

    def predict(self, matrix: np.ndarray) -> np.ndarray:
        return np.asarray(self.booster.predict(matrix, num_threads=1))


def load_booster(model: str) -> Predictor:
    """The model text `model` (`Booster.model_to_string`) ready to predict."""
    lib = library()
    return CBooster(lib, model) if lib is not None else PackageBooster(model)
