# Generates one header per toggle, abtest/toggles/<id>.hpp under the build folder, holding its
# level as a macro. configure_file rewrites a header only when its content changes, so a variant
# build recompiles just the objects that include the toggle it changed, and ccache reuses the rest.
set(ABTEST_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated")

function(abtest_toggle_header id macro value)
  string(TOLOWER "${id}" lower)
  if(value STREQUAL "ON" OR value STREQUAL "TRUE")
    set(value 1)
  elseif(value STREQUAL "OFF" OR value STREQUAL "FALSE")
    set(value 0)
  endif()
  set(ABTEST_TOGGLE_MACRO "${macro}")
  set(ABTEST_TOGGLE_VALUE "${value}")
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/toggle.hpp.in"
                 "${ABTEST_GENERATED_DIR}/abtest/toggles/${lower}.hpp" @ONLY)
endfunction()

abtest_toggle_header(A1 ABTEST_A1_INLINE_CAP    "${ABTEST_A1_INLINE_CAP}")
abtest_toggle_header(A2 ABTEST_A2_PRESIZE       "${ABTEST_A2_PRESIZE}")
abtest_toggle_header(A4 ABTEST_A4_PARALLEL_BG2  "${ABTEST_A4_PARALLEL_BG2}")
abtest_toggle_header(B1 ABTEST_B1_HOST_REGISTER "${ABTEST_B1_HOST_REGISTER}")
abtest_toggle_header(D4 ABTEST_D4_MSM_WINDOW    "${ABTEST_D4_MSM_WINDOW}")

# zk::toggles: the include path of the generated headers, for the files that read a toggle.
add_library(zk_toggles INTERFACE)
add_library(zk::toggles ALIAS zk_toggles)
target_include_directories(zk_toggles INTERFACE "${ABTEST_GENERATED_DIR}")
