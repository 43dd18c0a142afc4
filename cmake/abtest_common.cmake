# Shared compile settings: C++20 per target, warnings on, -Werror when ABTEST_WERROR is set.
function(abtest_target_defaults target)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_compile_features(${target} INTERFACE cxx_std_20)
    return()
  endif()
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
  if(ABTEST_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()

# abtest_library(<part> <sources>...): the framework library abtest_<part> (harness/<part>, db),
# aliased abtest::<part>, with the defaults above and the repository root on its public include
# path, so that every file includes "harness/<part>/x.hpp" or "db/x.hpp" alike.
function(abtest_library part)
  add_library(abtest_${part} ${ARGN})
  add_library(abtest::${part} ALIAS abtest_${part})
  abtest_target_defaults(abtest_${part})
  target_include_directories(abtest_${part} PUBLIC "${PROJECT_SOURCE_DIR}")
endfunction()
