#!/usr/bin/env python3
"""Measures what the interop-* checks add to clang-tidy's time.

  bench_checks.py --build BUILD [--functions N] [--runs R] [--out DIR]

Generates seven translation units (standard headers, 2N functions each):

  interop.cpp   guards, loops, copies and calls over the interop runtime's
                API (<interop/interop.h>): exports, imports, CUDA array
                interfaces, gathers;
  counts.cpp    interop.cpp with its guards written as device counts
                (`a.num_devices() == 1`), which only the flow analysis reads:
                the worst case, where no sink is proven from the syntax;
  plain.cpp     the same functions over a plain struct: no interop call at all;
  dlpack.cpp    DLPack bridge code over the C ABI and the capsule API
                (<Python.h>, <interop/dlpack.h>), for the ABI checks;
  optional.cpp  the shape of interop.cpp over std::optional, for comparison
                with bugprone-unchecked-optional-access;
  helpers.cpp   same-TU helpers (predicates, status validators, throwing
                wrappers, device pickers) and lambdas, each helper called
                from several functions: what the helper summaries cost;
  mixed.cpp     300 functions (whatever N) mixing all of the above: guards,
                same-file helpers, lambdas, containers and DLPack bridges.

and runs clang-tidy on each, with one trivial check as the baseline and with
the checks added, interleaving the configurations. Prints min and median CPU
seconds (user + system) or instruction counts, and the overhead of the checks
over the baseline, then how many functions each configuration dropped over
the analysis bounds (rerun once with ReportSkippedFunctions; the timings do
not cover those functions). This is a benchmark, not a test: it asserts
nothing.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sysconfig
import sys
import time

HEADERS = """#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>
"""

# One function body per pattern, written once over placeholder names so that
# the three TUs have the same shape. {A} is the array type, {OK}(x) a guard,
# {EXPORT}(x) a use that needs the guard, {MAKE}() a producer.
PATTERNS = [
    # guarded export
    """void f{i}(const {A} &a, int n) {{
  if (!{OK}(a))
    return;
  for (int k = 0; k < n; ++k)
    log_value(k);
  auto r = {EXPORT}(a);
  keep(r);
}}""",
    # a produced value, checked before the export
    """void f{i}(int n) {{
  {A} a = {MAKE}(n);
  std::string label = "batch-" + std::to_string(n);
  log_text(label);
  if ({OK}(a)) {{
    auto r = {EXPORT}(a);
    keep(r);
  }}
}}""",
    # loop with continue and a stored guard
    """int f{i}(const std::vector<{A}> &items) {{
  int done = 0;
  for (const {A} &a : items) {{
    const bool ready = {OK}(a);
    if (!ready)
      continue;
    auto r = {EXPORT}(a);
    keep(r);
    ++done;
  }}
  return done;
}}""",
    # && and early exits
    """void f{i}(const {A} &a, const {A} &b, bool verbose) {{
  if (!{OK}(a) || !{OK}(b))
    return;
  if (verbose)
    log_text("pair");
  auto ra = {EXPORT}(a);
  auto rb = {EXPORT}(b);
  keep(ra);
  keep(rb);
}}""",
    # map lookups and a ternary
    """void f{i}(const std::map<std::string, {A}> &table, const std::string &key) {{
  auto it = table.find(key);
  if (it == table.end())
    return;
  const {A} &a = it->second;
  auto r = {OK}(a) ? {EXPORT}(a) : {FALLBACK};
  keep(r);
}}""",
    # reassignment in a branch
    """void f{i}({A} a, int n) {{
  if (!{OK}(a))
    return;
  if (n > 3) {{
    a = {MAKE}(n);
    if (!{OK}(a))
      return;
  }}
  std::vector<int> counts(n, 1);
  std::sort(counts.begin(), counts.end());
  auto r = {EXPORT}(a);
  keep(r);
}}""",
    # a lambda
    """void f{i}(const std::vector<{A}> &items) {{
  auto each = [](const {A} &a) {{
    if ({OK}(a)) {{
      auto r = {EXPORT}(a);
      keep(r);
    }}
  }};
  std::for_each(items.begin(), items.end(), each);
}}""",
    # the one mistake in the file: an export nobody checked
    """void f{i}(const {A} &a, int n) {{
  log_value(n);
  auto r = {EXPORT}(a);
  keep(r);
}}""",
    # while loop with a counter
    """void f{i}(const {A} &a, int budget) {{
  int tries = 0;
  while (tries < budget && !{OK}(a))
    ++tries;
  if (tries == budget)
    return;
  auto r = {EXPORT}(a);
  keep(r);
}}""",
]

# interop-specific extras, with plain/optional stand-ins of the same shape.
EXTRA = {
    "interop": [
        """void g{i}(DLManagedTensorVersioned *t, int rank) {{
  auto all = interop::devices();
  const interop::Device &d = all[rank % 4];
  if (!d.is_addressable())
    return;
  auto r = interop::from_dlpack(t, d);
  keep(r);
}}""",
        """void g{i}(const interop::Array &a) {{
  auto g = interop::gather(a, interop::local_devices()[0]);
  if (!g.ok())
    return;
  auto p = g->unsafe_buffer_pointer();
  auto c = interop::cuda_array_interface(*g);
  keep(p);
  keep(c);
}}""",
        """void g{i}(const interop::Array &a) {{
  if (!a.is_single_device() || a.platform() != interop::Platform::kTpu)
    return;
  if (a.memory_kind() != interop::MemoryKind::kPinnedHost)
    return;
  auto r = interop::to_dlpack(a);
  keep(r);
}}""",
    ],
    "plain": [
        """void g{i}(Tensor *t, int rank) {{
  auto all = plain_devices();
  const Dev &d = all[rank % 4];
  if (!d.ok())
    return;
  auto r = plain_import(t, d);
  keep(r);
}}""",
        """void g{i}(const Plain &a) {{
  auto g = plain_copy(a);
  if (!g.ok())
    return;
  auto p = g.value().pointer();
  keep(p);
}}""",
        """void g{i}(const Plain &a) {{
  if (!a.ready() || a.kind() != 2)
    return;
  if (a.memory() != 1)
    return;
  auto r = plain_use(a);
  keep(r);
}}""",
    ],
}
EXTRA["optional"] = [
    """void g{i}(const std::vector<std::optional<int>> &all, int rank) {{
  const std::optional<int> &d = all[rank % 4];
  if (!d.has_value())
    return;
  keep(*d);
}}""",
    """void g{i}(const std::optional<int> &a) {{
  std::optional<int> g = a;
  if (!g)
    return;
  keep(g.value());
}}""",
    """void g{i}(const std::optional<int> &a) {{
  if (!a.has_value())
    return;
  if (*a < 0)
    return;
  keep(*a);
}}""",
]

PRELUDE = {
    "interop": """#include <interop/interop.h>
template <class T> void keep(const T &);
void log_value(int);
void log_text(const std::string &);
interop::Array make_array(int);
""",
    "plain": """struct Plain { bool ready() const; int kind() const; int memory() const; void *pointer() const; };
struct Dev { bool ok() const; };
struct Tensor;
struct Copy { bool ok() const; const Plain &value() const; };
template <class T> void keep(const T &);
void log_value(int);
void log_text(const std::string &);
Plain make_plain(int);
int plain_use(const Plain &);
std::vector<Dev> plain_devices();
int plain_import(Tensor *, const Dev &);
Copy plain_copy(const Plain &);
""",
    "optional": """template <class T> void keep(const T &);
void log_value(int);
void log_text(const std::string &);
std::optional<int> make_opt(int);
""",
}

SUBST = {
    "interop": dict(A="interop::Array", OK="is_one", EXPORT="interop::to_dlpack",
                    MAKE="make_array"),
    "plain": dict(A="Plain", OK="is_ready", EXPORT="plain_use", MAKE="make_plain"),
    "optional": dict(A="std::optional<int>", OK="has", EXPORT="*", MAKE="make_opt"),
}

GUARDS = {
    "interop": "inline bool is_one(const interop::Array &a) { return false; }\n",
    "plain": "inline bool is_ready(const Plain &a) { return a.ready(); }\n",
    "optional": "",
}


# Bridge code over the DLPack C ABI and the CPython capsule API, for the
# DLPack ABI checks: consumers, producers, capsules, device-type maps. Every
# function reads DLPack fields or handles a managed tensor, so each is
# analysed by the DLPack field model and most by the ownership model too. The
# last pattern is the one mistake (data used without byte_offset).
DLPACK_PRELUDE = """#include <interop/dlpack.h>
#include <cstring>
#include <stdexcept>
struct Holder { std::vector<int64_t> shape; std::vector<float> data; DLManagedTensor mt; };
static void capsule_destructor(PyObject *capsule) {
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (mt && mt->deleter)
      mt->deleter(mt);
  }
  PyErr_Restore(type, value, trace);
}
"""

DLPACK_PATTERNS = [
    # a consumer of a versioned capsule: name, version, device, strides
    """int d{i}(PyObject *capsule, std::vector<float> &out) {{
  if (!PyCapsule_IsValid(capsule, "dltensor_versioned"))
    return -1;
  auto *mt = static_cast<DLManagedTensorVersioned *>(
      PyCapsule_GetPointer(capsule, "dltensor_versioned"));
  if (!mt || mt->version.major != DLPACK_MAJOR_VERSION)
    return -1;
  const DLTensor &t = mt->dl_tensor;
  if (t.device.device_type != kDLCPU || t.dtype.code != kDLFloat)
    return -1;
  size_t n = 1;
  int64_t expected = 1;
  for (int k = t.ndim - 1; k >= 0; --k) {{
    if (t.strides && t.strides[k] != expected)
      return -1;
    expected *= t.shape[k];
    n *= static_cast<size_t>(t.shape[k]);
  }}
  const auto *first = reinterpret_cast<const float *>(
      static_cast<const char *>(t.data) + t.byte_offset);
  out.assign(first, first + n);
  PyCapsule_SetName(capsule, "used_dltensor_versioned");
  if (mt->deleter)
    mt->deleter(mt);
  return 0;
}}""",
    # one element, strides-aware
    """double d{i}(const DLTensor *t, int64_t k) {{
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return 0.0;
  int64_t step = t->strides ? t->strides[0] : 1;
  const double *p = reinterpret_cast<const double *>(
      static_cast<const char *>(t->data) + t->byte_offset);
  return p[k * step];
}}""",
    # a producer: the holder owns shape and data, the deleter frees it
    """DLManagedTensor *d{i}(std::vector<float> values) {{
  auto *h = new Holder;
  h->data = std::move(values);
  h->shape = {{static_cast<int64_t>(h->data.size())}};
  DLTensor &t = h->mt.dl_tensor;
  t.data = h->data.data();
  t.device = {{kDLCPU, 0}};
  t.ndim = 1;
  t.dtype = {{kDLFloat, 32, 1}};
  t.shape = h->shape.data();
  t.strides = nullptr;
  t.byte_offset = 0;
  h->mt.manager_ctx = h;
  h->mt.deleter = [](DLManagedTensor *self) {{
    delete static_cast<Holder *>(self->manager_ctx);
  }};
  return &h->mt;
}}""",
    # a capsule for a produced tensor
    """PyObject *d{i}(DLManagedTensor *mt) {{
  PyObject *capsule = PyCapsule_New(mt, "dltensor", capsule_destructor);
  if (!capsule) {{
    mt->deleter(mt);
    return nullptr;
  }}
  return capsule;
}}""",
    # a write into a versioned tensor, READ_ONLY checked
    """void d{i}(DLManagedTensorVersioned *mt, float v) {{
  if (mt->version.major != DLPACK_MAJOR_VERSION) {{
    if (mt->deleter)
      mt->deleter(mt);
    return;
  }}
  DLTensor &t = mt->dl_tensor;
  if ((mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) ||
      t.device.device_type != kDLCPU) {{
    if (mt->deleter)
      mt->deleter(mt);
    return;
  }}
  float *p = reinterpret_cast<float *>(static_cast<char *>(t.data) +
                                       t.byte_offset);
  p[0] = v;
  if (mt->deleter)
    mt->deleter(mt);
}}""",
    # a device-type map that fails on unknown types
    """const char *d{i}(const DLDevice &d) {{
  switch (d.device_type) {{
  case kDLCPU:
    return "cpu";
  case kDLCUDA:
    return "cuda";
  default:
    throw std::invalid_argument("unsupported device type " +
                                std::to_string(static_cast<int>(d.device_type)));
  }}
}}""",
    # a compact copy, strides compared with the compact ones
    """bool d{i}(const DLTensor &t, void *dst, size_t bytes) {{
  if (t.device.device_type != kDLCPU)
    return false;
  if (t.strides) {{
    int64_t expected = 1;
    for (int k = t.ndim - 1; k >= 0; --k) {{
      if (t.strides[k] != expected)
        return false;
      expected *= t.shape[k];
    }}
  }}
  std::memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  return true;
}}""",
    # the one mistake in the file: byte_offset ignored
    """float d{i}(const DLTensor &t) {{
  if (t.device.device_type != kDLCPU)
    return 0.f;
  return *static_cast<const float *>(t.data);
}}""",
]


# Same-TU helpers and the functions that rely on them ({i}: the group). Every
# helper is called from several functions, as in real code; one caller in
# twelve trusts a helper that proves nothing about the device count (a real
# finding).
HELPER_PATTERNS = [
    """static bool exportable{i}(const interop::Array &a) {{
  return a.is_single_device() && a.is_fully_addressable();
}}""",
    """interop::Status check_single{i}(const interop::Array &a) {{
  if (a.num_devices() != 1)
    return interop::Status(interop::StatusCode::kBufferError, "sharded");
  return interop::ok_status();
}}""",
    """const interop::Array &require_single{i}(const interop::Array &a) {{
  if (!a.is_single_device())
    throw std::invalid_argument("sharded");
  return a;
}}""",
    """interop::Device pick_local{i}(size_t k) {{
  std::vector<interop::Device> local = interop::local_devices();
  return local[k % local.size()];
}}""",
    """bool replicated{i}(const interop::Array &a) {{ return a.is_fully_replicated(); }}""",
    """void by_predicate{i}(const interop::Array &a, int n) {{
  if (!exportable{i}(a)) {{
    log_value(n);
    return;
  }}
  auto r = interop::to_dlpack(a);
}}""",
    """interop::Status by_status{i}(const interop::Array &a) {{
  interop::Status s = check_single{i}(a);
  if (!s.ok())
    return s;
  auto r = interop::to_dlpack(a);
  return interop::ok_status();
}}""",
    """void by_wrapper{i}(const interop::Array &a) {{
  auto r = interop::to_dlpack(require_single{i}(a));
}}""",
    """void by_lambda{i}(const interop::Array &a, std::vector<int> &out) {{
  if (!exportable{i}(a))
    return;
  auto send = [&](int k) {{
    auto r = interop::to_dlpack(a);
    out.push_back(k);
  }};
  send(1);
}}""",
    """void by_picker{i}(DLManagedTensorVersioned *t, size_t k) {{
  auto r = interop::from_dlpack(t, pick_local{i}(k));
}}""",
    """interop::Status twice{i}(const interop::Array &a, const interop::Array &b) {{
  interop::Status s = check_single{i}(a);
  if (!s.ok())
    return s;
  if (!exportable{i}(b))
    return interop::Status(interop::StatusCode::kBufferError, "b");
  auto r = interop::to_dlpack(a);
  auto q = interop::to_dlpack(b);
  return interop::ok_status();
}}""",
    """void trusts_replicated{i}(const interop::Array &a) {{
  if (!replicated{i}(a))
    return;
  auto r = interop::to_dlpack(a);
}}""",
]


def render_helpers(n):
    """About 2n functions of helpers and their callers."""
    groups = max(1, (2 * n) // len(HELPER_PATTERNS))
    body = [p.format(i=i) for i in range(groups) for p in HELPER_PATTERNS]
    return "\n".join([HEADERS, "#include <stdexcept>", PRELUDE["interop"],
                      "\n\n".join(body)]) + "\n"


def render_dlpack(n):
    """2n functions of DLPack bridge code (the size of the other TUs)."""
    body = [DLPACK_PATTERNS[i % len(DLPACK_PATTERNS)].format(i=i)
            for i in range(2 * n)]
    # Python.h first, as CPython asks.
    return "\n".join(["#include <Python.h>", HEADERS, DLPACK_PRELUDE,
                      "\n\n".join(body)]) + "\n"


def spell_interop(text):
    """A pattern's guards and uses in the interop runtime's API."""
    text = text.replace("{OK}(a)", "a.is_single_device()").replace(
        "{OK}(b)", "b.is_single_device()")
    text = text.replace("{FALLBACK}", "interop::to_dlpack(interop::gather("
                        "a, interop::local_devices()[0]).value())")
    return text.replace("{EXPORT}", "interop::to_dlpack")


def render_mixed(total=300):
    """`total` functions mixing every shape, in groups of fifteen: a group's
    same-TU helpers and their callers (predicates, status validators,
    throwing wrappers, device pickers, lambdas), one function of the
    guard/loop/container/lambda patterns, one interop extra and one DLPack
    bridge. The TU a real project's interop file most resembles."""
    s = SUBST["interop"]
    body = []
    i = 0
    while len(body) < total:
        group = [p.format(i=i) for p in HELPER_PATTERNS]
        group.append(spell_interop(PATTERNS[i % len(PATTERNS)].format(
            i=i, A=s["A"], OK="{OK}", EXPORT="{EXPORT}", MAKE=s["MAKE"],
            FALLBACK="{FALLBACK}")))
        group.append(EXTRA["interop"][i % len(EXTRA["interop"])].format(i=i))
        group.append(DLPACK_PATTERNS[i % len(DLPACK_PATTERNS)].format(i=i))
        body.extend(group[:total - len(body)])
        i += 1
    return "\n".join(["#include <Python.h>", HEADERS, "#include <stdexcept>",
                      PRELUDE["interop"], DLPACK_PRELUDE,
                      "\n\n".join(body)]) + "\n"


def render(kind, n):
    s = SUBST[kind]
    out = [HEADERS, PRELUDE[kind]]
    body = []
    for i in range(n):
        p = PATTERNS[i % len(PATTERNS)]
        text = p.format(i=i, A=s["A"], OK="{OK}", EXPORT="{EXPORT}",
                        MAKE=s["MAKE"], FALLBACK="{FALLBACK}")
        body.append(text)
        e = EXTRA[kind][i % len(EXTRA[kind])]
        body.append(e.format(i=i))
    text = "\n\n".join(body)
    # Guards and uses, spelled per kind: the interop TU uses the real API's
    # guard, the optional TU has_value() and dereference.
    if kind == "interop":
        text = spell_interop(text)
    elif kind == "plain":
        text = text.replace("{OK}(a)", "a.ready()").replace("{OK}(b)", "b.ready()")
        text = text.replace("{FALLBACK}", "plain_use(plain_copy(a).value())")
        text = text.replace("{EXPORT}", "plain_use")
    else:
        text = text.replace("{OK}(a)", "a.has_value()").replace(
            "{OK}(b)", "b.has_value()")
        text = text.replace("{FALLBACK}", "0")
        text = text.replace("{EXPORT}(", "(*")
    out.append(text)
    return "\n".join(out) + "\n"


def count_instructions(cmd):
    """Billions of user-space instructions `cmd` executes: independent of
    other load, so overheads of a few percent are measurable on a busy
    machine. perf stat where the CPU exposes the counter (not in most VMs),
    else valgrind's instruction count (deterministic, about 50x slower)."""
    proc = subprocess.run(["perf", "stat", "-x", ",", "-e", "instructions:u",
                           "--"] + cmd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    for line in proc.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("instructions"):
            try:
                return float(fields[0]) / 1e9
            except ValueError:
                break  # "<not supported>"
    proc = subprocess.run(["valgrind", "--tool=callgrind",
                           "--callgrind-out-file=/dev/null"] + cmd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    for line in proc.stderr.splitlines():
        if "Collected :" in line:
            return float(line.split(":")[-1].strip()) / 1e9
    raise SystemExit("no instruction count from perf or valgrind:\n" +
                     proc.stderr[-2000:])


def estimate_cycles(cmd):
    """Billions of cycles `cmd` would take by valgrind's cache model:
    instructions, plus 10 cycles per first-level cache miss and 100 per
    last-level miss (the usual cachegrind estimate). Deterministic like the
    instruction count, but it also weighs what the code does to the caches,
    so it tracks CPU time more closely on a machine too noisy to time."""
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes",
                           "--cachegrind-out-file=/dev/null"] + cmd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    counts = {}
    for line in proc.stderr.splitlines():
        m = re.search(r"(I|I1|LLi|D|D1|LLd)\s+(refs|misses):\s+([\d,]+)",
                      line)
        if m:
            counts[m.group(1)] = float(m.group(3).replace(",", ""))
    if not all(k in counts for k in ("I", "I1", "D1", "LLi", "LLd")):
        raise SystemExit("no cache counts from valgrind:\n" +
                         proc.stderr[-2000:])
    return (counts["I"] + 10 * (counts["I1"] + counts["D1"]) +
            100 * (counts["LLi"] + counts["LLd"])) / 1e9


def time_run(cmd, runs, metric="cpu"):
    """CPU seconds (user + system) of `cmd`, `runs` times: less sensitive to
    other processes on a shared machine than wall-clock time. With metric
    "instructions", billions of instructions instead."""
    if metric == "instructions":
        return [count_instructions(cmd) for _ in range(runs)]
    if metric == "cycles":
        return [estimate_cycles(cmd) for _ in range(runs)]
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime) +
                     (after.ru_stime - before.ru_stime))
        # Any failure (a compile error, a plugin that did not load) would
        # time something else than the checks.
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout[-3000:])
            raise SystemExit("clang-tidy failed: " + " ".join(cmd))
    return times


# The give-ups that lose findings because of a bound: "it is larger than the
# analysis bound (N CFG blocks)" and "the analysis exceeded its iteration
# bound (...)", the words of lib/engine/SkipReason.cpp.
DROPPED_RE = re.compile(r"warning: function '[^']*' was not analysed: "
                        r"(it is larger than the analysis bound|"
                        r"the analysis exceeded its iteration bound)")


def count_dropped(cmd, checks, clang_tidy, plugin):
    """How many (function, check) pairs of `cmd` went over a bound: reruns it
    once with ReportSkippedFunctions set on each interop check it enables."""
    listed = subprocess.run([clang_tidy, "--load=" + plugin,
                             "-checks=-*," + checks, "--list-checks"],
                            stdout=subprocess.PIPE, text=True, check=True)
    names = [w.strip() for w in listed.stdout.splitlines()
             if w.strip().startswith("interop-")]
    if not names:
        return 0
    config = "--config={CheckOptions: {%s}}" % ", ".join(
        "%s.ReportSkippedFunctions: true" % n for n in names)
    proc = subprocess.run(cmd[:1] + [config] + cmd[1:], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return len(DROPPED_RE.findall(proc.stdout))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--functions", type=int, default=300)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--out", default=None)
    ap.add_argument("--trivial", default="misc-unused-alias-decls")
    ap.add_argument("--only", default=None,
                    help="comma-separated TUs to measure (interop, counts, "
                    "no-interop, helpers, mixed, DLPack, optional); all by "
                    "default")
    ap.add_argument("--metric", choices=["cpu", "instructions", "cycles"],
                    default="cpu",
                    help="cpu: user+system seconds; instructions: user-space "
                    "instructions (perf or valgrind); cycles: valgrind's "
                    "cache-model estimate of cycles (deterministic)")
    args = ap.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = args.out or os.path.join(args.build, "bench-checks")
    os.makedirs(out, exist_ok=True)
    plugin = os.path.join(args.build, "checks", "InteropTidy.so")
    include = os.path.join(root, "runtime", "include")
    files = {}
    for kind in ("interop", "plain", "optional", "dlpack", "counts",
                 "helpers", "mixed"):
        path = os.path.join(out, kind + ".cpp")
        if kind == "mixed":
            text = render_mixed()
        elif kind == "dlpack":
            text = render_dlpack(args.functions)
        elif kind == "helpers":
            text = render_helpers(args.functions)
        elif kind == "counts":
            # interop.cpp with every guard spelled as a device count, which
            # the syntactic fast path does not read: every function that
            # exports goes through the flow analysis (the worst case).
            text = render("interop", args.functions)
            for v in ("a", "b"):
                text = text.replace(v + ".is_single_device()",
                                    "(" + v + ".num_devices() == 1)")
        else:
            text = render(kind, args.functions)
        with open(path, "w") as f:
            f.write(text)
        files[kind] = path

    # The five checks of JAX's five errors: the four array/device checks and
    # interop-unsupported-dlpack-device.
    jax_checks = ("interop-sharded-dlpack-export,"
                  "interop-nonaddressable-dlpack-import,"
                  "interop-sharded-cuda-array-interface,"
                  "interop-tpu-dlpack-memory-kind,"
                  "interop-unsupported-dlpack-device")
    python_include = sysconfig.get_paths()["include"]  # for <Python.h>

    def tidy(path, checks):
        return [args.clang_tidy, "--load=" + plugin, "--quiet",
                "-checks=-*," + checks, path, "--", "-std=c++17", "-I" + include,
                "-isystem", python_include]

    rows = [
        ("interop TU", "baseline: " + args.trivial, files["interop"], args.trivial),
        ("interop TU", "+ the 5 JAX-error checks", files["interop"],
         args.trivial + "," + jax_checks),
        ("interop TU", "+ every interop-* check", files["interop"],
         args.trivial + ",interop-*"),
        ("counts TU", "baseline: " + args.trivial, files["counts"], args.trivial),
        ("counts TU", "+ the 5 JAX-error checks", files["counts"],
         args.trivial + "," + jax_checks),
        ("counts TU", "+ every interop-* check", files["counts"],
         args.trivial + ",interop-*"),
        ("no-interop TU", "baseline: " + args.trivial, files["plain"], args.trivial),
        ("no-interop TU", "+ the 5 JAX-error checks", files["plain"],
         args.trivial + "," + jax_checks),
        ("no-interop TU", "+ every interop-* check", files["plain"],
         args.trivial + ",interop-*"),
        ("helpers TU", "baseline: " + args.trivial, files["helpers"], args.trivial),
        ("helpers TU", "+ the 5 JAX-error checks", files["helpers"],
         args.trivial + "," + jax_checks),
        ("helpers TU", "+ every interop-* check", files["helpers"],
         args.trivial + ",interop-*"),
        ("mixed TU", "baseline: " + args.trivial, files["mixed"], args.trivial),
        ("mixed TU", "+ the 5 JAX-error checks", files["mixed"],
         args.trivial + "," + jax_checks),
        ("mixed TU", "+ every interop-* check", files["mixed"],
         args.trivial + ",interop-*"),
        ("DLPack TU", "baseline: " + args.trivial, files["dlpack"], args.trivial),
        ("DLPack TU", "+ every interop-* check", files["dlpack"],
         args.trivial + ",interop-*"),
        ("optional TU", "baseline: " + args.trivial, files["optional"], args.trivial),
        ("optional TU", "+ bugprone-unchecked-optional-access", files["optional"],
         args.trivial + ",bugprone-unchecked-optional-access"),
    ]
    if args.only:
        wanted = [w.strip() + " TU" for w in args.only.split(",")]
        rows = [r for r in rows if r[0] in wanted]
        if not rows:
            raise SystemExit("--only matches no TU")
    # Warm the page cache and check every command works.
    for _, _, path, checks in rows:
        time_run(tidy(path, checks), 1)
    results = {}
    # Interleave the configurations so that load changes hit them alike.
    samples = {i: [] for i in range(len(rows))}
    for _ in range(args.runs):
        for i, (_, _, path, checks) in enumerate(rows):
            samples[i].append(time_run(tidy(path, checks), 1, args.metric)[0])
    base = {}
    base_row = {}
    print("functions per TU: %d (+ %d extra), runs: %d" %
          (args.functions, args.functions, args.runs))
    unit = {"cpu": "s", "instructions": "G instr", "cycles": "G cyc"}[
        args.metric]
    print({"cpu": "CPU seconds (user + system) of one clang-tidy run",
           "instructions": "user-space instructions of one clang-tidy run "
                           "(perf stat or valgrind)",
           "cycles": "estimated cycles of one clang-tidy run (cachegrind: "
                     "instructions + 10 per L1 miss + 100 per LL miss)"}[
        args.metric])
    print("%-14s %-40s %8s %8s %9s" % ("TU", "checks", "min " + unit,
                                       "median", "overhead"))
    for i, (tu, label, _, _) in enumerate(rows):
        mn, md = min(samples[i]), statistics.median(samples[i])
        if label.startswith("baseline"):
            base[tu] = (mn, md)
            base_row[tu] = i
            over = ""
        else:
            # Each round runs the baseline next to this configuration, so
            # the ratio within a round cancels slow changes of the machine's
            # speed; its median is the steadiest CPU figure on a shared VM.
            paired = statistics.median(
                s / b for s, b in zip(samples[i], samples[base_row[tu]]))
            over = "%+.1f%% / %+.1f%% / %+.1f%%" % (
                100 * (mn / base[tu][0] - 1), 100 * (md / base[tu][1] - 1),
                100 * (paired - 1))
        print("%-14s %-40s %8.3f %8.3f  %s" % (tu, label, mn, md, over))
    print("(overhead: min over min / median over median / median of the "
          "ratios within each round)")
    # What the figures do not cover: functions a bound made a check drop
    # (reported with ReportSkippedFunctions, counted once per check).
    print("functions dropped over the analysis bounds (function x check):")
    for tu, label, path, checks in rows:
        if label.startswith("baseline"):
            continue
        dropped = count_dropped(tidy(path, checks), checks, args.clang_tidy,
                                plugin)
        print("%-14s %-40s %8d" % (tu, label, dropped))


if __name__ == "__main__":
    main()
