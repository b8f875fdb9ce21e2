# synctax-run trace refuses an unreadable trace with exit 2 and the reader's message, which names
# the file: a 0-byte file, and each case of tests/data/traces/bad/ once it exists; and a --watch
# folder that is not there.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/empty.pt.trace.json "")
file(GLOB cases ${DATA}/traces/bad/*.json ${DATA}/traces/bad/*.gz)
foreach(trace ${WORK}/empty.pt.trace.json ${cases})
    execute_process(COMMAND ${RUNNER} trace ${trace} --out ${WORK}/out
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    get_filename_component(name ${trace} NAME)
    string(FIND "${err}" "${name}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "${name}: exit ${rc} (expected 2), stderr does not name it:\n${out}\n${err}")
    endif()
    if(EXISTS ${WORK}/out/trace-summary.json)
        message(FATAL_ERROR "${name}: a summary was written for an unreadable trace")
    endif()
endforeach()

# A watched folder that does not exist is refused at once, not watched.
execute_process(COMMAND ${RUNNER} trace --watch ${WORK}/no-such-folder --once
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
string(FIND "${err}" "no-such-folder: not a folder" at)
if(NOT rc EQUAL 2 OR at EQUAL -1)
    message(FATAL_ERROR "--watch of a missing folder: exit ${rc} (expected 2)\n${out}\n${err}")
endif()
