"""Ember from Python: the same small job on every available backend.

Logistic regression by gradient descent with explicit gradients on a synthetic data set,
then a few array API and NumPy interop calls. Run after `pip install ./bindings/python`:

    python examples/python_demo.py
"""
import time

import ember as em


def make_data(n=2000, d=8, seed=0):
    em.random.set_seed(seed)
    X = em.random.random_normal((n, d), dtype=em.float32)
    w_true = em.linspace(-1.0, 1.0, d, dtype=em.float32)
    y = em.astype(X @ w_true > 0, em.float32)
    return X, y


def train(X, y, steps=200, lr=0.5):
    n, d = X.shape
    w = em.zeros((d,), dtype=em.float32)
    b = 0.0
    for _ in range(steps):
        p = em.sigmoid(X @ w + b)
        err = p - y                            # dL/dz for the mean cross-entropy
        w = w - lr * (X.T @ err) / n
        b = b - lr * float(em.mean(err))
    p = em.sigmoid(X @ w + b)
    loss = float(em.losses.binary_crossentropy(y, p))
    acc = float(em.mean(em.astype((p > 0.5) == (y > 0.5), em.float32)))
    return loss, acc


def main():
    print("ember", em.__version__, "backends:", em.backends())
    for name in em.backends():
        with em.using_backend(name):
            X, y = make_data()
            t0 = time.perf_counter()
            loss, acc = train(X, y)
            dt = time.perf_counter() - t0
            print(f"{name:>10}: loss {loss:.4f}  accuracy {acc:.3f}  {dt * 1000:.1f} ms")
    x = em.reshape(em.arange(12, dtype=em.float64), (3, 4))
    print(x[1:, ::2])
    print("sum over rows:", em.sum(x, axis=1))
    try:
        import numpy as np
        print("np.asarray zero-copy:", np.shares_memory(np.asarray(x), np.asarray(x)))
    except ImportError:
        pass


if __name__ == "__main__":
    main()
