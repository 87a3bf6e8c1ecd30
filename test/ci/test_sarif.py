"""The driver's SARIF 2.1.0 output: valid against the standard's required
structure (sarif_schema.py), one rule per enabled check with its docs page,
results with related locations for notes, and partial fingerprints that
survive unrelated edits."""
import copy
import os
import subprocess
from urllib.parse import urlparse

import jsonschema
import pytest

from conftest import DRIVER, WRAPPER, finding, load_json
from sarif_schema import SCHEMA

VALIDATOR = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
ALL_INTEROP = "-*,interop-*"


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
    for rule in driver["rules"]:
        uri = urlparse(rule["helpUri"])
        assert uri.path.endswith("/docs/checks/%s.md" % rule["id"])
        if uri.scheme == "file":
            assert os.path.exists(uri.path)
        assert rule["shortDescription"]["text"] and \
            not rule["shortDescription"]["text"].startswith("#")
        assert rule["help"]["markdown"].startswith("# " + rule["id"])


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
