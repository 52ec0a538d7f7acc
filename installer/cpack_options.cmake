# Read by cpack before it makes the packages (CPACK_PROJECT_CONFIG_FILE). Each package's
# Description is its component's, synopsis first: without the project-wide summary, which
# CPack's DEB generator would put above both.
unset(CPACK_PACKAGE_DESCRIPTION_SUMMARY)
