# Installing lanediff like a tool:
#   cmake --install build/release [--prefix /usr/local]   bin/lanediff, its man page, completions
#   (cd build/release && cpack -G DEB)                    lanediff_VERSION_ARCH.deb for apt
# The man page and the bash/zsh completions are generated at build time from the built
# binary's own help text and flag tables (scripts/gen_cli_docs.sh), never typed by hand.
include(GNUInstallDirs)

set(LANEDIFF_DOCS_DIR "${PROJECT_BINARY_DIR}/cli_docs")
set(LANEDIFF_DOCS
    "${LANEDIFF_DOCS_DIR}/lanediff.1" "${LANEDIFF_DOCS_DIR}/lanediff.bash"
    "${LANEDIFF_DOCS_DIR}/_lanediff")
add_custom_command(
  OUTPUT ${LANEDIFF_DOCS}
  COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/gen_cli_docs.sh" $<TARGET_FILE:lanediff_cli>
          "${LANEDIFF_DOCS_DIR}"
  DEPENDS lanediff_cli "${PROJECT_SOURCE_DIR}/scripts/gen_cli_docs.sh"
  COMMENT "lanediff man page and completions from its own --help and --list-flags")
add_custom_target(lanediff_cli_docs ALL DEPENDS ${LANEDIFF_DOCS})

install(TARGETS lanediff_cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${LANEDIFF_DOCS_DIR}/lanediff.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${LANEDIFF_DOCS_DIR}/lanediff.bash"
        DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions" RENAME lanediff)
install(FILES "${LANEDIFF_DOCS_DIR}/_lanediff"
        DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/zsh/vendor-completions")

# CPack: a Debian package whose Depends come from dpkg-shlibdeps (libabsl, libprotobuf,
# libamdhip64 ...), so `apt install ./lanediff_*.deb` pulls what the binary links.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "lanediff")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "lanediff maintainers <lanediff@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "differential fuzzer: AMD GPU silicon vs a bit-exact model of its conversion instructions")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)

# The install tree and the .deb, unpacked into a scratch root, give a working lanediff.
add_test(NAME install_deb_test COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/install_test.sh"
                                    "${PROJECT_BINARY_DIR}")
set_tests_properties(install_deb_test PROPERTIES LABELS "default;once" TIMEOUT 300)
