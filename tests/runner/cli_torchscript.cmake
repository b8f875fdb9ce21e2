# synctax-run with the user's own models (TorchScript files written by Debian's python3-torch,
# tests/data/torchscript/): a cpu-quick-sized run of a scripted MLP, a traced CNN and a two-input
# regression module completes every style, its results name each file and read back as a config;
# a bad model is refused before anything runs, by `validate` (the LibTorch-free runner hands it to
# the engine) and by `run`, with the file, line and column of the key and exit code 2.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${RUNNER} run ${DATA}/configs/torchscript-models.yaml --out ${WORK}/run
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "exit ${rc}\n${out}\n${err}")
endif()
file(READ ${WORK}/run/results.json json)
string(JSON ncells LENGTH "${json}" cells)
if(NOT ncells EQUAL 39)
    message(FATAL_ERROR "${ncells} cells (expected 3 models x (12 styles + aa_control))")
endif()
math(EXPR last "${ncells} - 1")
set(models "")
foreach(i RANGE ${last})
    string(JSON status GET "${json}" cells ${i} status)
    string(JSON model GET "${json}" cells ${i} model)
    string(JSON style GET "${json}" cells ${i} style)
    string(JSON steps GET "${json}" cells ${i} steps_measured)
    if(NOT status STREQUAL "ok" OR steps LESS 1)
        message(FATAL_ERROR "cell ${model}/${style}: status ${status}, ${steps} steps")
    endif()
    list(APPEND models ${model})
endforeach()
list(REMOVE_DUPLICATES models)
if(NOT models STREQUAL "mlp;traced_cnn;tokens")
    message(FATAL_ERROR "models ${models}, expected mlp (the file's name), traced_cnn and tokens")
endif()
# The config as run names each file by its absolute path, with its inputs and target.
string(JSON path GET "${json}" config models 2 torchscript)
string(JSON dtype GET "${json}" config models 2 inputs 0 dtype)
string(JSON high GET "${json}" config models 2 inputs 0 high)
string(JSON mse GET "${json}" config models 2 target mse)
if(NOT path STREQUAL "${DATA}/torchscript/tokens-and-features.pt" OR NOT dtype STREQUAL "int64" OR NOT high EQUAL 100
        OR NOT mse STREQUAL "[ 4 ]")
    message(FATAL_ERROR "config models[2]: torchscript '${path}', inputs[0] ${dtype} high ${high}, target mse ${mse}")
endif()
# The results open again without the module (another machine): the config is not checked for it.
file(COPY ${WORK}/run/results.json DESTINATION ${WORK}/elsewhere)
string(REPLACE "${DATA}/torchscript/" "${WORK}/gone/" moved "${json}")
file(WRITE ${WORK}/elsewhere/results.json "${moved}")
execute_process(COMMAND ${RUNNER} diff ${WORK}/run/results.json ${WORK}/elsewhere/results.json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "results whose modules are elsewhere do not open: exit ${rc}\n${out}\n${err}")
endif()

# A bad model: validate and run refuse it, located, before anything runs.
set(bad ${DATA}/bad-models/input-wrong-shape.yaml)
foreach(command "validate;${bad}" "run;${bad};--out;${WORK}/bad")
    execute_process(COMMAND ${RUNNER} ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    string(FIND "${err}" "${bad}:5:12: input: the forward does not take the declared input ([2, 16] float32)" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "${command} of a bad model: exit ${rc}\n${out}\n${err}")
    endif()
endforeach()
if(EXISTS ${WORK}/bad)
    message(FATAL_ERROR "run of a bad model made its output folder")
endif()
