// Self-written forwarder (first-contact-11): torch_tvm of 2019 compiled against the installed
// PyTorch 1.13 headers, where the 2019 header torch/csrc/jit/custom_operator.h is now torch/csrc/jit/runtime/custom_operator.h.
#pragma once
#include <torch/csrc/jit/runtime/custom_operator.h>
