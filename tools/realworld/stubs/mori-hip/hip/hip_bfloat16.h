/* Self-written minimal stand-in (first-contact-20, mori DLPack utils):
   only the type name the file uses. */
#pragma once
#include <cstdint>
struct hip_bfloat16 { uint16_t data; };
