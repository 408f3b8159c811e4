# What `cmake --install` puts where (GNU layout), and the .deb that `cpack -G DEB` builds from it.
include(CMakePackageConfigHelpers)

# The CLI and the experiments library find libtreelab beside them wherever the prefix is.
set_target_properties(treelab_cli PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
set_target_properties(treelab_experiments PROPERTIES INSTALL_RPATH "$ORIGIN")

install(TARGETS treelab treelab_experiments EXPORT treelabTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Static libraries for `pkg-config --static`; CMake users get the shared ones.
install(TARGETS treelab_static treelab_experiments_static
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(TARGETS treelab_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/treelab
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)

# treelab.pc names the prefix given at install time (cmake --install --prefix, or /usr for the
# .deb): the prefix is left as @CMAKE_INSTALL_PREFIX@ here and filled in by the install step.
set(TL_PC_PREFIX "@CMAKE_INSTALL_PREFIX@")
configure_file(${PROJECT_SOURCE_DIR}/cmake/treelab.pc.in ${PROJECT_BINARY_DIR}/treelab.pc.in @ONLY)
install(CODE "configure_file(${PROJECT_BINARY_DIR}/treelab.pc.in ${PROJECT_BINARY_DIR}/treelab.pc @ONLY)"
        COMPONENT dev)
install(FILES ${PROJECT_BINARY_DIR}/treelab.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

set(TL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/treelab)
install(EXPORT treelabTargets NAMESPACE treelab:: DESTINATION ${TL_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/treelabConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/treelabConfig.cmake
                              INSTALL_DESTINATION ${TL_CMAKE_DIR})
# The SONAME changes with the major version, and so does compatibility.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/treelabConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/treelabConfig.cmake
        ${PROJECT_BINARY_DIR}/treelabConfigVersion.cmake
        DESTINATION ${TL_CMAKE_DIR} COMPONENT dev)

install(FILES ${PROJECT_SOURCE_DIR}/docs/man/treelab.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/docs/completion/treelab
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT runtime)

# One .deb holding everything (program, libraries, headers, pkg-config and CMake files);
# dpkg-shlibdeps (dpkg-dev) derives the library dependencies.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME treelab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "treelab maintainers <treelab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox | gnuplot, graphviz")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion")
set(CPACK_DEB_COMPONENT_INSTALL OFF)
include(CPack)
