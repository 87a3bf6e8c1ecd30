"""interop-tidy-ci, the CI gate driver: parallel runs, --diff, baselines,
exit codes, compile errors, progress, GitLab report. SARIF has its own file
(test_sarif.py)."""
import os
import pty
import select
import stat
import subprocess
import time

import pytest

from conftest import (CLANG_TIDY, CLEAN, DRIVER, LLVM_MAJOR, PLUGIN, dedent, finding,
                      findings_of, load_json, other_clang_tidy, repeated)
from test_sarif import errors_of


def many_files():
    files = {}
    for i in range(6):
        body = "".join(finding("f%d_%d" % (i, k), k) for k in range(i % 3))
        files["src/file%d.cpp" % i] = body + CLEAN
    return files


def test_parallel_run_equals_serial_run(project_factory):
    p = project_factory(many_files())
    serial = p.run("-j1", "--sarif", "serial.sarif", "--gitlab", "serial.gl.json")
    parallel = p.run("-j6", "--sarif", "parallel.sarif", "--gitlab", "parallel.gl.json")
    assert serial.returncode == parallel.returncode == 1, serial.stderr
    assert len(findings_of(serial.stdout)) == 6  # 0+1+2+0+1+2
    assert serial.stdout == parallel.stdout
    assert serial.stderr == parallel.stderr
    assert load_json(p.path("serial.sarif")) == load_json(p.path("parallel.sarif"))
    assert load_json(p.path("serial.gl.json")) == load_json(p.path("parallel.gl.json"))


def test_findings_are_printed_with_notes_and_counted(project_factory):
    p = project_factory({"src/a.cpp": finding("a"), "src/clean.cpp": CLEAN})
    r = p.run()
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    source = finding("a")
    use = source.index("static_cast") + 1
    read = source.index("t->data") + 1
    assert lines[0] == ("src/a.cpp:3:%d: warning: 'data' used as the address of the "
                        "first element without adding 'byte_offset' "
                        "[interop-dlpack-byte-offset]" % use)
    assert lines[1] == "src/a.cpp:3:%d: note: 'data' read here" % read
    assert lines[2].startswith("src/a.cpp:3:%d: note: add 'byte_offset'" % use)
    assert len(lines) == 3
    assert r.stderr.strip().splitlines()[-1] == "interop-tidy-ci: 2 files, 1 finding"


def test_exit_codes(project_factory):
    p = project_factory({"src/a.cpp": finding("a"), "src/clean.cpp": CLEAN})
    assert p.run("src/clean.cpp").returncode == 0
    assert p.run("src/a.cpp").returncode == 1
    assert p.run().returncode == 1

    usage = p.run("--no-such-option")
    assert usage.returncode == 2 and "unrecognized arguments" in usage.stderr
    missing_db = p.run("-p", "nowhere")
    assert missing_db.returncode == 2
    assert "cannot read the compile database" in missing_db.stderr
    bad_ref = p.run("--diff", "no-such-ref")
    assert bad_ref.returncode == 2 and "no-such-ref" in bad_ref.stderr
    with open(p.path("not-a-baseline.json"), "w") as f:
        f.write("[1, 2]")
    bad_baseline = p.run("--baseline", "not-a-baseline.json")
    assert bad_baseline.returncode == 2
    assert "is not an interop-tidy baseline" in bad_baseline.stderr
    assert p.run("no/such/file.cpp").returncode == 2
    unwritable = p.run("--sarif", "/proc/no/such/dir/out.sarif")
    assert unwritable.returncode == 2 and \
        "cannot write /proc/no/such/dir/out.sarif" in unwritable.stderr
    with open(p.path("build/compile_commands.json"), "w") as f:
        f.write('[{"directory": "/"}]')
    bad_db = p.run()
    assert bad_db.returncode == 2 and 'entry 0 has no "file"' in bad_db.stderr
    p.write_database()

    # The gate never passes where it did not run.
    none_enabled = p.run(checks="-*,misc-unused-parameters")
    assert none_enabled.returncode == 3
    assert "no interop-* check is enabled" in none_enabled.stderr


def test_a_compile_error_is_reported_and_fails_the_gate(project_factory):
    p = project_factory({"src/a.cpp": finding("a"),
                         "src/broken.cpp": "int broken() { return undeclared; }\n"})
    r = p.run("--sarif", "out.sarif", "--gitlab", "out.gl.json")
    assert r.returncode == 3, r.stderr
    assert ("src/broken.cpp:3:23: error: use of undeclared identifier 'undeclared' "
            "[clang-diagnostic-error]") in r.stdout.splitlines()
    # The other file's finding is still reported.
    assert ("src/a.cpp", 3, "interop-dlpack-byte-offset") in findings_of(r.stdout)
    assert "1 file not judged" in r.stderr
    run = load_json(p.path("out.sarif"))["runs"][0]
    errors = [x for x in run["results"] if x["level"] == "error"]
    assert [x["ruleId"] for x in errors] == ["clang-diagnostic-error"]
    assert run["invocations"][0]["executionSuccessful"] is False
    assert "src/broken.cpp: does not compile (1 error)" in \
        run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
    gitlab = load_json(p.path("out.gl.json"))
    assert {(g["check_name"], g["severity"]) for g in gitlab} == {
        ("clang-diagnostic-error", "critical"), ("interop-dlpack-byte-offset", "major")}
    # A baseline cannot hide it.
    assert p.run("--write-baseline", "b.json").returncode == 3
    assert all(e["rule"] != "clang-diagnostic-error"
               for e in load_json(p.path("b.json"))["findings"])
    assert p.run("--baseline", "b.json").returncode == 3


def stub_clang_tidy(p, behaviour):
    """A clang-tidy stand-in that answers --version and --list-checks like the
    real one and then misbehaves on the file run: a real crash or hang cannot
    be provoked on demand."""
    path = p.path("stub-clang-tidy")
    with open(path, "w") as f:
        f.write(dedent("""
            #!/bin/sh
            case "$*" in
              *--version*|*--list-checks*) exec %s --load=%s "$@" ;;
            esac
            %s
            """) % (CLANG_TIDY, PLUGIN, behaviour))
    os.chmod(path, 0o755)
    return path


def test_a_crash_fails_the_gate(project_factory):
    p = project_factory({"src/a.cpp": finding("a")})
    stub = stub_clang_tidy(p, 'echo "PLEASE submit a bug report" >&2; kill -SEGV $$')
    r = p.run("--clang-tidy", stub)
    assert r.returncode == 3
    assert "src/a.cpp: clang-tidy crashed (exit -11)" in r.stderr
    assert "PLEASE submit a bug report" in r.stderr


def test_a_timeout_fails_the_gate(project_factory):
    p = project_factory({"src/a.cpp": finding("a")})
    stub = stub_clang_tidy(p, "exec sleep 30")
    start = time.monotonic()
    r = p.run("--clang-tidy", stub, "--timeout", "0.5")
    assert time.monotonic() - start < 20
    assert r.returncode == 3
    assert "src/a.cpp: clang-tidy timed out after 0.5s" in r.stderr


def test_another_clang_tidy_fails_the_gate(project_factory):
    other = other_clang_tidy()
    if not other:
        pytest.skip("no clang-tidy of another major installed (tools/setup.sh "
                    "installs clang-tidy-19)")
    p = project_factory({"src/a.cpp": finding("a")})
    r = p.run("--clang-tidy", other, "--plugin", PLUGIN)
    assert r.returncode == 3
    assert ("interop-tidy: refusing to run: InteropTidy.so was built for "
            "clang-tidy %s" % LLVM_MAJOR) in r.stderr


def test_diff_reports_only_changed_lines(project_factory):
    p = project_factory({"src/a.cpp": finding("a_old"),
                         "src/b.cpp": finding("b_old") + "// a comment\n",
                         "src/c.cpp": finding("c_old")})
    # Uncommitted: a new finding in a.cpp, a comment changed in b.cpp.
    p.write("src/a.cpp", finding("a_old") + "\n" + finding("a_new"))
    p.write("src/b.cpp", finding("b_old") + "// another comment\n")
    r = p.run("--diff", "HEAD")
    assert r.returncode == 1, r.stderr
    assert findings_of(r.stdout) == [("src/a.cpp", 5, "interop-dlpack-byte-offset")]
    assert "2 files, 1 finding, lines changed since HEAD" in r.stderr  # c.cpp not run

    # Committed on a branch: measured from the merge base with main, so a
    # later change on main is not counted.
    p.git("checkout", "-q", "-b", "topic")
    p.commit("topic")
    p.git("checkout", "-q", "main")
    p.write("src/c.cpp", finding("c_old") + finding("c_main", 1))
    p.commit("main moves on")
    p.git("checkout", "-q", "topic")
    r = p.run("--diff", "main")
    assert findings_of(r.stdout) == [("src/a.cpp", 5, "interop-dlpack-byte-offset")]

    # No change: nothing to run, and that passes.
    p.commit("all in")
    r = p.run("--diff", "HEAD")
    assert r.returncode == 0 and r.stdout == ""
    assert "0 files, 0 findings" in r.stderr


def test_baseline_suppresses_exactly_the_recorded_findings(project_factory):
    p = project_factory({"src/a.cpp": finding("a1") + finding("a2", 1),
                         "src/b.cpp": finding("b1")})
    w = p.run("--write-baseline", "baseline.json")
    assert w.returncode == 0, w.stderr
    recorded = load_json(p.path("baseline.json"))["findings"]
    assert sorted((e["path"], e["line"]) for e in recorded) == [
        ("src/a.cpp", 3), ("src/a.cpp", 4), ("src/b.cpp", 3)]
    assert len({e["fingerprint"] for e in recorded}) == 3

    r = p.run("--baseline", "baseline.json")
    assert r.returncode == 0 and r.stdout == ""
    assert "0 findings, 3 in the baseline" in r.stderr

    # Shift every old finding down and add a new one: only the new one is
    # reported, at its own (shifted) line.
    p.write("src/a.cpp", "// one\n// two\n// three\n" + finding("a1") +
            "\n" + finding("a2", 1) + finding("a3", 2))
    r = p.run("--baseline", "baseline.json")
    assert r.returncode == 1
    assert findings_of(r.stdout) == [("src/a.cpp", 9, "interop-dlpack-byte-offset")]
    assert "1 finding, 3 in the baseline" in r.stderr

    # The same code written twice is two findings; the baseline holds one.
    p.write("src/c.cpp", repeated(1))
    p.write_database()
    p.run("--write-baseline", "baseline-c.json", "src/c.cpp")
    p.write("src/c.cpp", repeated(2))
    r = p.run("--baseline", "baseline-c.json", "src/c.cpp")
    assert findings_of(r.stdout) == [("src/c.cpp", 7, "interop-dlpack-byte-offset")]
    os.remove(p.path("src/c.cpp"))
    p.write_database()

    # Fixed findings leave stale entries, which a full run points out.
    p.write("src/a.cpp", finding("a1"))
    r = p.run("--baseline", "baseline.json")
    assert r.returncode == 0
    assert ("0 findings, 2 in the baseline, 1 baseline entry no longer found"
            in r.stderr), r.stderr
    p.write("src/a.cpp", "// one\n// two\n// three\n" + finding("a1") +
            "\n" + finding("a2", 1) + finding("a3", 2))

    # A baseline of one file does not hide another's findings.
    p.run("--write-baseline", "only-b.json", "src/b.cpp")
    r = p.run("--baseline", "only-b.json")
    assert r.returncode == 1
    assert [f[:2] for f in findings_of(r.stdout)] == [
        ("src/a.cpp", 6), ("src/a.cpp", 8), ("src/a.cpp", 9)]


def test_progress_on_a_terminal_only(project_factory):
    p = project_factory(many_files())
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [DRIVER,
         "-p", "build", "--checks=-*,interop-dlpack-byte-offset", "-j2"],
        cwd=p.root, stdin=slave, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the pty closes when the driver exits
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=60)
    os.close(master)
    text = seen.decode()
    for i in range(1, 7):
        assert "\r\x1b[K[%d/6]" % i in text
    assert "interop-tidy-ci: 6 files, 6 findings" in text
    # Not a terminal: no progress line.
    assert "\r" not in p.run().stderr


def test_gitlab_code_quality_report(project_factory):
    p = project_factory({"src/a.cpp": repeated(2), "src/sub/b.cpp": finding("b")})
    r = p.run("--gitlab", "gl-code-quality.json")
    assert r.returncode == 1
    report = load_json(p.path("gl-code-quality.json"))
    assert isinstance(report, list) and len(report) == 3
    for issue in report:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity",
                              "location"}
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert issue["check_name"] == "interop-dlpack-byte-offset"
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert not os.path.isabs(issue["location"]["path"])
        assert "'data' read here" in issue["description"]  # notes go along
    assert len({i["fingerprint"] for i in report}) == 3  # unique, as GitLab needs
    assert sorted((i["location"]["path"], i["location"]["lines"]["begin"])
                  for i in report) == [("src/a.cpp", 4), ("src/a.cpp", 7),
                                       ("src/sub/b.cpp", 3)]


def test_paths_restrict_the_run(project_factory):
    p = project_factory({"src/a.cpp": finding("a"), "src/sub/b.cpp": finding("b")})
    r = p.run("src/sub")
    assert findings_of(r.stdout) == [("src/sub/b.cpp", 3, "interop-dlpack-byte-offset")]


def test_check_config_names_the_configured_names_nothing_declares(project_factory):
    p = project_factory({
        "src/a.cpp": "namespace mylib {\nint from_dlpack(DLManagedTensor *t);\n}\n",
        ".clang-tidy": "Checks: '-*,interop-nonaddressable-dlpack-import'\n"
                       "CheckOptions:\n"
                       "  ImportFunctions: '::mylib::from_dlpak;::mylib::from_dlpack;"
                       "from_.*$'\n"})
    r = p.run("--check-config", checks=None)
    assert r.returncode == 1, r.stdout + r.stderr
    # The misspelt name, not the declared one, nor the regex, nor the
    # checks' default names of options the project left alone.
    assert "'::mylib::from_dlpak' (ImportFunctions) matches no declaration" in r.stdout
    assert "'::mylib::from_dlpack'" not in r.stdout
    assert "::interop::" not in r.stdout
    assert "2 configured name(s), 1 declared, 1 not" in r.stdout
    # Fixed: every configured name is declared.
    p.write(".clang-tidy", "Checks: '-*,interop-nonaddressable-dlpack-import'\n"
            "CheckOptions:\n  ImportFunctions: '::mylib::from_dlpack'\n")
    r = p.run("--check-config", checks=None)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 configured name(s), 1 declared, 0 not" in r.stdout


HEADER_BUG = ("#pragma once\n#include <dlpack/dlpack.h>\n"
              "inline float first(const DLTensor *t) {\n"
              "  return static_cast<float *>(t->data)[0];\n}\n")


def test_a_named_path_no_entry_covers_fails_the_gate(project_factory):
    p = project_factory({"src/a.cpp": CLEAN, "src/other/notes.txt": "notes\n"})
    p.write("src/new.cpp", finding("n"))  # not in the database yet
    r = p.run("src/new.cpp", "--sarif", "out.sarif")
    assert r.returncode == 3, r.stderr
    assert "src/new.cpp: no compile-database entry covers this file" in r.stderr
    assert "no file of the compile database to check" not in r.stderr
    invocation = load_json(p.path("out.sarif"))["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0]["message"]["text"].startswith(
        "src/new.cpp: no compile-database entry covers this file")
    # With a covered file beside it: that one is judged, the run still fails.
    r = p.run("src/a.cpp", "src/new.cpp")
    assert r.returncode == 3 and "1 file, 0 findings, 1 file not judged" in r.stderr
    # A directory with no file of the database.
    r = p.run("src/other")
    assert r.returncode == 3
    assert "src/other: no file of the compile database is in this directory" in r.stderr
    # Once the database has it, it is judged.
    p.write_database()
    assert p.run("src/new.cpp").returncode == 1


def test_a_named_header_is_judged_through_a_file_that_includes_it(project_factory):
    p = project_factory({"src/uses.cpp": '#include "bug.h"\n' + finding("own"),
                         "src/bug.h": HEADER_BUG, "src/lonely.h": HEADER_BUG})
    r = p.run("src/bug.h")
    assert r.returncode == 1, r.stderr
    # Only the header's finding: the includer's own is not asked for.
    assert findings_of(r.stdout) == [("src/bug.h", 4, "interop-dlpack-byte-offset")]
    assert "1 file, 1 finding" in r.stderr
    # A --header-filter that excludes it is widened to the named header.
    r = p.run("src/bug.h", "--header-filter=^$")
    assert findings_of(r.stdout) == [("src/bug.h", 4, "interop-dlpack-byte-offset")]
    # Named with its includer: everything of both.
    r = p.run("src/bug.h", "src/uses.cpp")
    assert [f[0] for f in findings_of(r.stdout)] == ["src/bug.h", "src/uses.cpp"]
    # A header nothing includes cannot be judged.
    r = p.run("src/lonely.h")
    assert r.returncode == 3
    assert "src/lonely.h: no compile-database entry covers this file, and no file " \
        "of the database includes it" in r.stderr


def refusing_clang_tidy(p):
    """A clang-tidy whose plugin refuses it, as the version guard does."""
    path = p.path("refusing-clang-tidy")
    with open(path, "w") as f:
        f.write(dedent("""
            #!/bin/sh
            case "$*" in *--version*) exec %s --version ;; esac
            echo "interop-tidy: refusing to run: InteropTidy.so was built for clang-tidy 22" >&2
            exit 78
            """) % CLANG_TIDY)
    os.chmod(path, 0o755)
    return path


@pytest.mark.parametrize("setup", ["refused", "plugin-missing", "clang-tidy-missing",
                                   "no-interop-check"])
def test_a_setup_failure_still_writes_the_reports(project_factory, setup):
    p = project_factory({"src/a.cpp": finding("a")})
    args, checks = {
        "refused": (["--clang-tidy", refusing_clang_tidy(p)], None),
        "plugin-missing": (["--clang-tidy", CLANG_TIDY, "--plugin",
                            p.path("no/InteropTidy.so")], None),
        "clang-tidy-missing": (["--clang-tidy", p.path("no/clang-tidy")], None),
        "no-interop-check": ([], "-*,misc-unused-parameters"),
    }[setup]
    why = {"refused": "refusing to run", "plugin-missing": "does not exist",
           "clang-tidy-missing": "not found",
           "no-interop-check": "no interop-* check is enabled"}[setup]
    r = p.run(*args, "--sarif", "out.sarif", "--gitlab", "gl.json",
              checks=checks or "-*,interop-dlpack-byte-offset")
    assert r.returncode == 3, r.stderr
    assert why in r.stderr
    doc = load_json(p.path("out.sarif"))
    assert errors_of(doc) == []
    run = doc["runs"][0]
    assert run["results"] == []
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert why in invocation["toolExecutionNotifications"][0]["message"]["text"]
    assert load_json(p.path("gl.json")) == []


def test_a_usage_error_still_writes_the_reports(project_factory):
    p = project_factory({"src/a.cpp": finding("a")})
    r = p.run("-p", "nowhere", "--sarif", "out.sarif")
    assert r.returncode == 2
    invocation = load_json(p.path("out.sarif"))["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "cannot read the compile database" in \
        invocation["toolExecutionNotifications"][0]["message"]["text"]


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_reports_and_baselines_honour_the_umask(project_factory, umask, mode):
    p = project_factory({"src/a.cpp": finding("a")})
    old = os.umask(umask)
    try:
        r = p.run("--sarif", "out.sarif", "--gitlab", "gl.json")
        w = p.run("--write-baseline", "baseline.json")
        failed = p.run("--clang-tidy", p.path("no/clang-tidy"), "--sarif", "failed.sarif")
    finally:
        os.umask(old)
    assert (r.returncode, w.returncode, failed.returncode) == (1, 0, 3)
    for name in ("out.sarif", "gl.json", "baseline.json", "failed.sarif"):
        assert stat.S_IMODE(os.stat(p.path(name)).st_mode) == mode, name


def test_shards_merged_equal_one_full_run(project_factory):
    files = many_files()
    files["src/broken.cpp"] = "int broken() { return undeclared; }\n"
    p = project_factory(files)
    full = p.run("--sarif", "full.sarif", "--gitlab", "full.gl.json")
    assert full.returncode == 3, full.stderr
    shards = [p.run("--shard", "%d/2" % k, "--sarif", "shard%d.sarif" % k)
              for k in (1, 2)]
    counts = [int(s.stderr.split("interop-tidy-ci: ")[-1].split(" file")[0])
              for s in shards]
    assert sorted(counts) != [0, 7] and sum(counts) == 7  # a real split
    merged = p.run("--merge", "shard1.sarif", "shard2.sarif",
                   "--sarif", "merged.sarif", "--gitlab", "merged.gl.json", checks=None)
    assert merged.returncode == full.returncode == 3
    assert merged.stdout == full.stdout  # finding for finding, notes included
    full_doc, merged_doc = load_json(p.path("full.sarif")), load_json(p.path("merged.sarif"))
    assert errors_of(merged_doc) == []
    for key in ("results", "invocations"):
        assert merged_doc["runs"][0][key] == full_doc["runs"][0][key], key
    assert merged_doc["runs"][0]["tool"] == full_doc["runs"][0]["tool"]
    assert load_json(p.path("merged.gl.json")) == load_json(p.path("full.gl.json"))
    assert "2 reports merged, 7 files, 6 findings, not every file judged" in merged.stderr

    # Without the broken file: findings only, status 1 either way.
    os.remove(p.path("src/broken.cpp"))
    p.write_database()
    for k in (1, 2):
        p.run("--shard", "%d/2" % k, "--sarif", "shard%d.sarif" % k)
    merged = p.run("--merge", "shard1.sarif", "shard2.sarif", checks=None)
    assert merged.returncode == 1 and len(findings_of(merged.stdout)) == 6
    # A missing shard is not a verdict.
    one = p.run("--merge", "shard1.sarif", "--sarif", "one.sarif", checks=None)
    assert one.returncode == 3 and "shard 2/2: missing" in one.stderr
    assert load_json(p.path("one.sarif"))["runs"][0]["invocations"][0][
        "executionSuccessful"] is False
    assert p.run("--merge", "shard1.sarif", "src/a.cpp", checks=None).returncode == 2
    assert p.run("--shard", "3/2").returncode == 2


def test_a_second_run_with_the_cache_reuses_every_result(project_factory, tmp_path):
    p = project_factory(many_files())
    cache = str(tmp_path / "cache")
    start = time.monotonic()
    first = p.run("--cache", cache, "--sarif", "first.sarif", "-j1")
    cold = time.monotonic() - start
    start = time.monotonic()
    second = p.run("--cache", cache, "--sarif", "second.sarif", "-j1")
    warm = time.monotonic() - start
    assert first.returncode == second.returncode == 1
    assert "6 files (0 from the cache), 6 findings" in first.stderr
    assert "6 files (6 from the cache), 6 findings" in second.stderr
    assert first.stdout == second.stdout
    assert load_json(p.path("first.sarif"))["runs"][0]["results"] == \
        load_json(p.path("second.sarif"))["runs"][0]["results"]
    # How much faster a hit is belongs to a benchmark, not here: on a loaded
    # machine the two times say nothing. Every file is a hit, and no
    # clang-tidy ran for it, is what this test proves.
    print("cache: cold %.2fs, warm %.2fs" % (cold, warm))
    # A change to a file's text, even a comment, misses for that file only.
    p.write("src/file1.cpp", p.read("src/file1.cpp")[len("#include <dlpack/dlpack.h>\n\n"):]
            + "// a comment\n")
    third = p.run("--cache", cache)
    assert "6 files (5 from the cache)" in third.stderr
    # So does another configuration.
    other = p.run("--cache", cache, checks="-*,interop-*")
    assert "(0 from the cache)" in other.stderr


def driver_module():
    from importlib.machinery import SourceFileLoader
    import importlib.util
    loader = SourceFileLoader("interop_tidy_ci", DRIVER)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_function_extents_of_the_diff_scan():
    """The brace scan --diff uses to find the function a finding is in."""
    source = dedent('''
        #include <x>
        namespace a {
        struct S {
          int f() const { return 1; }
          S() : x_(1), y_{2} {
            x_ = 3;
          }
          int x_, y_;
        };
        int g(int a) {
          auto s = "}{"; char c = '}';
          // }
          /* { */
          return a;
        }
        #define OPEN {
        auto l = [](int q) {
          return q;
        };
        int arr[] = {1, 2};
        extern "C" {
        void h(void) { }
        }
        template <class T> void k(T) {
        }
        enum class E { A, B };
        int m = 1'000'000;
        }
        ''')
    assert driver_module().function_extents(source) == [
        (4, 4), (5, 7), (10, 15), (17, 19), (22, 22), (24, 25)]
