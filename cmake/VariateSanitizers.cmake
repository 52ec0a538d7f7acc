# Sanitizer builds: -DVARIATE_SANITIZE=address,undefined (ASan with UBSan) or
# -DVARIATE_SANITIZE=thread (TSan), for every target of this build. LibTorch, Qt, gRPC and
# SQLite come from Debian uninstrumented; tests/sanitizers/ suppresses what is theirs
# alone, each entry with its reason. The CTest environment (tests/CMakeLists.txt) makes
# every report fail its test. docs/HARDENING.md, "Sanitizer builds", says how to run them.
set(VARIATE_SANITIZE "" CACHE STRING "Sanitizers: address,undefined or thread (empty: none)")
if(VARIATE_SANITIZE)
  string(REPLACE "," ";" variate_sanitizers "${VARIATE_SANITIZE}")
  foreach(sanitizer ${variate_sanitizers})
    if(NOT sanitizer MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "VARIATE_SANITIZE: unknown sanitizer '${sanitizer}' (address, undefined, thread)")
    endif()
  endforeach()
  if("thread" IN_LIST variate_sanitizers AND "address" IN_LIST variate_sanitizers)
    message(FATAL_ERROR "VARIATE_SANITIZE: thread does not combine with address (build them apart)")
  endif()
  # -g1: line tables for the reports' stacks, at a fraction of full debug information's
  # link time; frame pointers for their unwinding.
  add_compile_options(-fsanitize=${VARIATE_SANITIZE} -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=${VARIATE_SANITIZE})
endif()
