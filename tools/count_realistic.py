#!/usr/bin/env python3
"""Runs the interop-* checks over the realistic corpus and scores them.

  count_realistic.py [--plugin SO] [--clang-tidy BIN] [--json OUT] [FILE...]

The corpus (test/realistic/*.cpp, see test/realistic/README.md) is
application and library code written against the runtime's real headers.
Every call site the array/device checks judge carries an annotation on its
line (for a call clang-format wrapped, on the last line of its statement):

  // ok: CAP [CAP...] [-- why]       correct code: no interop-* finding here
  // ok-hard: CAP [CAP...] [-- why]  correct, but documented as hard (the
                                     constructor-invariant case of issue 14)
  // expect: CHECK[,CHECK] [CAP...] [msg="..."] [note="..."]
                                     a real bug: CHECK must report it, its
                                     message must contain every msg= text and
                                     one of its notes every note= text

Several clauses may share a comment, separated by ';'. CAP names the
capability of issue 14 that makes the code correct (or that the bug tests);
`plain` marks textbook code the checks already understand.

Prints per file and in total: correct call sites flagged, bugs found, bugs
missed (or reported without the wording asked for), findings on lines no
annotation expects, and the same per capability. Only the five array/device
checks of issue 14 are scored; findings of the other interop-* checks are
listed (scored with --all-checks). Exit status: 0 when every
expectation holds (ok-hard sites may be flagged unless --hard), 1 when one
does not, 2 when the corpus could not be checked (a compile error, a plugin
that does not load, a malformed or missing annotation).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "test", "realistic")

# Capability tags: issue 14's numbered "must be understood" items.
CAPABILITIES = collections.OrderedDict([
    ("plain", "textbook guards (already understood)"),
    ("same-tu-helper", "1. helpers in the same translation unit"),
    ("lambda-capture", "2. lambdas"),
    ("container-element", "3. containers"),
    ("switch", "4. switches"),
    ("equivalent-form", "5. equivalent forms"),
    ("constructor", "6. constructors"),
    ("dlpack-device-type", "7. interop-unsupported-dlpack-device"),
    ("diagnostics", "8. diagnostics"),
])
ALIASES = {"device-switch-default": "dlpack-device-type"}
# The checks issue 14 is about. Findings of the other interop-* checks are
# listed but not scored unless --all-checks (or an annotation expects them).
SCORED_CHECKS = (
    "interop-sharded-dlpack-export",
    "interop-sharded-cuda-array-interface",
    "interop-tpu-dlpack-memory-kind",
    "interop-nonaddressable-dlpack-import",
    "interop-unsupported-dlpack-device",
)

# The calls whose every occurrence must be annotated (the judged API).
JUDGED_CALL = re.compile(
    r"\b(to_dlpack|dlpack_device|cuda_array_interface|unsafe_buffer_pointer|"
    r"from_dlpack)\s*\(")
DIAG = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<sev>warning|error|note): (?P<msg>.*?)(?: \[(?P<check>[\w.,-]+)\])?$")
ANNOTATION = re.compile(r"(?:ok|ok-hard|expect):")
QUOTED = re.compile(r'(msg|note)="([^"]*)"')


class AnnotationError(Exception):
    pass


def caps_of(words, where):
    out = []
    for w in words:
        w = ALIASES.get(w, w)
        if w not in CAPABILITIES:
            raise AnnotationError("%s: unknown capability '%s' (known: %s)" %
                                  (where, w, ", ".join(CAPABILITIES)))
        out.append(w)
    if not out:
        raise AnnotationError("%s: no capability named" % where)
    return out


def split_clauses(comment):
    """Splits a comment at ';' outside double quotes."""
    parts, cur, quoted = [], "", False
    for ch in comment:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def split_comment(line):
    """(code, comment) of a line: the comment is what follows the first //
    outside a string or character literal; string contents in the code part
    are blanked (approximate, enough for the corpus's style)."""
    code, i, n = "", 0, len(line)
    while i < n:
        if line.startswith("//", i):
            return code, line[i + 2:].strip()
        if line[i] in "\"'":
            quote, j = line[i], i + 1
            while j < n and line[j] != quote:
                j += 2 if line[j] == "\\" else 1
            code += quote + quote
            i = j + 1
            continue
        code += line[i]
        i += 1
    return code, ""


def ends_statement(code):
    """Whether a line's code part ends a statement, a block opening or a
    label, so that the next line starts a statement of its own."""
    code = code.strip()
    if not code or code.startswith("#"):
        return True
    if code.endswith("::"):
        return False
    return code[-1] in ";{}:"


def parse_annotations(path):
    """(sites, owner, unannotated): {line: Site} for every annotated line;
    {line: annotated line} for every line an annotation covers; the lines of
    judged calls no annotation covers. An annotation covers its own line and
    the lines before it that continue its statement (clang-format wraps a
    long call and keeps the trailing comment at the end of the statement).
    Raises AnnotationError."""
    sites = {}
    codes = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for no, raw in enumerate(lines, 1):
        where = "%s:%d" % (os.path.relpath(path, ROOT), no)
        code, comment = split_comment(raw)
        codes.append(code)
        if not ANNOTATION.match(comment):
            comment = ""
        site = None
        for clause in split_clauses(comment):
            kind, _, body = clause.partition(":")
            kind = kind.strip()
            body = body.strip()
            if kind not in ("ok", "ok-hard", "expect"):
                raise AnnotationError("%s: unknown clause '%s'" % (where, clause))
            if site is None:
                site = {"line": no, "ok": None, "expects": []}
            if kind in ("ok", "ok-hard"):
                if site["ok"] is not None:
                    raise AnnotationError("%s: two ok clauses" % where)
                words = body.split("--", 1)[0].split()
                site["ok"] = {"hard": kind == "ok-hard",
                              "caps": caps_of(words, where)}
                continue
            checks_text, _, rest = body.partition(" ")
            checks = [c for c in checks_text.split(",") if c]
            if not checks or not all(c.startswith("interop-") for c in checks):
                raise AnnotationError("%s: expect needs interop-* check names"
                                      % where)
            caps = re.findall(r"\[([^\]]*)\]", rest)
            words = " ".join(caps).split() or ["plain"]
            wants = QUOTED.findall(rest)
            for check in checks:
                site["expects"].append({
                    "check": check,
                    "caps": caps_of(words, where),
                    "msg": [t for k, t in wants if k == "msg"],
                    "note": [t for k, t in wants if k == "note"],
                })
        if site:
            sites[no] = site
    owner = {}
    for no in sites:
        owner[no] = no
        prev = no - 1
        while prev >= 1 and prev not in sites and \
                not ends_statement(codes[prev - 1]):
            owner[prev] = no
            prev -= 1
    unannotated = [no for no, code in enumerate(codes, 1)
                   if no not in owner and JUDGED_CALL.search(code) and
                   not code.lstrip().startswith("#")]
    return sites, owner, unannotated


def run_tidy(args, path):
    cmd = [args.clang_tidy, "--load=" + args.plugin, "-checks=-*,interop-*",
           "--quiet", path, "--", "-std=c++17",
           "-I" + os.path.join(ROOT, "runtime", "include"),
           "-I" + os.path.join(CORPUS, "include")]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    warnings, errors = [], []
    for text in proc.stdout.splitlines():
        m = DIAG.match(text)
        if not m:
            continue
        sev = m.group("sev")
        if sev == "error":
            errors.append(text)
        elif sev == "warning" and (m.group("check") or "").startswith("interop-"):
            warnings.append({
                "path": os.path.realpath(m.group("path")),
                "line": int(m.group("line")),
                "col": int(m.group("col")),
                "msg": m.group("msg"),
                "check": m.group("check"),
                "notes": [],
            })
        elif sev == "note" and warnings:
            warnings[-1]["notes"].append(m.group("msg"))
        elif sev == "warning":
            # A compiler warning: not the checks' business, but a corpus that
            # warns is sloppy; report it like an error.
            errors.append(text)
    if proc.returncode < 0 or "Stack dump:" in proc.stdout:
        # A crash after some findings must not pass as a finished run.
        errors.append("clang-tidy crashed (exit status %d)" % proc.returncode)
    elif proc.returncode != 0 and not warnings and not errors:
        head = "\n".join(proc.stdout.splitlines()[:5])
        errors.append("clang-tidy exited %d (no interop-* checks loaded?):\n%s"
                      % (proc.returncode, head))
    # One finding per (line, check, message): templates and several
    # constructors may report one call more than once.
    seen, unique = set(), []
    for w in warnings:
        key = (w["path"], w["line"], w["check"], w["msg"])
        if key not in seen:
            seen.add(key)
            unique.append(w)
    return unique, errors


def new_counts():
    return collections.Counter()


def score_file(path, sites, owner, warnings, scored):
    """Returns (counts, per-capability counts, failure lines, lines of
    findings of checks that are not scored)."""
    counts = new_counts()
    others = []
    by_cap = collections.defaultdict(new_counts)
    failures = []
    rel = os.path.relpath(path, ROOT)
    real = os.path.realpath(path)
    by_line = collections.defaultdict(list)
    for w in warnings:
        if w["path"] == real:
            by_line[owner.get(w["line"], w["line"])].append(w)
        else:
            counts["unexpected"] += 1
            failures.append("UNEXPECTED %s:%d: %s [%s] (outside the file)" %
                            (w["path"], w["line"], w["msg"], w["check"]))
    used = set()
    for no, site in sorted(sites.items()):
        here = by_line.get(no, [])
        expected_checks = {e["check"] for e in site["expects"]}
        for e in site["expects"]:
            counts["bugs"] += 1
            for cap in e["caps"]:
                by_cap[cap]["bugs"] += 1
            hits = [w for w in here if w["check"] == e["check"]]
            good = [w for w in hits
                    if all(t.lower() in w["msg"].lower() for t in e["msg"]) and
                    all(any(t.lower() in n.lower() for n in w["notes"])
                        for t in e["note"])]
            if good:
                key = "found"
            elif hits:
                key = "wording"
                failures.append(
                    "WORDING   %s:%d [%s] %s: reported as '%s'%s, wanted msg=%s note=%s"
                    % (rel, no, " ".join(e["caps"]), e["check"], hits[0]["msg"],
                       "".join(" / note: " + n for n in hits[0]["notes"]),
                       e["msg"], e["note"]))
            else:
                key = "missed"
                failures.append("MISSED    %s:%d [%s] %s" %
                                (rel, no, " ".join(e["caps"]), e["check"]))
            counts[key] += 1
            for cap in e["caps"]:
                by_cap[cap][key] += 1
            used.update(id(w) for w in hits)
        if site["ok"] is not None:
            hard = site["ok"]["hard"]
            prefix = "hard_" if hard else "ok_"
            counts[prefix + "sites"] += 1
            nonplain = site["ok"]["caps"] != ["plain"]
            if nonplain:
                counts[prefix + "nonplain_sites"] += 1
            for cap in site["ok"]["caps"]:
                by_cap[cap][prefix + "sites"] += 1
            wrong = [w for w in here if w["check"] not in expected_checks and
                     scored(w["check"])]
            used.update(id(w) for w in wrong)
            if wrong:
                counts[prefix + "flagged"] += 1
                if nonplain:
                    counts[prefix + "nonplain_flagged"] += 1
                for cap in site["ok"]["caps"]:
                    by_cap[cap][prefix + "flagged"] += 1
                failures.append("%s %s:%d [%s] %s [%s]" %
                                ("FLAGGED-HARD" if hard else "FLAGGED  ", rel,
                                 wrong[0]["line"], " ".join(site["ok"]["caps"]),
                                 wrong[0]["msg"], wrong[0]["check"]))
    for no, ws in sorted(by_line.items()):
        for w in ws:
            if id(w) in used:
                continue
            if not scored(w["check"]):
                counts["other"] += 1
                others.append("OTHER      %s:%d: %s [%s]" %
                              (rel, w["line"], w["msg"], w["check"]))
                continue
            counts["unexpected"] += 1
            failures.append("UNEXPECTED %s:%d: %s [%s]" %
                            (rel, w["line"], w["msg"], w["check"]))
    return counts, by_cap, failures, others


def fmt_row(name, c):
    return ("%-28s %5d %8d %6d %6d %5d %7d %5d %6d %5d" %
            (name, c["ok_sites"], c["ok_flagged"], c["hard_sites"],
             c["hard_flagged"], c["bugs"], c["found"], c["missed"],
             c["wording"], c["unexpected"]))


HEADER = ("%-28s %5s %8s %6s %6s %5s %7s %5s %6s %5s" %
          ("", "ok", "flagged", "hard", "h-flag", "bugs", "found", "missed",
           "wording", "unexp"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugin",
                        default=os.path.join(ROOT, "build", "checks",
                                             "InteropTidy.so"),
                        help="the InteropTidy plugin (default: %(default)s)")
    parser.add_argument("--clang-tidy", default="clang-tidy-22")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--hard", action="store_true",
                        help="ok-hard sites must be silent too")
    parser.add_argument("--all-checks", action="store_true",
                        help="score every interop-* check, not only the five "
                        "array/device checks")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only the totals and failures")
    parser.add_argument("files", nargs="*",
                        help="corpus files (default: test/realistic/*.cpp)")
    args = parser.parse_args()

    if not os.path.isfile(args.plugin):
        print("count_realistic: plugin %s not found" % args.plugin,
              file=sys.stderr)
        return 2
    files = args.files or sorted(
        os.path.join(CORPUS, f) for f in os.listdir(CORPUS)
        if f.endswith(".cpp"))
    if not files:
        print("count_realistic: no corpus files in %s" % CORPUS, file=sys.stderr)
        return 2

    total = new_counts()
    total_caps = collections.defaultdict(new_counts)
    per_file = collections.OrderedDict()
    all_failures = []
    all_others = []
    broken = []

    def scored(check):
        return args.all_checks or check in SCORED_CHECKS

    for path in files:
        path = os.path.abspath(path)
        rel = os.path.relpath(path, ROOT)
        try:
            sites, owner, unannotated = parse_annotations(path)
        except AnnotationError as e:
            broken.append(str(e))
            continue
        for no in unannotated:
            broken.append("%s:%d: judged call without an annotation" %
                          (rel, no))
        warnings, errors = run_tidy(args, path)
        if errors:
            broken.extend("%s: %s" % (rel, e) for e in errors)
            continue
        counts, by_cap, failures, others = score_file(path, sites, owner,
                                                      warnings, scored)
        all_others.extend(others)
        per_file[rel] = counts
        total.update(counts)
        for cap, c in by_cap.items():
            total_caps[cap].update(c)
        all_failures.extend(failures)

    print("plugin: %s" % args.plugin)
    print(HEADER)
    if not args.quiet:
        for rel, c in per_file.items():
            print(fmt_row(os.path.basename(rel), c))
        print("-" * len(HEADER))
    print(fmt_row("total", total))
    print()
    print("per capability (issue 14):")
    print(HEADER)
    for cap, what in CAPABILITIES.items():
        if cap in total_caps:
            number = what.split(".", 1)[0] if what[0].isdigit() else "-"
            print(fmt_row("%s %s" % (number, cap), total_caps[cap]))
    print()
    print("correct call sites flagged: %d of %d (%d of %d outside 'plain'; "
          "ok-hard: %d of %d)" %
          (total["ok_flagged"], total["ok_sites"], total["ok_nonplain_flagged"],
           total["ok_nonplain_sites"], total["hard_flagged"],
           total["hard_sites"]))
    print("bugs found: %d of %d (missed %d, wrong wording %d); findings no "
          "annotation expects: %d" %
          (total["found"], total["bugs"], total["missed"], total["wording"],
           total["unexpected"]))
    if all_others:
        print("findings of other interop-* checks (not scored): %d" %
              len(all_others))
    if all_failures:
        print()
        for f in all_failures:
            print(f)
    if all_others:
        print()
        for o in all_others:
            print(o)
    if broken:
        print()
        for b in broken:
            print("ERROR " + b)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"plugin": args.plugin,
                       "total": dict(total),
                       "files": {k: dict(v) for k, v in per_file.items()},
                       "capabilities": {k: dict(v)
                                        for k, v in total_caps.items()},
                       "failures": all_failures,
                       "other_checks": all_others,
                       "errors": broken}, f, indent=2, sort_keys=True)
    if broken:
        return 2
    failed = (total["ok_flagged"] or total["missed"] or total["wording"] or
              total["unexpected"] or (args.hard and total["hard_flagged"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
