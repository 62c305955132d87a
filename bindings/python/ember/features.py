"""Ember ML's features: stateful feature extractors over the C ABI. ``PCA`` (with the
factory ``pca()``, Ember ML's spelling) wraps ember_pca_fit / ember_pca_transform /
ember_pca_inverse_transform (ember_stats.h): an SVD of the centred data, no kernel of its
own, so it runs on every backend with an svd kernel.

    import ember as em
    p = em.features.PCA(n_components=2).fit(X)
    Z = p.transform(X)                 # (n_samples, 2)
    X2 = p.inverse_transform(Z)        # least-squares reconstruction
    p.explained_variance_ratio_

Sign convention (deterministic, documented): each component is oriented so that its entry
of largest absolute value is positive (the first such entry on ties) — sklearn's svd_flip
on the right singular vectors, as sklearn >= 1.5 does for PCA. Results therefore agree
with sklearn.decomposition.PCA(svd_solver="full") up to rounding, and are the same on every
backend and run."""
from . import _ember_c as _c
from ._array import Array, _wrap
from ._errors import missing

_WHY = "this libember has no PCA (ember_pca_fit in ember_stats.h)"


def _arr(x):
    if isinstance(x, Array):
        return x
    from ._creation import asarray
    return asarray(x)


class PCA:
    """Principal component analysis (sklearn.decomposition.PCA with the full SVD solver).

    n_components: None (all, min(n_samples, n_features)), an int k, or a float in (0, 1):
    the smallest number of components whose cumulative explained variance ratio exceeds it
    (sklearn's rule). whiten: transform scales each component to unit variance (the
    variance is clamped below at the dtype's epsilon). center: subtract the mean before the
    SVD (False analyses the raw data, as TruncatedSVD; mean_ is then zeros).

    Fitted attributes: components_ (k, n_features), explained_variance_ (k,),
    explained_variance_ratio_ (k,), singular_values_ (k,), mean_ (n_features,),
    n_components_, n_samples_, n_features_in_."""

    def __init__(self, n_components=None, *, whiten=False, center=True):
        self.n_components = n_components
        self.whiten = whiten
        self.center = center

    def __repr__(self):
        args = []
        if self.n_components is not None:
            args.append(f"n_components={self.n_components!r}")
        if self.whiten:
            args.append("whiten=True")
        if not self.center:
            args.append("center=False")
        return f"PCA({', '.join(args)})"

    def get_params(self, deep=True):
        return {"n_components": self.n_components, "whiten": self.whiten, "center": self.center}

    def set_params(self, **params):
        for k, v in params.items():
            if k not in ("n_components", "whiten", "center"):
                raise ValueError(f"PCA: unknown parameter {k!r}")
            setattr(self, k, v)
        return self

    def fit(self, X, y=None):
        if not hasattr(_c, "ember_pca_fit"):
            return missing("features.PCA.fit", _WHY)()
        X = _arr(X)
        if X.ndim != 2:
            raise ValueError(f"PCA.fit: X must be 2-d (n_samples, n_features), got shape {X.shape}")
        n, f = X.shape
        k = self.n_components
        fraction = None
        if k is None:
            kc = -1
        elif isinstance(k, float):
            if not 0 < k < 1:
                raise ValueError(f"PCA: a float n_components must be in (0, 1), got {k!r}")
            kc, fraction = -1, float(k)
        else:
            kc = int(k)
            if kc < 1 or kc > min(n, f):
                raise ValueError(f"PCA: n_components must be in [1, min(n_samples, n_features) = {min(n, f)}], got {k!r}")
        comps, ev, ratio, mean, sv = (_wrap(h) for h in _c.ember_pca_fit(X._h, kc, 1 if self.center else 0))
        if fraction is not None:
            cum, total, kk = 0.0, ratio.tolist(), 0
            for kk, r in enumerate(total, 1):
                cum += r
                if cum > fraction:
                    break
            comps, ev, ratio, sv = comps[:kk], ev[:kk], ratio[:kk], sv[:kk]
        self.components_ = comps
        self.explained_variance_ = ev
        self.explained_variance_ratio_ = ratio
        self.singular_values_ = sv
        self.mean_ = mean
        self.n_components_ = comps.shape[0]
        self.n_samples_ = n
        self.n_features_in_ = f
        return self

    def _check_fitted(self, what):
        if not hasattr(self, "components_"):
            raise RuntimeError(f"PCA.{what}: this PCA is not fitted yet; call fit first")

    def transform(self, X):
        """Scores (X - mean_) @ components_.T, shape (n_samples, n_components_) (1-d X: one sample)."""
        self._check_fitted("transform")
        X = _arr(X)
        return _wrap(_c.ember_pca_transform(X._h, self.components_._h, self.mean_._h if self.center else None,
                                            self.explained_variance_._h, 1 if self.whiten else 0))

    def fit_transform(self, X, y=None):
        return self.fit(X).transform(X)

    def inverse_transform(self, X):
        """Back to feature space: X @ components_ + mean_ (whitened: scaled back first)."""
        self._check_fitted("inverse_transform")
        X = _arr(X)
        return _wrap(_c.ember_pca_inverse_transform(X._h, self.components_._h, self.mean_._h if self.center else None,
                                                    self.explained_variance_._h, 1 if self.whiten else 0))


def pca(n_components=None, *, whiten=False, center=True):
    """Ember ML's factory: a new, unfitted PCA (features.pca().fit(X))."""
    return PCA(n_components, whiten=whiten, center=center)


__all__ = ["PCA", "pca"]
