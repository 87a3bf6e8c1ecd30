"""The editor recipes of docs/editors.md, run headless: Vim and Neovim with
ALE, Neovim's vim.diagnostic through tools/editors/interop-tidy.lua, Emacs
with tools/editors/flycheck-interop-tidy.el. Each opens an example file of a
scratch project with the documented configuration and must show the check's
finding at its line. The VS Code block is checked against the wrapper.

ctest passes INTEROP_BUILD_DIR and INTEROP_SOURCE_DIR."""
import json
import os
import re
import shutil
import subprocess

import pytest

BUILD = os.environ.get("INTEROP_BUILD_DIR", "")
LLVM_MAJOR = os.environ.get("INTEROP_LLVM_MAJOR", "22")
SOURCE = os.environ.get("INTEROP_SOURCE_DIR", os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
HERE = os.path.dirname(os.path.abspath(__file__))
DOC = os.path.join(SOURCE, "docs", "editors.md")
WRAPPER = os.path.join(BUILD, "bin", "interop-tidy")
ALE = "/usr/share/vim-ale"
CHECK = "interop-dlpack-byte-offset"
MESSAGE = "'data' used as the address of the first element without adding 'byte_offset'"

SOURCE_TEXT = """#include <dlpack/dlpack.h>

// An example with one bug, on line 6.
int rank_of(const DLTensor *t) { return t->ndim; }

float first(const DLTensor *t) { return static_cast<float *>(t->data)[0]; }
"""
LINE = 6
COLUMN = SOURCE_TEXT.splitlines()[LINE - 1].index("static_cast") + 1


# The blocks are written for the Debian package: its editor modules are in
# /usr/share/interop-tidy/editors (installed from tools/editors, which takes
# their place here) and its wrapper on PATH (the build's bin/ here).
INSTALLED_EDITORS = "/usr/share/interop-tidy/editors/"


def as_installed(block):
    return block.replace(INSTALLED_EDITORS, os.path.join(SOURCE, "tools", "editors") + "/")


def blocks():
    with open(DOC) as f:
        text = f.read()
    found = dict(re.findall(r"<!-- tested: (\S+) -->\n```\w+\n(.*?)```", text, re.S))
    assert set(found) == {"vscode", "vim-ale", "neovim", "flycheck"}
    return found


@pytest.fixture
def project(tmp_path):
    """src/example.cpp with its compile database in build/; the DB names
    the file relative to its directory, as hand-written ones do."""
    if not os.access(WRAPPER, os.X_OK):
        pytest.fail("no %s: run through ctest" % WRAPPER)
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "build").mkdir()
    (root / "src" / "example.cpp").write_text(SOURCE_TEXT)
    mock = os.path.join(SOURCE, "test", "checks", "Inputs", "dlpack", "v06")
    (root / "build" / "compile_commands.json").write_text(json.dumps([{
        "directory": str(root), "file": "src/example.cpp",
        "arguments": ["clang++", "-std=c++17", "-I" + mock, "-c", "src/example.cpp"]}]))
    return root


def run_editor(cmd, project, out, timeout=180, **env):
    e = dict(os.environ, EDITOR_OUT=str(out), EDITOR_FILE="src/example.cpp",
             HOME=str(project), XDG_CONFIG_HOME=str(project / ".config"),
             PATH=os.path.join(BUILD, "bin") + os.pathsep + os.environ["PATH"])
    for var in ("INTEROP_TIDY", "INTEROP_TIDY_SRC", "VIMINIT", "EXINIT", "MYVIMRC"):
        e.pop(var, None)
    e.update(env)
    proc = subprocess.run(cmd, cwd=str(project), env=e, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=timeout)
    assert out.exists(), "the editor wrote nothing (exit %d):\n%s" % (
        proc.returncode, proc.stdout[-3000:])
    return out.read_text().splitlines()


def need(program, package):
    if not shutil.which(program):
        pytest.skip("%s is not installed (Debian %s; tools/setup.sh installs it)"
                    % (program, package))


def need_ale():
    if not os.path.exists(os.path.join(ALE, "plugin", "ale.vim")):
        pytest.skip("ALE is not installed (Debian vim-ale; tools/setup.sh installs it)")


def vimrc(project, nvim=False):
    """The documented block, alone, as the user's ~/.vimrc (Neovim:
    ~/.config/nvim/init.vim): nothing is added to it."""
    path = project / (".config/nvim/init.vim" if nvim else ".vimrc")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(blocks()["vim-ale"])
    return str(path)


def ale_finding(lines):
    """ALE's gcc-format handler keeps the [check] in the text."""
    return "%d:%d:W:%s [%s]" % (LINE, COLUMN, MESSAGE, CHECK) in lines


def test_vim_with_ale(project, tmp_path):
    need("vim", "vim-nox")
    need_ale()
    vimrc(project)
    lines = run_editor(["vim", "-i", "NONE", "--not-a-term",
                        "-S", os.path.join(HERE, "run-ale.vim"), "src/example.cpp"],
                       project, tmp_path / "vim.out")
    assert ale_finding(lines), lines


def test_neovim_with_ale(project, tmp_path):
    need("nvim", "neovim")
    need_ale()
    vimrc(project, nvim=True)
    lines = run_editor(["nvim", "--headless", "-i", "NONE",
                        "-S", os.path.join(HERE, "run-ale.vim"), "src/example.cpp"],
                       project, tmp_path / "nvim-ale.out")
    assert ale_finding(lines), lines


def test_neovim_diagnostics(project, tmp_path):
    need("nvim", "neovim")
    init = project / ".config" / "nvim" / "init.lua"
    init.parent.mkdir(parents=True)
    init.write_text(as_installed(blocks()["neovim"]))
    lines = run_editor(["nvim", "--headless", "-i", "NONE",
                        "-S", os.path.join(HERE, "run-nvim-diagnostics.vim"),
                        "src/example.cpp"], project, tmp_path / "nvim.out")
    # severity 2 is WARN, 4 is HINT (the notes, at their own columns)
    assert "%d:%d:2:%s:%s" % (LINE, COLUMN, CHECK, MESSAGE) in lines, lines
    read = SOURCE_TEXT.splitlines()[LINE - 1].index("t->data") + 1
    assert "%d:%d:4::'data' read here" % (LINE, read) in lines


def test_neovim_diagnostics_show_a_refused_clang_tidy(project, tmp_path):
    """With a clang-tidy of another major, the module shows why nothing ran
    instead of an empty, clean-looking buffer."""
    need("nvim", "neovim")
    other = next(filter(None, (shutil.which("clang-tidy-" + m)
                               for m in ("19", "22", "14") if m != LLVM_MAJOR)),
                 None)
    if not other:
        pytest.skip("no clang-tidy of another major installed (tools/setup.sh "
                    "installs clang-tidy-19)")
    wrong = project / "wrong-tidy"
    wrong.write_text("#!/bin/sh\nexec %s --load=%s/checks/InteropTidy.so \"$@\"\n"
                     % (other, BUILD))
    wrong.chmod(0o755)
    init = project / ".config" / "nvim" / "init.lua"
    init.parent.mkdir(parents=True)
    block = as_installed(blocks()["neovim"])
    assert 'cmd = "interop-tidy"' in block
    init.write_text(block.replace('cmd = "interop-tidy"', 'cmd = "%s"' % wrong))
    lines = run_editor(["nvim", "--headless", "-i", "NONE",
                        "-S", os.path.join(HERE, "run-nvim-diagnostics.vim"),
                        "src/example.cpp"], project, tmp_path / "nvim-wrong.out")
    assert len(lines) == 1 and lines[0].startswith(
        "1:1:1::interop-tidy exited 78: interop-tidy: refusing to run:"), lines


def test_emacs_with_flycheck(project, tmp_path):
    need("emacs", "emacs-nox")
    if not os.path.isdir("/usr/share/emacs/site-lisp/elpa-src") or not any(
            n.startswith("flycheck") for n in os.listdir("/usr/share/emacs/site-lisp/elpa-src")):
        pytest.skip("Flycheck is not installed (Debian elpa-flycheck; tools/setup.sh "
                    "installs it)")
    config = project / "init.el"
    # An interactive Emacs activates Debian's elpa packages at startup; a
    # batch one is told to.
    config.write_text("(require 'package)\n"
                      "(add-to-list 'package-directory-list \"/usr/share/emacs/site-lisp/elpa\")\n"
                      "(package-initialize)\n" + as_installed(blocks()["flycheck"]))
    lines = run_editor(["emacs", "-Q", "--batch", "-l", str(config),
                        "-l", os.path.join(HERE, "run-flycheck.el")],
                       project, tmp_path / "emacs.out")
    assert lines[0] == "status:finished", lines
    assert "%d:%d:warning:%s:%s" % (LINE, COLUMN, CHECK, MESSAGE) in lines, lines
    assert any(l.startswith("%d:" % LINE) and ":info::'data' read here" in l
               for l in lines)


def test_vscode_settings(project):
    """The settings block is valid JSON, names the wrapper, and the checks it
    enables find the finding when given to the wrapper; the wrapper answers
    --version as clang-tidy 22 does (the extension reads it)."""
    settings = json.loads(blocks()["vscode"])
    assert settings["C_Cpp.codeAnalysis.clangTidy.path"].endswith("/build/bin/interop-tidy")
    checks = ",".join(settings["C_Cpp.codeAnalysis.clangTidy.checks.enabled"])
    r = subprocess.run([WRAPPER, "--checks=" + checks, "-p", "build", "src/example.cpp"],
                       cwd=str(project), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    assert "src/example.cpp:%d:%d: warning: %s [%s]" % (LINE, COLUMN, MESSAGE, CHECK) \
        in r.stdout
    version = subprocess.run([WRAPPER, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
    assert re.search(r"LLVM version %s\.\d+\.\d+" % LLVM_MAJOR, version), version
