# synctax-run trace prints, after each file's tables, what each logging style would cost its loop
# (the what-if) and writes the same rows into trace-summary.json's `whatif`: on resnet50-none
# (tests/data/traces/torch-2.11-h200, no sync in its steps) with --host-work-us, --step-ms and
# --sync-us, and on a trace whose steps launch nothing, where the block says why it is absent.
set(h200 ${DATA}/traces/torch-2.11-h200)
include(${CMAKE_CURRENT_LIST_DIR}/trace_run.cmake)
run_trace(${h200}/resnet50-none.pt.trace.json.gz --host-work-us 5000 --step-ms 33.8 --sync-us 8 --out ${WORK})

# Every line of the output fits 80 columns, except the file's path, printed as given (its length is
# the checkout's).
string(REPLACE "\n" ";" lines "${out}")
foreach(line IN LISTS lines)
    string(LENGTH "${line}" width)
    if(width GREATER 80 AND NOT line STREQUAL "${h200}/resnet50-none.pt.trace.json.gz")
        message(FATAL_ERROR "a line of ${width} columns:\n${line}")
    endif()
endforeach()
# The title with the host work asked for, the header, the loop as recorded first and marked.
foreach(expected IN ITEMS
    "What if you logged differently (each style replayed on this loop, steady state,\n  +5.00 ms of host work per step):\n"
    "  style                          every   step ms  tax vs none [range]\n"
    "--------------------------------------------------------------------------\n> as_recorded   "
    "\nuncertainty: ")
    string(FIND "${out}" "${expected}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the output lacks '${expected}':\n${out}")
    endif()
endforeach()
# The model line, wherever the 80 columns break it.
string(REGEX REPLACE "[ \n]+" " " flat "${out}")
string(FIND "${flat}" "fitted to the unprofiled step of 33.80 ms; GPU ops 1.44 us apart where queued, as recorded; sync 8 us" at)
if(at EQUAL -1)
    message(FATAL_ERROR "the model line lacks the fit to 33.80 ms, the trace's GPU gap and the sync of 8 us:\n${out}")
endif()

# The summary holds the same rows: the options' values, as_recorded first, then every catalog style
# in the table's order, each once, `none` at no tax.
file(READ ${WORK}/trace-summary.json json)
string(JSON hostWork GET "${json}" whatif host_work_us)
string(JSON how GET "${json}" whatif calibration how)
string(JSON gapUs GET "${json}" whatif calibration gpu_gap_us)
if(NOT gapUs MATCHES "^1\\.(44|439)")
    message(FATAL_ERROR "whatif: gpu_gap_us ${gapUs}, not the trace's 1.44 us between queued ops")
endif()
string(JSON syncUs GET "${json}" whatif sync_us)
string(JSON absent TYPE "${json}" whatif absent_reason)
if(NOT hostWork EQUAL 5000 OR NOT syncUs EQUAL 8 OR NOT how MATCHES "fitted to the unprofiled step of 33.80 ms"
        OR NOT absent STREQUAL "NULL")
    message(FATAL_ERROR "whatif: host_work_us ${hostWork}, sync_us ${syncUs}, how '${how}', absent_reason ${absent}")
endif()
string(JSON nrows LENGTH "${json}" whatif rows)
if(nrows LESS 2)
    message(FATAL_ERROR "whatif: ${nrows} rows")
endif()
math(EXPR last "${nrows} - 1")
set(previous -1)
foreach(i RANGE ${last})
    string(JSON style GET "${json}" whatif rows ${i} style)
    if(i EQUAL 0 AND NOT style STREQUAL "as_recorded")
        message(FATAL_ERROR "whatif row 0 is '${style}', expected as_recorded")
    endif()
    # The style's row in the table: its name at the line's start (after the marker's two columns).
    string(REGEX MATCH "\n[> ] ${style} +[0-9]*  +[0-9.]+ +[+-][0-9.]+%( \\[[+-][0-9.]+, [+-][0-9.]+\\])?\n" row "${out}")
    string(FIND "${out}" "${row}" at)
    if(NOT row OR at LESS_EQUAL previous)
        message(FATAL_ERROR "row ${i} (${style}) is not in the table, or out of order:\n${out}")
    endif()
    set(previous ${at})
    if(style STREQUAL "none")
        string(JSON tax GET "${json}" whatif rows ${i} tax_pct)
        if(NOT tax EQUAL 0)
            message(FATAL_ERROR "none's tax against itself: ${tax}")
        endif()
        if(NOT row MATCHES "\\+0\\.0%")
            message(FATAL_ERROR "none's row: ${row}")
        endif()
    endif()
endforeach()

# A trace whose steps launch no GPU work: the same exit code, and the block says why.
run_trace(${DATA}/traces/bad/no-gpu-events.json --out ${WORK})
set(expected "What if you logged differently: not available (its steps launch no GPU work)\n")
string(FIND "${out}" "${expected}" at)
if(at EQUAL -1)
    message(FATAL_ERROR "the output lacks '${expected}':\n${out}")
endif()
file(READ ${WORK}/trace-summary.json json)
string(JSON reason GET "${json}" whatif absent_reason)
string(JSON nrows LENGTH "${json}" whatif rows)
if(NOT reason STREQUAL "its steps launch no GPU work" OR NOT nrows EQUAL 0)
    message(FATAL_ERROR "whatif of a trace without launches: absent_reason '${reason}', ${nrows} rows")
endif()

# With the host work before the sync (a loop that logs between its step and its .item()), the
# title says so and the summary names the place.
execute_process(COMMAND ${RUNNER} trace ${DATA}/traces/torch-2.11-h200/whatif/resnet50-item.pt.trace.json.gz
        --host-work-us 15000 --host-work-at before-sync --out ${WORK}/before-sync
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
string(REGEX REPLACE "[ \n]+" " " flat "${out}")
if(NOT rc EQUAL 0 OR NOT flat MATCHES "\\+15.00 ms of host work per step before its sync")
    message(FATAL_ERROR "trace --host-work-at before-sync: exit ${rc}\n${out}${err}")
endif()
file(READ ${WORK}/before-sync/trace-summary.json summary)
string(JSON at GET "${summary}" whatif host_work_at)
if(NOT at STREQUAL "before_sync")
    message(FATAL_ERROR "trace-summary.json's whatif.host_work_at is '${at}', expected before_sync")
endif()

# With the loop's phases timed unprofiled (--phases-ms), the trace's forward, backward and optimizer
# are mapped onto them: the model line gives both, and the step time given beside them is said on its
# own line as ignored.
run_trace(${h200}/whatif/resnet50-none.pt.trace.json.gz --phases-ms 9.3,13.3,1.1 --step-ms 33 --out ${WORK}/phases)
string(REGEX REPLACE "[ \n]+" " " flat "${out}")
if(NOT flat MATCHES "mapped onto the unprofiled 9\\.3, 13\\.3, 1\\.1 ms;"
        OR NOT out MATCHES "\nignored: the step time given \\(33\\.00 ms\\): the phase times take its place\n")
    message(FATAL_ERROR "trace --phases-ms: the model line lacks the phases:\n${out}")
endif()
file(READ ${WORK}/phases/trace-summary.json summary)
string(JSON how GET "${summary}" whatif calibration how)
if(NOT how MATCHES "^the trace's forward, backward and optimizer \\([0-9.]+, [0-9.]+, [0-9.]+ ms as recorded\\) mapped")
    message(FATAL_ERROR "trace-summary.json's calibration: '${how}'")
endif()
# A trace without step markers has no phases of one step: they are not used, and it says why.
run_trace(${h200}/tiny_mlp-item-nostack.json --phases-ms 1,2,3)
string(REGEX REPLACE "[ \n]+" " " flat "${out}")
if(NOT flat MATCHES "ignored: the phase times given: the trace marks no steps")
    message(FATAL_ERROR "trace --phases-ms on a trace without steps:\n${out}")
endif()
