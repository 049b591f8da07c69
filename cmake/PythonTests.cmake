# tlbf_add_unittest_methods(PREFIX SCRIPT BASE [ARGS...]): one ctest test per
# test method of the unittest classes in SCRIPT that derive from BASE, named
# PREFIX_Class.test_method and run as `COMMAND... Class.test_method`. A class
# with many slow methods then spreads over ctest's jobs, and a failure names
# its method. The methods are read from the file at configure time, which
# reruns when the file changes; the script must accept Class.method arguments
# (unittest's own names) and exit 77 when everything it ran was skipped.
# Sets TLBF_UNITTEST_TESTS in the caller's scope to the tests' names.
function(tlbf_add_unittest_methods prefix script base)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${script})
  file(STRINGS ${script} lines REGEX "^class [A-Za-z0-9_]+\\(|^    def test_[A-Za-z0-9_]+\\(")
  set(class "")
  set(names "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^class ([A-Za-z0-9_]+)\\(([A-Za-z0-9_.]+)\\)")
      set(class "")
      if(CMAKE_MATCH_2 STREQUAL base)
        set(class ${CMAKE_MATCH_1})
      endif()
    elseif(class AND line MATCHES "^    def (test_[A-Za-z0-9_]+)\\(")
      set(name ${prefix}_${class}.${CMAKE_MATCH_1})
      add_test(NAME ${name} COMMAND ${ARGN} ${class}.${CMAKE_MATCH_1})
      set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
      list(APPEND names ${name})
    endif()
  endforeach()
  if(NOT names)
    message(FATAL_ERROR "${script}: no test methods of classes derived from ${base}")
  endif()
  set(TLBF_UNITTEST_TESTS ${names} PARENT_SCOPE)
endfunction()
