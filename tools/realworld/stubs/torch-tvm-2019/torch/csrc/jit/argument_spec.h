// Self-written forwarder (first-contact-11): torch_tvm of 2019 compiled against the installed
// PyTorch 1.13 headers, where the 2019 header torch/csrc/jit/argument_spec.h is now torch/csrc/jit/runtime/argument_spec.h.
#pragma once
#include <torch/csrc/jit/runtime/argument_spec.h>
