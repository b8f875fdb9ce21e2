# synctax-run run --seed takes the whole range its help gives (UINT: 0 to 2^64 - 1), and the
# results file keeps it and reads back; a negative seed is refused as out of range, saying what was
# found, where once -1 became 18446744073709551615 and seeds from 2^63 were refused.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/tiny.yaml "synctax: 1
name: tiny-seed
device: cpu
steps_per_block: 2
blocks: 2
min_blocks: 2
warmup: {min_steps: 1, max_steps: 2}
models: [{name: tiny_mlp, batch: 2, width: 8}]
styles: [none, item]
")

foreach(bad IN ITEMS "-1|-1 is out of range; expected 0 to 18446744073709551615"
        "18446744073709551616|18446744073709551616 is out of range; expected 0 to 18446744073709551615"
        "1e3|expected an integer, found '1e3'")
    string(REGEX MATCH "^([^|]*)[|](.*)$" matched "${bad}")
    set(seed ${CMAKE_MATCH_1})
    set(expected "--seed: ${CMAKE_MATCH_2}\n")
    execute_process(COMMAND ${RUNNER} run ${WORK}/tiny.yaml --seed ${seed} --out ${WORK}/refused
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(FIND "${err}" "${expected}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1 OR EXISTS ${WORK}/refused)
        message(FATAL_ERROR "--seed ${seed}: exit ${rc}, expected 2 and '${expected}'\n${out}${err}")
    endif()
endforeach()

foreach(seed 9223372036854775808 18446744073709551615)
    execute_process(COMMAND ${RUNNER} run ${WORK}/tiny.yaml --seed ${seed} --out ${WORK}/run-${seed}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "--seed ${seed}: exit ${rc}\n${out}${err}")
    endif()
    file(READ ${WORK}/run-${seed}/results.json json)
    string(JSON written GET "${json}" config seed)
    if(NOT written STREQUAL "${seed}")
        message(FATAL_ERROR "--seed ${seed}: results.json has seed ${written}")
    endif()
    # Read back by the results loader, which checks the config as a config file.
    execute_process(COMMAND ${RUNNER} diff ${WORK}/run-${seed}/results.json ${WORK}/run-${seed}/results.json
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT out MATCHES "no differences")
        message(FATAL_ERROR "diff of the --seed ${seed} run with itself: exit ${rc}\n${out}${err}")
    endif()
endforeach()
