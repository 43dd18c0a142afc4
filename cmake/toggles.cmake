# abtest_toggle(): a toggle of the model declared once — its cache entry, its allowed levels and its
# generated header.
#
#   abtest_toggle(A1 ABTEST_A1_INLINE_CAP LEVELS 0 1 2 4 DOC "A1: …")  # STRING, STRINGS 0;1;2;4, default 0
#   abtest_toggle(A2 ABTEST_A2_PRESIZE BOOL DOC "A2: …")               # option, default OFF
#
# <variable> is the toggle's `option` in abtest.json (the harness configures each variant with
# -D<variable>=<level>) and the name of the macro that holds the level in abtest/toggles/<id>.hpp
# under the build folder: the level itself, or 0/1 for a BOOL. DEFAULT: the level of a plain build,
# by default the first (LEVELS) or OFF (BOOL); keep it the manifest's first level, the baseline.
# A value outside the levels stops the configure and names the allowed ones.
#
# configure_file rewrites a header only when its content changes, so a variant build recompiles just
# the objects that include the toggle it changed, and ccache reuses the rest: include a toggle's
# header only in the files that read it. tests/variants/toggles_test.cmake checks that every option
# toggle of abtest.json is declared with this function.
set(ABTEST_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated")

function(abtest_toggle id variable)
  cmake_parse_arguments(PARSE_ARGV 2 arg "BOOL" "DEFAULT;DOC" "LEVELS")
  list(LENGTH arg_LEVELS nlevels)
  if(NOT id MATCHES "^[A-Z][A-Z0-9_]*$" OR NOT variable MATCHES "^[A-Z][A-Z0-9_]*$" OR arg_UNPARSED_ARGUMENTS
     OR NOT DEFINED arg_DOC OR (arg_BOOL AND nlevels GREATER 0) OR (NOT arg_BOOL AND nlevels EQUAL 0))
    list(JOIN ARGV " " call)
    message(FATAL_ERROR "abtest_toggle(${call}): write abtest_toggle(<ID> <VARIABLE> BOOL | LEVELS <level>... "
                        "[DEFAULT <level>] DOC \"<what the toggle changes>\")")
  endif()

  if(arg_BOOL)
    set(levels OFF ON)
    if(NOT DEFINED arg_DEFAULT)
      set(arg_DEFAULT OFF)
    endif()
    option(${variable} "${arg_DOC}" ${arg_DEFAULT})
  else()
    set(levels ${arg_LEVELS})
    if(nlevels LESS 2)
      message(FATAL_ERROR "abtest_toggle(${id}): LEVELS needs two or more levels")
    endif()
    if(NOT DEFINED arg_DEFAULT)
      list(GET levels 0 arg_DEFAULT)
    elseif(NOT arg_DEFAULT IN_LIST levels)
      list(JOIN levels " " shown)
      message(FATAL_ERROR "abtest_toggle(${id}): DEFAULT ${arg_DEFAULT} is not one of its LEVELS ${shown}")
    endif()
    set(${variable} "${arg_DEFAULT}" CACHE STRING "${arg_DOC}")
    set_property(CACHE ${variable} PROPERTY STRINGS ${levels})
  endif()

  # The value in force (a -D on the command line, an earlier configure's, or the default) as the
  # header's level. A BOOL takes CMake's boolean spellings only: 2 is true to if(), but a mistake here.
  set(value "${${variable}}")
  string(TOUPPER "${value}" upper)
  if(NOT arg_BOOL AND value IN_LIST levels)
    set(level "${value}")
  elseif(arg_BOOL AND upper MATCHES "^(1|ON|YES|TRUE|Y)$")
    set(level 1)
  elseif(arg_BOOL AND upper MATCHES "^(0|OFF|NO|FALSE|N)$")
    set(level 0)
  else()
    list(JOIN levels ", " allowed)
    # The indented line is kept whole (CMake wraps only unindented text), for readers and for greps.
    message(FATAL_ERROR "${variable}=${value} is not a level of toggle ${id}\n"
                        "   allowed levels: ${allowed} — configure with -D${variable}=<level>")
  endif()

  string(TOLOWER "${id}" lower)
  set(ABTEST_TOGGLE_MACRO "${variable}")
  set(ABTEST_TOGGLE_VALUE "${level}")
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/toggle.hpp.in"
                 "${ABTEST_GENERATED_DIR}/abtest/toggles/${lower}.hpp" @ONLY)
endfunction()

# zk::toggles: the include path of the generated headers, for the files that read a toggle.
add_library(zk_toggles INTERFACE)
add_library(zk::toggles ALIAS zk_toggles)
target_include_directories(zk_toggles INTERFACE "${ABTEST_GENERATED_DIR}")
