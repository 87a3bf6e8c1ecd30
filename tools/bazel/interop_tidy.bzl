"""A Bazel aspect that runs interop-tidy's checks on C and C++ targets.

    bazel build //... \
      --aspects=//tools/bazel:interop_tidy.bzl%interop_tidy_aspect \
      --output_groups=interop_tidy

For each source file of a cc_library, cc_binary or cc_test (and of the
targets they depend on through `deps`) one action runs clang-tidy with the
plugin, with the target's include paths and defines, and writes clang-tidy's
findings to a report: `<target>.interop_tidy/<source path>.txt` next to the
target's outputs, all in the output group `interop_tidy`. What runs is set
with --action_env (see run_interop_tidy.sh): INTEROP_TIDY,
INTEROP_TIDY_PLUGIN, INTEROP_TIDY_CHECKS, INTEROP_TIDY_WARNINGS_AS_ERRORS.
"""

InteropTidyInfo = provider(
    doc = "The reports of a target and of the targets it depends on.",
    fields = {"reports": "depset of report files"},
)

_CC_RULES = ["cc_library", "cc_binary", "cc_test"]
_C_EXTENSIONS = ["c"]
_CXX_EXTENSIONS = ["cc", "cpp", "cxx", "c++", "C"]
_HEADER_EXTENSIONS = ["h", "hh", "hpp", "hxx", "inc", "inl", "ipp", "tcc"]

def _split(opts):
    # Bazel tokenizes copts like a shell; a plain split covers the usual
    # "-Wall -Wextra" in one string, and an option with quotes is kept whole
    # rather than split wrongly.
    out = []
    for opt in opts:
        if "'" in opt or '"' in opt:
            out.append(opt)
        else:
            out.extend([t for t in opt.replace("\t", " ").split(" ") if t])
    return out

def _compile_flags(ctx, compilation_context, is_cxx):
    flags = []

    # The options of the rule and of the command line (--copt, --cxxopt,
    # --conlyopt). The toolchain's own flags are left out: they are written
    # for the compiler Bazel runs (often GCC), and clang rejects the ones it
    # does not know, which would fail every action.
    cpp = ctx.fragments.cpp
    opts = list(cpp.copts) + list(cpp.cxxopts if is_cxx else cpp.conlyopts)
    opts += [o for o in getattr(ctx.rule.attr, "copts", []) if "$(" not in o]
    opts = _split(opts)
    if is_cxx and not [o for o in opts if o.startswith("-std=")]:
        # Bazel's toolchains pick the language standard themselves; the
        # checks need C++17 at least (the runtime's headers do).
        flags.append("-std=c++17")
    flags.extend(opts)

    defines = compilation_context.defines.to_list()
    local_defines = getattr(compilation_context, "local_defines", None)
    if local_defines != None:
        defines = defines + local_defines.to_list()
    else:
        defines = defines + getattr(ctx.rule.attr, "local_defines", [])
    flags.extend(["-D" + d for d in defines])

    # "." and the output roots hold the workspace's own headers, as Bazel's
    # compile actions see them.
    flags.extend(["-iquote" + d for d in compilation_context.quote_includes.to_list()])
    flags.extend(["-I" + d for d in compilation_context.includes.to_list()])
    flags.extend(["-isystem" + d for d in compilation_context.system_includes.to_list()])
    framework_includes = getattr(compilation_context, "framework_includes", None)
    if framework_includes != None:
        flags.extend(["-F" + d for d in framework_includes.to_list()])
    return flags

def _rule_files(ctx, attr, extensions):
    files = []
    for target in getattr(ctx.rule.attr, attr, []):
        files.extend([f for f in target.files.to_list() if f.extension in extensions])
    return files

def _report_name(ctx, source):
    # short_path of a file of another repository starts with "../".
    path = source.short_path
    if path.startswith("../"):
        path = "external/" + path[3:]
    return "%s.interop_tidy/%s.txt" % (ctx.label.name, path)

def _interop_tidy_aspect_impl(target, ctx):
    transitive = [
        dep[InteropTidyInfo].reports
        for dep in getattr(ctx.rule.attr, "deps", [])
        if InteropTidyInfo in dep
    ]
    reports = []
    if ctx.rule.kind in _CC_RULES and CcInfo in target:
        compilation_context = target[CcInfo].compilation_context

        # Every header the sources can include, so that a sandboxed or remote
        # action sees them: the target's own (public, private and textual)
        # and those of its dependencies.
        headers = depset(
            _rule_files(ctx, "srcs", _HEADER_EXTENSIONS) +
            _rule_files(ctx, "hdrs", _HEADER_EXTENSIONS) +
            _rule_files(ctx, "textual_hdrs", _HEADER_EXTENSIONS),
            transitive = [compilation_context.headers],
        )
        runner = ctx.executable._runner
        for source in _rule_files(ctx, "srcs", _C_EXTENSIONS + _CXX_EXTENSIONS):
            report = ctx.actions.declare_file(_report_name(ctx, source))
            args = ctx.actions.args()
            args.add(report)
            args.add(source)
            args.add_all(_compile_flags(ctx, compilation_context, source.extension in _CXX_EXTENSIONS))
            ctx.actions.run(
                executable = runner,
                arguments = [args],
                inputs = depset([source], transitive = [headers]),
                outputs = [report],
                # --action_env (INTEROP_TIDY and the others) and PATH.
                use_default_shell_env = True,
                mnemonic = "InteropTidy",
                progress_message = "interop-tidy %s" % source.short_path,
            )
            reports.append(report)

    all_reports = depset(reports, transitive = transitive)
    return [
        InteropTidyInfo(reports = all_reports),
        OutputGroupInfo(interop_tidy = all_reports),
    ]

interop_tidy_aspect = aspect(
    implementation = _interop_tidy_aspect_impl,
    attr_aspects = ["deps"],
    fragments = ["cpp"],
    attrs = {
        "_runner": attr.label(
            default = Label("//tools/bazel:run_interop_tidy.sh"),
            allow_single_file = True,
            executable = True,
            cfg = "exec",
        ),
    },
)
