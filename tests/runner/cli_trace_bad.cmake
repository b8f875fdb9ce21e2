# synctax-run trace refuses an unreadable trace with exit 2 and the reader's message, which names
# the file: a 0-byte file and each unreadable case of tests/data/traces/bad/; the readable cases there
# open with their note; and a --watch
# folder that is not there.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/empty.pt.trace.json "")
file(GLOB cases ${DATA}/traces/bad/*.json ${DATA}/traces/bad/*.gz)
# Each case's NAME.expect (for a .gz: NAME.json.expect) holds the reader's message, or "readable;
# note: ..." for a trace that opens with a note.
foreach(trace ${WORK}/empty.pt.trace.json ${cases})
    get_filename_component(name ${trace} NAME)
    if(name MATCHES "\\.gz$")
        string(REGEX REPLACE "\\.gz$" ".expect" expectFile "${trace}")
    else()
        string(REGEX REPLACE "\\.json$" ".expect" expectFile "${trace}")
    endif()
    set(expected "")
    if(EXISTS ${expectFile})
        file(READ ${expectFile} expected)
    endif()
    string(STRIP "${expected}" expected)
    file(REMOVE_RECURSE ${WORK}/out)
    execute_process(COMMAND ${RUNNER} trace ${trace} --out ${WORK}/out
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(expected MATCHES "^readable; note: (.*)")
        # The note may be wrapped to the table's width: compare its first words.
        string(SUBSTRING "${CMAKE_MATCH_1}" 0 30 note)
        string(FIND "${out}" "${note}" at)
        if(NOT rc EQUAL 0 OR at EQUAL -1 OR NOT EXISTS ${WORK}/out/trace-summary.json)
            message(FATAL_ERROR "${name}: exit ${rc} (expected 0 and the note '${note}'):\n${out}\n${err}")
        endif()
        continue()
    endif()
    string(FIND "${err}" "${name}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "${name}: exit ${rc} (expected 2), stderr does not name it:\n${out}\n${err}")
    endif()
    if(expected)
        string(FIND "${err}" "${expected}" at)
        if(at EQUAL -1)
            message(FATAL_ERROR "${name}: stderr lacks the expected message '${expected}':\n${err}")
        endif()
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

# A FIFO with no writer would block the reader's open for good, deaf to Ctrl-C: refused at once as
# not a regular file.
execute_process(COMMAND mkfifo ${WORK}/fifo.pt.trace.json RESULT_VARIABLE made)
if(made EQUAL 0)
    execute_process(COMMAND ${RUNNER} trace ${WORK}/fifo.pt.trace.json
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 30)
    string(FIND "${err}" "fifo.pt.trace.json: is a FIFO, not a regular file" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "a FIFO: exit ${rc} (expected 2 and 'is a FIFO')\n${out}\n${err}")
    endif()
endif()

# --timeout that never comes (NaN, infinity) or is not a time is refused, not watched for ever.
foreach(case IN ITEMS "nan|expected a number, found 'nan'" "inf|expected a number, found 'inf'"
        "0|0 is out of range; expected 0.001 to 1e+06" "-5|-5 is out of range; expected 0.001 to 1e+06")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 value)
    list(GET parts 1 expected)
    execute_process(COMMAND ${RUNNER} trace --watch ${WORK} --timeout ${value}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 30)
    string(FIND "${err}" "--timeout: ${expected}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "--timeout ${value}: exit ${rc} (expected 2 and '--timeout: ${expected}')\n${out}\n${err}")
    endif()
endforeach()
