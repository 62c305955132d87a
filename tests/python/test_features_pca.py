"""ember.features.PCA vs a NumPy PCA written here (SVD of the centred data, sklearn's
svd_flip sign rule): components, explained variance (ratio), singular values, mean,
transform / inverse_transform, whitening, fractional n_components. Every backend whose
svd is available; others must raise UnsupportedError."""
import numpy as np
import pytest

import ember as em

RNG = np.random.default_rng(3)
X = RNG.normal(size=(40, 6)) @ RNG.normal(size=(6, 6)) + np.arange(6.0)


def check(got, want, tol=1e-10):
    g = np.asarray(got)
    assert g.shape == np.shape(want), (g.shape, np.shape(want))
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol)


def numpy_pca(x, k):
    mean = x.mean(axis=0)
    xc = x - mean
    u, s, vt = np.linalg.svd(xc, full_matrices=False)
    idx = np.argmax(np.abs(vt), axis=1)
    vt = vt * np.sign(vt[np.arange(vt.shape[0]), idx])[:, None]
    ev = s ** 2 / (x.shape[0] - 1)
    ratio = ev / ev.sum()
    return vt[:k], ev[:k], ratio[:k], s[:k], mean


def fitted(backend, **kw):
    p = em.features.PCA(**kw)
    try:
        return p.fit(em.asarray(X))
    except em.UnsupportedError:
        pytest.skip(f"{backend} has no svd kernel")


@pytest.mark.parametrize("k", [None, 1, 3, 6])
def test_pca_matches_numpy(backend, k):
    p = fitted(backend, n_components=k)
    kk = 6 if k is None else k
    comp, ev, ratio, sv, mean = numpy_pca(X, kk)
    assert p.n_components_ == kk and p.n_features_in_ == 6 and p.n_samples_ == 40
    check(p.components_, comp)
    check(p.explained_variance_, ev)
    check(p.explained_variance_ratio_, ratio)
    check(p.singular_values_, sv)
    check(p.mean_, mean)
    z = p.transform(em.asarray(X))
    check(z, (X - mean) @ comp.T)
    check(p.inverse_transform(z), (X - mean) @ comp.T @ comp + mean)
    # the variance of the projected data is the explained variance
    check(np.var(np.asarray(z), axis=0, ddof=1), ev)
    if kk == 6:
        check(p.inverse_transform(z), X)  # every component: exact reconstruction
        check(np.asarray(p.components_) @ np.asarray(p.components_).T, np.eye(6))


def test_pca_whiten_fit_transform_fraction(backend):
    p = fitted(backend, n_components=3, whiten=True)
    comp, ev, _, _, mean = numpy_pca(X, 3)
    z = p.fit_transform(em.asarray(X))
    check(z, (X - mean) @ comp.T / np.sqrt(ev))
    check(np.var(np.asarray(z), axis=0, ddof=1), np.ones(3))
    check(p.inverse_transform(z), (X - mean) @ comp.T @ comp + mean)
    # float n_components: the fewest components whose cumulative ratio exceeds it (sklearn)
    _, _, ratio, _, _ = numpy_pca(X, 6)
    q = fitted(backend, n_components=0.9)
    assert q.n_components_ == int(np.searchsorted(np.cumsum(ratio), 0.9, side="right") + 1)
    assert em.features.pca(n_components=2).n_components == 2
    assert repr(em.features.PCA(2, whiten=True)) == "PCA(n_components=2, whiten=True)"


def test_pca_float32_and_errors(backend):
    p = em.features.PCA(2)
    try:
        p.fit(em.asarray(X.astype(np.float32)))
    except em.UnsupportedError:
        pytest.skip(f"{backend} has no svd kernel")
    assert p.components_.dtype == em.float32
    check(p.components_, numpy_pca(X, 2)[0], 1e-4)
    with pytest.raises(RuntimeError):
        em.features.PCA().transform(em.asarray(X))
    with pytest.raises(ValueError):
        em.features.PCA(7).fit(em.asarray(X[:, :6][:5]))
    with pytest.raises(ValueError):
        em.features.PCA(1.5).fit(em.asarray(X))
    with pytest.raises(em.ShapeError):
        p.transform(em.asarray(X[:, :4]))
    with pytest.raises(em.ShapeError):
        em.features.PCA().fit(em.asarray(X[:1]))
    with pytest.raises(ValueError):
        em.features.PCA("auto").fit(em.asarray(X))
    with pytest.raises(ValueError):
        em.features.PCA("mle").fit(em.asarray(X[:4]))   # fewer samples than features


def low_rank_data(n, d, rank, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, rank)) @ rng.normal(size=(rank, d)) * 3 + rng.normal(size=(n, d)) * 0.5 + np.arange(d)


@pytest.mark.parametrize("k", [1, 3, 0.8, None])
@pytest.mark.parametrize("whiten", [False, True])
def test_pca_probabilistic_model(backend, k, whiten):
    # noise_variance_, get_covariance / get_precision and score_samples vs the model written
    # out in NumPy: N(mean, W^T diag(ev - noise) W + noise I), W the (whitened: scaled) components.
    x = low_rank_data(200, 10, 3, 5)
    p = em.features.PCA(k, whiten=whiten)
    try:
        p.fit(em.asarray(x))
    except em.UnsupportedError:
        pytest.skip(f"{backend} has no svd kernel")
    kk = p.n_components_
    comp, ev, _, _, mean = numpy_pca(x, 10)
    noise = ev[kk:].mean() if kk < 10 else 0.0
    assert isinstance(p.noise_variance_, float)
    np.testing.assert_allclose(p.noise_variance_, noise, rtol=1e-10, atol=1e-14)
    w = comp[:kk] * np.sqrt(ev[:kk])[:, None] if whiten else comp[:kk]
    cov = w.T @ np.diag(np.maximum(ev[:kk] - noise, 0)) @ w + noise * np.eye(10)
    check(p.get_covariance(), cov, 1e-9)
    check(p.get_precision(), np.linalg.inv(cov), 1e-7)
    xc = x - mean
    logdet = np.linalg.slogdet(cov)[1]
    want = -0.5 * np.einsum("ij,jk,ik->i", xc, np.linalg.inv(cov), xc) - 0.5 * (10 * np.log(2 * np.pi) + logdet)
    check(p.score_samples(em.asarray(x)), want, 1e-8)
    assert p.score(em.asarray(x)) == pytest.approx(want.mean(), rel=1e-9)
    # the covariance is the data's when every component is kept
    if kk == 10 and not whiten:
        check(p.get_covariance(), np.cov(x, rowvar=False), 1e-9)


# Minka's choice on data with a planted rank; the expected dimensions are what
# sklearn.decomposition.PCA(n_components="mle", svd_solver="full") 1.9.1 picks for the same
# arrays (checked by hand on these and 280 more: sklearn is not a test dependency). The
# small (12, 6) case is close between ranks 2 and 3: dropping any term of the evidence
# changes its answer.
@pytest.mark.parametrize("shape,rank,seed,want", [((200, 10), 3, 11, 3), ((60, 8), 8, 11, 7), ((300, 12), 5, 11, 5),
                                                  ((30, 6), 2, 11, 2), ((100, 9), 1, 11, 1), ((40, 20), 6, 11, 6),
                                                  ((12, 6), 2, 6, 3), ((12, 6), 2, 0, 2)])
def test_pca_mle_dimension(backend, shape, rank, seed, want):
    x = low_rank_data(*shape, rank, seed)
    p = em.features.PCA("mle")
    try:
        p.fit(em.asarray(x))
    except em.UnsupportedError:
        pytest.skip(f"{backend} has no svd kernel")
    assert p.n_components_ == want
    assert p.components_.shape == (want, shape[1])
    np.testing.assert_allclose(p.noise_variance_, numpy_pca(x, shape[1])[1][want:].mean(), rtol=1e-10)
