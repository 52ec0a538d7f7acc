# The engine and the command-line library as a CMake package, installed and in the build
# tree, so that programs build against them with find_package(Variate) and link
# Variate::engine (libvariate.so, every layer of the engine) or Variate::cli (the commands
# of `variate`, which the programs `variate export` writes run on their model):
# `cmake --install` puts the headers under include/variate/ at their paths in the
# repository (include/variate/engine/core/shape.h, include/variate/engine/cli/...), the
# include directory being include/variate as the repository root is in a build; the libraries under lib/ and the package files under
# lib/cmake/Variate; a build folder works as Variate_DIR directly. Included from the
# top-level CMakeLists.txt, once engine/ and app/ have made their targets.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(variate_warnings PROPERTIES EXPORT_NAME warnings)

# Everything here is the component Development (the libvariate-dev package,
# installer/CMakeLists.txt) but the engine's shared library itself, which the programs of
# the component Runtime run on.
install(TARGETS variate_engine variate_cli variate_warnings EXPORT VariateTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT Development
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT Runtime NAMELINK_COMPONENT Development)
# The engine's headers and the CLI's: not those of the remote library (gRPC), which
# nothing installed builds against.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/engine/"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/variate/engine" COMPONENT Development
  FILES_MATCHING PATTERN "*.h" PATTERN "remote" EXCLUDE)

set(VARIATE_PACKAGE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/Variate")
install(EXPORT VariateTargets NAMESPACE Variate:: DESTINATION "${VARIATE_PACKAGE_DIR}"
  COMPONENT Development)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/VariateConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/install/VariateConfig.cmake"
  INSTALL_DESTINATION "${VARIATE_PACKAGE_DIR}")
# 0.x releases: a program asks for the minor version it was written against.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/VariateConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/cmake/install/VariateConfig.cmake"
  "${PROJECT_BINARY_DIR}/VariateConfigVersion.cmake"
  DESTINATION "${VARIATE_PACKAGE_DIR}" COMPONENT Development)

# The build tree as a package: -DVariate_DIR=<this build folder>.
export(EXPORT VariateTargets NAMESPACE Variate:: FILE "${PROJECT_BINARY_DIR}/VariateTargets.cmake")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/VariateConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/VariateConfig.cmake"
  INSTALL_DESTINATION "${PROJECT_BINARY_DIR}"
  INSTALL_PREFIX "${PROJECT_BINARY_DIR}")
