"""Views whose rows are short (an RGB pixel, a 3-d point, a handful of classes), stepped,
reversed or apart, through the Python binding against NumPy: the cases of the
seventy-fifth session in bench/RESULTS.md, where such a view paid a call, a gather or a
kernel call per row.

    EMBER_BACKEND=cpu python3 bench/short_rows.py [--reps N] [substring ...]

Prints one line per case: NumPy's time, Ember's, and ratio = NumPy / Ember (best of --reps
after one warm-up call). Results are checked against NumPy's first. To compare two builds
of the cpu module, run it once with EMBER_BACKEND_PATH pointing at each, alternately.
"""
import argparse

import numpy as np

import ember as em
from numpy_baseline import best_of  # beside this file: one warm-up call, then the best of reps


def cases():
    r = np.random.default_rng(0)
    img = r.integers(0, 255, (1080, 1920, 3), dtype=np.uint8)
    imgf = img.astype(np.float32)
    pts = r.random((1000000, 3), dtype=np.float32)
    m7 = (r.random((300000, 7)) * 50).astype(np.float32)
    u7, d7 = m7.astype(np.uint8), m7.astype(np.float64)
    w3, w7 = np.ones(3, np.float32), np.ones(7, np.float32)
    m12, w12 = r.random((300000, 12), dtype=np.float32), r.random(12, dtype=np.float32)
    e = {k: em.asarray(v) for k, v in dict(img=img, imgf=imgf, pts=pts, m7=m7, u7=u7, d7=d7, w3=w3, w7=w7, m12=m12, w12=w12).items()}
    return [
        ("copy img[..., ::-1] (1080, 1920, 3) u8", lambda: np.ascontiguousarray(img[..., ::-1]),
         lambda: em.ascontiguousarray(e["img"][..., ::-1])),
        ("copy img[10:-10, 10:-10, ::-1] f32", lambda: np.ascontiguousarray(imgf[10:-10, 10:-10, ::-1]),
         lambda: em.ascontiguousarray(e["imgf"][10:-10, 10:-10, ::-1])),
        ("img[..., ::-1].astype(f32) u8", lambda: img[..., ::-1].astype(np.float32), lambda: e["img"][..., ::-1].astype(em.float32)),
        ("copy x[:, ::-1] (1e6, 3) f32", lambda: np.ascontiguousarray(pts[:, ::-1]), lambda: em.ascontiguousarray(e["pts"][:, ::-1])),
        ("-x[:, ::-1] (1e6, 3) f32", lambda: -pts[:, ::-1], lambda: -e["pts"][:, ::-1]),
        ("x[:, ::-1] + x (1e6, 3) f32", lambda: pts[:, ::-1] + pts, lambda: e["pts"][:, ::-1] + e["pts"]),
        ("concat([v, v], 1), v = x[:, ::-1] (3e5, 7) f32", lambda: np.concatenate([m7[:, ::-1]] * 2, axis=1),
         lambda: em.concat([e["m7"][:, ::-1]] * 2, axis=1)),
        ("clip(x[::-1, :3], 1, 5) (3e5, 7) f32", lambda: np.clip(m7[::-1, :3], 1, 5), lambda: em.clip(e["m7"][::-1, :3], 1, 5)),
        ("argmax(x[:, ::-1], 1) (3e5, 7) f32", lambda: m7[:, ::-1].argmax(axis=1), lambda: em.argmax(e["m7"][:, ::-1], axis=1)),
        ("argmax(x[:, :3], 1) (3e5, 7) u8", lambda: u7[:, :3].argmax(axis=1), lambda: em.argmax(e["u7"][:, :3], axis=1)),
        ("sum(x[:, ::2], 1) (3e5, 7) f32", lambda: m7[:, ::2].sum(axis=1), lambda: em.sum(e["m7"][:, ::2], axis=1)),
        ("max(x[:, ::2], 1) (3e5, 7) u8", lambda: u7[:, ::2].max(axis=1), lambda: em.max(e["u7"][:, ::2], axis=1)),
        ("x[:, :3] @ w (3e5, 7) f32", lambda: m7[:, :3] @ w3, lambda: e["m7"][:, :3] @ e["w3"]),
        ("x @ w (3e5, 7) f32", lambda: m7 @ w7, lambda: e["m7"] @ e["w7"]),
        ("x @ w (3e5, 12) f32", lambda: m12 @ w12, lambda: e["m12"] @ e["w12"]),
        ("sort(x[:, ::-1], 1) (3e5, 7) f32", lambda: np.sort(m7[:, ::-1], axis=1), lambda: em.sort(e["m7"][:, ::-1], axis=1)),
        ("argsort(x[:, :3], 1) (3e5, 7) f64", lambda: np.argsort(d7[:, :3], axis=1, kind="stable"),
         lambda: em.argsort(e["d7"][:, :3], axis=1)),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("only", nargs="*", help="substrings of the case names to run")
    args = ap.parse_args()
    for name, numpy_fn, ember_fn in cases():
        if args.only and not any(s in name for s in args.only):
            continue
        want, got = numpy_fn(), np.asarray(ember_fn())
        if not np.allclose(np.asarray(want, dtype=np.float64), got.astype(np.float64), rtol=1e-5):
            raise SystemExit(f"{name}: Ember's result differs from NumPy's")
        tn, te = best_of(args.reps, numpy_fn), best_of(args.reps, ember_fn)
        print(f"{name:48s} numpy {tn * 1e6:9.0f} us  ember {te * 1e6:9.0f} us  ratio {tn / te:6.2f}", flush=True)


if __name__ == "__main__":
    main()
