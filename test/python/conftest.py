"""Shared fixtures for the interop_shim pytest suite.

Every test starts from a fresh simulated topology: the runtime only accepts
configure() before first use, so the fixture forgets the previous one.
"""

import os

import pytest

import interop_shim

# ctest passes the build directory it built the module into; make sure the
# suite is testing that module and not a stale copy found elsewhere.
_expected = os.environ.get("INTEROP_SHIM_EXPECTED_DIR")
if _expected:
    assert os.path.samefile(os.path.dirname(interop_shim.__file__),
                            _expected), interop_shim.__file__


@pytest.fixture
def topology():
    """configure(**kw) on a fresh runtime; returns the module."""

    def configure(**kwargs):
        # No GPUs unless a test asks (cuda_devices=-1 takes every GPU): the
        # device lists the tests expect must not depend on the machine.
        kwargs.setdefault("cuda_devices", 0)
        interop_shim._reset_for_testing()
        interop_shim.configure(**kwargs)
        return interop_shim

    yield configure
    interop_shim._reset_for_testing()


@pytest.fixture
def shim(topology):
    """Two CPU and two simulated TPU devices in a single process."""
    return topology(cpu_devices=2, tpu_devices=2)

