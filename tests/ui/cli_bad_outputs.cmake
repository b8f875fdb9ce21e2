# synctax RESULTS.json with a window size or an output it cannot honour: each stops before the window
# renders, with exit 2 and a line that names the option or the path and why, and writes nothing.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(expect_refusal name pattern)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${RESULTS} ${ARGN}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    file(GLOB written ${WORK}/*)
    if(NOT rc EQUAL 2 OR NOT err MATCHES "${pattern}" OR out MATCHES "saved" OR written)
        message(FATAL_ERROR "${name}: expected exit 2, a message matching '${pattern}' and no file; "
                            "got exit ${rc}, files '${written}': ${out}${err}")
    endif()
endfunction()

# Sizes: a picture beyond what can be allocated is refused, not attempted; one too small says the minimum.
expect_refusal("--size 100000x100000" "--size 100000x100000: .*at most 16384x16384"
    --size 100000x100000 --screenshot ${WORK}/huge.png)
expect_refusal("--size 200x150" "--size 200x150: .*at least 200x200" --size 200x150 --screenshot ${WORK}/small.png)
expect_refusal("--size abc" "--size abc: expected WIDTHxHEIGHT" --size abc --screenshot ${WORK}/abc.png)
expect_refusal("--size 1600x" "--size 1600x: expected WIDTHxHEIGHT" --size 1600x --screenshot ${WORK}/abc.png)

# Outputs: the path and the reason, before any picture is taken.
expect_refusal("--results-out in a missing folder" "cannot write '/proc/nope/r.json': the folder /proc/nope does not exist"
    --results-out /proc/nope/r.json --screenshot ${WORK}/shot.png)
expect_refusal("--screenshot with no image suffix" "cannot write '${WORK}/x.txt': .*\\.png"
    --screenshot ${WORK}/x.txt)
expect_refusal("--screenshot in a missing folder" "cannot write '/proc/nope/x.png': the folder /proc/nope does not exist"
    --screenshot /proc/nope/x.png)
file(MAKE_DIRECTORY ${WORK}-folder.png)
expect_refusal("--screenshot onto a folder" "cannot write '${WORK}-folder.png': it is a folder"
    --screenshot ${WORK}-folder.png)
file(REMOVE_RECURSE ${WORK}-folder.png)
expect_refusal("--export-charts under a missing folder" "cannot write into '/proc/nope/charts': "
    --export-charts /proc/nope/charts)

# --follow: one probe run folder, a file or two paths said as such.
expect_refusal("--follow a file" "--follow: .*seed-app.json is a file; expected a probe run folder"
    --follow --screenshot ${WORK}/follow.png)
expect_refusal("--follow two paths" "--follow: expected one probe run folder, got 2"
    ${WORK} --follow --screenshot ${WORK}/follow.png)

# A size at the bounds is taken.
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${APP} ${RESULTS} --size 200x200
    --screenshot ${WORK}/smallest.png RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/smallest.png)
    message(FATAL_ERROR "--size 200x200 should be taken; got exit ${rc}: ${out}${err}")
endif()
file(REMOVE_RECURSE ${WORK})
