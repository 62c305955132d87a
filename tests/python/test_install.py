"""`pip install ./bindings/python` into a fresh virtual environment, then import and use.
Slow (it builds libember, the backends and the SWIG module): marked `slow`, kept in the
suite. EMBER_PY_BUILD_DIR (set by scripts/test-python.sh) lets the build reuse a cached
CMake tree; the venv itself is always new. EMBER_PY_PREBUILT (an Ember build tree; CI sets
it to the build ctest tested) packages that tree instead of compiling everything a second
time: the venv is still new and bare, and only the SWIG module is compiled (or reused)."""
import os
import pathlib
import subprocess
import sys
import venv

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_pip_install_in_fresh_venv(tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    cmd = [str(py), "-m", "pip", "install", "-q", str(ROOT / "bindings" / "python")]
    build_dir = os.environ.get("EMBER_PY_BUILD_DIR")
    if build_dir:
        cmd += ["--config-settings", f"build-dir={build_dir}"]
    prebuilt = os.environ.get("EMBER_PY_PREBUILT", "")
    cmd += ["--config-settings", f"cmake.define.EMBER_PY_PREBUILT={prebuilt}"]
    env = dict(os.environ)
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    env.pop("PYTHONPATH", None)
    # The source build compiles everything: about 500 s alone on a 2-core host, over 1200 s
    # niced beside the sanitizer builds.
    subprocess.run(cmd, check=True, env=env, timeout=2700)
    code = (
        "import ember, os\n"
        "x = ember.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=ember.float64)\n"
        "assert (x @ x).tolist() == [[7.0, 10.0], [15.0, 22.0]]\n"
        "pkg = os.path.dirname(ember.__file__)\n"
        "mods = sorted(os.listdir(os.path.join(pkg, 'ember', 'backends'))) if os.path.isdir(os.path.join(pkg, 'ember', 'backends')) else []\n"
        "print('backends', ember.backends(), 'modules', mods)\n"
        "names = [m[len('ember-backend-'):-3] for m in mods]\n"
        "assert all(n in [d[0] for d in ember.backend_details()] for n in names), ember.backend_details()\n"
        "for b in ember.backends():\n"
        "    with ember.using_backend(b):\n"
        "        assert float(ember.sum(ember.ones((3,)))) == 3.0\n"
    )
    env.pop("EMBER_BACKEND_PATH", None)
    out = subprocess.run([str(py), "-c", code], check=True, env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert "backends" in out.stdout


def test_example_runs_on_every_backend():
    """examples/python_demo.py trains on every available backend."""
    import ember
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "python_demo.py")], check=True,
                         capture_output=True, text=True, timeout=600, cwd=str(ROOT / "examples"))
    for name in ember.backends():
        assert f"{name}: loss" in out.stdout, out.stdout
