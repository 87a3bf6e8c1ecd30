// Self-written minimal stand-in (not LAMMPS code) for the LAMMPS header
// pointers.h: forward declarations and integer aliases used by lammps-dlext.
#pragma once
#include <cstdint>
#include <cstring>
namespace LAMMPS_NS {
typedef int64_t bigint;
typedef int tagint;
typedef int imageint;
class LAMMPS;
class Atom;
class AtomKokkos;
class Pointers {
 public:
  explicit Pointers(LAMMPS *) {}
};
}  // namespace LAMMPS_NS
