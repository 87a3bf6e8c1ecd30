// Self-written forwarder (first-contact-11): torch_tvm of 2019 compiled against the installed
// PyTorch 1.13 headers, where the 2019 header torch/csrc/jit/operator_options.h is now torch/csrc/jit/runtime/operator_options.h.
#pragma once
#include <torch/csrc/jit/runtime/operator_options.h>
