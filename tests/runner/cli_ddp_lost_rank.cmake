# A rank lost mid-run ends the run without a hang, with a message that names it; rank 0 writes what
# it measured. CASE kill: the test hook SYNCTAX_TEST_KILL_RANK makes rank 1 SIGKILL itself at its
# 30th step (ddp-cpu). CASE hang: SYNCTAX_TEST_HANG_RANK makes it sleep there, its connections
# open (configs/ddp-hang.yaml, timeout_s 2): rank 0 gives up in the all-reduce after 2 s, then the
# launcher kills rank 1.
if(CASE STREQUAL "kill")
    set(hook SYNCTAX_TEST_KILL_RANK=1:30)
    set(config ddp-cpu)
    set(said "rank 1 killed by signal 9")
    set(expected killed)
else()
    set(hook SYNCTAX_TEST_HANG_RANK=1:30)
    set(config ${DATA}/configs/ddp-hang.yaml)
    set(said "rank 1 still running 2 s \\(the collective timeout\\) after another rank ended; killed")
    set(expected hung)
endif()
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${hook} ${RUNNER} run ${config} --out ${WORK}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 90)
if(NOT rc EQUAL 1)
    message(FATAL_ERROR "exit ${rc} (expected 1)\n${out}\n${err}")
endif()
if(NOT err MATCHES "${said}")
    message(FATAL_ERROR "the message does not name the rank that was lost:\n${err}")
endif()
if(NOT EXISTS ${WORK}/results.json)
    message(FATAL_ERROR "no results.json: no rank wrote its results\n${err}")
endif()
file(READ ${WORK}/results.json json)
string(JSON status0 GET "${json}" distributed ranks 0 status)
string(JSON status1 GET "${json}" distributed ranks 1 status)
string(JSON notes GET "${json}" notes)
if(NOT status0 STREQUAL "failed" OR NOT status1 STREQUAL "${expected}" OR NOT notes MATCHES "the ranks lost each other"
   OR NOT EXISTS ${WORK}/rank-0/results.json)
    message(FATAL_ERROR "rank 0: ${status0}, rank 1: ${status1} (expected ${expected}); notes: ${notes}")
endif()
