// Self-written minimal stand-in (not LAMMPS code) for the LAMMPS header
// accelerator_kokkos.h, only what lammps-dlext's LAMMPSView.h/PyDLExt.h need
// to parse: the ExecutionSpace enumeration.
#pragma once
namespace LAMMPS_NS {
enum ExecutionSpace { Host, Device };
}
