# lit configuration for the CI-facing tests: the plugin's version guard.
# Standalone, like test/checks: needs only the site config CMake writes.
import glob
import os
import re

import lit.formats

config.name = "interop-tidy-ci"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.join(config.interop_source_root, "test", "ci")
config.test_exec_root = os.path.join(config.interop_binary_root, "test", "ci")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])


def other_clang_tidies():
    """{major: path} of every clang-tidy installed for another LLVM major
    (Debian: /usr/lib/llvm-N/bin/clang-tidy, /usr/bin/clang-tidy-N)."""
    found = {}
    for path in sorted(glob.glob("/usr/lib/llvm-*/bin/clang-tidy") +
                       glob.glob("/usr/bin/clang-tidy-[0-9]*")):
        m = re.search(r"llvm-(\d+)/bin/clang-tidy$|clang-tidy-(\d+)$", path)
        major = m and (m.group(1) or m.group(2))
        if major and major != config.llvm_version_major and \
                os.access(path, os.X_OK):
            found.setdefault(major, path)
    return found


others = other_clang_tidies()
for major, path in others.items():
    config.available_features.add("clang-tidy-%s" % major)
    config.substitutions.append(("%%clang_tidy_%s" % major, '"%s"' % path))
if not others:
    lit_config.warning(
        "no clang-tidy of a major other than %s is installed: the version "
        "guard's other-major tests are UNSUPPORTED (skipped); tools/setup.sh "
        "installs clang-tidy-19" % config.llvm_version_major)
elif "19" not in others:
    lit_config.note("clang-tidy-19 is not installed: its tests are skipped")

# A version of another major for the fake host: 19 for a build for 22, 22
# for a build for 19.
other_major = "22" if config.llvm_version_major == "19" else "19"
other_version = {"19": "19.1.7", "22": "22.1.8"}[other_major]

if other_major in others:
    config.available_features.add("clang-tidy-other")
    config.substitutions.append(
        ("%clang_tidy_other", '"%s"' % others[other_major]))

config.substitutions += [
    ("%other_llvm_version", other_version),
    ("%other_llvm_major", other_major),
    ("%clang_tidy_plain", '"%s"' % config.clang_tidy),
    ("%clang_tidy", '"%s" --load="%s"' % (config.clang_tidy,
                                          config.interop_plugin)),
    ("%interop_plugin", config.interop_plugin),
    ("%interop_checks", config.interop_checks),
    ("%fake_host", '"%s"' % config.fake_host),
    ("%expect_exit", '"%s" "%s"' % (
        config.python, os.path.join(config.test_source_root, "expect_exit.py"))),
    ("%python", '"%s"' % config.python),
    ("%llvm_major_minor", "%s.%s" % (config.llvm_version_major,
                                     config.llvm_version_minor)),
    ("%llvm_major", config.llvm_version_major),
    ("%interop_src", config.interop_source_root),
]
