# synctax --teach FILE --screenshot PNG: the Teach window replays the file's recorded step (a trace's,
# or a run's captured one) and says so; a file without one exits 2 with the reason and no picture.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(h200 ${DATA}/traces/torch-2.11-h200)
foreach(case "trace;${h200}/resnet50-none.pt.trace.json.gz;replay of resnet50-none.pt.trace.json.gz, 806 launches"
        "results;${DATA}/results/h200/seed-with-capture.json.gz;replay of seed-with-capture.json.gz \\(tiny_mlp/eager\\)")
    list(POP_FRONT case name file expected)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} --teach ${file}
        --screenshot ${WORK}/${name}.png RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
    if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/${name}.png OR NOT out MATCHES "synctax: Teach: ${expected}")
        message(FATAL_ERROR "--teach ${name}: expected exit 0, a picture and 'Teach: ${expected}'; "
                            "got exit ${rc}: ${out}${err}")
    endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} --teach
    ${DATA}/results/ddp-cpu.json --screenshot ${WORK}/none.png
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 2 OR NOT err MATCHES "ddp-cpu.json: no group of this run has a captured launch sequence"
   OR EXISTS ${WORK}/none.png)
    message(FATAL_ERROR "--teach with a run without a captured step should exit 2 saying so; got ${rc}: ${out}${err}")
endif()
file(REMOVE_RECURSE ${WORK})
