#!/usr/bin/python3
"""Runs the interop-* checks over real translation units and samples warnings.

  sample.py [--plugin SO] [--mirror DIR] [--jobs N] [--seed N] [--json OUT]

The table (sample.json next to this script) names translation units of
public repositories (Python binding libraries, DLPack users, general C++
libraries) by repository, full commit and path, in groups that share their
compile flags (-std, include roots inside the snapshot, defines). Nothing of
those repositories is stored here: each snapshot used is extracted whole
(`git archive`) into a scratch directory outside the repository, and every
unit is run through clang-tidy-22 with the plugin.

The tool collects every interop-* warning reported in a snapshot's files
(the unit itself and the project headers it includes; a warning in a header
that several units include counts once), counts the units that ran, the
ones with compile errors and the runs that crashed or timed out, and picks
--size distinct warnings at random with a fixed --seed. The "verdicts" list
of the table (each sampled warning judged by reading the code) is printed
beside the sample, with the count of true ones.

Snapshots are found like run.py finds them (README.md: "Getting the
snapshots"). --compile-only runs the compiler alone (clang++-22
-fsyntax-only) to set up the table: which units compile.

Exit status: 0 the run completed; 2 a snapshot, a commit, the plugin or a
tool is missing; 3 a clang-tidy run crashed or timed out, or a unit did
not compile.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (find_git_dir, DIAG_RE, PYTHON_INCLUDE, CHECKS, crashed)

# run.DIAG_RE reads warnings and errors; a fatal error (a header not found)
# is an error too.
ERROR_RE = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+): "
                      r"(?:fatal )?error: (?P<msg>.*)$")


def snap_dir(scratch, repo, commit):
    return os.path.join(scratch, repo.replace("/", "+") + "@" + commit[:12])


def extract(mirror, scratch, repo, commit):
    """Extracts the whole tree of repo@commit (once) and returns its path."""
    dest = snap_dir(scratch, repo, commit)
    if os.path.isfile(os.path.join(dest, ".extracted")):
        return dest
    git_dir = run.find_git_dir(mirror, repo)
    if git_dir is None:
        raise run.Missing("no snapshot of %s under %s" % (repo, mirror))
    r = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "-t",
                        commit + "^{commit}"], capture_output=True)
    if r.returncode != 0:
        raise run.Missing("snapshot %s lacks commit %s" % (repo, commit))
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    archive = subprocess.Popen(["git", "--git-dir", git_dir, "archive",
                                commit], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout,
                   check=True)
    archive.stdout.close()
    if archive.wait() != 0:
        raise run.Missing("git archive failed for %s@%s" % (repo, commit))
    open(os.path.join(dest, ".extracted"), "w").close()
    return dest


def units(table):
    """[(group, path)] in table order."""
    return [(g, p) for g in table["groups"] for p in g["files"]]


def compile_args(group, scratch):
    """The compiler arguments of a group (after its snapshots are out)."""
    lang = group.get("lang", "c++")
    args = (["-xc", "-std=" + group.get("std", "c11")] if lang == "c" else
            ["-std=" + group.get("std", "c++17")])
    for s in [group] + group.get("deps", []):
        base = snap_dir(scratch, s["repo"], s["commit"])
        for r in s.get("include_roots", ["."]):
            args.append("-I" + run.normpath(os.path.join(base, r)))
    if group.get("python"):
        args.append("-I" + run.PYTHON_INCLUDE)
    args += ["-Wno-everything", "-ferror-limit=0"]
    args += group.get("flags", [])
    return args


def owner_of(path, scratch, snaps):
    """(repo, commit, relative path) of a file under a snapshot, or None."""
    real = os.path.realpath(path)
    for repo, commit in snaps:
        base = os.path.realpath(snap_dir(scratch, repo, commit)) + os.sep
        if real.startswith(base):
            return repo, commit, real[len(base):]
    return None


def run_unit(opts, scratch, snaps, group, path):
    base = snap_dir(scratch, group["repo"], group["commit"])
    src = os.path.join(base, path)
    args = compile_args(group, scratch)
    if opts.compile_only:
        cmd = ["clang++-22", "-fsyntax-only", src] + args
    else:
        cmd = [opts.clang_tidy, "--load=" + opts.plugin,
               "--checks=-*,interop-*", "--quiet",
               # A configuration given here: no snapshot's own .clang-tidy
               # (tvm-ffi's sets WarningsAsErrors) is read.
               "--config={}",
               # Warnings in any snapshot's files (the unit and the project
               # headers it includes), never in the system's headers.
               "--header-filter=^" + re.escape(scratch) + "/", src,
               "--"] + args
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        return dict(group=group["name"], repo=group["repo"],
                    commit=group["commit"], path=path, status="timeout",
                    seconds=round(time.time() - t0, 1), errors=[],
                    warnings=[], skipped=[])
    text = (r.stdout + r.stderr).decode(errors="replace")
    errors, warnings, skipped = [], [], []
    for line in text.splitlines():
        e = ERROR_RE.match(line)
        if e:
            errors.append("%s:%s: %s" % (os.path.basename(e.group("file")),
                                         e.group("line"), e.group("msg")))
            continue
        m = run.DIAG_RE.match(line)
        if not m:
            continue
        check = m.group("check") or ""
        if not check.startswith("interop-"):
            continue
        where = owner_of(m.group("file"), scratch, snaps)
        if where is None:
            continue
        sk = run.SKIP_RE.match(m.group("msg")) or \
            run.SKIP_SUMMARY_RE.match(m.group("msg"))
        if sk:
            # "N functions of this file were not analysed": says the checks
            # did not judge, not what is wrong; never a warning here.
            for c in check.split(","):
                skipped.append(dict(repo=where[0], commit=where[1],
                                    path=where[2], line=int(m.group("line")),
                                    check=c, function=sk.group("fn"),
                                    why=sk.group("why")))
            continue
        for c in check.split(","):
            warnings.append(dict(repo=where[0], commit=where[1],
                                 path=where[2], line=int(m.group("line")),
                                 col=int(m.group("col")), check=c,
                                 message=m.group("msg")))
    crashed = run.crashed(r.returncode, text)
    if r.returncode > 0 and not errors and not crashed:
        # Both clang++ and clang-tidy exit non-zero on a compile error.
        errors.append("exit status %d" % r.returncode)
    status = "crash" if crashed else ("errors" if errors else "ok")
    return dict(group=group["name"], repo=group["repo"],
                commit=group["commit"], path=path, status=status,
                returncode=r.returncode, seconds=round(time.time() - t0, 1),
                errors=errors[:20], warnings=warnings, skipped=skipped,
                output_tail=text[-2000:] if crashed else None)


def key(w):
    return (w["repo"], w["commit"], w["path"], w["line"], w["check"])


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin", default=run.DEFAULT_PLUGIN,
                    help="the InteropTidy plugin (default: %(default)s)")
    ap.add_argument("--clang-tidy", default="clang-tidy-22")
    ap.add_argument("--mirror", default=run.DEFAULT_MIRROR,
                    help="where the snapshots are (default: "
                    "$REALWORLD_MIRROR or /work/.mirror)")
    ap.add_argument("--table", default=os.path.join(HERE, "sample.json"))
    ap.add_argument("--only", help="regex over group names")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds per clang-tidy run")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--size", type=int, default=20,
                    help="how many warnings to sample")
    ap.add_argument("--scratch", help="scratch directory (default: a new "
                    "temporary one, removed afterwards)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch directory and print its path")
    ap.add_argument("--compile-only", action="store_true",
                    help="the compiler alone (clang++-22 -fsyntax-only): "
                    "which units compile, no check run")
    ap.add_argument("--json", help="write everything here")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print every unit and its first compile errors")
    opts = ap.parse_args()

    with open(opts.table) as f:
        table = json.load(f)
    if opts.only:
        table["groups"] = [g for g in table["groups"]
                           if re.search(opts.only, g["name"])]
    tool = "clang++-22" if opts.compile_only else opts.clang_tidy
    if shutil.which(tool) is None:
        print("error: %s not found" % tool, file=sys.stderr)
        return 2
    problem = None if opts.compile_only else run.plugin_problem(
        opts.clang_tidy, opts.plugin)
    if problem:
        print("error: " + problem, file=sys.stderr)
        return 2
    scratch = run.open_scratch(opts.scratch, "interop-sample-")
    if not scratch:
        return 2

    snaps = []
    for g in table["groups"]:
        for s in [g] + g.get("deps", []):
            if (s["repo"], s["commit"]) not in snaps:
                snaps.append((s["repo"], s["commit"]))
    t0 = time.time()
    results = []
    try:
        try:
            for repo, commit in snaps:
                extract(opts.mirror, scratch, repo, commit)
        except run.Missing as m:
            print("error: %s (README.md: Getting the snapshots)" % m,
                  file=sys.stderr)
            return 2
        todo = units(table)
        with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
            futs = [pool.submit(run_unit, opts, scratch, snaps, g, p)
                    for g, p in todo]
            for n, fut in enumerate(futs):
                r = fut.result()
                results.append(r)
                if opts.verbose or r["status"] != "ok":
                    print("[%3d/%d] %-6s %5.1fs %s %s  %d warning(s)" % (
                        n + 1, len(todo), r["status"], r["seconds"],
                        r["group"], r["path"], len(r["warnings"])))
                    for e in r["errors"][:5]:
                        print("         error: " + e)
                    sys.stdout.flush()
    finally:
        run.close_scratch(opts, scratch)
    elapsed = time.time() - t0

    status = collections.Counter(r["status"] for r in results)
    print("\n%d translation units from %d repositories in %.0f s "
          "(--jobs %d): %d ran without error, %d with compile errors, "
          "%d crashed, %d timed out" % (
              len(results), len({r["repo"] for r in results}), elapsed,
              opts.jobs, status["ok"], status["errors"], status["crash"],
              status["timeout"]))
    per_repo = collections.OrderedDict()
    for r in results:
        per_repo.setdefault(r["repo"], collections.Counter())[r["status"]] += 1
    for repo, c in per_repo.items():
        print("  %-28s %3d units" % (repo, sum(c.values())))
    dump = dict(units=len(results), seconds=round(elapsed), jobs=opts.jobs,
                status=dict(status), results=results)
    if opts.compile_only:
        if opts.json:
            with open(opts.json, "w") as f:
                json.dump(dump, f, indent=1)
        return 3 if status["crash"] or status["timeout"] else 0

    # Distinct warnings: a header's warning reported from several units is
    # one warning (same file, line, check).
    distinct = collections.OrderedDict()
    for r in results:
        for w in r["warnings"]:
            distinct.setdefault(key(w), dict(w, units=[]))["units"].append(
                r["path"])
    warnings = sorted(distinct.values(), key=key)
    skipped = {(s["repo"], s["path"], s["check"], s["function"])
               for r in results for s in r["skipped"]}
    per_check = collections.Counter(w["check"] for w in warnings)
    per_repo_w = collections.Counter(w["repo"] for w in warnings)
    print("\n%d distinct interop-* warnings (%d reports)" % (
        len(warnings), sum(len(r["warnings"]) for r in results)))
    for c, n in sorted(per_check.items()):
        print("  %-40s %4d" % (c, n))
    for repo, n in sorted(per_repo_w.items()):
        print("  %-40s %4d" % (repo, n))
    print("functions not analysed (notes, not warnings; function x check): "
          "%d" % len(skipped))
    for s in sorted(skipped):
        print("  %s %s %s: %s" % s)

    rng = random.Random(opts.seed)
    k = min(opts.size, len(warnings))
    if k < opts.size:
        print("\nonly %d warning(s): all of them are the sample" % k)
    sample = sorted(rng.sample(warnings, k), key=key)
    verdicts = {(v["repo"], v["commit"], v["path"], v["line"], v["check"]): v
                for v in table.get("verdicts", [])}
    print("\nsample (seed %d, %d of %d):" % (opts.seed, k, len(warnings)))
    print("| # | repository | file:line | check | verdict | why |")
    print("|---|---|---|---|---|---|")
    true = judged = 0
    for n, w in enumerate(sample, 1):
        v = verdicts.get(key(w))
        if v:
            judged += 1
            true += v["verdict"] == "TRUE"
        w["verdict"] = v["verdict"] if v else None
        w["why"] = v["why"] if v else None
        print("| %d | %s@%s | %s:%d | %s | %s | %s |" % (
            n, w["repo"], w["commit"][:10], w["path"], w["line"],
            w["check"], w["verdict"] or "?", w["why"] or w["message"]))
    print("\njudged %d of %d; TRUE %d" % (judged, k, true))
    if opts.json:
        dump.update(warnings=warnings, per_check=dict(per_check),
                    not_analysed=sorted(skipped),
                    seed=opts.seed, sample=sample, true=true, judged=judged)
        with open(opts.json, "w") as f:
            json.dump(dump, f, indent=1)
    return 3 if status["crash"] or status["timeout"] or status["errors"] \
        else 0


if __name__ == "__main__":
    sys.exit(main())
