# synctax DIR on a followed folder from the command line. --screenshot on the folder of a job that was
# killed (no end.json, its process gone on this host): it reads as crashed, and the picture is taken.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(COPY ${DATA}/probe/tiny_mlp-h0-h200/ DESTINATION ${WORK}/run)
file(REMOVE ${WORK}/run/end.json)
execute_process(COMMAND sh -c "echo $$" OUTPUT_VARIABLE gone OUTPUT_STRIP_TRAILING_WHITESPACE) # a pid now free
cmake_host_system_information(RESULT host QUERY HOSTNAME)
file(READ ${WORK}/run/probe.json probe)
string(JSON probe SET "${probe}" pid ${gone})
string(JSON probe SET "${probe}" hostname "\"${host}\"")
file(WRITE ${WORK}/run/probe.json "${probe}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${WORK}/run
    --screenshot ${WORK}/crashed.png RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/crashed.png OR NOT out MATCHES "crashed")
    message(FATAL_ERROR "a crashed job's folder: exit ${rc}, want a picture taken once it reads as crashed: ${out}${err}")
endif()
file(REMOVE_RECURSE ${WORK})
# Follow times out of a timer's range, or not numbers: refused with the option and the value, exit 2.
file(MAKE_DIRECTORY ${WORK})
foreach(bad inf nan -3 1e12 x)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${DATA}/probe/tiny_mlp-h0-h200
        --follow-seconds ${bad} --screenshot ${WORK}/bad.png RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
    if(NOT rc EQUAL 2 OR NOT err MATCHES "--follow-seconds: expected a number of seconds above 0" OR EXISTS ${WORK}/bad.png)
        message(FATAL_ERROR "--follow-seconds ${bad} should exit 2 naming the option; got ${rc}: ${err}")
    endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
# A folder that is no probe run folder (empty, or with a run's files but no probe.json): said as
# such by the app and by synctax-run trace, naming what a run folder holds, exit 2.
file(MAKE_DIRECTORY ${WORK}/empty ${WORK}/cut)
file(WRITE ${WORK}/cut/steps.jsonl "")
foreach(case "empty;it is empty" "cut;it holds steps.jsonl, but a run's probe.json is missing")
    list(POP_FRONT case name)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${WORK}/${name}
        --screenshot ${WORK}/${name}.png RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
    execute_process(COMMAND ${RUNNER} trace ${WORK}/${name} RESULT_VARIABLE rc2 ERROR_VARIABLE err2 TIMEOUT 60)
    foreach(got "${rc};${err}" "${rc2};${err2}")
        list(POP_FRONT got code)
        if(NOT code EQUAL 2 OR NOT got MATCHES "a folder without probe.json, so not a probe run folder \\(${case}\\)"
           OR NOT got MATCHES "python3 -m synctax_probe --out DIR writes")
            message(FATAL_ERROR "the ${name} folder should exit 2 saying it is no run folder; got ${code}: ${got}")
        endif()
    endforeach()
endforeach()
file(REMOVE_RECURSE ${WORK})
