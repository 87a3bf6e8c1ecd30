# The installed package around the targets' own install rules: the CMake
# package `interop` (config + version file), pkg-config's interop.pc and the
# docs.
# Included at the end of the top-level CMakeLists.txt, when INTEROP_INSTALL.
include(CMakePackageConfigHelpers)

# ---- find_package(interop CONFIG) ------------------------------------------
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
