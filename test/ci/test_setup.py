"""tools/setup.sh --lint-only: the Debian packages a lint job installs (none
of the tests', the Python module's or the editors'), and the build it
configures (the plugin, the interop-tidy wrapper and the gate driver, and
nothing of the runtime, the tests or the Python module).

The build itself (about 70 compiles) runs only when INTEROP_TEST_LINT_BUILD=1
is set; it then uses the real ccache, so with CCACHE_DIR pointing at a warm
cache it also shows the cache at work.
"""
import os
import shutil
import subprocess

import pytest

from conftest import CLANG_TIDY, SOURCE

SETUP = os.path.join(SOURCE, "tools", "setup.sh")

# What building and running the checks needs.
LINT_NEEDS = {"cmake", "ninja-build", "git", "ccache", "clang-22", "clang-tidy-22",
              "libclang-22-dev", "llvm-22-dev", "libdlpack-dev", "python3",
              "python3-yaml"}
# What only the tests, the Python module, the benchmarks or the editor
# recipes need: about 450 MB a lint job never uses.
NOT_FOR_LINT = {"python3-torch", "python3-numpy", "python3-dev", "python3-pytest",
                "clang-tidy-19", "googletest", "libgtest-dev", "libbenchmark-dev",
                "libclang-rt-22-dev", "vim-nox", "vim-ale", "neovim", "emacs-nox",
                "elpa-flycheck", "g++"}


def fake_tools(tmp_path, installed=True):
    """A PATH entry whose apt-get fails the test when run, and whose
    dpkg-query says every package is (or none is) installed."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    (bin_dir / "apt-get").write_text(
        "#!/bin/sh\necho \"apt-get $*\" >> %s\nexit 1\n" % log)
    status = "install ok installed" if installed else "unknown ok not-installed"
    (bin_dir / "dpkg-query").write_text(
        "#!/bin/sh\necho \"dpkg-query $*\" >> %s\nprintf '%s'\n" % (log, status))
    for tool in ("apt-get", "dpkg-query"):
        (bin_dir / tool).chmod(0o755)
    env = dict(os.environ, PATH="%s:%s" % (bin_dir, os.environ["PATH"]))
    return env, log


def packages(*flags, env=None):
    r = subprocess.run(["bash", SETUP] + list(flags) + ["--print-packages"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=env)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_print_packages_lists_only_what_a_lint_job_needs():
    lint = packages("--lint-only")
    assert len(lint) == len(set(lint))
    assert LINT_NEEDS <= set(lint), LINT_NEEDS - set(lint)
    assert set(lint) & NOT_FOR_LINT == set()
    assert not [p for p in lint if p.startswith(("emacs", "vim", "neovim", "python3-torch"))]
    # The full list has them: --lint-only is what leaves them out.
    full = packages()
    assert NOT_FOR_LINT <= set(full)
    assert set(lint) - {"ccache"} <= set(full)


def test_print_packages_installs_and_configures_nothing(tmp_path):
    env, log = fake_tools(tmp_path, installed=False)
    env["BUILD_DIR"] = str(tmp_path / "build")
    for flags in (["--lint-only"], []):
        assert packages(*flags, env=env)
    assert not log.exists()  # neither dpkg-query nor apt-get ran
    assert not (tmp_path / "build").exists()


def build_outputs(build):
    """The files `cmake --build` would link or generate, from ninja's plan."""
    commands = subprocess.run(["ninja", "-C", build, "-t", "commands", "all"],
                              stdout=subprocess.PIPE, text=True, check=True).stdout
    outputs = set()
    for line in commands.splitlines():
        words = line.split()
        for i, w in enumerate(words[:-1]):
            if w == "-o":
                outputs.add(os.path.normpath(os.path.join(build, words[i + 1])))
    return outputs


def test_lint_only_configures_a_build_of_the_plugin_and_driver(tmp_path):
    """setup.sh --lint-only configures (its packages taken as installed) a
    build whose default target makes the plugin's two files and nothing of
    the runtime, the Python module or the tests."""
    env, log = fake_tools(tmp_path, installed=True)
    build = str(tmp_path / "lint-build")
    env["BUILD_DIR"] = build
    r = subprocess.run(["bash", SETUP, "--lint-only"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, env=env)
    assert r.returncode == 0, r.stdout
    assert "apt-get" not in log.read_text()
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        cache = f.read()
    assert "INTEROP_LINT_ONLY:BOOL=ON" in cache
    assert "CMAKE_CXX_COMPILER_LAUNCHER:UNINITIALIZED=env;CCACHE_SLOPPINESS=" in cache \
        or "CMAKE_CXX_COMPILER_LAUNCHER:STRING=env;CCACHE_SLOPPINESS=" in cache
    assert "GTEST_INCLUDE_DIR" not in cache and "benchmark_DIR" not in cache
    outputs = build_outputs(build)
    linked = sorted(os.path.relpath(o, build) for o in outputs
                    if not o.endswith((".o", ".pch")))
    assert linked == ["checks/InteropTidy.so", "checks/InteropTidyChecks.so"], linked
    objects = [os.path.relpath(o, build) for o in outputs if o.endswith(".o")]
    assert objects and all(o.startswith(("lib/", "checks/")) for o in objects), objects
    # The wrapper and the driver are made by the configure step.
    for tool in ("bin/interop-tidy", "bin/interop-tidy-ci"):
        assert os.access(os.path.join(build, tool), os.X_OK), tool
    # No test is registered.
    assert not os.path.exists(os.path.join(build, "test"))

    if os.environ.get("INTEROP_TEST_LINT_BUILD") != "1":
        return
    if not shutil.which("ccache"):
        pytest.fail("INTEROP_TEST_LINT_BUILD=1 needs ccache (tools/setup.sh --lint-only)")
    subprocess.run(["ccache", "--zero-stats"], check=True, stdout=subprocess.DEVNULL)
    b = subprocess.run(["cmake", "--build", build, "-j2"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    assert b.returncode == 0, b.stdout[-4000:]
    print(subprocess.run(["ccache", "--show-stats"], stdout=subprocess.PIPE,
                         text=True).stdout)
    listed = subprocess.run(
        [CLANG_TIDY, "--load=" + os.path.join(build, "checks", "InteropTidy.so"),
         "--checks=-*,interop-*", "--list-checks"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert listed.returncode == 0, listed.stdout
    assert len([l for l in listed.stdout.splitlines()
                if l.strip().startswith("interop-")]) >= 10
