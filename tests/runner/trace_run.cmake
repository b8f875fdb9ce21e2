# Included by the cli_trace_*.cmake tests: runs `synctax-run trace ARGS...` into a fresh WORK and
# stops the test unless it exits 0; leaves its stdout in `out` and its stderr in `err`.
macro(run_trace)
    file(REMOVE_RECURSE ${WORK})
    execute_process(COMMAND ${RUNNER} trace ${ARGN}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "exit ${rc}\n${out}\n${err}")
    endif()
endmacro()
