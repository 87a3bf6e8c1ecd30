#!/usr/bin/python3
"""Runs the interop-* checks on real DLPack code and scores them.

  run.py [--plugin SO] [--mirror DIR] [--only REGEX] [--json OUT] ...

The corpus (corpus.json next to this script) names files of public
repositories by repository, commit and path, with the findings each must
produce (confirmed bugs) and the files that must stay silent (fixed versions
and correct bridges). Nothing of those repositories is stored here: this
script extracts each file, and the headers it includes from the same
snapshot, into a scratch directory outside the repository at run time, runs
clang-tidy with the plugin, and prints per file and per check the true
positives, the misses and the false positives, then the totals (recall on
confirmed bugs, false positives on correct files).

Snapshots are git directories (bare or not) of the repositories; see
README.md for where they are looked up and how to get them. A snapshot or
commit that is missing is reported by name, and the run exits with status 2
unless --allow-missing is given: a missing file is never a silent pass.

Exit status: 0 the run completed; 1 with --strict, a miss or a false
positive; 2 a snapshot, commit or tool is missing; 3 a clang-tidy run failed
without producing a result.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_PLUGIN = os.path.join(ROOT, "build", "checks", "InteropTidy.so")
DEFAULT_MIRROR = os.environ.get("REALWORLD_MIRROR", "/work/.mirror")
STUBS = os.path.join(HERE, "stubs")
PYTHON_INCLUDE = "/usr/include/python3.11"

CHECKS = [
    "interop-dlpack-byte-offset",
    "interop-dlpack-capsule-protocol",
    "interop-dlpack-deleter-ownership",
    "interop-dlpack-null-deleter",
    "interop-dlpack-strides",
    "interop-dlpack-version",
    "interop-unsupported-dlpack-device",
    "interop-nonaddressable-dlpack-import",
    "interop-sharded-cuda-array-interface",
    "interop-sharded-dlpack-export",
    "interop-tpu-dlpack-memory-kind",
]

INCLUDE_RE = re.compile(
    rb'^[ \t]*#[ \t]*(?:include|include_next|import)[ \t]*([<"])([^>"\n]+)[>"]',
    re.M)
DIAG_RE = re.compile(
    r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<sev>warning|error): (?P<msg>.*?)(?: \[(?P<check>[\w.,-]+)\])?$")


class Missing(Exception):
    """A snapshot or a commit that is not on this machine."""


# ---------------------------------------------------------------- snapshots


def find_git_dir(mirror, repo):
    """The git directory of `repo` ("owner/name") under `mirror`, or None.

    Accepted layouts: owner+name/repo (what the fetch tool writes),
    owner+name (a bare clone), owner+name.git, owner/name, owner/name.git,
    and a non-bare clone (its .git)."""
    owner, name = repo.split("/", 1)
    flat = owner + "+" + name
    for cand in (os.path.join(mirror, flat, "repo"),
                 os.path.join(mirror, flat),
                 os.path.join(mirror, flat + ".git"),
                 os.path.join(mirror, owner, name),
                 os.path.join(mirror, owner, name + ".git")):
        for g in (cand, os.path.join(cand, ".git")):
            if os.path.isfile(os.path.join(g, "HEAD")) and \
                    os.path.isdir(os.path.join(g, "objects")):
                return g
    return None


class Snapshot:
    """One commit of one repository, read with git (no work tree)."""

    def __init__(self, mirror, repo, commit):
        self.repo, self.commit = repo, commit
        self.git_dir = find_git_dir(mirror, repo)
        if self.git_dir is None:
            raise Missing("no snapshot of %s under %s" % (repo, mirror))
        r = self._git("cat-file", "-t", commit + "^{commit}", check=False)
        if r.returncode != 0:
            raise Missing("snapshot %s lacks commit %s" % (repo, commit))
        out = self._git("ls-tree", "-r", "-z", "--name-only", commit).stdout
        self.files = set(p.decode() for p in out.split(b"\0") if p)
        self._cache = {}

    def _git(self, *args, check=True, data=None):
        return subprocess.run(["git", "--git-dir", self.git_dir] + list(args),
                              input=data, capture_output=True, check=check)

    def read_many(self, paths):
        """{path: bytes} of the given paths at the commit."""
        todo = [p for p in paths if p not in self._cache]
        if todo:
            req = "".join("%s:%s\n" % (self.commit, p) for p in todo).encode()
            out = self._git("cat-file", "--batch", data=req).stdout
            pos = 0
            for p in todo:
                nl = out.index(b"\n", pos)
                header = out[pos:nl].split()
                pos = nl + 1
                if len(header) < 3 or header[1] != b"blob":
                    self._cache[p] = None
                    continue
                size = int(header[2])
                self._cache[p] = out[pos:pos + size]
                pos += size + 1
        return {p: self._cache[p] for p in paths}


def normpath(p):
    return os.path.normpath(p).replace(os.sep, "/")


def system_include_dirs(clang_tidy_args):
    """The compiler's own search list (for telling what is available)."""
    r = subprocess.run(["clang++-22", "-xc++", "-E", "-v", "-"] +
                       clang_tidy_args, input=b"", capture_output=True)
    dirs, on = [], False
    for line in r.stderr.decode(errors="replace").splitlines():
        if line.startswith("#include <...> search starts here"):
            on = True
        elif line.startswith("End of search list"):
            break
        elif on:
            dirs.append(line.strip())
    return dirs


# --------------------------------------------------------------- extraction


class Tree:
    """A snapshot's files (and its dependencies') laid out in a scratch dir.

    Headers are found by following #include lines (in every branch of every
    #if: extracting a header the compiler then skips is harmless) through the
    entry's include roots, as the compiler would search them."""

    def __init__(self, scratch, roots_by_snap, system_dirs):
        self.scratch = scratch
        self.roots = roots_by_snap  # [(Snapshot, out_dir, [roots])]
        self.system_dirs = system_dirs
        self.written = {}  # (repo, path) -> absolute path
        self.missing = set()

    def _locate(self, snap_index, includer, name, quoted):
        """(snapshot index, path) of an include, or None."""
        cands = []
        if quoted and includer is not None:
            cands.append((snap_index, normpath(
                os.path.join(os.path.dirname(includer), name))))
        for i, (snap, _, roots) in enumerate(self.roots):
            for r in roots:
                cands.append((i, normpath(os.path.join(r, name))))
        for i, p in cands:
            if not p.startswith("../") and p in self.roots[i][0].files:
                return i, p
        return None

    def extract(self, snap_index, path):
        """Extracts `path` and, transitively, what it includes."""
        work = [(snap_index, path)]
        seen = set()
        while work:
            batch = collections.defaultdict(list)
            for i, p in work:
                if (i, p) not in seen:
                    seen.add((i, p))
                    batch[i].append(p)
            work = []
            for i, paths in batch.items():
                snap, out_dir, _ = self.roots[i]
                for p, data in snap.read_many(paths).items():
                    if data is None:
                        continue
                    dest = os.path.join(out_dir, p)
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    with open(dest, "wb") as f:
                        f.write(data)
                    self.written[(snap.repo, p)] = dest
                    for quote, name in INCLUDE_RE.findall(data):
                        name = name.decode(errors="replace").strip()
                        hit = self._locate(i, p, name, quote == b'"')
                        if hit is not None:
                            work.append(hit)
                        elif not self._on_system(name, dest, quote == b'"'):
                            self.missing.add(name)

    def _on_system(self, name, includer_dest, quoted):
        if quoted and os.path.exists(
                os.path.join(os.path.dirname(includer_dest), name)):
            return True
        return any(os.path.exists(os.path.join(d, name))
                   for d in self.system_dirs)


# ------------------------------------------------------------------ running


def entry_snapshots(entry, mirror, cache):
    """[(Snapshot, roots)] for the entry and its dependencies."""
    specs = [dict(repo=entry["repo"], commit=entry["commit"],
                  include_roots=entry.get("include_roots", ["."]))]
    specs += entry.get("deps", [])
    out = []
    for s in specs:
        key = (s["repo"], s["commit"])
        if key not in cache:
            try:
                cache[key] = Snapshot(mirror, s["repo"], s["commit"])
            except Missing as e:
                cache[key] = e
        if isinstance(cache[key], Missing):
            raise cache[key]
        out.append((cache[key], s.get("include_roots", ["."])))
    return out


def libcxx_include(root):
    """The libc++ header directory (holding __config_site) under root, a
    tree unpacked from libc++-22-dev (README.md), or the system's."""
    for base in ([root] if root else []) + ["/"]:
        for sub in ("usr/lib/llvm-22/include/c++/v1", "include/c++/v1", "."):
            d = os.path.join(base, sub)
            if os.path.isfile(os.path.join(d, "__config_site")):
                return normpath(d)
    return None


def prepare(entry, mirror, scratch, system_dirs, cache, libcxx=None):
    """Extracts the entry; returns (source path, compiler args, missing,
    translation unit): the unit is a driver that includes the source and
    instantiates its templates when the entry has `instantiate`."""
    snaps = entry_snapshots(entry, mirror, cache)
    base = os.path.join(scratch, entry["id"])
    shutil.rmtree(base, ignore_errors=True)
    layout = []
    for n, (snap, roots) in enumerate(snaps):
        out_dir = os.path.join(base, "src" if n == 0 else "dep%d" % n)
        layout.append((snap, out_dir, roots))
    stub_dirs = [os.path.join(STUBS, s) for s in entry.get("stubs", [])]
    flag_dirs = [f[2:] for f in entry.get("flags", [])
                 if f.startswith("-I") and os.path.isabs(f[2:])]
    tree = Tree(base, layout,
                stub_dirs + flag_dirs + [PYTHON_INCLUDE] + system_dirs)
    tree.extract(0, entry["path"])
    inst = entry.get("instantiate")
    for n, extra in enumerate(entry.get("extra_files", []) +
                              (inst["includes"] if inst else [])):
        hit = tree._locate(0, None, extra, False)
        tree.extract(*(hit or (0, extra)))
    args = ["-std=" + entry.get("std", "c++17")] if entry.get(
        "lang", "c++") == "c++" else ["-std=" + entry.get("std", "c11")]
    if entry.get("lang", "c++") == "c":
        args = ["-xc"] + args
    elif entry["path"].endswith((".h", ".hpp", ".cuh", ".cu")):
        args = ["-xc++"] + args
    # Overlay: single headers of the snapshot that must win over an older
    # copy installed on the system (e.g. a newer ATen/dlpack.h).
    overlay = os.path.join(base, "overlay")
    for as_name, path in sorted(entry.get("overlay", {}).items()):
        data = layout[0][0].read_many([path])[path]
        if data is None:
            raise Missing("snapshot %s@%s lacks %s" % (
                entry["repo"], entry["commit"][:10], path))
        dest = os.path.join(overlay, as_name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(data)
    if entry.get("overlay"):
        args.append("-I" + overlay)
    for snap, out_dir, roots in layout:
        for r in roots:
            args.append("-I" + normpath(os.path.join(out_dir, r)))
    for s in stub_dirs:
        args.append("-I" + s)
    autostub = os.path.join(base, "autostub")
    missing = sorted(tree.missing)
    if entry.get("autostub", True):
        for name in missing:
            dest = os.path.join(autostub, name)
            if ".." in name.split("/"):
                continue
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "w") as f:
                f.write("/* empty: not in the snapshot (run.py) */\n")
        args.append("-idirafter" + autostub)
    args += ["-I" + PYTHON_INCLUDE, "-Wno-everything",
             "-ferror-limit=0"]
    for inc in entry.get("force_include", []):
        args += ["-include", os.path.join(STUBS, inc)]
    args += entry.get("flags", [])
    if entry.get("stdlib") == "libc++":
        if libcxx_include(libcxx):
            args += ["-nostdinc++", "-isystem", libcxx_include(libcxx)]
        else:
            missing.append("<libc++ headers: --libcxx>")
    src = os.path.join(layout[0][1], entry["path"])
    tu = src
    if inst:
        # A self-written driver: the library's headers, then explicit
        # instantiations of the templates to judge (the checks judge a
        # template only where it is instantiated).
        tu = os.path.join(base, "instantiate.cpp")
        with open(tu, "w") as f:
            for inc in inst["includes"]:
                f.write('#include "%s"\n' % inc)
            f.write("\n".join(inst["code"]) + "\n")
    return src, args, missing, tu


SKIP_RE = re.compile(r"^function '(?P<fn>[^']*)' was not analysed: (?P<why>.*)$")
# The line a file gets by default for the functions dropped at a bound: not
# a finding either (it says the checks did not judge, not what is wrong).
SKIP_SUMMARY_RE = re.compile(
    r"^\d+ functions? of this file (?:was|were) not analysed by the interop "
    r"checks, starting with '(?P<fn>[^']*)': (?P<why>.*); set "
    r"ReportSkippedFunctions")


def tidy_config(report_skipped, options):
    """--config with the entry's CheckOptions and, with --report-skipped,
    ReportSkippedFunctions on every check; None when there is neither."""
    opts = dict(options or {})
    if report_skipped:
        opts.update(("%s.ReportSkippedFunctions" % c, "true") for c in CHECKS)
    if not opts:
        return None
    return "--config=" + json.dumps({"CheckOptions": opts})


def plugin_problem(clang_tidy, plugin):
    """Why clang-tidy cannot run the interop checks with this plugin (not
    found, refused by this clang-tidy, its checks library missing), or None.
    A plugin that fails to load makes every file silent: never a score."""
    if not os.path.isfile(plugin):
        return "plugin %s not found (build it, or pass --plugin)" % plugin
    r = subprocess.run([clang_tidy, "--load=" + plugin,
                        "--checks=-*,interop-*", "--list-checks"],
                       capture_output=True, timeout=120)
    text = (r.stdout + r.stderr).decode(errors="replace")
    if r.returncode != 0 or not any(c in text for c in CHECKS):
        last = text.strip().splitlines()[-1:] or ["no output"]
        return "plugin %s does not load into %s: %s" % (
            plugin, clang_tidy, last[0])
    return None


CRASH_RE = re.compile(r"PLEASE submit a bug report|Stack dump:|"
                      r"LLVM ERROR|Segmentation fault|Assertion .* failed")


def crashed(returncode, text):
    """Whether a clang-tidy run crashed (an assertion, a signal): it leaves
    no findings and often no error line either, so it must fail the entry,
    never pass it silently."""
    return returncode < 0 or returncode >= 128 or bool(CRASH_RE.search(text))


def run_tidy(clang_tidy, plugin, src, args, timeout, report_skipped=False,
             options=None, tu=None):
    """clang-tidy with the interop checks on one file; with plugin None, the
    compiler alone (compile errors, never a finding: --compile-only; one
    trivial check keeps clang-tidy from refusing to run with none)."""
    config = tidy_config(report_skipped, options) if plugin else None
    checks = ["--load=" + plugin, "--checks=-*,interop-*"] if plugin else [
        "--checks=-*,misc-unused-alias-decls"]
    cmd = [clang_tidy] + checks + [
           "--quiet"] + ([config] if config else []) + (
           ["--header-filter=^" + re.escape(os.path.realpath(src)) + "$"]
           if tu and tu != src else []) + [tu or src, "--"] + args
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %ds" % timeout
    text = (r.stdout + r.stderr).decode(errors="replace")
    if crashed(r.returncode, text):
        why = next((l.strip() for l in text.splitlines()
                    if "Assertion" in l or "LLVM ERROR" in l), "")
        return None, "clang-tidy crashed (exit status %d)%s" % (
            r.returncode, ": " + why[:300] if why else "")
    return text, None


def parse(text, src, skipped=None):
    """(findings, errors) of the main file: findings are (check, line, msg);
    errors counts compile errors anywhere. Functions reported as not analysed
    (--report-skipped) go to `skipped` as (check, line, function, reason),
    never to the findings."""
    findings, errors = [], []
    for line in text.splitlines():
        m = DIAG_RE.match(line)
        if not m:
            continue
        if m.group("sev") == "error":
            errors.append("%s:%s: %s" % (os.path.basename(m.group("file")),
                                         m.group("line"), m.group("msg")))
            continue
        check = m.group("check") or ""
        if not check.startswith("interop-"):
            continue
        if os.path.realpath(m.group("file")) != os.path.realpath(src):
            continue
        sk = SKIP_RE.match(m.group("msg")) or SKIP_SUMMARY_RE.match(m.group("msg"))
        if sk:
            if skipped is not None:
                for c in check.split(","):
                    skipped.append((c, int(m.group("line")), sk.group("fn"),
                                    sk.group("why")))
            continue
        for c in check.split(","):
            findings.append((c, int(m.group("line")), m.group("msg")))
    return findings, errors


def lines_of(exp):
    v = exp["line"]
    return set(v) if isinstance(v, list) else {v}


def score(entry, findings):
    """Matches findings to the entry's expectations.

    Returns a list of (kind, check, line, text) where kind is TP (an expected
    confirmed bug found), MISS, TRUE (a finding the corpus records as a true
    problem that is not a confirmed bug: counted neither way) or FP."""
    out = []
    left = list(findings)
    for kind, key in (("TP", "expected"), ("TRUE", "also_true")):
        for exp in entry.get(key, []):
            hit = next((f for f in left if f[0] == exp["check"]
                        and f[1] in lines_of(exp)), None)
            if hit:
                left.remove(hit)
                out.append((kind, exp["check"], hit[1], exp["why"]))
                # Further findings of the same check on the same line are the
                # same report (one per read); not false positives.
                for f in [f for f in left if f[0] == hit[0] and
                          f[1] == hit[1]]:
                    left.remove(f)
            elif kind == "TP":
                out.append(("MISS", exp["check"], sorted(lines_of(exp))[0],
                            exp["why"]))
    # A finding left on a line an item of its check names is that item's
    # problem showing at another of its places (a leak reported where the
    # tensor is taken and where its destructor forgets it): counted neither
    # way, as the item already is.
    named = {(exp["check"], line)
             for key in ("expected", "also_true")
             for exp in entry.get(key, []) for line in lines_of(exp)}
    for f in left:
        if (f[0], f[1]) not in named:
            out.append(("FP", f[0], f[1], f[2]))
    return out


# ------------------------------------------------------------------ report


def entry_set(entry):
    """The set an entry belongs to: its "set" key, else "tuned" (the files
    the checks were developed against)."""
    return entry.get("set", "tuned")


def is_correct_file(entry):
    return entry.get("role") in ("fixed", "clean")



def open_scratch(given, prefix):
    """The scratch directory: the one given (made if missing) or a new
    temporary one; None, with the error printed, when it is inside the
    repository."""
    scratch = os.path.abspath(given or tempfile.mkdtemp(prefix=prefix))
    if os.path.realpath(scratch).startswith(os.path.realpath(ROOT) + os.sep):
        print("error: the scratch directory must be outside the repository",
              file=sys.stderr)
        return None
    os.makedirs(scratch, exist_ok=True)
    return scratch


def close_scratch(opts, scratch, lead=""):
    """Keeps (and names) a scratch directory that was asked for, removes a
    temporary one."""
    if opts.keep or opts.scratch:
        print(lead + "scratch: " + scratch)
    else:
        shutil.rmtree(scratch, ignore_errors=True)

def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin", default=DEFAULT_PLUGIN,
                    help="the InteropTidy plugin (default: %(default)s)")
    ap.add_argument("--clang-tidy", default="clang-tidy-22")
    ap.add_argument("--mirror", default=DEFAULT_MIRROR,
                    help="where the snapshots are (default: $REALWORLD_MIRROR "
                    "or /work/.mirror)")
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus.json"))
    ap.add_argument("--libcxx", default=os.environ.get(
        "REALWORLD_LIBCXX", os.path.join(DEFAULT_MIRROR, "libcxx")),
                    help="a libc++ 22 header tree for entries with "
                    "\"stdlib\": \"libc++\" (default: $REALWORLD_LIBCXX or "
                    "MIRROR/libcxx, then the system's)")
    ap.add_argument("--only", help="regex over entry ids")
    ap.add_argument("--scratch", help="scratch directory (default: a new "
                    "temporary one, removed afterwards)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch directory and print its path")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds per clang-tidy run")
    ap.add_argument("--json", help="write the full results here")
    ap.add_argument("--compare", metavar="OLD.json",
                    help="also print what changed against a run saved with "
                    "--json (findings that appeared or disappeared)")
    ap.add_argument("--allow-missing", action="store_true",
                    help="exit 0 even when snapshots are missing (they are "
                    "still listed)")
    ap.add_argument("--report-skipped", action="store_true",
                    help="set ReportSkippedFunctions on every check and list "
                    "the functions each did not analyse (SKIP lines; never "
                    "counted as findings), with a count per reason")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 on any miss or false positive")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print compile errors and unresolved headers")
    ap.add_argument("--compile-only", action="store_true",
                    help="compile the files without the checks: compile "
                    "errors and unresolved headers only, no finding (to set "
                    "up a new entry before it is annotated and scored)")
    ap.add_argument("--list", action="store_true",
                    help="list the entries and whether their snapshot is here")
    opts = ap.parse_args()

    with open(opts.corpus) as f:
        corpus = json.load(f)
    entries = corpus["entries"]
    if opts.only:
        entries = [e for e in entries if re.search(opts.only, e["id"])]
    ids = [e["id"] for e in corpus["entries"]]
    dup = [i for i, n in collections.Counter(ids).items() if n > 1]
    if dup:
        sys.exit("corpus.json: duplicate ids: " + ", ".join(dup))

    cache = {}
    missing_snaps = collections.OrderedDict()
    runnable = []
    for e in entries:
        try:
            entry_snapshots(e, opts.mirror, cache)
            runnable.append(e)
        except Missing as m:
            missing_snaps.setdefault(str(m), []).append(e["id"])

    if opts.list:
        for e in entries:
            state = "ok" if e in runnable else "MISSING"
            print("%-7s %-44s %-16s %s@%s %s" % (
                state, e["id"], entry_set(e), e["repo"], e["commit"][:10],
                e["path"]))
        repos = collections.OrderedDict()
        for e in entries:
            for s in [e] + e.get("deps", []):
                repos.setdefault(s["repo"], set()).add(s["commit"])
        print("\nrepositories (and commits) the entries read:")
        for repo, commits in repos.items():
            print("  %-40s %s" % (repo, " ".join(sorted(c[:12] for c in commits))))
        report_missing(missing_snaps, opts.mirror)
        return 2 if missing_snaps and not opts.allow_missing else 0

    for tool in (opts.clang_tidy,):
        if shutil.which(tool) is None:
            print("error: %s not found" % tool, file=sys.stderr)
            return 2
    if opts.compile_only:
        opts.plugin = None
    elif runnable and plugin_problem(opts.clang_tidy, opts.plugin):
        print("error: " + plugin_problem(opts.clang_tidy, opts.plugin),
              file=sys.stderr)
        return 2

    scratch = open_scratch(opts.scratch, "interop-realworld-")
    if not scratch:
        return 2
    system_dirs = system_include_dirs([])

    def one(e):
        src, args, missing, tu = prepare(e, opts.mirror, scratch,
                                         system_dirs, cache, opts.libcxx)
        text, err = run_tidy(opts.clang_tidy, opts.plugin, src, args,
                             opts.timeout, opts.report_skipped,
                             e.get("options"), tu)
        if text is None:
            return dict(entry=e, failed=err, missing_headers=missing)
        skipped = []
        findings, errors = parse(text, src, skipped)
        return dict(entry=e, findings=findings, errors=errors, skipped=skipped,
                    missing_headers=missing,
                    results=score(e, findings) if opts.plugin else [],
                    command=[opts.clang_tidy] + (
                        ["--load=" + opts.plugin, "--checks=-*,interop-*"]
                        if opts.plugin else []) + [tu, "--"] + args)

    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
            for r in pool.map(one, runnable):
                results.append(r)
                print_entry(r, opts.verbose)
                sys.stdout.flush()
    finally:
        close_scratch(opts, scratch, "\n")

    if opts.compile_only:
        # No check ran: nothing to score.
        report_missing(missing_snaps, opts.mirror)
        return 3 if any(r.get("failed") for r in results) else 0
    totals = print_totals(results)
    sets = collections.OrderedDict()
    for r in results:
        sets.setdefault(entry_set(r["entry"]), []).append(r)
    if len(sets) == 1:
        print("(every file run is in set %s)" % next(iter(sets)))
    else:
        # The same table per set: the entries the checks were tuned on
        # ("tuned", entries without a "set") apart from each first-contact
        # set, whose files were annotated before any check ran on them.
        totals["per_set"] = collections.OrderedDict()
        for name, rs in sets.items():
            print("\nset %s (%d file(s)):" % (name, len(rs)))
            totals["per_set"][name] = print_totals(rs)
    if opts.report_skipped:
        print_skipped(results)
    if opts.compare:
        print_comparison(opts.compare, results)
    report_missing(missing_snaps, opts.mirror)
    if opts.json:
        dump = dict(totals=totals, missing=missing_snaps, files=[
            dict(id=r["entry"]["id"], role=r["entry"].get("role"),
                 set=entry_set(r["entry"]),
                 failed=r.get("failed"),
                 compiles=not r.get("errors") if "errors" in r else None,
                 errors=len(r.get("errors", [])),
                 missing_headers=r.get("missing_headers", []),
                 findings=r.get("findings", []),
                 skipped=r.get("skipped", []),
                 results=r.get("results", []),
                 command=r.get("command")) for r in results])
        with open(opts.json, "w") as f:
            json.dump(dump, f, indent=1)
    if any(r.get("failed") for r in results):
        return 3
    if missing_snaps and not opts.allow_missing:
        return 2
    if opts.strict and (totals["misses"] or totals["fp"]):
        return 1
    return 0


def print_entry(r, verbose):
    e = r["entry"]
    head = "== %s  %s@%s %s  [%s]" % (e["id"], e["repo"], e["commit"][:10],
                                       e["path"], e.get("role", "?"))
    print(head)
    if r.get("failed"):
        print("   FAILED: " + r["failed"])
        return
    errs = r["errors"]
    compiles = not errs
    want = e.get("compiles")
    state = "compiles" if compiles else "%d compile error(s)" % len(errs)
    if want is not None and want != compiles:
        state += " (the corpus says it %s)" % (
            "compiles" if want else "does not compile")
    if r["missing_headers"]:
        state += "; %d header(s) not in the snapshot, stubbed empty" % len(
            r["missing_headers"])
    print("   " + state)
    if verbose:
        for h in r["missing_headers"]:
            print("   header: " + h)
        for x in errs[:15]:
            print("   error: " + x)
    for kind, check, line, text in sorted(r.get("results", []),
                                          key=lambda x: (x[2], x[1])):
        print("   %-4s %-36s :%-5d %s" % (kind, check, line, text))
    for check, line, fn, why in sorted(r.get("skipped", []),
                                       key=lambda x: (x[1], x[0])):
        print("   %-4s %-36s :%-5d %s: %s" % ("SKIP", check, line, fn, why))


def print_skipped(results):
    """How many (function, check) pairs were not analysed, per reason."""
    why = collections.Counter()
    for r in results:
        for _, _, _, reason in r.get("skipped", []):
            # "the analysis exceeded its iteration bound (SAT solver timed
            # out)" and "... (N CFG blocks)": the reason without its detail.
            why[re.sub(r" \(.*\)$", "", reason)] += 1
    print("\nfunctions not analysed (function x check): %d" % sum(why.values()))
    for reason, n in why.most_common():
        print("  %5d  %s" % (n, reason))


def print_totals(results):
    per = collections.OrderedDict((c, collections.Counter()) for c in CHECKS)
    correct_files = [r for r in results
                     if is_correct_file(r["entry"]) and "results" in r]
    for r in results:
        for kind, check, _, _ in r.get("results", []):
            per.setdefault(check, collections.Counter())[kind] += 1
        if is_correct_file(r["entry"]):
            for check in {c for k, c, _, _ in r.get("results", [])
                          if k == "FP"}:
                per[check]["fp_files"] += 1
    print("\n%-36s %10s %7s %9s %11s" % ("check", "found/bugs", "recall",
                                          "FP", "noisy/correct"))
    tot = collections.Counter()
    for check, c in per.items():
        bugs = c["TP"] + c["MISS"]
        if not (bugs or c["FP"] or c["TRUE"]):
            continue
        rec = "%.0f%%" % (100.0 * c["TP"] / bugs) if bugs else "-"
        print("%-36s %10s %7s %9d %11s" % (
            check, "%d/%d" % (c["TP"], bugs), rec, c["FP"],
            "%d/%d" % (c["fp_files"], len(correct_files))))
        tot.update(c)
    bugs = tot["TP"] + tot["MISS"]
    noisy = sum(1 for r in correct_files
                if any(k == "FP" for k, _, _, _ in r["results"]))
    print("%-36s %10s %7s %9d %11s" % (
        "total", "%d/%d" % (tot["TP"], bugs),
        "%.0f%%" % (100.0 * tot["TP"] / bugs) if bugs else "-", tot["FP"],
        "%d/%d" % (noisy, len(correct_files))))
    nc = sum(1 for r in results if r.get("errors"))
    print("files: %d run, %d with compile errors, %d correct files, "
          "%d true findings outside the confirmed bugs" % (
              len(results), nc, len(correct_files), tot["TRUE"]))
    return dict(tp=tot["TP"], misses=tot["MISS"], fp=tot["FP"],
                true_other=tot["TRUE"], bugs=bugs, noisy_correct_files=noisy,
                correct_files=len(correct_files),
                per_check={k: dict(v) for k, v in per.items()})


def print_comparison(path, results):
    """Findings (check, line, verdict) that differ from a saved run."""
    with open(path) as f:
        old = {r["id"]: r for r in json.load(f)["files"]}
    print("\nchanges against %s:" % path)
    changed = 0
    for r in results:
        if "results" not in r:
            continue
        rid = r["entry"]["id"]
        now = {(k, c, l) for k, c, l, _ in r["results"]}
        before = {(k, c, l) for k, c, l, _ in old[rid]["results"]} \
            if rid in old else set()
        for k, c, l in sorted(now - before, key=lambda x: (x[2], x[1])):
            print("  + %-44s %-4s %-36s :%d" % (rid, k, c, l))
            changed += 1
        for k, c, l in sorted(before - now, key=lambda x: (x[2], x[1])):
            print("  - %-44s %-4s %-36s :%d" % (rid, k, c, l))
            changed += 1
    if not changed:
        print("  none")


def report_missing(missing, mirror):
    if not missing:
        return
    print("\nMISSING SNAPSHOTS (these entries were NOT run):")
    for why, ids in missing.items():
        print("  %s: %s" % (why, ", ".join(ids)))
    print("Get them with git (see tools/realworld/README.md), e.g.\n"
          "  git clone --bare https://github.com/OWNER/NAME %s/OWNER+NAME/repo"
          % mirror)


if __name__ == "__main__":
    sys.exit(main())
