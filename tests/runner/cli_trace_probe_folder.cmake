# A run folder the probe writes here, on the CPU with Debian's torch, read back by the runner:
# `python3 -m synctax_probe --ab item --block-steps 5 --block-ms 0 --out DIR probe/tests/scripts/mlp_sgd.py`, then
# `synctax-run trace DIR` reads its capture, takes its phases and says what the A/B measured.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(folder ${WORK}/run)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PROBE}
        ${PYTHON} -m synctax_probe --ab item --block-steps 5 --block-ms 0 --out ${folder} ${PROBE}/tests/scripts/mlp_sgd.py --steps 400
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the probe's run ended with ${rc}:\n${out}\n${err}")
endif()
foreach(name probe.json phases.csv ab.json end.json)
    if(NOT EXISTS ${folder}/${name})
        message(FATAL_ERROR "the probe wrote no ${name}:\n${err}")
    endif()
endforeach()
execute_process(COMMAND ${RUNNER} trace ${folder} --out ${WORK}/summary
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "synctax-run trace DIR ended with ${rc}:\n${out}\n${err}")
endif()
foreach(expected IN ITEMS "Measured in your loop (synctax_probe --ab item, " "item (measured)" "A/A control (noise floor)"
                          "What if you logged differently")
    string(FIND "${out}" "${expected}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the output lacks '${expected}':\n${out}\n${err}")
    endif()
endforeach()
if(NOT EXISTS ${WORK}/summary/trace-summary.json)
    message(FATAL_ERROR "no trace-summary.json in ${WORK}/summary:\n${err}")
endif()
# A folder with a spoiled ab.json is refused at its line, exit 2.
file(WRITE ${folder}/ab.json "{\n \"rounds\": ,\n}\n")
execute_process(COMMAND ${RUNNER} trace ${folder} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "ab.json:2:")
    message(FATAL_ERROR "a spoiled ab.json: exit ${rc}, expected 2 and its line:\n${err}")
endif()
