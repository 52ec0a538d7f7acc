# Fails when one of OBJECTS (object files, "|"-separated) includes an ATen or torch header,
# directly or through other headers, as the build's dependency log records it
# (`ninja -t deps`): the check behind ui/CMakeLists.txt's promise that only the files of
# its engine-facing folders (ui/runs, ui/analysis, ui/modeling, ui/workers) see ATen.
# Objects must have been built.
#
#   cmake -DNINJA=ninja -DSOURCE_DIR=. -DBUILD_DIR=build -DOBJECTS="a.o|b.o" -P aten_free_objects.cmake

if(BUILD_TARGET)
  execute_process(COMMAND "${NINJA}" -C "${BUILD_DIR}" "${BUILD_TARGET}" RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "building ${BUILD_TARGET} failed (${result})")
  endif()
endif()

string(REPLACE "|" ";" objects "${OBJECTS}")
set(relative "")
foreach(object IN LISTS objects)
  file(RELATIVE_PATH path "${BUILD_DIR}" "${object}")
  list(APPEND relative "${path}")
endforeach()
list(LENGTH relative count)
if(count EQUAL 0)
  message(FATAL_ERROR "no objects given")
endif()

execute_process(COMMAND "${NINJA}" -C "${BUILD_DIR}" -t deps ${relative}
                OUTPUT_VARIABLE deps ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "ninja -t deps failed (${result}): ${errors}")
endif()
if(deps MATCHES "([^\n]*): deps not found")
  message(FATAL_ERROR "${CMAKE_MATCH_1} has no dependency record: build it first")
endif()

# Most runs find nothing: only then walk the records, to name each offender and the
# project header that brought ATen in (the dependency list is in include order).
if(deps MATCHES "/(ATen|torch)/")
  string(REPLACE ";" "," deps "${deps}")
  string(REPLACE "\n" ";" lines "${deps}")
  set(offenders "")
  set(object "")
  set(previous "")
  set(reported FALSE)
  foreach(line IN LISTS lines)
    if(line MATCHES "^([^ ].*): #deps")
      set(object "${CMAKE_MATCH_1}")
      set(previous "")
      set(reported FALSE)
    elseif(NOT reported AND line MATCHES "/(ATen|torch)/")
      string(STRIP "${line}" header)
      string(APPEND offenders "\n  ${object} includes ${header} (through ${previous})")
      set(reported TRUE)
    elseif(line MATCHES "^ +([^ ]+)$")
      # The project's headers: relative paths where ccache rewrote them, else absolute
      # paths under the source or build tree.
      set(header "${CMAKE_MATCH_1}")
      string(FIND "${header}" "${SOURCE_DIR}/" in_source)
      string(FIND "${header}" "${BUILD_DIR}/" in_build)
      if(NOT IS_ABSOLUTE "${header}" OR in_source EQUAL 0 OR in_build EQUAL 0)
        set(previous "${header}")
      endif()
    endif()
  endforeach()
  message(FATAL_ERROR "ATen reaches files outside ui/runs, ui/analysis, ui/modeling and ui/workers:${offenders}")
endif()
message(STATUS "${count} objects include no ATen or torch header")
