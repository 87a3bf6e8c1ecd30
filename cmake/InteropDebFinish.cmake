# Run by cpack after it has built the Debian packages (CPACK_POST_BUILD_SCRIPTS,
# set in cmake/InteropPackaging.cmake), once per generator run.
#
# CPack gives a package with a shared library in /usr/lib postinst and postrm
# scripts that run ldconfig. Debian replaced those with a dpkg trigger
# (`activate-noawait ldconfig`, which debhelper writes), and lintian rejects
# the scripts. This script rebuilds the library package
# (CPACK_INTEROP_LDCONFIG_PACKAGE) with the trigger in their place; every
# other file of it is left as CPack made it.
find_program(dpkg_deb dpkg-deb REQUIRED)
foreach(deb IN LISTS CPACK_PACKAGE_FILES)
  get_filename_component(name "${deb}" NAME)
  if(NOT name MATCHES "^${CPACK_INTEROP_LDCONFIG_PACKAGE}_.*\\.deb$")
    continue()
  endif()
  set(tree "${deb}.tree")
  file(REMOVE_RECURSE "${tree}")
  execute_process(COMMAND ${dpkg_deb} --raw-extract "${deb}" "${tree}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb --raw-extract ${deb} failed")
  endif()
  file(REMOVE "${tree}/DEBIAN/postinst" "${tree}/DEBIAN/postrm")
  file(WRITE "${tree}/DEBIAN/triggers" "activate-noawait ldconfig\n")
  file(CHMOD "${tree}/DEBIAN/triggers" PERMISSIONS OWNER_READ OWNER_WRITE
       GROUP_READ WORLD_READ)
  execute_process(COMMAND ${dpkg_deb} --root-owner-group -Zgzip --build
                          "${tree}" "${deb}"
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb --build ${tree} failed")
  endif()
  file(REMOVE_RECURSE "${tree}")
  message(STATUS "interop-tidy: ${name}: ldconfig trigger instead of maintainer scripts")
endforeach()
