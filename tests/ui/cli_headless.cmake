# synctax where there is no display at all: run with DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM
# unset (the test's command unsets them), as over ssh or in CI. The modes that open no window work;
# the window mode says why it cannot start, in one line, and exits 2 instead of aborting.
foreach(var DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM)
    if(DEFINED ENV{${var}})
        message(FATAL_ERROR "${var} is set; this test must run without a display")
    endif()
endforeach()

execute_process(COMMAND ${APP} --help RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT out MATCHES "--export-charts")
    message(FATAL_ERROR "synctax --help without a display exited ${rc}: ${out}${err}")
endif()

execute_process(COMMAND ${APP} --version RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT out MATCHES "SyncTax")
    message(FATAL_ERROR "synctax --version without a display exited ${rc}: ${out}${err}")
endif()

file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${APP} --export-charts ${WORK} ${RESULTS}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/overhead.png OR NOT EXISTS ${WORK}/report.pdf)
    message(FATAL_ERROR "synctax --export-charts without a display exited ${rc}: ${out}${err}")
endif()
file(REMOVE_RECURSE ${WORK})

execute_process(COMMAND ${APP} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
string(STRIP "${err}" line)
if(NOT rc EQUAL 2 OR NOT out STREQUAL "" OR NOT line MATCHES "^synctax: no display" OR line MATCHES "\n")
    message(FATAL_ERROR "the window mode without a display should say so in one line and exit 2; "
                        "got ${rc}: ${out}${err}")
endif()
