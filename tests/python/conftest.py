"""pytest configuration for the Python binding. Every test that takes `backend` runs once
per available Ember backend (ember.backends()), inside `with ember.using_backend(name)`.
EMBER_TEST_BACKENDS=reference,cpu restricts the list (default: every available backend)."""
import os

import pytest

import ember


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running (fresh-venv install)")


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        names = ember.backends()
        only = os.environ.get("EMBER_TEST_BACKENDS")
        if only:
            names = [n for n in names if n in only.split(",")]
        metafunc.parametrize("backend", names, indirect=True)


@pytest.fixture
def backend(request):
    with ember.using_backend(request.param):
        yield request.param
