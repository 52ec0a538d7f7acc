# Desktop integration of the Debian packages: the studio's desktop entry, MIME types,
# AppStream metainfo and hicolor icons, man pages made from the programs' own --help, and
# bash completion. All of it is built as part of `all` and installed in COMPONENT Runtime.
#
# Include it once the targets variate and variate-studio exist, with GNUInstallDirs
# included and Qt6 found with Gui and Svg (render_icon, a build-time tool, needs them).
# Include it before add_subdirectory(tests): tests/installer is added only where its target
# variate_desktop_integration exists, and reads the variables below.
#
# Reads, with defaults where unset:
#   VARIATE_LICENSE        SPDX expression for the metainfo's project_license
#                          (default LicenseRef-proprietary: no license has been chosen)
#   VARIATE_RELEASE_DATE   YYYY-MM-DD of this release, for the metainfo and the man pages
#                          (default today, or SOURCE_DATE_EPOCH's day where that is set)
# Sets, for tests/installer, as cache variables (the includer's directory scope would not
# reach tests/; paths in the source or the build tree):
#   VARIATE_DESKTOP_ENTRY    the desktop entry
#   VARIATE_MIME_PACKAGE     the shared-mime-info package
#   VARIATE_METAINFO         the configured metainfo
#   VARIATE_ICON_SIZES       the sizes rendered, in pixels
#   VARIATE_ICONS_DIR        the folder of the renderings, <N>x<N>/apps/org.variate.Studio.png
#   VARIATE_MAN_DIR          the folder of variate.1.gz and variate-studio.1.gz
#   VARIATE_MAN_PAGE_SCRIPT  make_man_page.cmake, which writes them
#   VARIATE_BASH_COMPLETION  the completion script

if(NOT DEFINED VARIATE_LICENSE)
  set(VARIATE_LICENSE "LicenseRef-proprietary")
endif()
if(NOT DEFINED VARIATE_RELEASE_DATE)
  string(TIMESTAMP VARIATE_RELEASE_DATE "%Y-%m-%d" UTC)
endif()

set(VARIATE_DESKTOP_ENTRY "${CMAKE_CURRENT_LIST_DIR}/desktop/org.variate.Studio.desktop"
    CACHE INTERNAL "")
set(VARIATE_MIME_PACKAGE "${CMAKE_CURRENT_LIST_DIR}/desktop/variate-mime.xml" CACHE INTERNAL "")
set(VARIATE_METAINFO "${PROJECT_BINARY_DIR}/installer/org.variate.Studio.metainfo.xml"
    CACHE INTERNAL "")
set(VARIATE_ICON_SIZES 16 22 24 32 48 64 128 256 512 CACHE INTERNAL "")
set(VARIATE_ICONS_DIR "${PROJECT_BINARY_DIR}/installer/icons" CACHE INTERNAL "")
set(VARIATE_MAN_DIR "${PROJECT_BINARY_DIR}/installer/man" CACHE INTERNAL "")
set(VARIATE_MAN_PAGE_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/man/make_man_page.cmake" CACHE INTERNAL "")
set(VARIATE_BASH_COMPLETION "${CMAKE_CURRENT_LIST_DIR}/completion/variate.bash" CACHE INTERNAL "")

# A function, so that its own variables stay out of the including scope.
function(variate_add_desktop_integration)
  set(installer_dir "${CMAKE_CURRENT_FUNCTION_LIST_DIR}")
  get_filename_component(icon_svg "${installer_dir}/../resources/icons/variate.svg" ABSOLUTE)

  configure_file("${installer_dir}/desktop/org.variate.Studio.metainfo.xml.in"
    "${VARIATE_METAINFO}" @ONLY)

  add_executable(variate_render_icon "${installer_dir}/icons/render_icon.cpp")
  set_target_properties(variate_render_icon PROPERTIES OUTPUT_NAME render_icon)
  target_compile_features(variate_render_icon PRIVATE cxx_std_17)
  target_link_libraries(variate_render_icon PRIVATE Qt6::Gui Qt6::Svg variate::warnings)

  set(built_files "")
  foreach(size ${VARIATE_ICON_SIZES})
    set(png "${VARIATE_ICONS_DIR}/${size}x${size}/apps/org.variate.Studio.png")
    add_custom_command(OUTPUT "${png}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${VARIATE_ICONS_DIR}/${size}x${size}/apps"
      COMMAND variate_render_icon "${icon_svg}" ${size} "${png}"
      DEPENDS variate_render_icon "${icon_svg}"
      COMMENT "Rendering the ${size}x${size} icon"
      VERBATIM)
    list(APPEND built_files "${png}")
    install(FILES "${png}" DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps"
      COMPONENT Runtime)
  endforeach()

  find_program(GZIP_PROGRAM gzip REQUIRED)
  foreach(program variate variate-studio)
    set(page "${VARIATE_MAN_DIR}/${program}.1")
    # variate's commands, and so its --help, are in the library it loads.
    set(help_from ${program})
    if(program STREQUAL "variate")
      list(APPEND help_from variate-commands)
    endif()
    add_custom_command(OUTPUT "${page}.gz"
      COMMAND "${CMAKE_COMMAND}" -DPROGRAM=$<TARGET_FILE:${program}> -DNAME=${program}
              "-DTEMPLATE=${installer_dir}/man/${program}.1.in" "-DOUTPUT=${page}"
              -DVERSION=${PROJECT_VERSION} -DDATE=${VARIATE_RELEASE_DATE}
              -P "${VARIATE_MAN_PAGE_SCRIPT}"
      # -n: no name or time stamp in the header, so the same page compresses the same.
      COMMAND "${GZIP_PROGRAM}" -9nf "${page}"
      DEPENDS ${help_from} "${installer_dir}/man/${program}.1.in" "${VARIATE_MAN_PAGE_SCRIPT}"
      COMMENT "Writing the man page of ${program} from its --help"
      VERBATIM)
    list(APPEND built_files "${page}.gz")
    install(FILES "${page}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT Runtime)
  endforeach()

  add_custom_target(variate_desktop_integration ALL DEPENDS ${built_files})

  install(FILES "${VARIATE_DESKTOP_ENTRY}" DESTINATION "${CMAKE_INSTALL_DATADIR}/applications"
    COMPONENT Runtime)
  install(FILES "${VARIATE_METAINFO}" DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo"
    COMPONENT Runtime)
  install(FILES "${VARIATE_MIME_PACKAGE}" DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages"
    RENAME variate.xml COMPONENT Runtime)
  install(FILES "${icon_svg}" DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps"
    RENAME org.variate.Studio.svg COMPONENT Runtime)
  install(FILES "${VARIATE_BASH_COMPLETION}"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" RENAME variate
    COMPONENT Runtime)
endfunction()
variate_add_desktop_integration()
