# Input that used to be taken silently, or refused in words that did not say what was wrong: each is
# refused with exit 2 and a message that names the option or the file's line, and nothing is written.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(TINY ${DATA}/configs/tiny-cpu.yaml)
set(TRACE ${DATA}/traces/torch-2.11-h200/tiny_mlp-item-nostack.json)
string(ASCII 27 ESC)

# refused(NAME EXPECTED COMMAND...): exit 2, EXPECTED in stderr, nothing on stdout.
function(refused name expected)
    execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out
        ERROR_VARIABLE err TIMEOUT 60)
    string(FIND "${err}" "${expected}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1 OR NOT out STREQUAL "")
        message(FATAL_ERROR "${name}: exit ${rc}; expected 2 and '${expected}'\n${out}\n${err}")
    endif()
    string(FIND "${err}" "${ESC}" raw)
    if(NOT raw EQUAL -1)
        message(FATAL_ERROR "${name}: an escape byte written raw to the terminal\n${err}")
    endif()
    set(err "${err}" PARENT_SCOPE)
endfunction()

# Empty values are not "use the default" (written out: a list drops an empty argument).
foreach(case IN ITEMS "run|--out|--out: empty; expected a folder" "trace|--out|--out: empty; expected a folder"
        "run|--device|--device: empty; expected auto, cpu, cuda or cuda:N")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 command)
    list(GET parts 1 option)
    list(GET parts 2 expected)
    set(input ${TINY})
    if(command STREQUAL "trace")
        set(input ${TRACE})
    endif()
    execute_process(COMMAND ${RUNNER} ${command} ${input} ${option} "" WORKING_DIRECTORY ${WORK}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    string(FIND "${err}" "${expected}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1)
        message(FATAL_ERROR "${command} ${option} '': exit ${rc}; expected 2 and '${expected}'\n${out}\n${err}")
    endif()
endforeach()
file(GLOB written ${WORK}/*)
if(written)
    message(FATAL_ERROR "refused runs wrote ${written}")
endif()
refused("trace --host-work-at without --host-work-us" "--host-work-at: only with --host-work-us" ${RUNNER} trace
    ${TRACE} --host-work-at before-sync)

# Options that are not numbers say so, without CLI11's range.
foreach(option --processes --ranks)
    refused("run ${option} abc" "${option}: expected an integer, found 'abc'" ${RUNNER} run ${TINY} ${option} abc)
    string(FIND "${err}" "not in range" range)
    if(NOT range EQUAL -1)
        message(FATAL_ERROR "${option} abc: CLI11's words\n${err}")
    endif()
endforeach()
refused("trace --timeout abc" "--timeout: expected a number, found 'abc'" ${RUNNER} trace --watch ${WORK}
    --timeout abc)
string(LENGTH "${err}" length)
if(length GREATER 200)
    message(FATAL_ERROR "--timeout abc: ${length} characters\n${err}")
endif()

# A config: one YAML document, min_blocks within blocks, a sink file that can be opened.
file(READ ${TINY} tiny)
file(WRITE ${WORK}/two-documents.yaml "${tiny}---\n${tiny}")
refused("two YAML documents" "two-documents.yaml:17:1: a second YAML document" ${RUNNER} validate
    ${WORK}/two-documents.yaml)
string(REPLACE "min_blocks: 3" "min_blocks: 50" minBlocks "${tiny}")
file(WRITE ${WORK}/min-blocks.yaml "${minBlocks}")
refused("min_blocks > blocks" "min-blocks.yaml:8:13: min_blocks: 50 is more than blocks (6)" ${RUNNER} validate
    ${WORK}/min-blocks.yaml)
file(WRITE ${WORK}/sink.yaml "${tiny}sink: file:/proc/nope/x.log\n")
refused("an unwritable sink" "sink.yaml:15:7: sink: cannot append to '/proc/nope/x.log'" ${RUNNER} validate
    ${WORK}/sink.yaml)
refused("a run with an unwritable sink" "sink.yaml:15:7: sink: cannot append" ${RUNNER} run ${WORK}/sink.yaml
    --out ${WORK}/sink-run)
if(EXISTS ${WORK}/sink-run)
    message(FATAL_ERROR "a run refused for its sink left ${WORK}/sink-run")
endif()

# Files that are not what they claim, said as what they are.
execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink loop ${WORK}/loop)
refused("a symlink loop as a config" "loop: cannot open the file for reading (Too many levels of symbolic links)"
    ${RUNNER} validate ${WORK}/loop)
refused("a symlink loop as a phases file" "--phases-file: ${WORK}/loop: Too many levels of symbolic links"
    ${RUNNER} trace ${TRACE} --phases-file ${WORK}/loop)
file(WRITE ${WORK}/phases.txt "1,2,3\n${ESC}[2J,2,3\n")
refused("an escape in a phases file" "phases.txt:2:1: expected a number, found '\\x1b[2J'"
    ${RUNNER} trace ${TRACE} --phases-file ${WORK}/phases.txt)
string(REPEAT "[" 50000 open)
string(REPEAT "]" 50000 close)
file(WRITE ${WORK}/deep.yaml "${open}${close}\n")
refused("a 50000-deep YAML" "deep.yaml:2:1: YAML syntax: nested deeper than" ${RUNNER} validate ${WORK}/deep.yaml)

# A trace whose names hold control bytes prints them escaped.
file(READ ${TRACE} trace)
string(REPLACE "\"aten::item\"" "\"aten::\\u001b[31mitem\\r\"" trace "${trace}")
string(REPLACE "\"aten::_local_scalar_dense\"" "\"dense\\u001b[2J\"" trace "${trace}")
file(WRITE ${WORK}/names.json "${trace}")
execute_process(COMMAND ${RUNNER} trace ${WORK}/names.json RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}${err}" "${ESC}" raw)
string(FIND "${out}" "dense\\x1b[2J" escaped)
if(NOT rc EQUAL 0 OR NOT raw EQUAL -1 OR escaped EQUAL -1)
    message(FATAL_ERROR "a trace with control bytes in its names: exit ${rc}; expected them escaped\n${out}\n${err}")
endif()

# --kineto keeps nothing on a build or a device without the profiled capture: refused, not ignored.
refused("run --kineto on the CPU" "nothing would be kept; nothing was run" ${RUNNER} run ${TINY} --kineto
    ${WORK}/kineto --out ${WORK}/kineto-run)
if(EXISTS ${WORK}/kineto-run)
    message(FATAL_ERROR "a run refused for --kineto left ${WORK}/kineto-run")
endif()
