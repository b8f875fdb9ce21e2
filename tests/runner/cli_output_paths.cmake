# Every output path is checked before anything runs: an unwritable one stops the run at once
# (exit 2, no table) with a message naming the path and why, and leaves nothing behind.
set(TINY ${DATA}/configs/tiny-cpu.yaml)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/adir ${WORK}/o4/results.json)
file(WRITE ${WORK}/afile "")

function(expect_refused out message)
    execute_process(COMMAND ${RUNNER} run ${TINY} --out ${out} ${ARGN}
        RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE err)
    string(FIND "${err}" "${message}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1 OR NOT stdout STREQUAL "")
        message(FATAL_ERROR "${ARGN}: exit ${rc}, expected 2 saying \"${message}\"\n${stdout}\n${err}")
    endif()
    foreach(f steps.csv journal.jsonl results.json.tmp summary.csv)
        if(EXISTS ${out}/${f})
            message(FATAL_ERROR "${ARGN}: ${out}/${f} was written; nothing should have run")
        endif()
    endforeach()
endfunction()

expect_refused(${WORK}/o1 "cannot write '${WORK}/adir': it is a folder" --trace ${WORK}/adir)
if(EXISTS ${WORK}/adir.tmp OR EXISTS ${WORK}/o1)
    message(FATAL_ERROR "a stray ${WORK}/adir.tmp, or the --out folder made for nothing")
endif()
expect_refused(${WORK}/o2 "cannot write '${WORK}/afile/trace.json': ${WORK}/afile is not a folder"
    --trace ${WORK}/afile/trace.json)
expect_refused(${WORK}/o3 "cannot write '${WORK}/missing/trace.json': the folder ${WORK}/missing does not exist"
    --trace ${WORK}/missing/trace.json)
expect_refused(${WORK}/o4 "cannot write '${WORK}/o4/results.json': it is a folder" --force)
