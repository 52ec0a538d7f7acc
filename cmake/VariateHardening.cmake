# Debian's hardening flags (dpkg-buildflags with hardening=+all, less PIE, which the
# toolchain already defaults to): stack protector, fortified libc calls where the
# optimizer lets it see buffer sizes, and a read-only GOT bound at start-up (relro, now).
# They apply to every target, as a distribution's build flags do: the programs, the
# engine library, the tests and exported programs built here. Sanitizer builds leave
# fortify out (ASan intercepts the same calls, and the two disagree).
option(VARIATE_HARDEN "Build with Debian's hardening flags" ON)
if(VARIATE_HARDEN)
  add_compile_options(-fstack-protector-strong -Wformat -Werror=format-security)
  if(NOT VARIATE_SANITIZE)
    # _FORTIFY_SOURCE needs optimization; a Debug build would only warn.
    add_compile_definitions($<$<NOT:$<CONFIG:Debug>>:_FORTIFY_SOURCE=2>)
  endif()
  add_link_options(LINKER:-z,relro LINKER:-z,now)
endif()
