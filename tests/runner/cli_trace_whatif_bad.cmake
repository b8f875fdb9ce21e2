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
# --phases-file: a line it cannot read is refused with the file, line and column, before the trace is
# read; one that does not exist is refused by name.
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/phases.csv "forward,backward,optimizer\n0.4,0.7,0.2\n0.4,0.x,0.2\n")
execute_process(COMMAND ${RUNNER} trace ${trace} --phases-file ${WORK}/phases.csv --out ${WORK}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT err MATCHES "phases.csv:3:5: expected a number, found '0.x'" OR EXISTS ${WORK}/trace-summary.json)
    message(FATAL_ERROR "trace --phases-file with a bad line: exit ${rc}, expected 2 and its place\n${out}${err}")
endif()
execute_process(COMMAND ${RUNNER} trace ${trace} --phases-file ${WORK}/none.csv
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--phases-file: .*none.csv: No such file or directory")
    message(FATAL_ERROR "trace --phases-file with no such file: exit ${rc}\n${out}${err}")
endif()
# A good one: the what-if says it replayed the timings.
file(WRITE ${WORK}/phases.csv "forward,backward,optimizer\n0.4,0.7,0.2\n0.5,0.8,0.2\n")
execute_process(COMMAND ${RUNNER} trace ${trace} --phases-file ${WORK}/phases.csv
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT out MATCHES "replayed at 2 of 2 phase timings")
    message(FATAL_ERROR "trace --phases-file: exit ${rc}\n${out}${err}")
endif()
