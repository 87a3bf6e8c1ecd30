"""Shared fixtures of the CI-gate tests: the build under test, and scratch
projects (a git repository with sources and a compile database) to run the
gate driver on.

ctest passes the build through the environment:
  INTEROP_BUILD_DIR    the configured build (bin/interop-tidy-ci, checks/)
  INTEROP_SOURCE_DIR   the source tree
"""
import json
import os
import shutil
import subprocess
import textwrap

import pytest

BUILD = os.environ.get("INTEROP_BUILD_DIR", "")
SOURCE = os.environ.get("INTEROP_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.dirname(
                            os.path.abspath(__file__)))))
DRIVER = os.path.join(BUILD, "bin", "interop-tidy-ci")
WRAPPER = os.path.join(BUILD, "bin", "interop-tidy")
PLUGIN = os.path.join(BUILD, "checks", "InteropTidy.so")
# The clang-tidy the plugin is built for (CMake passes it; a build for LLVM
# 19 has clang-tidy-19).
LLVM_MAJOR = os.environ.get("INTEROP_LLVM_MAJOR", "22")
CLANG_TIDY = os.environ.get("INTEROP_CLANG_TIDY",
                            "/usr/lib/llvm-%s/bin/clang-tidy" % LLVM_MAJOR)


def configured_docs_url():
    """The build's INTEROP_DOCS_URL (empty unless it was configured with one):
    the driver's default base of the interop-* rules' helpUri."""
    try:
        with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("INTEROP_DOCS_URL:"):
                    return line.split("=", 1)[1].strip().rstrip("/")
    except OSError:
        pass
    return ""
DLPACK_MOCK = os.path.join(SOURCE, "test", "checks", "Inputs", "dlpack", "v06")
BYTE_OFFSET = "-*,interop-dlpack-byte-offset"


def require_build():
    if not os.access(DRIVER, os.X_OK):
        pytest.fail("INTEROP_BUILD_DIR=%r has no bin/interop-tidy-ci: run these "
                    "tests through ctest" % BUILD)


def finding(name, index=0):
    """A function whose read of `data` ignores byte_offset: exactly one
    interop-dlpack-byte-offset warning, with two notes."""
    return ("float %s(const DLTensor *t) { return static_cast<float *>(t->data)[%d]; }\n"
            % (name, index))


def repeated(count):
    """The same finding line `count` times (in namespaces n0, n1, ...): the
    same code written twice is two findings with the same text. The findings
    are on lines 4, 7, 10, ..."""
    return "".join("namespace n%d {\n%s}\n" % (i, finding("first"))
                   for i in range(count))


CLEAN = "int rank_of(const DLTensor *t) { return t->ndim; }\n"


class Project:
    """A scratch C++ project: sources under src/, a compile database in
    build/, a git repository with everything committed on `main`."""

    def __init__(self, root, files):
        self.root = str(root)
        os.makedirs(os.path.join(self.root, "src"))
        for name, body in files.items():
            self.write(name, body)
        self.write_database()
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.email", "ci@example.invalid")
        self.git("config", "user.name", "ci test")
        self.commit("base")

    def path(self, name):
        return os.path.join(self.root, name)

    def write(self, name, body):
        path = self.path(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("#include <dlpack/dlpack.h>\n\n" + body
                    if name.endswith(".cpp") else body)

    def read(self, name):
        with open(self.path(name)) as f:
            return f.read()

    def write_database(self):
        entries = []
        for dirpath, _, names in os.walk(os.path.join(self.root, "src")):
            for n in sorted(names):
                if n.endswith(".cpp"):
                    file = os.path.relpath(os.path.join(dirpath, n), self.root)
                    entries.append({"directory": self.root, "file": file,
                                    "arguments": ["clang++", "-std=c++17",
                                                  "-I" + DLPACK_MOCK, "-c", file]})
        os.makedirs(self.path("build"), exist_ok=True)
        with open(self.path("build/compile_commands.json"), "w") as f:
            json.dump(entries, f, indent=1)
        with open(self.path(".gitignore"), "w") as f:
            f.write("build/\n*.sarif\n*.json\n")

    def git(self, *args):
        return subprocess.run(["git", "-C", self.root] + list(args), check=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True).stdout

    def commit(self, message):
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)

    def run(self, *args, checks=BYTE_OFFSET, env=None, **kwargs):
        """Runs the driver from the project root; returns CompletedProcess."""
        cmd = [DRIVER, "-p", "build"] + (["--checks=" + checks] if checks else []) \
            + list(args)
        return subprocess.run(cmd, cwd=self.root, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, **kwargs)


@pytest.fixture
def project_factory(tmp_path):
    require_build()
    count = [0]

    def make(files):
        count[0] += 1
        return Project(tmp_path / ("p%d" % count[0]), files)
    return make


def dedent(text):
    return textwrap.dedent(text).lstrip("\n")


def load_json(path):
    with open(path) as f:
        return json.load(f)


def findings_of(stdout):
    """The warning lines of the driver's output, as (path, line, rule)."""
    out = []
    for line in stdout.splitlines():
        parts = line.split(": ", 2)
        if len(parts) == 3 and parts[1] in ("warning", "error"):
            path, lineno, _ = parts[0].rsplit(":", 2)
            out.append((path, int(lineno), line.rsplit("[", 1)[-1].rstrip("]")))
    return out


def other_clang_tidy():
    for major in ("19", "22", "14"):
        if major == LLVM_MAJOR:
            continue
        path = shutil.which("clang-tidy-" + major)
        if path:
            return path
    return None
