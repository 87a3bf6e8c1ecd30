"""The CI recipes of docs/ci.md and examples/ci/, run as far as this machine
can: the blocks marked `<!-- tested: NAME -->` as written, the workflows'
gate commands on a copy of examples/, the pre-commit hook on a scratch git
repository. What needs GitHub or GitLab (checkout, upload) is checked for
shape only."""
import json
import os
import re
import shlex
import shutil
import subprocess

import yaml

from conftest import (BUILD, LLVM_MAJOR, SOURCE, findings_of, load_json, other_clang_tidy,
                      require_build)
from sarif_schema import SCHEMA
import jsonschema

DOC = os.path.join(SOURCE, "docs", "ci.md")
EXAMPLES = os.path.join(SOURCE, "examples")
CI = os.path.join(EXAMPLES, "ci")

# A new bug for examples/device_import.cpp: an import onto a device from the
# all-process list with no addressability check.
NEW_BUG = """
interop::Result<interop::Array> import_new(DLManagedTensorVersioned *t, int i) {
  return interop::from_dlpack(t, interop::devices()[i]);
}
"""


def doc_blocks():
    with open(DOC) as f:
        text = f.read()
    blocks = dict(re.findall(r"<!-- tested: (\S+) -->\n```sh\n(.*?)```", text, re.S))
    assert set(blocks) == {"pre-commit", "cmake", "run-clang-tidy", "clang-tidy-diff"}
    # The recipes name LLVM 22's tools; a build for another major runs them
    # with that major's.
    return {name: for_this_major(block) for name, block in blocks.items()}


def for_this_major(block):
    if LLVM_MAJOR == "22":
        return block
    block = (block.replace("/usr/lib/llvm-22/", "/usr/lib/llvm-%s/" % LLVM_MAJOR)
             .replace("run-clang-tidy-22", "run-clang-tidy-" + LLVM_MAJOR)
             .replace("clang-tidy-diff-22.py", "clang-tidy-diff-%s.py" % LLVM_MAJOR))
    if "clang-tidy-diff-" in block:
        # clang-tidy-diff-19.py has no -warnings-as-errors (docs/ci.md).
        block = ("printf \"WarningsAsErrors: 'interop-*'\\n\" > wae.yaml\n"
                 + block.replace("-warnings-as-errors='interop-*'",
                                 "-config-file wae.yaml"))
    return block


THIS_CLANG_TIDY = "/usr/lib/llvm-%s/bin/clang-tidy" % LLVM_MAJOR


# Where the Debian package installs what a recipe names, and the file of the
# source tree that is installed there (cmake/InteropPackaging.cmake,
# checks/CMakeLists.txt): the recipes are run with the latter in its place,
# and with the build's bin/ (the wrapper, the driver) first on PATH, as the
# package's are in /usr/bin.
INSTALLED = {"/usr/share/interop-tidy/pre-commit": os.path.join(CI, "pre-commit")}


def as_installed(script):
    for installed, source in INSTALLED.items():
        script = script.replace(installed, source)
    return script


def env(**extra):
    e = dict(os.environ, INTEROP_TIDY=BUILD, INTEROP_TIDY_SRC=SOURCE,
             PATH=os.path.join(BUILD, "bin") + os.pathsep + os.environ["PATH"])
    e.update(extra)
    return e


def sh(script, cwd, **extra):
    return subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=cwd,
                          env=env(**extra), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def git(cwd, *args):
    return subprocess.run(["git", "-C", str(cwd)] + list(args), check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout


class Examples:
    """A copy of examples/ as its own project: a git repository with the
    examples under examples/, a compile database in build/ with the flags the
    real build uses, and interop-tidy/build pointing at the build under
    test (where the workflows expect it)."""

    def __init__(self, root):
        require_build()
        self.root = str(root)
        os.makedirs(os.path.join(self.root, "examples"))
        os.makedirs(os.path.join(self.root, "build"))
        os.makedirs(os.path.join(self.root, "interop-tidy"))
        os.symlink(BUILD, os.path.join(self.root, "interop-tidy", "build"))
        with open(os.path.join(BUILD, "compile_commands.json")) as f:
            real = [e for e in json.load(f)
                    if os.path.dirname(e["file"]) == EXAMPLES]
        assert len(real) >= 3
        entries = []
        for e in real:
            args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
            keep, skip = [], False
            for a in args:
                if skip:
                    skip = False
                elif a == "-o":
                    skip = True
                elif a != e["file"] and a != "-c":
                    keep.append(a)
            name = os.path.join("examples", os.path.basename(e["file"]))
            shutil.copy(e["file"], os.path.join(self.root, name))
            entries.append({"directory": self.root, "file": name,
                            "arguments": keep + ["-c", name]})
        with open(os.path.join(self.root, "build", "compile_commands.json"), "w") as f:
            json.dump(entries, f, indent=1)
        with open(os.path.join(self.root, ".gitignore"), "w") as f:
            f.write("build/\ninterop-tidy/\n*.sarif\ngl-*.json\n")
        git(self.root, "init", "-q", "-b", "main")
        git(self.root, "config", "user.email", "ci@example.invalid")
        git(self.root, "config", "user.name", "ci test")
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", "examples")

    def path(self, name):
        return os.path.join(self.root, name)

    def add_bug(self, name="examples/device_import.cpp"):
        with open(self.path(name), "a") as f:
            f.write(NEW_BUG)
        with open(self.path(name)) as f:
            return f.read().count("\n") - 1  # the line of from_dlpack


def workflow(name):
    with open(os.path.join(CI, name)) as f:
        return yaml.safe_load(f)


def github_steps():
    doc = workflow("github-code-scanning.yml")
    return doc, doc["jobs"]["interop-tidy"]["steps"]


def test_github_workflow_shape():
    doc, steps = github_steps()
    triggers = doc.get("on", doc.get(True))  # YAML 1.1 reads `on` as true
    assert "push" in triggers and "pull_request" in triggers
    assert doc["permissions"]["security-events"] == "write"
    gate = next(s for s in steps if s.get("name") == "interop-tidy gate")
    upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["if"] == "always()"
    sarif = re.search(r"--sarif (\S+)", gate["run"]).group(1)
    assert upload["with"]["sarif_file"] == sarif
    assert steps.index(gate) < steps.index(upload)
    # The plugin is built by a lint-only setup (no runtime, tests, torch or
    # editors), through ccache whose folder an actions/cache step restores.
    build = next(s for s in steps if s.get("name") == "build the interop-tidy plugin")
    assert "interop-tidy/tools/setup.sh --lint-only\n" in build["run"]
    assert "cmake --build interop-tidy/build\n" in build["run"]
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
    assert steps.index(cache) < steps.index(build) < steps.index(gate)
    ccache_dir = re.search(r'export CCACHE_DIR="\$PWD/(\S+)"', build["run"]).group(1)
    assert cache["with"]["path"] == ccache_dir
    assert cache["with"]["restore-keys"] and \
        cache["with"]["key"].startswith(cache["with"]["restore-keys"])


def test_github_gate_step_runs(tmp_path):
    """The workflow's gate step, as written, on a copy of examples/: it fails
    on the examples' findings and writes valid SARIF; with a baseline of them
    it passes, until a new finding comes."""
    _, steps = github_steps()
    gate = next(s for s in steps if s.get("name") == "interop-tidy gate")["run"]
    p = Examples(tmp_path / "gh")
    checks = "Checks: '-*,interop-*'\n"
    with open(p.path(".clang-tidy"), "w") as f:
        f.write(checks)
    r = sh(gate, p.root)
    assert r.returncode == 1, r.stderr
    assert len(findings_of(r.stdout)) >= 5
    doc = load_json(p.path("interop-tidy.sarif"))
    jsonschema.validate(doc, SCHEMA)
    assert len(doc["runs"][0]["results"]) == len(findings_of(r.stdout))

    w = sh(BUILD + "/bin/interop-tidy-ci -p build --write-baseline "
           ".interop-tidy-baseline.json", p.root)
    assert w.returncode == 0, w.stderr
    r = sh(gate, p.root)
    assert r.returncode == 0, r.stdout + r.stderr
    assert load_json(p.path("interop-tidy.sarif"))["runs"][0]["results"] == []

    line = p.add_bug()
    r = sh(gate, p.root)
    assert r.returncode == 1
    assert findings_of(r.stdout) == [("examples/device_import.cpp", line,
                                      "interop-nonaddressable-dlpack-import")]


def test_gitlab_job_shape():
    job = workflow("gitlab-ci.yml")["interop-tidy"]
    assert job["variables"]["GIT_DEPTH"] == 0
    assert job["artifacts"]["when"] == "always"
    report = job["artifacts"]["reports"]["codequality"]
    assert "--gitlab " + report in job["script"][-1]
    assert "bash interop-tidy/tools/setup.sh --lint-only" in job["before_script"]
    assert "cmake --build interop-tidy/build" in job["before_script"]
    assert job["variables"]["CCACHE_DIR"] == "$CI_PROJECT_DIR/" + job["cache"]["paths"][0]


def test_gitlab_script_in_a_merge_request(tmp_path):
    """The job's script in a merge request pipeline judges only the merge
    request's lines; in a branch pipeline, everything."""
    script = workflow("gitlab-ci.yml")["interop-tidy"]["script"][-1]
    p = Examples(tmp_path / "gl")
    origin = str(tmp_path / "origin.git")
    subprocess.run(["git", "clone", "-q", "--bare", p.root, origin], check=True)
    git(p.root, "remote", "add", "origin", origin)
    git(p.root, "fetch", "-q", "origin")
    git(p.root, "checkout", "-q", "-b", "topic")
    line = p.add_bug()
    git(p.root, "commit", "-q", "-am", "a new import")
    # The job takes the checks from the project's .clang-tidy.
    with open(p.path(".clang-tidy"), "w") as f:
        f.write("Checks: '-*,interop-*'\n")
    r = sh(script, p.root, CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main")
    assert r.returncode == 1, r.stderr
    report = load_json(p.path("gl-code-quality-report.json"))
    assert [(i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"])
            for i in report] == [("examples/device_import.cpp", line,
                                  "interop-nonaddressable-dlpack-import")]
    r = sh(script, p.root)  # a branch pipeline
    assert r.returncode == 1
    assert len(load_json(p.path("gl-code-quality-report.json"))) >= 6


def test_pre_commit_hook(tmp_path):
    p = Examples(tmp_path / "hook")
    with open(p.path(".clang-tidy"), "w") as f:
        f.write("Checks: '-*,interop-*'\n")
    git(p.root, "add", ".clang-tidy")
    git(p.root, "commit", "-q", "-m", "checks")
    block = doc_blocks()["pre-commit"]
    assert "/usr/share/interop-tidy/pre-commit" in block
    r = sh(as_installed(block), p.root)
    assert r.returncode == 0, r.stderr
    assert os.access(p.path(".git/hooks/pre-commit"), os.X_OK)
    head = git(p.root, "rev-parse", "HEAD")

    # A commit that adds a finding is stopped, and says why.
    line = p.add_bug()
    git(p.root, "add", "-A")
    r = subprocess.run(["git", "commit", "-m", "new import"], cwd=p.root, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode != 0
    assert ("examples/device_import.cpp:%d:" % line) in r.stdout + r.stderr
    assert "commit stopped" in r.stderr
    assert git(p.root, "rev-parse", "HEAD") == head

    # A change next to the examples' old findings is not stopped by them.
    git(p.root, "reset", "-q", "--hard")  # (the scratch repository's own HEAD)
    with open(p.path("examples/device_import.cpp"), "a") as f:
        f.write("\n// a harmless comment\n")
    git(p.root, "add", "-A")
    r = subprocess.run(["git", "commit", "-q", "-m", "comment"], cwd=p.root, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert git(p.root, "rev-parse", "HEAD") != head

    # Nothing C++ staged: the hook does not run the checks.
    with open(p.path("NOTES.txt"), "w") as f:
        f.write("notes\n")
    git(p.root, "add", "NOTES.txt")
    r = subprocess.run(["git", "commit", "-q", "-m", "notes"], cwd=p.root, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0 and "interop-tidy-ci" not in r.stderr


def test_cmake_clang_tidy(tmp_path):
    root = tmp_path / "cm"
    (root / "src").mkdir(parents=True)
    (root / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(t CXX)\n"
        "add_library(t OBJECT src/a.cpp)\n"
        "target_include_directories(t PRIVATE %s/test/checks/Inputs/dlpack/v06)\n"
        % SOURCE)
    bad = ("#include <dlpack/dlpack.h>\n"
           "float f(const DLTensor *t) { return static_cast<float *>(t->data)[0]; }\n")
    (root / "src" / "a.cpp").write_text(bad)
    r = sh(doc_blocks()["cmake"], str(root))
    assert r.returncode != 0
    assert "src/a.cpp:2:" in r.stdout and "[interop-dlpack-byte-offset" in r.stdout
    (root / "src" / "a.cpp").write_text(
        "#include <dlpack/dlpack.h>\nint f(const DLTensor *t) { return t->ndim; }\n")
    r = sh("cmake --build build", str(root))
    assert r.returncode == 0, r.stdout + r.stderr


def test_run_clang_tidy(tmp_path):
    p = Examples(tmp_path / "rct")
    block = doc_blocks()["run-clang-tidy"]
    r = sh(block, p.root)
    assert r.returncode != 0
    found = set(re.findall(r"examples/\w+\.cpp:\d+:\d+: error: .*\[(interop-[\w-]+)",
                           r.stdout))
    assert {"interop-sharded-dlpack-export", "interop-nonaddressable-dlpack-import",
            "interop-sharded-cuda-array-interface"} <= found
    other = other_clang_tidy()
    if other:  # the gate that calls the wrong clang-tidy fails, and says why
        r = sh(block.replace(THIS_CLANG_TIDY, other), p.root)
        assert r.returncode != 0
        assert "interop-tidy: refusing to run" in r.stdout + r.stderr


def test_clang_tidy_diff(tmp_path):
    p = Examples(tmp_path / "ctd")
    block = doc_blocks()["clang-tidy-diff"]
    r = sh(block, p.root)
    assert r.returncode == 0, r.stdout + r.stderr  # nothing changed
    line = p.add_bug()
    r = sh(block, p.root)
    assert r.returncode != 0
    errors = re.findall(r"^(examples/\S+?):(\d+):\d+: error: .*\[([\w-]+)", r.stdout, re.M)
    assert errors == [("examples/device_import.cpp", str(line),
                       "interop-nonaddressable-dlpack-import")]
    other = other_clang_tidy()
    if other:
        r = sh(block.replace(THIS_CLANG_TIDY, other), p.root)
        assert r.returncode != 0
        assert "interop-tidy: refusing to run" in r.stdout + r.stderr
    default = shutil.which("clang-tidy")
    if default and "llvm-%s" % LLVM_MAJOR not in os.path.realpath(default):
        # Without -clang-tidy-binary it runs the distribution's default
        # clang-tidy (an older major on Debian): that fails too.
        plain = re.sub(r"-clang-tidy-binary \S+ \\\n\s*", "", block)
        assert "-clang-tidy-binary" not in plain
        r = sh(plain, p.root)
        assert r.returncode != 0
        assert "interop-tidy: refusing to run" in r.stdout + r.stderr


# --diff judges what a change can affect.
HELPER_HEADER = """#pragma once
#include <interop/interop.h>

namespace example {
inline int helper_rank() { return 0; }
} // namespace example
"""


def gate(p, *args):
    return subprocess.run([os.path.join(BUILD, "bin", "interop-tidy-ci"), "-p", "build",
                           "--checks=-*,interop-*", "--no-progress"] + list(args),
                          cwd=p.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def test_diff_finds_a_bug_added_only_in_a_header(tmp_path):
    p = Examples(tmp_path / "hdr")
    with open(p.path("examples/import_helpers.h"), "w") as f:
        f.write(HELPER_HEADER)
    with open(p.path("examples/device_import.cpp")) as f:
        text = f.read()
    with open(p.path("examples/device_import.cpp"), "w") as f:
        f.write(text.replace("#include <vector>\n",
                             "#include <vector>\n\n#include \"import_helpers.h\"\n", 1))
    with open(p.path("examples/unused.h"), "w") as f:
        f.write(HELPER_HEADER)
    git(p.root, "add", "-A")
    git(p.root, "commit", "-q", "-m", "a helper header")

    r = gate(p, "--diff", "HEAD")  # an unchanged tree
    assert r.returncode == 0 and r.stdout == "", r.stdout + r.stderr

    # The bug only in the header: the files that include it are run.
    with open(p.path("examples/import_helpers.h"), "a") as f:
        f.write(NEW_BUG.replace("import_new", "inline_import").replace(
            "interop::Result", "inline interop::Result"))
    with open(p.path("examples/import_helpers.h")) as f:
        line = f.read().count("\n") - 1
    r = gate(p, "--diff", "HEAD")
    assert r.returncode == 1, r.stdout + r.stderr
    assert findings_of(r.stdout) == [("examples/import_helpers.h", line,
                                      "interop-nonaddressable-dlpack-import")]
    assert "1 file, 1 finding" in r.stderr  # device_import.cpp only

    # A changed header no file of the database includes: said, not failed.
    git(p.root, "checkout", "-q", "--", "examples/import_helpers.h")
    with open(p.path("examples/unused.h"), "a") as f:
        f.write("// a comment\n")
    r = gate(p, "--diff", "HEAD")
    assert r.returncode == 0, r.stderr
    assert "examples/unused.h changed, but no file of the compile database is or " \
        "includes it: not checked" in r.stderr


def test_diff_finds_a_deleted_guard(tmp_path):
    p = Examples(tmp_path / "guard")
    name = "examples/sharded_export.cpp"
    with open(p.path(name)) as f:
        text = f.read()
    guard = ("  if (array.num_devices() != 1)\n"
             "    return interop::Status(interop::StatusCode::kValueError,\n"
             "                           \"gather the array before exporting it\");\n")
    use = "  auto tensor = interop::to_dlpack(array);\n"
    assert guard + use in text
    # The guard a few lines above the export, so that the deletion is not
    # next to the line the finding lands on.
    spaced = text.replace(guard + use, guard + "  // one device holds all of it:\n"
                          "  // export it as it is\n\n" + use)
    with open(p.path(name), "w") as f:
        f.write(spaced)
    git(p.root, "commit", "-q", "-am", "spaced")
    assert gate(p, "--diff", "HEAD").returncode == 0

    with open(p.path(name), "w") as f:
        f.write(spaced.replace(guard, ""))  # the hunk only deletes lines
    line = spaced.replace(guard, "")[:spaced.replace(guard, "").index(use)].count("\n") + 1
    r = gate(p, "--diff", "HEAD")
    assert r.returncode == 1, r.stdout + r.stderr
    assert findings_of(r.stdout) == [(name, line, "interop-sharded-dlpack-export")]
    # The examples' other findings in that file are in untouched functions.
    assert "1 file, 1 finding" in r.stderr


def test_pre_commit_hook_judges_a_staged_header(tmp_path):
    p = Examples(tmp_path / "hook-header")
    with open(p.path(".clang-tidy"), "w") as f:
        f.write("Checks: '-*,interop-*'\n")
    with open(p.path("examples/import_helpers.h"), "w") as f:
        f.write(HELPER_HEADER)
    with open(p.path("examples/device_import.cpp")) as f:
        text = f.read()
    with open(p.path("examples/device_import.cpp"), "w") as f:
        f.write(text.replace("#include <vector>\n",
                             "#include <vector>\n\n#include \"import_helpers.h\"\n", 1))
    git(p.root, "add", "-A")
    git(p.root, "commit", "-q", "-m", "a helper header")
    r = sh(as_installed(doc_blocks()["pre-commit"]), p.root)
    assert r.returncode == 0, r.stderr
    with open(p.path("examples/import_helpers.h"), "a") as f:
        f.write(NEW_BUG.replace("interop::Result", "inline interop::Result"))
    git(p.root, "add", "-A")
    r = subprocess.run(["git", "commit", "-m", "header bug"], cwd=p.root, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode != 0
    assert "examples/import_helpers.h:" in r.stdout + r.stderr
    assert "commit stopped" in r.stderr
