# One run at a time in an --out folder, and no earlier run's results overwritten unless --force:
# two runs started together into one folder: one runs, the other is refused (exit 2) and the files
# of the one that ran are whole; a run refused while another holds the folder names it (pid, start);
# a folder that holds results is refused, and --force overwrites it.
# Runs itself a second time as PART=second: the pipeline's second command (see below).
set(TINY ${DATA}/configs/tiny-cpu.yaml)
if(PART STREQUAL "second")
    # Waits until the first run holds ${WORK}/held, runs into it, then interrupts the first.
    set(lock ${WORK}/held/.synctax-run.lock)
    set(pid "")
    foreach(i RANGE 600)
        if(EXISTS ${lock})
            file(READ ${lock} holder)
            if(holder MATCHES "pid ([0-9]+)")
                set(pid ${CMAKE_MATCH_1})
                break()
            endif()
        endif()
        execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 0.1)
    endforeach()
    if(pid STREQUAL "")
        message(FATAL_ERROR "the first run never locked ${WORK}/held")
    endif()
    execute_process(COMMAND ${RUNNER} run ${TINY} --out ${WORK}/held
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    execute_process(COMMAND kill -INT ${pid})
    string(FIND "${err}" "in use by another run (pid ${pid}, started " at)
    if(NOT rc EQUAL 2 OR at EQUAL -1 OR NOT out STREQUAL "")
        message(FATAL_ERROR "a run into a held folder: exit ${rc}, expected 2 naming pid ${pid}\n${out}\n${err}")
    endif()
    return()
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(same ${WORK}/same)
# The commands of one execute_process run at the same time, as a pipeline; the first one's table
# goes to /dev/null, not into a pipe that the second may have closed.
set(quiet sh -c "exec \"$0\" \"$@\" >/dev/null")
execute_process(COMMAND ${quiet} ${RUNNER} run ${TINY} --out ${same}
    COMMAND ${RUNNER} run ${TINY} --out ${same}
    RESULTS_VARIABLE rcs OUTPUT_QUIET ERROR_VARIABLE err)
list(SORT rcs)
if(NOT rcs STREQUAL "0;2")
    message(FATAL_ERROR "two runs into one folder exited ${rcs}; expected one 0 and one 2\n${err}")
endif()
file(STRINGS ${same}/steps.csv lines)
foreach(line IN LISTS lines)
    string(REGEX REPLACE "[^,]" "" commas "${line}")
    string(LENGTH "${commas}" ncommas)
    if(NOT ncommas EQUAL 12)
        message(FATAL_ERROR "steps.csv: a line without 13 fields: '${line}'")
    endif()
endforeach()
file(STRINGS ${same}/journal.jsonl lines)
foreach(line IN LISTS lines)
    string(JSON type ERROR_VARIABLE bad GET "${line}" type)
    if(bad)
        message(FATAL_ERROR "journal.jsonl: a line that is not JSON: ${line}")
    endif()
endforeach()
list(FILTER lines INCLUDE REGEX "\"type\":\"start\"}$")
list(LENGTH lines starts)
if(NOT starts EQUAL 1)
    message(FATAL_ERROR "journal.jsonl has ${starts} start lines")
endif()
if(EXISTS ${same}/.synctax-run.lock)
    message(FATAL_ERROR "the lock file was left behind")
endif()

# A finished run's folder: refused, naming what is there; nothing in it changes.
file(SHA256 ${same}/results.json before)
execute_process(COMMAND ${RUNNER} run ${TINY} --out ${same}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(SHA256 ${same}/results.json after)
string(FIND "${err}" "holds the results of an earlier run (results.json, summary.csv, steps.csv, journal.jsonl)" at)
string(FIND "${err}" "--force" force)
if(NOT rc EQUAL 2 OR at EQUAL -1 OR force EQUAL -1 OR NOT before STREQUAL after)
    message(FATAL_ERROR "a run into a finished run's folder: exit ${rc}, expected 2 and the folder kept\n${out}\n${err}")
endif()
execute_process(COMMAND ${RUNNER} run ${TINY} --out ${same} --force
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--force: exit ${rc}\n${err}")
endif()

# A long run holds a folder; the second part of the pipeline runs into it, then stops the first.
execute_process(COMMAND ${quiet} ${RUNNER} run ${DATA}/configs/long-cpu.yaml --out ${WORK}/held
    COMMAND ${CMAKE_COMMAND} -DRUNNER=${RUNNER} -DWORK=${WORK} -DDATA=${DATA} -DPART=second -P ${CMAKE_CURRENT_LIST_FILE}
    RESULTS_VARIABLE rcs OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 120)
if(NOT rcs STREQUAL "130;0")
    message(FATAL_ERROR "held folder: exits ${rcs}; expected 130 (the first, interrupted) and 0\n${err}")
endif()
if(NOT EXISTS ${WORK}/held/results.json OR EXISTS ${WORK}/held/.synctax-run.lock)
    message(FATAL_ERROR "the interrupted run lost its results or left its lock")
endif()
