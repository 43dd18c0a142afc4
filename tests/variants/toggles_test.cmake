# Checks the toggles of abtest.json against the project's CMake (cmake/toggles.cmake), by configuring
# the real project afresh, as the harness configures a variant (nothing is compiled).
#
#   cmake -DCHECK=declared|bad_level|header_rewrite -DSOURCE_DIR=<repo> -DMANIFEST=<repo>/abtest.json
#         -DWORK_DIR=<scratch folder> -P toggles_test.cmake
#
# declared:       every `option` toggle of the manifest is a cache entry of the project: a STRING
#                 whose STRINGS are the manifest's levels, or a BOOL for a two-level toggle whose
#                 levels are CMake booleans; a plain configure gives its first level (the baseline).
# bad_level:      -D<option>=<not a level> stops the configure with a message naming the levels.
# header_rewrite: a configure rewrites a toggle's header only when its level changed (variant builds
#                 recompile only the objects that include it).
cmake_minimum_required(VERSION 3.25)

foreach(var CHECK SOURCE_DIR MANIFEST WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "toggles_test.cmake: -D${var}=… is required (see the comment at its top)")
  endif()
endforeach()

file(READ "${MANIFEST}" manifest)

# The manifest's `build` value at `key`, or `fallback` when it has none.
function(build_setting out key fallback)
  string(JSON value ERROR_VARIABLE err GET "${manifest}" build ${key})
  if(err)
    set(value "${fallback}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# A JSON array of the manifest's `build` as a CMake list (empty when absent).
function(build_list out key)
  set(items "")
  string(JSON n ERROR_VARIABLE err LENGTH "${manifest}" build ${key})
  if(NOT err AND n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${manifest}" build ${key} ${i})
      list(APPEND items "${item}")
    endforeach()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

build_setting(system system cmake)
if(NOT system STREQUAL "cmake")
  message(FATAL_ERROR "${MANIFEST}: build.system is ${system}; these checks are for a CMake project")
endif()
build_setting(generator generator Ninja)
build_setting(build_type build_type Release)
build_list(cmake_args cmake_args)
build_list(without_cuda_args without_cuda_args)
# The host without CUDA's configure: a toggle must be declared whatever the host (B1 too).
set(configure_args -S "${SOURCE_DIR}" -G "${generator}" "-DCMAKE_BUILD_TYPE=${build_type}" ${cmake_args}
                   ${without_cuda_args})

# The option toggles: ids, cache variables and levels (each toggle's levels in toggle_levels_<id>).
set(ids "")
string(JSON ntoggles LENGTH "${manifest}" toggles)
math(EXPR last "${ntoggles} - 1")
foreach(i RANGE ${last})
  string(JSON option ERROR_VARIABLE err GET "${manifest}" toggles ${i} option)
  if(err)
    continue()  # another kind (env, patch, …): not a CMake cache entry
  endif()
  string(JSON id GET "${manifest}" toggles ${i} id)
  list(APPEND ids ${id})
  set(toggle_option_${id} "${option}")
  set(levels OFF ON)
  string(JSON nlevels ERROR_VARIABLE err LENGTH "${manifest}" toggles ${i} levels)
  if(NOT err)
    set(levels "")
    math(EXPR lastlevel "${nlevels} - 1")
    foreach(j RANGE ${lastlevel})
      string(JSON level GET "${manifest}" toggles ${i} levels ${j})
      list(APPEND levels "${level}")
    endforeach()
  endif()
  set(toggle_levels_${id} "${levels}")
endforeach()
if(NOT ids)
  message(FATAL_ERROR "${MANIFEST} has no `option` toggle: nothing to check (was the manifest read?)")
endif()

# Configures WORK_DIR with `args` after the manifest's; `out_rc` and `out_log` get the result.
function(configure out_rc out_log)
  execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} -B "${WORK_DIR}" ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  set(${out_rc} "${rc}" PARENT_SCOPE)
  set(${out_log} "${log}" PARENT_SCOPE)
endfunction()

function(configure_or_fail)
  configure(rc log ${ARGN})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring ${SOURCE_DIR} into ${WORK_DIR} failed (${rc}):\n${log}")
  endif()
endfunction()

# CMake's boolean spellings, as abtest_toggle accepts them: out is 1, 0, or empty for neither.
function(truth out value)
  string(TOUPPER "${value}" upper)
  if(upper MATCHES "^(1|ON|YES|TRUE|Y)$")
    set(${out} 1 PARENT_SCOPE)
  elseif(upper MATCHES "^(0|OFF|NO|FALSE|N)$")
    set(${out} 0 PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# Sets `cache` to WORK_DIR's CMakeCache.txt after a newline, so that "\nNAME:" matches any entry.
macro(read_cache)
  file(READ "${WORK_DIR}/CMakeCache.txt" cache)
  set(cache "\n${cache}")
endmacro()

file(REMOVE_RECURSE "${WORK_DIR}")

if(CHECK STREQUAL "declared")
  set(failures "")
  macro(fail)
    string(CONCAT text ${ARGN})  # (lists in the arguments are joined with ", " beforehand)
    string(APPEND failures "\n   ${text}")  # indented: CMake prints it as it is, unwrapped
  endmacro()
  configure_or_fail()
  read_cache()
  foreach(id IN LISTS ids)
    set(option "${toggle_option_${id}}")
    set(levels "${toggle_levels_${id}}")
    list(GET levels 0 baseline)
    list(JOIN levels ", " shown)
    set(where "abtest.json toggle ${id} (option ${option}, levels ${shown})")
    if(NOT cache MATCHES "\n${option}:([A-Z]+)=([^\n]*)")
      fail("${where}: not a cache variable of the project — declare it in CMakeLists.txt with "
           "abtest_toggle(${id} ${option} BOOL|LEVELS … DOC …)")
      continue()
    endif()
    set(type "${CMAKE_MATCH_1}")
    set(value "${CMAKE_MATCH_2}")
    if(type STREQUAL "BOOL")
      set(truths "")
      foreach(level IN LISTS levels)
        truth(t "${level}")
        list(APPEND truths "${t}")
      endforeach()
      list(SORT truths)
      truth(value_truth "${value}")
      truth(baseline_truth "${baseline}")
      if(NOT truths STREQUAL "0;1")
        fail("${where}: the cache entry is a BOOL, so the manifest's levels must be one false and "
             "one true CMake boolean (OFF, ON) — or declare it with LEVELS to give it other levels")
      elseif(NOT value_truth STREQUAL baseline_truth)
        fail("${where}: a plain configure gives ${value}, not the manifest's baseline ${baseline}")
      endif()
    elseif(type STREQUAL "STRING")
      if(NOT cache MATCHES "\n${option}-STRINGS:INTERNAL=([^\n]*)")
        list(JOIN levels " " spaced)
        fail("${where}: a STRING cache entry without a STRINGS property — declare it with "
             "abtest_toggle(${id} ${option} LEVELS ${spaced} DOC …)")
        continue()
      endif()
      set(strings "${CMAKE_MATCH_1}")
      # As sets: the manifest may start from any level (its first is the baseline; abtest init
      # writes the value the cache held first).
      set(sorted_levels ${levels})
      set(sorted_strings ${strings})
      list(SORT sorted_levels)
      list(SORT sorted_strings)
      if(NOT sorted_levels STREQUAL sorted_strings)
        list(JOIN strings ", " shown)
        fail("${where}: its cache entry's STRINGS are ${shown}")
      elseif(NOT value STREQUAL baseline)
        fail("${where}: a plain configure gives ${value}, not the manifest's baseline ${baseline}")
      endif()
    else()
      fail("${where}: a ${type} cache entry — declare it with abtest_toggle "
           "(a BOOL, or a STRING with its levels)")
    endif()
  endforeach()
  if(failures)
    message(FATAL_ERROR "the manifest's toggles and the project's CMake disagree:${failures}")
  endif()
  list(JOIN ids ", " text)
  message(STATUS "every option toggle of ${MANIFEST} is declared: ${text}")

elseif(CHECK STREQUAL "bad_level")
  # The levels each toggle's declaration allows, from a good configure's cache: a STRING's STRINGS
  # (in declaration order, as abtest_toggle lists them) or OFF, ON for a BOOL.
  configure_or_fail()
  read_cache()
  set(baselines "")
  foreach(id IN LISTS ids)
    list(GET toggle_levels_${id} 0 baseline)
    list(APPEND baselines "-D${toggle_option_${id}}=${baseline}")
  endforeach()
  # Each toggle in turn gets a level it does not have; the others their baseline.
  set(bad "not-a-level")
  foreach(id IN LISTS ids)
    set(option "${toggle_option_${id}}")
    if(cache MATCHES "\n${option}-STRINGS:INTERNAL=([^\n]*)")
      list(JOIN CMAKE_MATCH_1 ", " allowed)
    else()
      set(allowed "OFF, ON")
    endif()
    configure(rc log ${baselines} "-D${option}=${bad}")
    if(rc EQUAL 0)
      message(FATAL_ERROR "-D${option}=${bad}: the configure succeeded; it must stop")
    endif()
    set(expected "${option}=${bad} is not a level of toggle ${id}")
    string(FIND "${log}" "${expected}" at_what)
    string(FIND "${log}" "allowed levels: ${allowed}" at_levels)
    if(at_what EQUAL -1 OR at_levels EQUAL -1)
      message(FATAL_ERROR "-D${option}=${bad}: the configure failed, but its message does not say "
                          "\"${expected}\" and \"allowed levels: ${allowed}\":\n${log}")
    endif()
    message(STATUS "-D${option}=${bad} stops the configure: allowed levels: ${allowed}")
  endforeach()

elseif(CHECK STREQUAL "header_rewrite")
  configure_or_fail()
  set(dir "${WORK_DIR}/generated/abtest/toggles")
  # Sets stamp_<id> to each header's modification time (seconds) and text_<id> to its content.
  macro(read_headers)
    foreach(id IN LISTS ids)
      string(TOLOWER "${id}" lower)
      if(NOT EXISTS "${dir}/${lower}.hpp")
        message(FATAL_ERROR "toggle ${id}: no header ${dir}/${lower}.hpp after a configure")
      endif()
      file(TIMESTAMP "${dir}/${lower}.hpp" stamp_${id} "%s" UTC)
      file(READ "${dir}/${lower}.hpp" text_${id})
    endforeach()
  endmacro()
  read_headers()
  foreach(id IN LISTS ids)
    set(before_stamp_${id} "${stamp_${id}}")
    set(before_text_${id} "${text_${id}}")
  endforeach()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)  # timestamps have one-second resolution

  # The first toggle to its second level, the others unchanged.
  list(GET ids 0 changed)
  list(GET toggle_levels_${changed} 1 level)
  configure_or_fail("-D${toggle_option_${changed}}=${level}")
  read_headers()
  foreach(id IN LISTS ids)
    if(id STREQUAL changed)
      if(text_${id} STREQUAL before_text_${id} OR stamp_${id} STREQUAL before_stamp_${id})
        message(FATAL_ERROR "toggle ${id} set to ${level}: its header was not rewritten:\n${text_${id}}")
      endif()
    elseif(NOT stamp_${id} STREQUAL before_stamp_${id})
      message(FATAL_ERROR "toggle ${changed} set to ${level}: the header of toggle ${id}, unchanged, was rewritten "
                          "(its objects would recompile in every variant build)")
    endif()
  endforeach()
  message(STATUS "toggle ${changed} set to ${level} rewrote its header only")

else()
  message(FATAL_ERROR "toggles_test.cmake: CHECK=${CHECK}; use declared, bad_level or header_rewrite")
endif()
