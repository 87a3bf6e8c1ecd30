/* Self-written stand-in for quadrants' CMake-generated version header
   (quadrants/common/version.h.in): only the macros its headers read. */
#pragma once
#define QD_VERSION_MAJOR 0
#define QD_VERSION_MINOR 0
#define QD_VERSION_PATCH 0
