// Stand-in for OpenFst's <fst/types.h> (Kaldi's tools/openfst is not in the
// snapshot): the global fixed-width integer names Kaldi's kaldi-types.h
// imports. Written for the real-world harness; not OpenFst's header.
#ifndef REALWORLD_STUB_FST_TYPES_H_
#define REALWORLD_STUB_FST_TYPES_H_
#include <stdint.h>
typedef int8_t int8;
typedef int16_t int16;
typedef int32_t int32;
typedef int64_t int64;
typedef uint8_t uint8;
typedef uint16_t uint16;
typedef uint32_t uint32;
typedef uint64_t uint64;
#endif
