"""The driver's SARIF 2.1.0 output: valid against the standard's required
structure (sarif_schema.py), one rule per enabled check with its docs page,
results with related locations for notes, and partial fingerprints that
survive unrelated edits."""
import copy
import json
import os
import re
import subprocess
from urllib.parse import urlparse

import jsonschema
import pytest

from conftest import (BUILD, CLANG_TIDY, DRIVER, SOURCE, WRAPPER, configured_docs_url,
                      finding, load_json)
from sarif_schema import SCHEMA

VALIDATOR = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
ALL_INTEROP = "-*,interop-*"


def page_summary(check):
    """The first paragraph of docs/checks/CHECK.md, as plain text."""
    with open(os.path.join(SOURCE, "docs", "checks", check + ".md")) as f:
        text = f.read()
    first = next(p for p in re.split(r"\n\s*\n", text) if p.strip() and
                 not p.startswith("#"))
    return " ".join(first.replace("`", "").split())


def errors_of(doc):
    return sorted(e.message for e in VALIDATOR.iter_errors(doc))


@pytest.fixture
def sarif(project_factory):
    p = project_factory({"src/a.cpp": finding("a1") + finding("a2", 1),
                         "src/b.cpp": finding("b1"),
                         "src/clean.cpp": "int n(const DLTensor *t) { return t->ndim; }\n"})
    r = p.run("--sarif", "out.sarif", checks=ALL_INTEROP)
    assert r.returncode == 1, r.stderr
    return p, load_json(p.path("out.sarif")), r


def test_schema_subset_rejects_what_the_standard_forbids():
    """The schema is not vacuous: each broken document fails it."""
    good = {"version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "t", "version": "1", "rules": [
            {"id": "r", "helpUri": "https://example.invalid/r",
             "shortDescription": {"text": "r"}}]}},
        "results": [{"ruleId": "r", "level": "warning", "message": {"text": "m"},
                     "partialFingerprints": {"k/v1": "f"},
                     "locations": [{"physicalLocation": {
                         "artifactLocation": {"uri": "a.cpp"},
                         "region": {"startLine": 1, "startColumn": 1}}}]}]}]}
    assert errors_of(good) == []

    def broken(edit):
        doc = copy.deepcopy(good)
        edit(doc)
        return errors_of(doc)
    result = lambda d: d["runs"][0]["results"][0]  # noqa: E731
    region = lambda d: result(d)["locations"][0]["physicalLocation"]["region"]  # noqa: E731
    assert broken(lambda d: d.pop("version"))                     # §3.13.2
    assert broken(lambda d: d.update(version="2.0.0"))            # §3.13.2
    assert broken(lambda d: d["runs"][0].pop("tool"))             # §3.14.6
    assert broken(lambda d: d["runs"][0]["tool"].pop("driver"))   # §3.18.2
    assert broken(lambda d: d["runs"][0]["tool"]["driver"].pop("name"))  # §3.19.8
    assert broken(lambda d: d["runs"][0]["tool"]["driver"]["rules"][0].pop("id"))
    assert broken(lambda d: d["runs"][0]["tool"]["driver"]["rules"][0].update(
        helpUri="docs/r.md"))                                    # §3.49.12: absolute
    assert broken(lambda d: d["runs"][0]["tool"]["driver"]["rules"][0].pop(
        "shortDescription"))                                     # (gate)
    # §3.49.12: helpUri is optional.
    no_uri = copy.deepcopy(good)
    no_uri["runs"][0]["tool"]["driver"]["rules"][0].pop("helpUri")
    assert errors_of(no_uri) == []
    assert broken(lambda d: result(d).pop("message"))             # §3.27.11
    assert broken(lambda d: result(d).update(level="warn"))       # §3.27.10
    assert broken(lambda d: result(d).update(partialFingerprints={}))  # §3.27.17
    assert broken(lambda d: region(d).update(startLine=0))        # §3.30.5
    assert broken(lambda d: region(d).update(startColumn=0))      # §3.30.6
    assert broken(lambda d: result(d)["locations"][0]["physicalLocation"].pop(
        "artifactLocation"))                                     # §3.29.2
    assert broken(lambda d: result(d).update(relatedLocations=[
        {"physicalLocation": region(d)}]))                       # §3.28


def test_sarif_is_valid(sarif):
    _, doc, _ = sarif
    assert errors_of(doc) == []


def test_driver_and_one_rule_per_enabled_check(sarif):
    p, doc, _ = sarif
    driver = doc["runs"][0]["tool"]["driver"]
    version = subprocess.run([DRIVER, "--version"], stdout=subprocess.PIPE,
                             text=True).stdout.split()[-1]
    assert driver["name"] == "interop-tidy" and driver["version"] == version
    listed = subprocess.run([WRAPPER, "--checks=" + ALL_INTEROP, "--list-checks"],
                            stdout=subprocess.PIPE, text=True).stdout
    enabled = sorted(l.strip() for l in listed.splitlines() if l.startswith("    "))
    assert len(enabled) >= 10
    assert [r["id"] for r in driver["rules"]] == enabled
    base = configured_docs_url()
    for rule in driver["rules"]:
        # A link only to where the pages are published, when the build says
        # where (test_help_uri_only_with_a_docs_url).
        if base:
            assert rule["helpUri"] == "%s/%s.md" % (base, rule["id"])
        else:
            assert "helpUri" not in rule
        assert rule["shortDescription"]["text"] and \
            not rule["shortDescription"]["text"].startswith("#")
        # The full description is the one-sentence summary of the check's page.
        assert rule["fullDescription"]["text"] == page_summary(rule["id"])


def test_results(sarif):
    p, doc, r = sarif
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file://%s/" % p.root
    assert run["invocations"] == [{"executionSuccessful": True,
                                   "toolExecutionNotifications": []}]
    results = run["results"]
    # The text output and the SARIF agree: same findings, same places.
    text = [l for l in r.stdout.splitlines() if ": warning: " in l]
    assert len(results) == len(text) == 7  # several checks fire on each read
    for res, line in zip(results, text):
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] == "warning"
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "SRCROOT"
        where = "%s:%d:%d: warning: %s [%s]" % (
            loc["artifactLocation"]["uri"], loc["region"]["startLine"],
            loc["region"]["startColumn"], res["message"]["text"], res["ruleId"])
        assert where == line
        # Each note is a related location with its message.
        notes = res["relatedLocations"]
        assert [n["id"] for n in notes] == list(range(1, len(notes) + 1))
        assert notes and all(n["message"]["text"] for n in notes)
    byte_offset = [x for x in results if x["ruleId"] == "interop-dlpack-byte-offset"]
    assert [n["message"]["text"] for n in byte_offset[0]["relatedLocations"]][0] == \
        "'data' read here"


def fingerprints(doc, path="src/a.cpp"):
    """{(rule, line): fingerprint} of the results in `path`."""
    out = {}
    for x in doc["runs"][0]["results"]:
        loc = x["locations"][0]["physicalLocation"]
        if loc["artifactLocation"]["uri"] == path:
            out[(x["ruleId"], loc["region"]["startLine"])] = \
                x["partialFingerprints"]["interopTidy/v1"]
    return out


def test_fingerprints_survive_unrelated_edits(sarif):
    p, before, _ = sarif
    old = fingerprints(before)
    everywhere = [x["partialFingerprints"]["interopTidy/v1"]
                  for x in before["runs"][0]["results"]]
    assert len(set(everywhere)) == len(everywhere) == 7  # unique per result
    # Code added above and between the findings, and a line re-indented.
    p.write("src/a.cpp", "// a new header comment\n\nint unrelated();\n" +
            finding("a1") + "\n\n" + finding("a2", 1).replace("{ return", "{  return"))
    r = p.run("--sarif", "after.sarif", checks=ALL_INTEROP)
    assert r.returncode == 1
    new = fingerprints(load_json(p.path("after.sarif")))
    moved = {3: 6, 4: 9}
    assert new == {(rule, moved.get(line, line)): fp
                   for (rule, line), fp in old.items()}
    # Changing the flagged code itself is a new finding.
    p.write("src/a.cpp", finding("a1") + finding("a2", 2))
    p.run("--sarif", "changed.sarif", checks=ALL_INTEROP)
    changed = fingerprints(load_json(p.path("changed.sarif")))
    assert {k: v for k, v in changed.items() if k[1] == 3} == \
        {k: v for k, v in old.items() if k[1] == 3}
    assert not {v for k, v in changed.items() if k[1] == 4} & set(old.values())


def test_sarif_for_a_clean_run_has_the_rules_and_no_results(project_factory):
    p = project_factory({"src/clean.cpp": "int n(const DLTensor *t) { return t->ndim; }\n"})
    r = p.run("--sarif", "clean.sarif", checks=ALL_INTEROP)
    assert r.returncode == 0
    doc = load_json(p.path("clean.sarif"))
    assert errors_of(doc) == []
    assert doc["runs"][0]["results"] == []
    assert len(doc["runs"][0]["tool"]["driver"]["rules"]) >= 10


# What GitHub code scanning requires of an upload beyond the SARIF schema
# (the SARIF multitool's GitHub rules: GH1001-GH1007, GH2012 and the limits of
# "SARIF support for code scanning"). The multitool is not installable here,
# so these are checked directly on a real report.
PRECISIONS = {"very-high", "high", "medium", "low"}
SEVERITIES = {"error", "warning", "recommendation"}


def github_problems(doc):
    problems = []
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for rule in rules:
        rid = rule["id"]
        for key in ("shortDescription", "fullDescription"):
            if not rule.get(key, {}).get("text"):
                problems.append("%s: no %s" % (rid, key))           # GH2012
        help_ = rule.get("help", {})
        if not help_.get("text"):
            problems.append("%s: no help.text" % rid)
        if not help_.get("markdown"):
            problems.append("%s: no help.markdown" % rid)
        if len(help_.get("markdown", "")) > 1500:
            problems.append("%s: help is %d bytes, not a short help" % (
                rid, len(help_["markdown"])))
        if "helpUri" in rule and urlparse(rule["helpUri"]).scheme != "https":
            problems.append("%s: helpUri %s is not https" % (rid, rule["helpUri"]))
        props = rule.get("properties", {})
        if not props.get("tags") or not all(isinstance(t, str) for t in props["tags"]):
            problems.append("%s: no properties.tags" % rid)
        if props.get("precision") not in PRECISIONS:
            problems.append("%s: precision %r" % (rid, props.get("precision")))
        if props.get("problem.severity") not in SEVERITIES:
            problems.append("%s: problem.severity %r" % (rid, props.get("problem.severity")))
    if len(rules) > 25000 or len(run["results"]) > 25000:
        problems.append("over code scanning's limits")
    for result in run["results"]:
        if not result["message"].get("text"):                     # GH1007
            problems.append("a result with no message text")
        for loc in result.get("locations", []) + result.get("relatedLocations", []):
            art = loc["physicalLocation"]["artifactLocation"]
            if urlparse(art["uri"]).scheme or os.path.isabs(art["uri"]):
                problems.append("absolute location %s" % art["uri"])  # GH1005
            if loc["physicalLocation"]["region"].get("startLine", 0) < 1:
                problems.append("a region with no startLine")        # GH1003
        if len(result.get("relatedLocations", [])) > 1000:
            problems.append("too many related locations")
    return problems


def test_github_code_scanning_accepts_the_rules_and_results(project_factory):
    p = project_factory({"src/a.cpp": finding("a"),
                         "src/broken.cpp": "int broken() { return undeclared; }\n"})
    r = p.run("--sarif", "out.sarif", checks=ALL_INTEROP)
    assert r.returncode == 3, r.stderr
    doc = load_json(p.path("out.sarif"))
    assert errors_of(doc) == []
    rules = {x["id"]: x for x in doc["runs"][0]["tool"]["driver"]["rules"]}
    assert "clang-diagnostic-error" in rules and len(rules) >= 11
    assert github_problems(doc) == []
    # The checker is not vacuous.
    broken = copy.deepcopy(doc)
    del broken["runs"][0]["tool"]["driver"]["rules"][0]["fullDescription"]
    broken["runs"][0]["tool"]["driver"]["rules"][1]["helpUri"] = "file:///x.md"
    assert len(github_problems(broken)) == 2
    for rule in rules.values():
        assert "file:" not in json.dumps(rule)
        assert rule["properties"]["tags"][0] == "correctness"


def test_help_uri_only_with_a_docs_url(project_factory):
    """interop-tidy has no published docs site: unless a base is configured,
    the interop-* rules have no helpUri (their help is in the report), while
    rules of clang itself keep the link to clang's published docs."""
    if configured_docs_url():
        pytest.skip("this build is configured with INTEROP_DOCS_URL")
    p = project_factory({"src/a.cpp": finding("a"),
                         "src/broken.cpp": "int broken() { return undeclared; }\n"})
    r = p.run("--sarif", "out.sarif", checks=ALL_INTEROP)
    assert r.returncode == 3, r.stderr
    doc = load_json(p.path("out.sarif"))
    assert errors_of(doc) == [] and github_problems(doc) == []
    rules = {x["id"]: x for x in doc["runs"][0]["tool"]["driver"]["rules"]}
    interop = [rid for rid in rules if rid.startswith("interop-")]
    assert len(interop) >= 10
    assert [rid for rid in interop if "helpUri" in rules[rid]] == []
    assert all(rules[rid]["help"]["markdown"] for rid in interop)
    assert rules["clang-diagnostic-error"]["helpUri"].startswith("https://clang.llvm.org/")
    help_text = subprocess.run([DRIVER, "--help"], stdout=subprocess.PIPE,
                               text=True).stdout
    assert "default: no link" in " ".join(help_text.split())


def test_docs_url_sets_every_interop_help_uri(project_factory):
    p = project_factory({"src/a.cpp": finding("a")})
    r = p.run("--sarif", "out.sarif", "--docs-url", "https://docs.example.org/tidy/",
              checks=ALL_INTEROP)
    assert r.returncode == 1
    driver = load_json(p.path("out.sarif"))["runs"][0]["tool"]["driver"]
    for rule in driver["rules"]:
        assert rule["helpUri"] == "https://docs.example.org/tidy/%s.md" % rule["id"]
    assert p.run("--docs-url", "file:///docs").returncode == 2


def test_rule_texts_are_in_the_driver_itself(project_factory):
    """No path of the build machine in the driver that gets installed, and
    the rules keep their texts where no docs are installed beside it."""
    with open(DRIVER) as f:
        text = f.read()
    assert os.path.realpath(SOURCE) not in text and SOURCE not in text
    assert os.path.realpath(BUILD) not in text
    p = project_factory({"src/a.cpp": finding("a")})
    # A copy of the driver in a prefix with no share/doc, run with the plugin.
    alone = p.path("prefix/bin/interop-tidy-ci")
    os.makedirs(os.path.dirname(alone))
    with open(alone, "w") as f:
        f.write(text)
    os.chmod(alone, 0o755)
    r = subprocess.run([alone, "-p", "build", "--checks=" + ALL_INTEROP,
                        "--clang-tidy", CLANG_TIDY,
                        "--plugin", os.path.join(BUILD, "checks", "InteropTidy.so"),
                        "--sarif", "out.sarif"], cwd=p.root, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    assert r.returncode == 1, r.stderr
    doc = load_json(p.path("out.sarif"))
    assert github_problems(doc) == []
    for rule in doc["runs"][0]["tool"]["driver"]["rules"]:
        assert rule["fullDescription"]["text"] == page_summary(rule["id"])


def test_fix_its_reach_the_sarif_results(project_factory):
    """A finding with a fix-it (here the byte_offset note's, which
    --fix-notes applies) carries it as a SARIF fix: the region it replaces
    and the text that replaces it; the document stays valid."""
    p = project_factory({"src/a.cpp": finding("a1")})
    r = p.run("--sarif", "out.sarif")
    assert r.returncode == 1, r.stderr
    doc = load_json(p.path("out.sarif"))
    assert errors_of(doc) == []
    (result,) = doc["runs"][0]["results"]
    (fix,) = result["fixes"]
    assert "--fix-notes" in fix["description"]["text"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "src/a.cpp"
    (rep,) = change["replacements"]
    assert rep["insertedContent"]["text"] == \
        "(void *)((char *)t->data + t->byte_offset)"
    region = rep["deletedRegion"]
    line = p.read("src/a.cpp").splitlines()[region["startLine"] - 1]
    assert line[region["startColumn"] - 1:region["endColumn"] - 1] == "t->data"
