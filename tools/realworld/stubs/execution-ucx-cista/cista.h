// Self-written stand-in for cista's generated single header (cista.h, a
// release artifact, not in the cista repository): include the repository's
// own headers that the amalgamation is made of.
#pragma once
#include <cista/serialization.h>
