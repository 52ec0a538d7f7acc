# Writes a man page from a hand-written template and the program's own --help, so that the
# option lists in the page are never out of date.
#
#   cmake -DPROGRAM=build/app/variate -DNAME=variate -DTEMPLATE=variate.1.in
#         -DOUTPUT=variate.1 [-DVERSION=0.1.0] [-DDATE=2025-06-01] -P make_man_page.cmake
#
# The template's @HELP@ becomes one section per section of the help ("Options:" becomes
# OPTIONS); "Subcommands:" becomes COMMANDS, with each subcommand's own --help in a
# subsection. CLI11 and QCommandLineParser both print entries as "  TERM  DESCRIPTION",
# the description continued on lines indented deeper: that is all this parses.

foreach(required PROGRAM NAME TEMPLATE OUTPUT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "make_man_page.cmake: -D${required}=... is required")
  endif()
endforeach()
if(NOT DATE)
  string(TIMESTAMP DATE "%Y-%m-%d" UTC)  # SOURCE_DATE_EPOCH, where set, makes it reproducible
endif()

# A Qt program prints its help only once it has a platform plugin; offscreen needs no display.
set(ENV{QT_QPA_PLATFORM} offscreen)

# CMake lists split at semicolons and group at brackets, both of which help text has: lines
# are split with these stand-ins for them, and each line restored on its own.
string(ASCII 1 semicolon)
string(ASCII 2 open_bracket)
string(ASCII 3 close_bracket)

# help(OUT [SUBCOMMAND]): the program's --help output, or the subcommand's.
function(help out)
  execute_process(COMMAND "${PROGRAM}" ${ARGN} --help
    OUTPUT_VARIABLE text ERROR_VARIABLE error RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGN} --help failed (${result}): ${error}")
  endif()
  # QCommandLineParser's usage line names the program by the path it was started with.
  string(REPLACE "${PROGRAM}" "${NAME}" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# troff(OUT TEXT): TEXT as the start of a troff text line. Hyphens become minus signs, so that
# options can be searched for and copied from the page.
function(troff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  if(text MATCHES "^[.']")
    set(text "\\&${text}")  # else troff reads the line as a request
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# term(OUT TERM): an entry's term with its options in bold and their values in italics:
# "--chains INT:POSITIVE=4" becomes "\fB\-\-chains\fR \fIINT:POSITIVE=4\fR".
function(term out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "([^ ]+)" "\\\\fI\\1\\\\fR" text "${text}")
  string(REGEX REPLACE "\\\\fI(-[^ ]*)\\\\fR" "\\\\fB\\1\\\\fR" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Ends the entry being read, if any: a .TP paragraph, or for a subcommand its subsection.
macro(end_entry)
  if(NOT entry STREQUAL "")
    if(section STREQUAL "Subcommands")
      help(subcommand_help ${entry})
      render(subsection "${subcommand_help}" "${entry}")
      string(APPEND page "${subsection}")
    else()
      term(tag "${entry}")
      troff(body "${description}")
      string(APPEND page ".TP\n${tag}\n${body}\n")
    endif()
    set(entry "")
  endif()
endmacro()

# render(OUT HELP [SUBCOMMAND]): troff for one --help text. For the program itself only its
# sections (the template has the name, synopsis and description); for a subcommand a
# subsection with its description and usage too.
function(render out text)
  set(subcommand "${ARGN}")
  set(page "")
  set(section "")
  set(entry "")
  if(NOT subcommand STREQUAL "")
    troff(heading "${NAME} ${subcommand}")
    string(APPEND page ".SS \"${heading}\"\n")
  endif()

  string(REPLACE ";" "${semicolon}" text "${text}")
  string(REPLACE "[" "${open_bracket}" text "${text}")
  string(REPLACE "]" "${close_bracket}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  foreach(line IN LISTS lines)
    string(REPLACE "${semicolon}" ";" line "${line}")
    string(REPLACE "${open_bracket}" "[" line "${line}")
    string(REPLACE "${close_bracket}" "]" line "${line}")
    string(REGEX REPLACE " +$" "" line "${line}")

    if(line MATCHES "^   +([^ ].*)$" AND NOT entry STREQUAL "")
      string(STRIP "${description} ${CMAKE_MATCH_1}" description)
    elseif(line MATCHES "^  ([^ ]+( [^ ]+)*)(  +(.*))?$")
      end_entry()
      set(entry "${CMAKE_MATCH_1}")
      set(description "${CMAKE_MATCH_4}")
    elseif(line STREQUAL "")
      end_entry()
    elseif(line MATCHES "^([A-Za-z][A-Za-z ]*):$")
      end_entry()
      set(section "${CMAKE_MATCH_1}")
      if(subcommand STREQUAL "")
        string(TOUPPER "${section}" heading)
        if(section STREQUAL "Subcommands")
          set(heading "COMMANDS")
        endif()
        string(APPEND page ".SH ${heading}\n")
      else()
        string(APPEND page ".PP\n${section}:\n")
      endif()
    elseif(section STREQUAL "" AND subcommand STREQUAL "")
      # The program's own description and usage: the template has them, in more words.
    else()
      end_entry()
      troff(paragraph "${line}")
      string(APPEND page ".PP\n${paragraph}\n")
    endif()
  endforeach()
  end_entry()
  set(${out} "${page}" PARENT_SCOPE)
endfunction()

help(program_help)
render(HELP "${program_help}")
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
