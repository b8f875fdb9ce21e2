# synctax-run trace refuses a bad what-if option with exit 2, the option and what it expected, before
# reading any trace (no summary is written): --host-work-us is a config's host_work_us (an integer,
# 0 to 10 s), --step-ms a positive step time, --phases-ms three of them, --sync-us a cost of 0 to 1 s, --host-work-at one of
# its two places.
file(REMOVE_RECURSE ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/option_case.cmake)
set(trace ${DATA}/traces/torch-2.11-h200/tiny_mlp-none.pt.trace.json.gz)
# option, value, the message after "option: "
foreach(case IN ITEMS
    "--host-work-us|-1|-1 is out of range; expected 0 to 10000000"
    "--host-work-us|1.5|expected an integer, found '1.5'"
    "--host-work-us|ten|expected an integer, found 'ten'"
    "--host-work-us|10000001|10000001 is out of range; expected 0 to 10000000"
    "--step-ms|0|0 is out of range; expected 0.001 to 1e+06"
    "--step-ms|-3|-3 is out of range; expected 0.001 to 1e+06"
    "--step-ms|nan|expected a number, found 'nan'"
    "--sync-us|-1|-1 is out of range; expected 0 to 1e+06"
    "--sync-us|inf|expected a number, found 'inf'"
    "--sync-us|2e6|2e6 is out of range; expected 0 to 1e+06"
    "--host-work-at|middle|middle not in {step-start,before-sync}"
    "--phases-ms|9,13|expected three numbers F,B,O (ms), found '9,13'"
    "--phases-ms|9,13,1,2|expected three numbers F,B,O (ms), found '9,13,1,2'"
    "--phases-ms|9,13,|expected three numbers F,B,O (ms), found '9,13,'"
    "--phases-ms|9,0,1|0 is out of range; expected 0.001 to 1e+06"
    "--phases-ms|9,x,1|expected a number, found 'x'")
    split_option_case("${case}")
    execute_process(COMMAND ${RUNNER} trace ${trace} ${option} ${value} --out ${WORK}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    string(FIND "${err}" "${option}: ${expected}\n" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "trace ${option} ${value}: exit ${rc}, expected 2 and '${option}: ${expected}'\n${out}${err}")
    endif()
    if(EXISTS ${WORK}/trace-summary.json)
        message(FATAL_ERROR "trace ${option} ${value}: refused, yet wrote ${WORK}/trace-summary.json")
    endif()
endforeach()
# An option without its value.
execute_process(COMMAND ${RUNNER} trace ${trace} --step-ms RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--step-ms")
    message(FATAL_ERROR "trace --step-ms without a value: exit ${rc}\n${err}")
endif()
# The bounds themselves are accepted.
execute_process(COMMAND ${RUNNER} trace ${trace} --host-work-us 0 --step-ms 0.001 --sync-us 0
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT out MATCHES "What if you logged differently")
    message(FATAL_ERROR "trace at the lower bounds: exit ${rc}\n${out}${err}")
endif()
