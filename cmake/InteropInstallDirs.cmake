# Where `cmake --install` puts each artifact: GNUInstallDirs plus the
# project's own folders, all relative to the install prefix so that an
# installed tree (or the .deb) can be moved. Included by the top-level
# CMakeLists.txt before any install() rule.
# Libraries go to the multiarch folder (lib/x86_64-linux-gnu on amd64) where
# the platform has one, whatever the prefix: Debian's packages need it, and
# its loader, pkg-config and CMake search it under /usr and /usr/local too.
# GNUInstallDirs alone picks it only for a /usr prefix known at configure
# time. Embedded, the parent's choice stands.
if(PROJECT_IS_TOP_LEVEL AND NOT DEFINED CMAKE_INSTALL_LIBDIR AND
   CMAKE_LIBRARY_ARCHITECTURE AND EXISTS /etc/debian_version)
  set(CMAKE_INSTALL_LIBDIR lib/${CMAKE_LIBRARY_ARCHITECTURE} CACHE PATH
      "Object code libraries (lib/<multiarch>)")
endif()
include(GNUInstallDirs)

option(INTEROP_INSTALL "Generate the install rules (and the CPack package)"
       ${PROJECT_IS_TOP_LEVEL})

# The 0.x series may break the ABI in every minor release, so the SONAME
# carries major.minor until 1.0 (libinterop_shim.so.0.1), the major after.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(INTEROP_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
else()
  set(INTEROP_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()

set(INTEROP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/interop CACHE STRING
    "Where find_package(interop CONFIG) files go, relative to the prefix")
set(INTEROP_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/interop-tidy CACHE STRING
    "Where the clang-tidy plugin goes, relative to the prefix")
set(INTEROP_INSTALL_PYTHONDIR "" CACHE STRING
    "Where the interop_shim Python module goes, relative to the prefix; empty: chosen at install time for the prefix (see runtime/python/CMakeLists.txt)")
mark_as_advanced(INTEROP_INSTALL_CMAKEDIR INTEROP_INSTALL_PLUGINDIR
                 INTEROP_INSTALL_PYTHONDIR)
