#!/usr/bin/env python3
"""Fails when user-facing text points at things a reader cannot follow.

usage: check_user_text.py [--root DIR] [-q]
       check_user_text.py --self-test

Scans the Markdown and man pages of docs/ (every docs/**/*.md and *.1) and
README.md, whole, and
the comments (`//`, `///`, `/* */`; never string literals, character
literals or code) of checks/**/*.{h,cpp} and lib/**/*.{h,cpp}. The check
pages reach every SARIF alert and the installed docs, and the comments are
what a reader of the code has: both must say the behaviour itself, not point
at a developer's machine, at files that are not in the repository, or at
items of a tracker. Each hit is printed as FILE:LINE: KIND: TEXT; the exit
status is 1 when there is any, 0 (with "N files clean") when there is none.

Three kinds of hit, with these precise rules:

machine-path
    An absolute path into a place where a person's or a session's own files
    live: a path whose first component is /home, /root, /Users, /work,
    /tmp, /var/tmp, /mnt, /media or /scratch, followed by a further
    component (`/tmp/build`, `/work/.mirror`, `/home/me/x`). The path must
    start the token (not preceded by a letter, digit, `.`, `/`, `$`, `}`,
    `~` or `-`), so `build/tmp/x` and `${DIR}/home/x` are not hits.
    Install locations of the system or of a toolkit (`/usr/...`,
    `/usr/local/cuda`, `/opt/...`, `/etc/...`) are documented places on
    any machine and are fine.

missing-file
    A reference to a file or folder that is not in the repository:
    - a path-shaped token (components joined by `/`) whose first component
      is a folder known to live outside the repository: `shared/`
      (`shared/patterns/fn11`, `shared/reference/dlpack.md`) or
      `patterns/` (also with leading `../`);
    - a path-shaped token starting with `./` or `../` that leads out of
      the repository from the file that names it;
    - a path into the repository's own folders that names nothing: a
      path-shaped token, read from the repository root and (when it does
      not start with `./` or `../`) also from the naming file's folder,
      is judged when it reaches into a folder of the repository: its
      first component is a top-level folder (checks/, docs/, lib/, ...;
      not hidden, not build*; read from the naming file's folder: a
      folder there) and, for a token of three or more components, its
      first two components are a folder there too, for a token of two,
      its last one ends like a source or doc file (none, .h, .cpp, .c,
      .py, .md, .txt, .cmake, .in, .sh, .json, .yml, ...). So the install
      tree's `lib/pkgconfig/interop.pc` and `lib/libinterop_shim.a` and a
      build tree's `./build/x.deb` are not judged, while
      `lib/engine/Gone.h` and `docs/gone.md` are. A
      judged token is a hit when no reading of it exists, with or without
      one of the extensions .h, .cpp, .c, .py, .md, .txt (a module named
      without its extension, `lib/engine/FlowRunner`, is fine); a
      trailing `:LINE` is ignored;
    - a Markdown link target that is a relative path (not a URL, not only
      an `#anchor`) and names nothing relative to the Markdown file;
    - a lit test named by file (`interop-*.cpp`, `.c`, `.test`) that is not
      in test/checks.
    A token whose first component is anything else (`include/mxnet/x.h`,
    `jaxlib/ffi.cc`, `build/checks/InteropTidy.so`) is taken as a path in
    another project or in a build tree, and is not judged. URLs
    (`scheme://...`) are not judged either, nor anything in them.

tracker-item
    A citation of a tracker item instead of the behaviour it is about:
    `issue 13`, `issue #13`, `issues 13`, `task 7`, `capability 5`,
    `ticket 3`, `PR 12`, `milestone 2`, (words case-insensitive, `#`
    optional, the number may follow on the next comment line); `#13` as an
    item on its own (not preceded by a letter, digit, `_`, `/`, `&` or `#`,
    so `jax#31271`, `owner/repo#12`, `&#13;` and URL fragments are not
    hits); and a pattern id `fnNN` / `fpNN` (one or two digits) standing
    alone as a word. A public item named with its project, as
    `owner/repo#N`, `project#N` or a URL, is a public reference and fine.

--self-test runs the rules over built-in bad and good lines (each bad line
must give exactly its hits, each good line none) and over a scratch
repository, so the checker is shown able to fail before it says "clean".
"""
import argparse
import os
import re
import sys
import tempfile

# ---------------------------------------------------------------------------
# Rules

MACHINE_ROOTS = ("home", "root", "Users", "work", "tmp", "var/tmp", "mnt",
                 "media", "scratch")
MACHINE_PATH = re.compile(
    r"(?<![\w./$}~-])/(?:%s)/[^\s`'\")\]>,;]+" %
    "|".join(re.escape(r) for r in MACHINE_ROOTS))

# Folders that are referred to as if they were in the repository but live
# outside it (a workspace's shared notes and pattern files).
EXTERNAL_FOLDERS = ("shared", "patterns")

MODULE_EXTS = ("", ".h", ".cpp", ".c", ".py", ".md", ".txt")
# What the repository's files end with; `lib/libx.a` or `lib/x.so.1` under
# an install prefix are not judged.
SOURCE_EXTS = ("", ".h", ".hpp", ".cpp", ".cc", ".c", ".py", ".md", ".txt",
               ".cmake", ".in", ".sh", ".json", ".toml", ".yml", ".yaml",
               ".cfg", ".test")
PATH_TOKEN = re.compile(
    r"(?<![\w./$}~@:-])((?:\.{1,2}/)*[\w.+-]+(?:/[\w.+-]+)+/?|(?:\.{1,2}/)+)")
URL = re.compile(r"\b[a-zA-Z][\w+.-]*://[^\s`'\")\]>]+")
MD_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
LIT_NAME = re.compile(r"(?<![\w./-])(interop-[\w.-]*?\.(?:cpp|c|test))\b")

# Between two words of a citation: blanks with at most one line break (a
# citation may wrap onto the next comment line).
GAP = r"(?=\s)[ \t]*\n?[ \t]*"
TRACKER_WORDS = re.compile(
    r"(?i)\b(?:issues?|tasks?|capabilit(?:y|ies)|tickets?|PRs?|"
    r"milestones?)%s#?\d+\b" % GAP)
HASH_ITEM = re.compile(r"(?<![\w/&#])#\d+\b")
PATTERN_ID = re.compile(r"(?<![\w/.-])f[np]\d{1,2}(?![\w-])")


def _line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def _blank(match_text):
    return re.sub(r"[^\n]", " ", match_text)


def _strip_urls(text):
    return URL.sub(lambda m: _blank(m.group(0)), text)


class Repo:
    """What exists in the repository being checked."""

    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.top = set()
        for name in os.listdir(self.root):
            if name.startswith(".") or name.startswith("build"):
                continue
            if os.path.isdir(os.path.join(self.root, name)):
                self.top.add(name)
        lit_dir = os.path.join(self.root, "test", "checks")
        self.lit = set()
        if os.path.isdir(lit_dir):
            for _, _, files in os.walk(lit_dir):
                self.lit.update(files)

    def exists(self, rel):
        return os.path.exists(os.path.join(self.root, rel))

    def _judged(self, base, parts):
        """Whether PARTS, read from the folder BASE, reaches into a folder
        of the repository (see the module's doc)."""
        if len(parts) < 2:
            return False
        first = os.path.join(base, parts[0])
        if base == "" and parts[0] not in self.top:
            return False
        if not os.path.isdir(os.path.join(self.root, first)):
            return False
        if len(parts) >= 3:
            return os.path.isdir(os.path.join(self.root, first, parts[1]))
        return os.path.splitext(parts[1])[1] in SOURCE_EXTS

    def missing(self, token, here):
        """True when TOKEN, named in a file of the folder HERE, is a path
        into the repository's folders that names nothing, or (starting
        with ./ or ../) a path out of the repository."""
        if token.startswith("./") or token.startswith("../"):
            rel = os.path.normpath(os.path.join(here, token))
            if rel == os.pardir or rel.startswith(os.pardir + os.sep):
                return True
            readings = [("", rel)]
        else:
            readings = [("", token)]
            if here:
                readings.append((here, token))
        judged = False
        for base, rel in readings:
            parts = [p for p in rel.split("/") if p not in ("", ".")]
            if not self._judged(base, parts):
                continue
            judged = True
            full = os.path.join(base, rel)
            if any(self.exists(full + ext) for ext in MODULE_EXTS):
                return False
        return judged


def _clean_path(token):
    token = re.sub(r":\d+(?:[-:]\d+)?$", "", token)
    return token.rstrip(".,:;")


def find_hits(text, relpath, repo, markdown):
    """(line, kind, text) for every hit in TEXT, where TEXT holds only what
    is to be judged (comments of code are already isolated, the rest
    blanked with spaces, line breaks kept)."""
    hits = []
    text = _strip_urls(text)
    here = os.path.dirname(relpath)

    for m in MACHINE_PATH.finditer(text):
        hits.append((_line_of(text, m.start()), "machine-path",
                     m.group(0).rstrip(".,:;")))

    for m in PATH_TOKEN.finditer(text):
        token = _clean_path(m.group(1))
        if not token or "/" not in token:
            continue
        parts = [p for p in token.split("/") if p not in ("", ".")]
        first_real = next((p for p in parts if p != ".."), "")
        bad = first_real in EXTERNAL_FOLDERS or repo.missing(token, here)
        if bad:
            hits.append((_line_of(text, m.start()), "missing-file", token))

    if markdown:
        for m in MD_LINK.finditer(text):
            target = m.group(1).split("#", 1)[0]
            if not target or re.match(r"[a-zA-Z][\w+.-]*:", target):
                continue
            if target.startswith("/"):
                rel = target.lstrip("/")
            else:
                rel = os.path.normpath(os.path.join(here, target))
            if not repo.exists(rel):
                hits.append((_line_of(text, m.start()), "missing-file",
                             m.group(1)))

    for m in LIT_NAME.finditer(text):
        if m.group(1) not in repo.lit:
            hits.append((_line_of(text, m.start()), "missing-file",
                         m.group(1)))

    cited = []
    for rx in (TRACKER_WORDS, HASH_ITEM, PATTERN_ID):
        for m in rx.finditer(text):
            if any(a <= m.start() < b for a, b in cited):
                continue  # the `#14` of `issue #14`: one hit
            cited.append(m.span())
            hits.append((_line_of(text, m.start()), "tracker-item",
                         re.sub(r"\s+", " ", m.group(0))))

    # One report per (line, kind, text): a path can match two path rules.
    return sorted(set(hits))


# ---------------------------------------------------------------------------
# Comments of C and C++ code

def comment_text(source):
    """SOURCE with everything but the text of its comments replaced by
    spaces (line breaks kept, so offsets keep their line), and comment
    markers (`//`, `///`, `/*`, `*/`, a leading `*` of a block comment's
    line) blanked too."""
    out = []
    i, n = 0, len(source)

    def keep(s):
        out.append(s)

    def blank(s):
        out.append(_blank(s))

    while i < n:
        c = source[i]
        nxt = source[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = i
            # A line comment runs to the end of the line; a backslash before
            # the line break continues it.
            while True:
                k = source.find("\n", j)
                if k == -1:
                    k = n
                if k > 0 and source[k - 1] == "\\" and k < n:
                    j = k + 1
                    continue
                break
            body = source[i:k]
            m = re.match(r"//+!?", body)
            blank(m.group(0))
            keep(body[m.end():])
            i = k
        elif c == "/" and nxt == "*":
            k = source.find("*/", i + 2)
            k = n if k == -1 else k + 2
            body = source[i:k]
            inner = body[2:-2] if body.endswith("*/") else body[2:]
            lead = re.match(r"\*+!?", inner)
            lead_len = lead.end() if lead else 0
            blank("/*" + inner[:lead_len])
            inner = inner[lead_len:]
            inner = re.sub(r"(?m)^([ \t]*)\*+(?!/)",
                           lambda m: m.group(1) + " " * (len(m.group(0)) -
                                                          len(m.group(1))),
                           inner)
            keep(inner)
            if body.endswith("*/"):
                blank("*/")
            i = k
        elif c == '"' or c == "'":
            # Identifier-ish characters right before: a raw string prefix,
            # an encoding prefix, or (for ') a digit separator.
            j = i
            while j > 0 and (source[j - 1].isalnum() or source[j - 1] in "_'"):
                j -= 1
            prefix = source[j:i]
            if c == "'" and prefix[:1].isdigit():
                blank(c)  # 1'000'000
                i += 1
                continue
            if c == '"' and prefix in ("R", "u8R", "uR", "UR", "LR"):
                m = re.match(r'"([^()\\\s]{0,16})\(', source[i:])
                if m:
                    end = source.find(")" + m.group(1) + '"', i + m.end())
                    end = n if end == -1 else end + len(m.group(1)) + 2
                    blank(source[i:end])
                    i = end
                    continue
            k = i + 1
            while k < n and source[k] != c and source[k] != "\n":
                k += 2 if source[k] == "\\" else 1
            k = min(k + 1, n)
            blank(source[i:k])
            i = k
        else:
            k = i
            while k < n and source[k] not in "/\"'":
                k += 1
            if k == i:
                k = i + 1
            blank(source[i:k])
            i = k
    return "".join(out)


# ---------------------------------------------------------------------------
# Files

def files_to_scan(root):
    found = []
    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme):
        found.append(("README.md", True))
    for top, exts, markdown in (("docs", (".md", ".1"), True),
                                ("checks", (".h", ".cpp"), False),
                                ("lib", (".h", ".cpp"), False)):
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(exts):
                    rel = os.path.relpath(os.path.join(dirpath, name), root)
                    found.append((rel, markdown))
    return found


def check_tree(root):
    repo = Repo(root)
    files = files_to_scan(repo.root)
    hits = []
    for rel, markdown in files:
        with open(os.path.join(repo.root, rel), encoding="utf-8") as f:
            text = f.read()
        if not markdown:
            text = comment_text(text)
        for line, kind, what in find_hits(text, rel, repo, markdown):
            hits.append((rel, line, kind, what))
    return files, hits


# ---------------------------------------------------------------------------
# Self-test

# (text, markdown?, expected hits as (kind, text)) over a scratch repository
# that holds docs/checks/page.md, docs/other.md, lib/a/Real.h and
# test/checks/interop-real.cpp.
SELF_TEST_CASES = [
    # machine paths
    ("snapshots in /work/.mirror, headers in /work/.mirror/libcxx", True,
     [("machine-path", "/work/.mirror"),
      ("machine-path", "/work/.mirror/libcxx")]),
    ("run --plugin /home/dev/InteropTidy.so", True,
     [("machine-path", "/home/dev/InteropTidy.so")]),
    ("cmake -B /tmp/build", True, [("machine-path", "/tmp/build")]),
    ("`/root/x/y.h` and (/Users/me/z)", True,
     [("machine-path", "/root/x/y.h"), ("machine-path", "/Users/me/z")]),
    ("CUDA in `/usr/local/cuda`, clang-tidy in /usr/lib/llvm-22/bin", True,
     []),
    ("a build/tmp/x folder and ${DIR}/home/x and ~/work/x", True, []),
    ("/tmp alone is a word here", True, []),
    # files not in the repository
    ("see shared/patterns/fn11 and ../shared/reference/dlpack.md", True,
     [("missing-file", "shared/patterns/fn11"),
      ("missing-file", "../shared/reference/dlpack.md")]),
    ("the case in patterns/fn03", True, [("missing-file", "patterns/fn03")]),
    ("up and out: ../../../notes/x.md; in: ../other.md", True,
     [("missing-file", "../../../notes/x.md")]),
    ("`lib/a/Gone.h` and lib/a/Real.h:12 and `docs/checks/page.md`", True,
     [("missing-file", "lib/a/Gone.h")]),
    ("the module lib/a/Real, and `checks/page.md` from docs/", True, []),
    ("see docs/gone.md and `checks/gone.md` from docs/", True,
     [("missing-file", "docs/gone.md"), ("missing-file", "checks/gone.md")]),
    ("installed as lib/pkgconfig/x.pc, lib/libx.a; ./build/x.deb", True,
     []),
    ("[page](checks/page.md), [other](other.md#x), [gone](nope.md)", True,
     [("missing-file", "nope.md")]),
    ("[up](../README.md)", True, []),
    ("lit: interop-real.cpp; lit: interop-gone.cpp", True,
     [("missing-file", "interop-gone.cpp")]),
    ("MXNet's include/mxnet/tensor_blob.h:109, jaxlib/ffi.cc, "
     "build/checks/InteropTidy.so", True, []),
    ("https://github.com/o/shared/blob/x/patterns/fn11#13 is a URL", True,
     []),
    # tracker items
    ("the adapter (issue 13, capability 5)", True,
     [("tracker-item", "issue 13"), ("tracker-item", "capability 5")]),
    ("Issue #14 and task 7 and see #13.", True,
     [("tracker-item", "Issue #14"), ("tracker-item", "task 7"),
      ("tracker-item", "#13")]),
    ("pattern fp10, and fn03's case", True,
     [("tracker-item", "fp10"), ("tracker-item", "fn03")]),
    ("jax#31271 and owner/repo#12 and &#13; and ## Options", True, []),
    ("an issue of the caller, fn(x), fp (a file), fn1x, my-fn10", True, []),
    # comments of code: only the comments are judged
    ("int x = 1'000; // the guard (issue 13)\n", False,
     [("tracker-item", "issue 13")]),
    ('const char *s = "issue 13 /work/x"; // fine\n', False, []),
    ("auto r = R\"(issue 13 // fn03)\"; /* fp10 */\n", False,
     [("tracker-item", "fp10")]),
    ("char c = '\"'; // issue\n// 14 wraps\n", False,
     [("tracker-item", "issue 14")]),
    ("/* a block\n * about #7\n */ int fn03 = 0;\n", False,
     [("tracker-item", "#7")]),
    ("#include \"shared/patterns/x.h\"\n", False, []),
]


def self_test():
    failures = []
    with tempfile.TemporaryDirectory() as root:
        for rel in ("docs/checks/page.md", "docs/other.md", "lib/a/Real.h",
                    "test/checks/interop-real.cpp", "README.md"):
            os.makedirs(os.path.join(root, os.path.dirname(rel)),
                        exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write("clean text\n")
        repo = Repo(root)
        for text, markdown, expected in SELF_TEST_CASES:
            rel = "docs/page.md" if markdown else "lib/a/Real.h"
            scanned = text if markdown else comment_text(text)
            got = sorted((k, t) for _, k, t in
                         find_hits(scanned, rel, repo, markdown))
            if got != sorted(expected):
                failures.append("%r\n    expected %s\n    got      %s" %
                                (text, sorted(expected), got))
        # The whole run over a tree: clean, then failing with the bad line's
        # file and line.
        files, hits = check_tree(root)
        if hits or len(files) != 4:
            failures.append("scratch tree: %d files, hits %s" %
                            (len(files), hits))
        with open(os.path.join(root, "lib/a/Real.h"), "a",
                  encoding="utf-8") as f:
            f.write('const char *k = "fn03";\n// See issue 13.\n')
        _, hits = check_tree(root)
        if hits != [("lib/a/Real.h", 3, "tracker-item", "issue 13")]:
            failures.append("scratch tree after a bad comment: %s" % hits)
    for f in failures:
        print("self-test FAILED: " + f)
    print("self-test: %d cases, %d failed" %
          (len(SELF_TEST_CASES) + 2, len(failures)))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), os.pardir),
                    help="repository root (default: this script's parent)")
    ap.add_argument("--self-test", action="store_true",
                    help="run the built-in cases instead of the repository")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    files, hits = check_tree(args.root)
    for rel, line, kind, what in hits:
        print("%s:%d: %s: %s" % (rel, line, kind, what))
    if hits:
        print("%d hits in %d of %d files" %
              (len(hits), len({h[0] for h in hits}), len(files)))
        return 1
    print("%d files clean" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
