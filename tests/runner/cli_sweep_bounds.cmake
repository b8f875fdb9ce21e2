# synctax-run sweep holds its options to the bounds of a simulation file, in the same words, and
# refuses a value outside them with exit 2 and no CSV: NaN, negative or infinite times once gave
# CSVs of negative times, a billion steps per block never ended, and --k 0 printed DBL_MAX.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/option_case.cmake)

# option, value, the message after "option: " (as a simulation file says it after "key: ")
foreach(case IN ITEMS
    "--d-ms|nan|expected a number, found 'nan'"
    "--d-ms|-1|-1 is out of range; expected 0 to 1e+06"
    "--d-ms|.inf|.inf is out of range; expected 0 to 1e+06"
    "--l-us|inf|expected a number, found 'inf'"
    "--l-us|-0.5|-0.5 is out of range; expected 0 to 1e+09"
    "--k|0|0 is out of range; expected 1 to 1000000"
    "--k|1.5|expected an integer, found '1.5'"
    "--steps-per-block|1000000000|1000000000 is out of range; expected 1 to 100000"
    "--steps-per-block|0|0 is out of range; expected 1 to 100000")
    split_option_case("${case}")
    execute_process(COMMAND ${RUNNER} sweep ${option} ${value} --out ${WORK}/sweep.csv
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    string(FIND "${err}" "${option}: ${expected}\n" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "sweep ${option} ${value}: exit ${rc}, expected 2 and '${option}: ${expected}'\n${out}${err}")
    endif()
    if(EXISTS ${WORK}/sweep.csv)
        message(FATAL_ERROR "sweep ${option} ${value}: refused, yet wrote ${WORK}/sweep.csv")
    endif()
endforeach()

# The same value in a simulation file: the same words after the key.
file(WRITE ${WORK}/bad.yaml
    "synctax_simulation: 1\nstyles: [none, item]\nsteps_per_block: 1000000000\nscenarios:\n  - {name: x, d_ms: -1, g_ms: 1, k: 0, l_us: inf}\n")
execute_process(COMMAND ${RUNNER} simulate ${WORK}/bad.yaml RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
foreach(expected IN ITEMS "steps_per_block: 1000000000 is out of range; expected 1 to 100000"
        "d_ms: -1 is out of range; expected 0 to 1e+06" "k: 0 is out of range; expected 1 to 1000000"
        "l_us: expected a number, found 'inf'")
    string(FIND "${err}" "${expected}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "simulate bad.yaml: exit ${rc}, lacks '${expected}'\n${err}")
    endif()
endforeach()

# The bounds themselves are accepted.
execute_process(COMMAND ${RUNNER} sweep --d-ms 0 --l-us 0 --k 1 --steps-per-block 1 --out ${WORK}/low.csv
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/low.csv)
    message(FATAL_ERROR "sweep at the lower bounds: exit ${rc}\n${out}${err}")
endif()

# Each option within its bound, yet together more launches per point than a sweep gets through in
# reasonable time (a million launches a step, 100000 steps a block ran for hours without a word):
# refused at once, saying what to lower, with no CSV.
file(REMOVE ${WORK}/sweep.csv)
execute_process(COMMAND ${RUNNER} sweep --k 1000000 --steps-per-block 100000 --out ${WORK}/sweep.csv
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
string(FIND "${err}" "--k 1000000 x --steps-per-block 100000 = 1e+11 launches per point; expected at most 1e+08" at)
if(NOT rc EQUAL 2 OR at EQUAL -1 OR EXISTS ${WORK}/sweep.csv)
    message(FATAL_ERROR "sweep of 1e11 launches per point: exit ${rc}, expected 2 and the bound, no CSV\n${out}${err}")
endif()

# A long sweep says how far it is, with the time left: plain lines when stderr is not a terminal.
execute_process(COMMAND ${RUNNER} sweep --k 1000 --steps-per-block 1000 --out ${WORK}/long.csv
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
string(REGEX MATCH "progress: +[0-9]+%, [^\n]* elapsed, ETA [^\n]*, h [0-9.]+ ms" line "${err}")
if(NOT rc EQUAL 0 OR NOT line OR NOT EXISTS ${WORK}/long.csv)
    message(FATAL_ERROR "a long sweep: exit ${rc}, no progress line on stderr\n${err}")
endif()
