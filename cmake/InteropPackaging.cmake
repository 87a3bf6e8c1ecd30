# The installed package around the targets' own install rules: the CMake
# package `interop` (config + version file), pkg-config's interop.pc, the
# docs, and the Debian packages (`cpack -G DEB` in the build folder).
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
        DESTINATION ${INTEROP_INSTALL_CMAKEDIR} COMPONENT dev)

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
  # dlopen and clock_gettime's librt. The toolkit's folder is not named: it
  # is a path of this machine (a CUDA toolkit outside the linker's default
  # folders is not a path an installed package can promise); who links the
  # static library adds -L<toolkit>/lib64 where it lives (README).
  set(INTEROP_PC_LIBS_PRIVATE "-lcudart_static -lpthread -ldl -lrt")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/interop.pc.in
               ${PROJECT_BINARY_DIR}/pkgconfig/interop.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/interop.pc
        DESTINATION ${INTEROP_PC_DIR} COMPONENT dev)

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/runtime.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT dev)
endif()

# ---- the Debian packages ----------------------------------------------------
# `cpack -G DEB` makes one package per install component:
#
#   runtime -> libinterop-shim<SONAME version>  the shared library
#   dev     -> libinterop-shim-dev              headers, static library, .so
#                                               link, CMake and pkg-config files
#   python  -> python3-interop                  the interop_shim module
#   checksN -> interop-tidy-llvm-N              the clang-tidy plugin built for
#              LLVM major N (its two modules); depends on clang-tidy-N
#   plugin  -> interop-tidy                     the interop-tidy wrapper,
#              interop-tidy-ci, man pages, check pages, editor modules and
#              the pre-commit hook; depends on the plugin of any major
#
# A build for another major (INTEROP_LLVM_MAJOR=19) makes its own
# interop-tidy-llvm-19, installable beside interop-tidy-llvm-22: the modules
# live in per-major folders and the wrapper loads the one of the clang-tidy
# it runs. Its interop-tidy is the same as the default build's.
#
# The library package is named after its SONAME (libinterop_shim.so.0.1 ->
# libinterop-shim0.1), as Debian policy asks, so that two ABI versions can be
# installed together. Only interop-tidy-llvm-N depends on clang-tidy. Each package's
# Depends are what dpkg-shlibdeps finds in its ELF files (libc6, libstdc++6,
# libgcc-s1) plus the Debian packages its other files need.
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

set(INTEROP_DEB_RELEASE 1)
set(INTEROP_DEB_VERSION ${PROJECT_VERSION}-${INTEROP_DEB_RELEASE})
string(REPLACE "_" "-" INTEROP_DEB_LIBRARY "libinterop-shim${INTEROP_SOVERSION}")
set(INTEROP_DEB_MAINTAINER
    "interop-tidy maintainers <maintainers@users.noreply.a-seed-16bd27fe.example>")

# A lint-only build (INTEROP_LINT_ONLY) has only the plugin's component.
if(INTEROP_LINT_ONLY)
  set(components "")
else()
  set(components runtime dev)
endif()
set(missing "")
find_file(INTEROP_DLPACK_HEADER dlpack/dlpack.h HINTS ${dlpack_includes})
mark_as_advanced(INTEROP_DLPACK_HEADER)
interop_deb_package_of("${INTEROP_DLPACK_HEADER}" dlpack_package dlpack_version)
if(NOT dlpack_package)
  list(APPEND missing "${INTEROP_DLPACK_HEADER}")
endif()

# runtime: the shared library.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${INTEROP_DEB_LIBRARY})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
string(JOIN "\n" CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "interop_shim: DLPack array exchange with JAX's validations - shared library"
  "interop_shim performs the real CPU, CUDA and TPU-host DLPack conversion of"
  "sharding-aware arrays, with the same validations as JAX and its exact error"
  "messages at the boundary. The CUDA runtime, when built with it, is linked in"
  "statically, so the library needs no CUDA package."
  "."
  "This package holds the shared library.")

# dev: what building against it needs.
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libinterop-shim-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(dev_depends "${INTEROP_DEB_LIBRARY} (= ${INTEROP_DEB_VERSION})")
if(dlpack_package)  # the headers include <dlpack/dlpack.h>
  string(APPEND dev_depends ", ${dlpack_package}")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${dev_depends}")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "cmake | pkgconf")
string(JOIN "\n" CPACK_DEBIAN_DEV_DESCRIPTION
  "interop_shim: DLPack array exchange with JAX's validations - dev files"
  "interop_shim performs the real CPU, CUDA and TPU-host DLPack conversion of"
  "sharding-aware arrays, with the same validations as JAX and its exact error"
  "messages at the boundary."
  "."
  "This package holds the headers (with a DLPack 1.x backfill over Debian's"
  "dlpack), the static library, a CMake package (find_package(interop)) and"
  "pkg-config's interop.pc. The static library of a CUDA build links the static"
  "CUDA runtime, so linking it needs a CUDA toolkit.")

# python: the interop_shim module, for the python3 minor it was built for.
if(TARGET interop_shim_python)
  list(APPEND components python)
  get_target_property(python_version interop_shim_python INTEROP_PYTHON_VERSION)
  string(REPLACE "." ";" python_mm "${python_version}")
  list(GET python_mm 0 python_major)
  list(GET python_mm 1 python_minor)
  math(EXPR python_next "${python_minor} + 1")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-interop)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
      "python3 (>= ${python_version}~), python3 (<< ${python_major}.${python_next})")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS "python3-numpy")
  string(JOIN "\n" CPACK_DEBIAN_PYTHON_DESCRIPTION
    "interop_shim: DLPack array exchange with JAX's validations - Python 3"
    "interop_shim performs the real CPU, CUDA and TPU-host DLPack conversion of"
    "sharding-aware arrays, with the same validations as JAX and its exact error"
    "messages at the boundary."
    "."
    "This package holds the interop_shim Python module: the DLPack capsule"
    "protocol (__dlpack__, from_dlpack) with NumPy, PyTorch and other producers.")
endif()

# checksN: the plugin of this LLVM major; plugin: the tools around it.
if(NOT INTEROP_RUNTIME_ONLY)
  set(checks checks${LLVM_VERSION_MAJOR})
  string(TOUPPER ${checks} checks_upper)
  list(APPEND components ${checks} plugin)
  set(checks_depends "")
  interop_deb_package_of("${INTEROP_CLANG_TIDY}" tidy_package tidy_version)
  if(tidy_package)
    # The plugin loads only into the LLVM major.minor it was compiled against.
    string(REGEX MATCH "^[0-9]+:" epoch "${tidy_version}")
    math(EXPR next_minor "${LLVM_VERSION_MINOR} + 1")
    list(APPEND checks_depends
      "${tidy_package} (>= ${epoch}${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR})"
      "${tidy_package} (<< ${epoch}${LLVM_VERSION_MAJOR}.${next_minor}~)")
  else()
    list(APPEND missing "${INTEROP_CLANG_TIDY}")
  endif()
  list(JOIN checks_depends ", " CPACK_DEBIAN_${checks_upper}_PACKAGE_DEPENDS)
  set(CPACK_DEBIAN_${checks_upper}_PACKAGE_RECOMMENDS interop-tidy)
  set(CPACK_DEBIAN_${checks_upper}_PACKAGE_NAME
      interop-tidy-llvm-${LLVM_VERSION_MAJOR})
  set(CPACK_DEBIAN_${checks_upper}_PACKAGE_SECTION devel)
  string(JOIN "\n" CPACK_DEBIAN_${checks_upper}_DESCRIPTION
    "clang-tidy ${LLVM_VERSION_MAJOR} plugin: checks for array-interop misuse"
    "The interop-* checks built for clang-tidy ${LLVM_VERSION_MAJOR}: they flag exporting a"
    "possibly sharded array through DLPack or __cuda_array_interface__,"
    "importing onto a device the process cannot address, trusting a DLPack"
    "tensor's device type, and the DLPack ABI bugs (byte_offset, strides,"
    "versions, capsule protocol, deleter ownership)."
    "."
    "The plugins of several clang-tidy majors install side by side; the"
    "interop-tidy package's commands load the one of the clang-tidy they run.")
  # The tools work with the plugin of any major, this build's first.
  set(alternatives "interop-tidy-llvm-${LLVM_VERSION_MAJOR} (= ${INTEROP_DEB_VERSION})")
  foreach(major IN LISTS INTEROP_SUPPORTED_LLVM_MAJORS)
    if(NOT major EQUAL LLVM_VERSION_MAJOR)
      string(APPEND alternatives
             " | interop-tidy-llvm-${major} (= ${INTEROP_DEB_VERSION})")
    endif()
  endforeach()
  # interop-tidy-ci is Python reading clang-tidy's --export-fixes YAML.
  set(CPACK_DEBIAN_PLUGIN_PACKAGE_DEPENDS "${alternatives}, python3, python3-yaml")
  # --diff runs git, and follows headers with clang's clang-scan-deps.
  set(CPACK_DEBIAN_PLUGIN_PACKAGE_RECOMMENDS "git, clang-${LLVM_VERSION_MAJOR}")
  set(CPACK_DEBIAN_PLUGIN_PACKAGE_SUGGESTS "libinterop-shim-dev, elpa-flycheck, neovim")
  set(CPACK_DEBIAN_PLUGIN_PACKAGE_NAME interop-tidy)
  set(CPACK_DEBIAN_PLUGIN_PACKAGE_SECTION devel)
  string(JOIN "\n" CPACK_DEBIAN_PLUGIN_DESCRIPTION
    "clang-tidy checks for array-interop misuse (DLPack, CUDA array interface)"
    "The commands and documents of the interop-* clang-tidy checks, which flag"
    "exporting a possibly sharded array through DLPack or"
    "__cuda_array_interface__, importing onto a device the process cannot"
    "address, trusting a DLPack tensor's device type, and the DLPack ABI bugs"
    "(byte_offset, strides, versions, capsule protocol, deleter ownership)."
    "."
    "It holds interop-tidy, clang-tidy with the plugin loaded, and"
    "interop-tidy-ci, a CI gate over a compile database (diff mode, SARIF and"
    "GitLab reports, baselines, shards, a result cache), their man pages, the"
    "checks' pages, Flycheck and Neovim modules and a git pre-commit hook"
    "(in /usr/share/interop-tidy). The plugin itself is in"
    "interop-tidy-llvm-N, one package per clang-tidy major.")
endif()
if(missing)
  message(STATUS "interop-tidy .deb: no Debian package owns ${missing}; "
                 "the packages will not depend on it")
endif()

# Every package's /usr/share/doc/<package>/copyright and changelog.Debian.gz.
# Installed only for a component's own install (CPack's), not by a plain
# `cmake --install`.
string(TIMESTAMP deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(deb_dir ${PROJECT_BINARY_DIR}/debian)
file(MAKE_DIRECTORY ${deb_dir})
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/copyright ${deb_dir}/copyright COPYONLY)
foreach(component IN LISTS components)
  string(TOUPPER ${component} upper)
  set(package ${CPACK_DEBIAN_${upper}_PACKAGE_NAME})
  file(WRITE ${deb_dir}/${package}.changelog.Debian
    "${package} (${INTEROP_DEB_VERSION}) unstable; urgency=medium\n\n"
    "  * Built from interop-tidy ${PROJECT_VERSION}.\n\n"
    " -- ${INTEROP_DEB_MAINTAINER}  ${deb_date}\n")
  execute_process(COMMAND gzip -9 -n -f ${deb_dir}/${package}.changelog.Debian
                  RESULT_VARIABLE gzip_rc)
  if(NOT gzip_rc EQUAL 0)
    message(FATAL_ERROR "gzip of ${deb_dir}/${package}.changelog.Debian failed")
  endif()
  install(FILES ${deb_dir}/copyright
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package}
          COMPONENT ${component} EXCLUDE_FROM_ALL)
  install(FILES ${deb_dir}/${package}.changelog.Debian.gz
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package}
          RENAME changelog.Debian.gz COMPONENT ${component} EXCLUDE_FROM_ALL)
endforeach()

set(CPACK_PACKAGE_NAME interop-tidy)
set(CPACK_PACKAGE_VENDOR "interop-tidy")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "clang-tidy checks and runtime for array interop (DLPack, CUDA array interface)")
set(CPACK_GENERATOR DEB)
set(CPACK_COMPONENTS_ALL ${components})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The Python module's install script (runtime/python) picks its folder from
# the real prefix: with DESTDIR, CMAKE_INSTALL_PREFIX is /usr while CPack
# stages the files.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${INTEROP_DEB_RELEASE})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${INTEROP_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The shared library's package: a shlibs file, and the ldconfig trigger.
# CPack writes postinst/postrm scripts that run ldconfig for a library in
# /usr/lib; Debian has replaced them with the dpkg trigger, which
# cmake/InteropDebFinish.cmake puts in their place once the packages are
# built.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# (CPACK_* variables are what the post-build script sees.)
set(CPACK_INTEROP_LDCONFIG_PACKAGE ${INTEROP_DEB_LIBRARY})
set(CPACK_POST_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/InteropDebFinish.cmake)
include(CPack)
