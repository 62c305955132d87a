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

    n_components: None (all, min(n_samples, n_features)), an int k, a float in (0, 1): the
    smallest number of components whose cumulative explained variance ratio exceeds it
    (sklearn's rule), or "mle": Minka's Bayesian choice of dimension (needs n_samples >=
    n_features). whiten: transform scales each component to unit variance (the variance is
    clamped below at the dtype's epsilon). center: subtract the mean before the SVD (False
    analyses the raw data, as TruncatedSVD; mean_ is then zeros).

    Fitted attributes: components_ (k, n_features), explained_variance_ (k,),
    explained_variance_ratio_ (k,), singular_values_ (k,), mean_ (n_features,),
    noise_variance_ (a float: the mean of the discarded variances, 0 when none is),
    n_components_, n_samples_, n_features_in_.

    The probabilistic PCA model (Tipping and Bishop) these define: get_covariance(),
    get_precision(), score_samples(X) (log-likelihood of each sample), score(X) (their
    mean), as sklearn's."""

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
        if isinstance(k, str):
            if k != "mle":
                raise ValueError(f"PCA: the only string n_components is 'mle', got {k!r}")
            if n < f:
                raise ValueError(f"PCA: n_components='mle' needs n_samples >= n_features, got shape {X.shape}")
        elif isinstance(k, float):
            if not 0 < k < 1:
                raise ValueError(f"PCA: a float n_components must be in (0, 1), got {k!r}")
        elif k is not None and not 1 <= int(k) <= min(n, f):
            raise ValueError(f"PCA: n_components must be in [1, min(n_samples, n_features) = {min(n, f)}], got {k!r}")
        # The full spectrum is needed for noise_variance_ (and for the float and "mle"
        # rules); the SVD is the full reduced one whatever k is, so this costs nothing more.
        comps, ev, ratio, mean, sv = (_wrap(h) for h in _c.ember_pca_fit(X._h, -1, 1 if self.center else 0))
        spectrum = ev.tolist()
        if k is None:
            kk = len(spectrum)
        elif k == "mle":
            kk = _minka_dimension(spectrum, n)
        elif isinstance(k, float):
            cum, kk = 0.0, 0
            for kk, r in enumerate(ratio.tolist(), 1):
                cum += r
                if cum > k:
                    break
        else:
            kk = int(k)
        discarded = spectrum[kk:]
        self.noise_variance_ = sum(discarded) / len(discarded) if discarded else 0.0
        self.components_ = comps[:kk]
        self.explained_variance_ = ev[:kk]
        self.explained_variance_ratio_ = ratio[:kk]
        self.singular_values_ = sv[:kk]
        self.mean_ = mean
        self.n_components_ = kk
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


    def get_covariance(self):
        """The model's data covariance, (n_features, n_features):
        components_.T @ diag(explained_variance_ - noise_variance_) @ components_ +
        noise_variance_ * I (differences below 0 count as 0; whitened components are first
        scaled by sqrt(explained_variance_), as sklearn does)."""
        self._check_fitted("get_covariance")
        from . import _functions as F
        comps, ev, noise = self.components_, self.explained_variance_, self.noise_variance_
        if self.whiten:
            comps = comps * F.sqrt(ev)[:, None]
        excess = F.maximum(ev - noise, 0.0)
        cov = F.matmul(F.matrix_transpose(comps) * excess, comps)
        from ._creation import eye
        return cov + noise * eye(self.n_features_in_, dtype=cov.dtype)

    def get_precision(self):
        """The inverse of get_covariance()."""
        self._check_fitted("get_precision")
        from . import linalg
        return linalg.inv(self.get_covariance())

    def score_samples(self, X):
        """Log-likelihood of each sample under the model: a Gaussian with mean mean_ and
        covariance get_covariance(). Shape (n_samples,)."""
        self._check_fitted("score_samples")
        import math
        from . import _functions as F
        from . import linalg
        X = _arr(X)
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(f"PCA.score_samples: X must be (n_samples, {self.n_features_in_}), got shape {X.shape}")
        centred = X - self.mean_
        precision = self.get_precision()
        mahalanobis = F.sum(F.matmul(centred, precision) * centred, axis=1)
        logdet = float(linalg.slogdet(precision).logabsdet)
        return -0.5 * mahalanobis - 0.5 * (self.n_features_in_ * math.log(2 * math.pi) - logdet)

    def score(self, X, y=None):
        """The mean log-likelihood of the samples (score_samples(X).mean())."""
        from . import _functions as F
        return float(F.mean(self.score_samples(X)))


def _minka_dimension(spectrum, n_samples):
    """The rank k in [1, d) with the largest Laplace-approximated evidence
    log p(data | k) (T. Minka, "Automatic choice of dimensionality for PCA", NIPS 2000);
    spectrum: the d covariance eigenvalues, largest first."""
    import math
    d = len(spectrum)
    tiny = 2.220446049250313e-16

    def log_evidence(k):
        rest = spectrum[k:]
        v = max(tiny, sum(rest) / (d - k))                # the noise variance the model assumes
        if spectrum[k - 1] <= tiny:
            return -math.inf                               # a zero eigenvalue kept: no evidence
        log_p_u = -k * math.log(2) + sum(math.lgamma((d - i + 1) / 2) - math.log(math.pi) * (d - i + 1) / 2
                                         for i in range(1, k + 1))
        log_p_l = -n_samples / 2 * sum(math.log(x) for x in spectrum[:k])
        log_p_v = -n_samples * (d - k) / 2 * math.log(v)
        m = d * k - k * (k + 1) / 2
        log_p_p = math.log(2 * math.pi) * (m + k) / 2
        hat = spectrum[:k] + [v] * (d - k)                 # the eigenvalues the model implies
        log_det_hessian = 0.0
        for i in range(k):
            for j in range(i + 1, d):
                log_det_hessian += (math.log((spectrum[i] - spectrum[j]) * (1 / hat[j] - 1 / hat[i]))
                                    + math.log(n_samples))
        return log_p_u + log_p_l + log_p_v + log_p_p - log_det_hessian / 2 - k * math.log(n_samples) / 2

    best_k, best = 1, -math.inf
    for k in range(1, d):
        ll = log_evidence(k)
        if ll > best:
            best_k, best = k, ll
    return best_k


def pca(n_components=None, *, whiten=False, center=True):
    """Ember ML's factory: a new, unfitted PCA (features.pca().fit(X))."""
    return PCA(n_components, whiten=whiten, center=center)


__all__ = ["PCA", "pca"]
