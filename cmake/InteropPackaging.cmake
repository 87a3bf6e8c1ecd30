# The installed package around the targets' own install rules: the CMake
# package `interop` (config + version file), pkg-config's interop.pc, the
# docs, and the Debian package (`cpack -G DEB` in the build folder).
# Included at the end of the top-level CMakeLists.txt, when INTEROP_INSTALL.
include(CMakePackageConfigHelpers)

# ---- find_package(interop CONFIG) ------------------------------------------
if(NOT INTEROP_LINT_ONLY)  # the runtime's files; a lint-only build has none
if(INTEROP_HAVE_CUDA)
  # The toolkit's root (/usr/local/cuda), a hint for consumers of the static
  # library; FindCUDAToolkit leaves no cache variable naming it.
  get_filename_component(INTEROP_CUDA_ROOT "${CUDAToolkit_BIN_DIR}" DIRECTORY)
endif()
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/interopConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/interopConfig.cmake
  INSTALL_DESTINATION ${INTEROP_INSTALL_CMAKEDIR})
# 0.x minors may break the API, as the SONAME says (InteropInstallDirs.cmake).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(compatibility SameMinorVersion)
else()
  set(compatibility SameMajorVersion)
endif()
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/interopConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${compatibility})
install(FILES ${PROJECT_BINARY_DIR}/cmake/interopConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/interopConfigVersion.cmake
        DESTINATION ${INTEROP_INSTALL_CMAKEDIR} COMPONENT runtime)

# ---- pkg-config ------------------------------------------------------------
set(INTEROP_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH INTEROP_PC_PREFIX ${CMAKE_INSTALL_PREFIX}/${INTEROP_PC_DIR}
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" INTEROP_PC_PREFIX "${INTEROP_PC_PREFIX}")
# dlpack has no .pc file; its headers are named only when not in a default
# folder.
get_target_property(dlpack_includes dlpack::dlpack INTERFACE_INCLUDE_DIRECTORIES)
set(INTEROP_PC_CFLAGS "")
foreach(dir IN LISTS dlpack_includes)
  if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    string(APPEND INTEROP_PC_CFLAGS " -I${dir}")
  endif()
endforeach()
set(INTEROP_PC_LIBS_PRIVATE "")
if(INTEROP_HAVE_CUDA)
  # What CUDA::cudart_static brings (FindCUDAToolkit): the archive, threads,
  # dlopen and clock_gettime's librt.
  set(INTEROP_PC_LIBS_PRIVATE
      "-L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lpthread -ldl -lrt")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/interop.pc.in
               ${PROJECT_BINARY_DIR}/pkgconfig/interop.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/interop.pc
        DESTINATION ${INTEROP_PC_DIR} COMPONENT runtime)

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/runtime.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
endif()

# ---- the Debian package ----------------------------------------------------
# Its Depends: what dpkg-shlibdeps finds in the ELF files (libc6,
# libstdc++6, libgcc-s1), and the Debian packages of this build's clang-tidy
# (the plugin loads only into the LLVM major.minor it was compiled against),
# of the dlpack headers the installed headers include, and of the Python the
# module was built for.
function(interop_deb_package_of path out_name out_version)
  set(${out_name} "" PARENT_SCOPE)
  find_program(INTEROP_DPKG_QUERY dpkg-query)
  mark_as_advanced(INTEROP_DPKG_QUERY)
  if(NOT INTEROP_DPKG_QUERY OR NOT EXISTS "${path}")
    return()
  endif()
  get_filename_component(real "${path}" REALPATH)
  execute_process(COMMAND ${INTEROP_DPKG_QUERY} -S "${real}"
                  OUTPUT_VARIABLE owner RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0 OR NOT owner MATCHES "^([^:,]+)(:[a-z0-9]+)?: ")
    return()
  endif()
  set(package ${CMAKE_MATCH_1})
  execute_process(COMMAND ${INTEROP_DPKG_QUERY} -W -f=\${Version} ${package}
                  OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out_name} ${package} PARENT_SCOPE)
  set(${out_version} "${version}" PARENT_SCOPE)
endfunction()

set(depends "")
set(missing "")
if(NOT INTEROP_RUNTIME_ONLY)
  interop_deb_package_of("${INTEROP_CLANG_TIDY}" tidy_package tidy_version)
  if(tidy_package)
    string(REGEX MATCH "^[0-9]+:" epoch "${tidy_version}")
    math(EXPR next_minor "${LLVM_VERSION_MINOR} + 1")
    list(APPEND depends
      "${tidy_package} (>= ${epoch}${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR})"
      "${tidy_package} (<< ${epoch}${LLVM_VERSION_MAJOR}.${next_minor}~)")
  else()
    list(APPEND missing "${INTEROP_CLANG_TIDY}")
  endif()
  # interop-tidy-ci, installed with the plugin, is Python reading
  # clang-tidy's --export-fixes YAML (python3 itself: below, or here when no
  # Python module is packaged).
  list(APPEND depends python3-yaml)
  if(NOT TARGET interop_shim_python)
    list(APPEND depends python3)
  endif()
endif()
find_file(INTEROP_DLPACK_HEADER dlpack/dlpack.h HINTS ${dlpack_includes})
mark_as_advanced(INTEROP_DLPACK_HEADER)
interop_deb_package_of("${INTEROP_DLPACK_HEADER}" dlpack_package dlpack_version)
if(dlpack_package)
  list(APPEND depends ${dlpack_package})
else()
  list(APPEND missing "${INTEROP_DLPACK_HEADER}")
endif()
if(TARGET interop_shim_python)
  get_target_property(python_version interop_shim_python
                      INTEROP_PYTHON_VERSION)
  string(REPLACE "." ";" python_mm "${python_version}")
  list(GET python_mm 0 python_major)
  list(GET python_mm 1 python_minor)
  math(EXPR python_next "${python_minor} + 1")
  list(APPEND depends "python3 (>= ${python_version}~)"
                      "python3 (<< ${python_major}.${python_next})")
endif()
if(missing)
  message(STATUS "interop-tidy .deb: no Debian package owns ${missing}; "
                 "the package will not depend on it")
endif()
list(JOIN depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)

set(CPACK_PACKAGE_NAME interop-tidy)
set(CPACK_PACKAGE_VENDOR "interop-tidy")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "clang-tidy checks and runtime for array interop (DLPack, CUDA array interface)")
if(INTEROP_RUNTIME_ONLY)
  set(contents "It holds interop_shim, the runtime that")
else()
  string(JOIN "\n" contents
    "It holds a plugin for clang-tidy ${LLVM_VERSION_MAJOR} (the interop-* checks) and the"
    "interop-tidy wrapper that loads it, and interop_shim, the runtime that")
endif()
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "interop-tidy finds array-interop misuse before it runs."
  "${contents}"
  "performs the real DLPack conversion with the same validations: shared and"
  "static libraries, headers, a CMake package (find_package(interop)),"
  "pkg-config's interop.pc and the interop_shim Python module. The static"
  "library of a CUDA build links the static CUDA runtime, so it needs a CUDA"
  "toolkit where it is linked; the shared one does not.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The Python module's install script (runtime/python) picks its folder from
# the real prefix: with DESTDIR, CMAKE_INSTALL_PREFIX is /usr while CPack
# stages the files.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER
    "interop-tidy maintainers <maintainers@users.noreply.a-seed-16bd27fe.example>")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-numpy, cmake | pkgconf")
include(CPack)
