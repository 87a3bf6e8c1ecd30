// Self-written forwarder (first-contact-11): torch_tvm of 2019 compiled against the installed
// PyTorch 1.13 headers, where the 2019 header torch/csrc/autograd/record_function.h is now ATen/record_function.h.
#pragma once
#include <ATen/record_function.h>
