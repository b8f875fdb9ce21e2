# Included by the tests of bad option values: a case "OPTION|VALUE|MESSAGE" into `option`, `value`
# and `expected`. Split by hand: the messages hold ';', CMake's list separator.
macro(split_option_case case)
    string(REGEX MATCH "^([^|]*)[|]([^|]*)[|](.*)$" matched "${case}")
    set(option ${CMAKE_MATCH_1})
    set(value ${CMAKE_MATCH_2})
    set(expected "${CMAKE_MATCH_3}")
endmacro()
