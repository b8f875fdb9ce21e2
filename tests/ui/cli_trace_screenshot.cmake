# synctax TRACE... --screenshot PNG, offscreen: Kineto traces on the command line open as the
# ranks of one job in the Trace view, and the picture waits for the load to end.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(h200 ${DATA}/traces/torch-2.11-h200)
file(GLOB ranks ${h200}/ddp-gloo-2ranks/*.pt.trace.json.gz)
foreach(case "one;${h200}/small_resnet-mixed.pt.trace.json.gz" "ranks;${ranks}")
    list(POP_FRONT case name)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${case}
        --screenshot ${WORK}/${name}.png RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/${name}.png)
        message(FATAL_ERROR "${name}: exit ${rc}, no ${WORK}/${name}.png: ${out}${err}")
    endif()
    file(READ ${WORK}/${name}.png head LIMIT 4 HEX)
    if(NOT head STREQUAL "89504e47") # \x89PNG
        message(FATAL_ERROR "${name}.png is not a PNG")
    endif()
endforeach()
# A gzip that does not inflate is a trace by its magic: the reader's error, exit 2, no picture.
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP}
    ${DATA}/traces/bad/corrupt.json.gz --screenshot ${WORK}/bad.png
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 2 OR NOT err MATCHES "corrupt.json.gz" OR EXISTS ${WORK}/bad.png)
    message(FATAL_ERROR "a corrupt trace should exit 2 naming the file, with no picture; got ${rc}: ${err}")
endif()
# The what-if's phases from the command line: taken as the field takes them, and refused with the
# reader's words (exit 2, no picture); only with traces.
set(phased ${h200}/phases/resnet50-none.pt.trace.json.gz)
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${phased} --phases-ms 11.86,13.72,1.46
    --screenshot ${WORK}/phases.png RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/phases.png)
    message(FATAL_ERROR "--phases-ms 11.86,13.72,1.46: exit ${rc}, no ${WORK}/phases.png: ${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${phased} --phases-ms 11.86,x,1.46
    --screenshot ${WORK}/phases-bad.png RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--phases-ms: expected a number, found 'x'" OR EXISTS ${WORK}/phases-bad.png)
    message(FATAL_ERROR "--phases-ms 11.86,x,1.46 should exit 2 with the reader's words, no picture; got ${rc}: ${err}")
endif()
# --phases-file: the blocks' timings fill the field (the what-if says it replayed them); a line it
# cannot read stops with the file, line and column.
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${phased}
    --phases-file ${h200}/phases/measurements/resnet50-idle-blocks.csv --screenshot ${WORK}/phases-file.png
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/phases-file.png)
    message(FATAL_ERROR "--phases-file: exit ${rc}, no ${WORK}/phases-file.png: ${out}${err}")
endif()
file(WRITE ${WORK}/bad-phases.csv "forward,backward,optimizer\n11,13,1\n11,13\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${phased}
    --phases-file ${WORK}/bad-phases.csv --screenshot ${WORK}/phases-file-bad.png
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad-phases.csv:3:1: expected three numbers F,B,O" OR EXISTS ${WORK}/phases-file-bad.png)
    message(FATAL_ERROR "--phases-file with a bad line should exit 2 with its place, no picture; got ${rc}: ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${DATA}/results/ddp-cpu.json
    --phases-ms 1,2,3 --screenshot ${WORK}/phases-results.png
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 2 OR NOT err MATCHES "only with PyTorch-profiler traces" OR EXISTS ${WORK}/phases-results.png)
    message(FATAL_ERROR "--phases-ms with a results file should exit 2; got ${rc}: ${err}")
endif()
file(REMOVE_RECURSE ${WORK})
