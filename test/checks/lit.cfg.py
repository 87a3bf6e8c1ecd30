# lit configuration for interop-tidy's check tests. Standalone: needs no
# lit.llvm, only the site config written by CMake.
import os

import lit.formats

config.name = "interop-tidy"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".mm", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.join(config.interop_source_root, "test", "checks")
config.test_exec_root = os.path.join(config.interop_binary_root, "test", "checks")

# FileCheck, not, count, split-file come from llvm-N-tools (INTEROP_LLVM_MAJOR).
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

tidy = '"%s" --load="%s"' % (config.clang_tidy, config.interop_plugin)
check = '"%s" "%s" --clang-tidy="%s" --plugin="%s" --filecheck="%s"' % (
    config.python,
    os.path.join(config.interop_source_root, "tools", "check_interop_tidy.py"),
    config.clang_tidy, config.interop_plugin,
    os.path.join(config.llvm_tools_dir, "FileCheck"))
config.substitutions += [
    ("%check_interop", check),
    ("%clang_tidy_plain", '"%s"' % config.clang_tidy),
    ("%clang_tidy", tidy),
    ("%interop_plugin", config.interop_plugin),
    ("%python", '"%s"' % config.python),
    ("%interop_src", config.interop_source_root),
    ("%interop_build", config.interop_binary_root),
]
