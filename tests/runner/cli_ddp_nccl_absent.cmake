# backend nccl on a build without NCCL: refused at run start with the reason, exit 2, nothing run
# (no rank folder made).
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${RUNNER} run ${DATA}/configs/ddp-nccl.yaml --out ${WORK}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT err MATCHES "distributed: backend nccl: this build has no NCCL" OR EXISTS ${WORK}/rank-0)
    message(FATAL_ERROR "exit ${rc} (expected 2)\n${out}\n${err}")
endif()
