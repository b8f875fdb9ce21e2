# A run folder of --ab defer the probe writes here, on the CPU with Debian's torch, read back by the
# runner: `python3 -m synctax_probe --ab defer:probe/tests/scripts/defer_log.py:26 --block-steps 5
# --block-ms 0 --out DIR probe/tests/scripts/defer_log.py`, from the source root (so the line is named
# relative to it), then `synctax-run trace DIR` says the line, what deferring it saved or cost, and
# how late the loop saw its values; a spoilt `defer` is refused at its key, and a run killed before
# ab.json still has its A/B from the defer blocks.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(folder ${WORK}/run)
set(site probe/tests/scripts/defer_log.py:26)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PROBE}
        ${PYTHON} -m synctax_probe --ab defer:${site} --block-steps 5 --block-ms 0 --out ${folder}
        probe/tests/scripts/defer_log.py --steps 400
    WORKING_DIRECTORY ${SOURCE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the probe's run ended with ${rc}:\n${err}")
endif()
foreach(name probe.json blocks.jsonl ab.json end.json)
    if(NOT EXISTS ${folder}/${name})
        message(FATAL_ERROR "the probe wrote no ${name}:\n${err}")
    endif()
endforeach()

# The text unwrapped (a line break and its indent are one space), for sentences the runner wraps.
function(expect_in text)
    string(REGEX REPLACE "\n +" " " flat "${text}")
    foreach(expected IN LISTS ARGN)
        string(FIND "${flat}" "${expected}" at)
        if(at EQUAL -1)
            message(FATAL_ERROR "the output lacks '${expected}':\n${text}")
        endif()
    endforeach()
endfunction()

execute_process(COMMAND ${RUNNER} trace ${folder} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "synctax-run trace DIR ended with ${rc}:\n${out}\n${err}")
endif()
expect_in("${out}" "Measured in your loop (synctax_probe --ab defer, " "deferring ${site} (`item`, 1 a step, "
    " of the step, measured in your loop (" "; no device: the Python cost of deferring, not a sync)"
    "in its blocks the loop saw that line's values late: ")
string(FIND "${out}" "defer (measured)" at)
if(NOT at EQUAL -1)
    message(FATAL_ERROR "the generic line is said beside the defer answer:\n${out}")
endif()

# Killed before its end: no ab.json nor end.json, the A/B from blocks.jsonl's defer blocks.
file(COPY ${folder}/ DESTINATION ${WORK}/killed)
file(REMOVE ${WORK}/killed/ab.json ${WORK}/killed/end.json)
execute_process(COMMAND ${RUNNER} trace ${WORK}/killed RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "synctax-run trace DIR of a killed run ended with ${rc}:\n${out}\n${err}")
endif()
expect_in("${out}" "Measured in your loop (synctax_probe --ab defer, " "deferring ${site} "
    "in its blocks the loop saw that line's values late: " "no ab.json")

# A spoilt defer object is refused at its key, exit 2.
file(READ ${folder}/ab.json ab)
string(REGEX REPLACE "\"calls_per_step\": [0-9.e+-]+" "\"calls_per_step\": -1" ab "${ab}")
file(WRITE ${folder}/ab.json "${ab}")
execute_process(COMMAND ${RUNNER} trace ${folder} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "ab.json:[0-9]+:[0-9]+: .*\"calls_per_step\", found -1")
    message(FATAL_ERROR "a spoilt defer: exit ${rc}, expected 2 and its key:\n${err}")
endif()
