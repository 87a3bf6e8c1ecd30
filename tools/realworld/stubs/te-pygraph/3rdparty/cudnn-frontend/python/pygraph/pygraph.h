// Self-written forwarder (interop-tidy realworld stubs): TransformerEngine includes
// cudnn-frontend's pygraph.h through its submodule path, which the TE snapshot lacks;
// the cudnn-frontend dependency (include root "python") provides the real header.
#pragma once
#include "pygraph/pygraph.h"
