# synctax --export-charts DIR RESULTS.json, offscreen, as a script or a Makefile would call it.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} --export-charts ${WORK} ${RESULTS}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "synctax --export-charts exited ${rc}: ${out}${err}")
endif()
foreach(f overhead.png overhead.svg overhead.pdf step-time.png queue.pdf report.pdf results.json summary.csv)
    if(NOT EXISTS ${WORK}/${f})
        message(FATAL_ERROR "missing ${f} after export: ${out}")
    endif()
endforeach()
file(READ ${WORK}/report.pdf head LIMIT 4 HEX)
if(NOT head STREQUAL "25504446") # %PDF
    message(FATAL_ERROR "report.pdf is not a PDF")
endif()
# A malformed results file: exit 2 with the reason, nothing exported.
file(REMOVE_RECURSE ${WORK}-bad)
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} --export-charts ${WORK}-bad ${BAD}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad-config.json")
    message(FATAL_ERROR "a malformed results file should exit 2 naming the file; got ${rc}: ${err}")
endif()
if(EXISTS ${WORK}-bad/report.pdf)
    message(FATAL_ERROR "nothing should be exported from a malformed file")
endif()
